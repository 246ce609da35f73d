#include "PvaTestUtil.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/file.h>
#include <unistd.h>

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
namespace {

std::string sampleCommand(const std::string& sample, const std::filesystem::path& dir) {
  const std::string out = " --reports " + dir.string();
  if (sample == "mlp")
    return std::string(TESSERA_MLP_SAMPLE) + " --steps 32 --steps-per-run 16 --out " +
           dir.string() + out;
  if (sample == "mlp-big") // the same program with bigger batches: a comparison's "after"
    return std::string(TESSERA_MLP_SAMPLE) + " --steps 32 --steps-per-run 16 --batch 64 --out " +
           dir.string() + out;
  if (sample == "pipeline")
    return std::string(TESSERA_PIPELINE_SAMPLE) + " --micro-batches 4" + out;
  if (sample == "oom") return std::string(TESSERA_OOM_SAMPLE) + out;
  FAIL("no sample named " << sample);
  return {};
}

/// What made a sample's reports: its command line and its program's size and modification time.
/// A rebuilt sample writes them again.
std::string sampleStamp(const std::string& command) {
  const std::string program = command.substr(0, command.find(' '));
  const auto size = std::filesystem::file_size(program);
  const auto time = std::filesystem::last_write_time(program).time_since_epoch().count();
  return command + "\n" + std::to_string(size) + " " + std::to_string(time) + "\n";
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Holds an exclusive flock(2) on a file while alive: the suite's processes write a sample's
/// reports one at a time, and the others wait for them rather than write their own.
class FileLock {
public:
  explicit FileLock(const std::filesystem::path& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0)
      FAIL("cannot lock " << path << ": " << std::strerror(errno));
  }
  ~FileLock() { ::close(fd_); } // closing releases the lock
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

private:
  int fd_;
};

} // namespace

const std::filesystem::path& sampleReport(const std::string& sample) {
  // CTest runs every test case as a process of its own, two at a time: the reports are written
  // once per build into the build tree and shared (seven processes wrote the out-of-memory
  // sample's 1 GiB model each, 10 s of CPU a time, 16 s under the sanitizers). Tests only read
  // them; a test that changes a report changes a copy.
  static std::map<std::string, std::filesystem::path> made;
  auto it = made.find(sample);
  if (it != made.end()) return it->second;
  const std::filesystem::path root = TESSERA_SAMPLE_REPORTS_DIR;
  const auto dir = root / sample;
  const std::string command = sampleCommand(sample, dir);
  const std::string stamp = sampleStamp(command);
  std::filesystem::create_directories(root);
  FileLock lock(root / (sample + ".lock"));
  if (readFile(root / (sample + ".stamp")) != stamp) {
    std::filesystem::remove(root / (sample + ".stamp"));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const int status = runProgram(command);
    if (status != 0 && !(sample == "oom" && status == 1))
      FAIL("sample " << sample << " exited with " << status << ": " << command);
    std::ofstream(root / (sample + ".stamp"), std::ios::binary) << stamp; // written last: complete
  }
  return made.emplace(sample, dir / "profile.pop").first->second;
}
#endif

} // namespace test
