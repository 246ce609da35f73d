// pva::validateJob (and openJob, which runs the same check): a job folder's reports must belong
// to one job. The job is made of one RemoteSum report copied into instance_<i>/ with its meta's
// place in the job (format 1.5's instance_index, num_instances, replica_offset, total_replicas)
// rewritten, so every kind of mismatch can be made; a real poprun job is read by the
// distributed tests and the viewer's job tests.
#include "PvaTestUtil.hpp"
#include "common/RawDb.hpp"

#include <catch2/catch.hpp>
#include <pva/Job.hpp>

namespace fs = std::filesystem;

namespace {

struct Place {
  unsigned index, count, offset, total;
};

/// A job folder whose instance_<i>/profile.pop is `report` placed as places[i] says.
fs::path makeJob(const test::ScratchDir& dir, const fs::path& report,
                 const std::vector<Place>& places) {
  const fs::path job = dir / "job";
  for (std::size_t i = 0; i < places.size(); ++i) {
    const fs::path in = job / ("instance_" + std::to_string(i));
    fs::create_directories(in);
    fs::copy_file(report, in / "profile.pop");
    const Place& p = places[i];
    auto set = [](const char* key, unsigned v) {
      return std::string("INSERT OR REPLACE INTO meta(key, value) VALUES('") + key + "', '" +
             std::to_string(v) + "');";
    };
    test::execSql(in / "profile.pop",
                  set("instance_index", p.index) + set("num_instances", p.count) +
                      set("replica_offset", p.offset) + set("total_replicas", p.total));
  }
  return job;
}

/// The message validateJob throws for the folder (and openJob throws the same).
std::string mismatch(const fs::path& job) {
  std::string message;
  try {
    pva::validateJob(job.string());
  } catch (const pva::InvalidReportError& e) {
    message = e.what();
  }
  try {
    pva::openJob(job.string());
    FAIL("openJob accepted a folder validateJob refused: " << message);
  } catch (const pva::InvalidReportError& e) {
    CHECK(std::string(e.what()) == message);
  }
  return message;
}

} // namespace

TEST_CASE("validateJob accepts the reports of one job", "[pva][job]") {
  test::RemoteSumReport r;
  test::ScratchDir dir;
  REQUIRE(r.report.compilation().target().numReplicas() == 1);
  const fs::path job = makeJob(dir, r.dir / "profile.pop", {{0, 2, 0, 2}, {1, 2, 1, 2}});
  const auto files = pva::validateJob(job.string());
  REQUIRE(files.size() == 2);
  CHECK(files[1].index == 1);
  CHECK(fs::path(files[1].profile) == job / "instance_1" / "profile.pop");
  CHECK(pva::openJob(job.string()).totalReplicas() == 2);
}

TEST_CASE("validateJob names the folder and the mismatch", "[pva][job]") {
  test::RemoteSumReport r;
  const fs::path report = r.dir / "profile.pop";
  using Catch::Matchers::Contains;

  SECTION("instance count") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 3, 0, 3}, {1, 3, 1, 3}});
    const std::string m = mismatch(job);
    CHECK_THAT(m, Contains((job / "instance_0").string() + ": its report is instance 0 of 3"));
    CHECK_THAT(m, Contains("the report's job has 3 instance(s) but the folder holds 2"));
  }
  SECTION("an index in the wrong folder, twice") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 2, 0, 2}, {0, 2, 1, 2}});
    const std::string m = mismatch(job);
    CHECK_THAT(m, Contains((job / "instance_1").string()));
    CHECK_THAT(m, Contains("it is the report of instance 0, not of instance 1"));
    CHECK_THAT(m, Contains("instance_0/ holds instance 0 too"));
  }
  SECTION("total replicas") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 2, 0, 2}, {1, 2, 1, 4}});
    CHECK_THAT(mismatch(job), Contains("its job has 4 replicas but instance_0/'s has 2"));
  }
  SECTION("replica offsets") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 2, 0, 4}, {1, 2, 3, 4}});
    CHECK_THAT(mismatch(job), Contains("its replicas start at 3 where the instances before it "
                                       "end at 1"));
  }
  SECTION("replicas that do not add up to the job's") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 2, 0, 4}, {1, 2, 1, 4}});
    const std::string m = mismatch(job);
    CHECK_THAT(m, Contains(job.string() + ": the instances hold 2 replicas but the job has 4"));
  }
  SECTION("two reports written outside poprun") {
    test::ScratchDir dir;
    const auto job = makeJob(dir, report, {{0, 1, 0, 1}, {0, 1, 0, 1}});
    CHECK_THAT(mismatch(job), Contains("job folder of 2 instances"));
  }
}
