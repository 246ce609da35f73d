// libpva's names of its public enums are the names the report stores: read back with raw SQL
// (not libpva) and compared, and a stored name this build does not know reads as Unknown, whose
// name is "unknown".
#include "PvaTestUtil.hpp"
#include "common/RawDb.hpp"

#include <pva/pva.hpp>
#include <set>

namespace {

std::string storedText(const std::filesystem::path& pop, const std::string& sql) {
  test::RawDb db(pop);
  const auto rows = db.query(sql);
  REQUIRE(rows.size() == 1);
  return rows[0][0].bytes;
}

} // namespace

TEST_CASE("Public enum names are the stored names", "[pva][names]") {
  test::RemoteSumReport r;
  const auto pop = r.dir / "profile.pop";
  const auto t = r.report.compilation().target();
  CHECK(pva::Target::typeName(t.type()) == storedText(pop, "SELECT type FROM target"));
  CHECK(pva::Target::architectureName(t.architecture()) ==
        storedText(pop, "SELECT architecture FROM target"));
  const auto& i = r.report.instrumentationSettings();
  CHECK(pva::InstrumentationSettings::computeName(i.compute()) ==
        storedText(pop, "SELECT value FROM meta WHERE key = 'compute_instrumentation'"));
  CHECK(pva::InstrumentationSettings::externalExchangeName(i.externalExchange()) ==
        storedText(pop, "SELECT value FROM meta WHERE key = 'external_exchange_instrumentation'"));
  // Every cycle kind the first run stored is spelled as libpva spells the kind.
  test::RawDb db(pop);
  std::set<std::string> stored;
  for (const auto& row : db.query("SELECT kind FROM run_tile_cycles WHERE run = 0"))
    stored.insert(row[0].bytes);
  std::set<std::string> ours;
  for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k)
    ours.insert(pva::TileCycleTotals::kindName(static_cast<pva::TileCycleTotals::Kind>(k)));
  ours.insert("computeExcludingIdleThreads"); // since format 1.2, beside the kinds
  CHECK(ours == stored);
  CHECK(pva::ProgramVariable::accessName(pva::ProgramVariable::Access::ReadWrite) == "readWrite");
}

TEST_CASE("A stored name libpva does not know reads as Unknown, named unknown", "[pva][names]") {
  test::RemoteSumReport r;
  // A copy, so that the changed file is not one the open report reads.
  const auto pop = r.dir / "renamed.pop";
  std::filesystem::copy_file(r.dir / "profile.pop", pop);
  test::execSql(pop, "UPDATE target SET type = 'QPU', architecture = 'ipu9';"
                     "UPDATE meta SET value = 'Thread' WHERE key = 'compute_instrumentation'");
  const pva::Report report = pva::openReport(pop.string());
  const auto t = report.compilation().target();
  CHECK(t.type() == pva::Target::Type::Unknown);
  CHECK(t.architecture() == pva::Target::Architecture::Unknown);
  CHECK(pva::Target::typeName(t.type()) == "unknown");
  CHECK(pva::Target::architectureName(t.architecture()) == "unknown");
  CHECK(report.instrumentationSettings().compute() ==
        pva::InstrumentationSettings::ComputeInstrumentationLevel::Unknown);
  CHECK(pva::InstrumentationSettings::computeName(report.instrumentationSettings().compute()) ==
        "unknown");
}
