#include "PvaTestUtil.hpp"

#include <map>

namespace test {

namespace {
pva::Report runRemoteSum(const ScratchDir& dir, unsigned runs, const poplar::OptionFlags& extra) {
  RemoteSum s;
  auto options = reportOptions(dir.path());
  for (const auto& [k, v] : extra)
    options.set(k, v);
  {
    poplar::Engine engine(s.graph, s.program, options);
    engine.load(s.device);
    for (unsigned r = 0; r < runs; ++r)
      engine.run(0, "run" + std::to_string(r));
  }
  return pva::openReport((dir / "profile.pop").string(), (dir / "debug.cbor").string());
}
} // namespace

RemoteSumReport::RemoteSumReport(unsigned runs, poplar::OptionFlags extra)
    : report(runRemoteSum(dir, runs, extra)) {}

#ifdef TESSERA_MLP_SAMPLE
const std::filesystem::path& sampleReport(const std::string& sample) {
  // CTest runs test cases in parallel processes: each process writes its own copy, removed when
  // the process ends.
  static ScratchDir scratch;
  static std::map<std::string, std::filesystem::path> made;
  auto it = made.find(sample);
  if (it != made.end()) return it->second;
  const auto dir = scratch / ("sample-" + sample);
  std::filesystem::create_directories(dir);
  std::string command;
  if (sample == "mlp")
    command = std::string(TESSERA_MLP_SAMPLE) + " --steps 32 --steps-per-run 16 --out " +
              dir.string() + " --reports " + dir.string();
  else if (sample == "mlp-big") // the same program with bigger batches: a comparison's "after"
    command = std::string(TESSERA_MLP_SAMPLE) + " --steps 32 --steps-per-run 16 --batch 64 --out " +
              dir.string() + " --reports " + dir.string();
  else if (sample == "pipeline")
    command = std::string(TESSERA_PIPELINE_SAMPLE) + " --micro-batches 4 --reports " + dir.string();
  else
    command = std::string(TESSERA_OOM_SAMPLE) + " --reports " + dir.string();
  const int status = runProgram(command);
  if (status != 0 && !(sample == "oom" && status == 1))
    FAIL("sample " << sample << " exited with " << status);
  return made.emplace(sample, dir / "profile.pop").first->second;
}
#endif

} // namespace test
