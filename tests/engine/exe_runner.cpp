// Loads an executable file as a user's runner would (issue 40's reproducers): deserialize,
// Engine(std::move(exe), options), load on an IPU Model of 1 IPU x 4 tiles (2 IPUs if that is
// refused), streams "in" and "out" (where the file has them) connected to 64 floats each,
// PrintTensor to a string, run(0). CTest runs it on every file of tests/data/executables under
// `ulimit -v` 4 GiB (see CMakeLists.txt): a crash, a sanitizer report or an escaping exception
// fails it.
//
//   exe_runner FILE run               the file must load and run; prints what it printed
//   exe_runner FILE refused TEXT      loading or running must throw a poplar_error holding TEXT
//   exe_runner FILE reports-here DIR  runs with this program's autoReport.all and directory: the
//                                     report must go there, not to DIR (the file's own choice)
//
// --allow-oom adds this program's own debug.allowOutOfMemory=true. The reproducers were written
// by another build, so the package hash is not checked (a refusal for that would hide the rest).
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popops/codelets.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;

namespace {

/// A profile.pop anywhere under `dir` (the engine's name, when it has one, is a subdirectory).
bool hasReport(const std::string& dir) {
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->path().filename() == "profile.pop") return true;
  return false;
}

std::string runFile(const std::string& path, const OptionFlags& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  Executable exe = Executable::deserialize(in, false);
  Engine engine(std::move(exe), options);
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  std::vector<float> input(64, 1.5f), output(64, 0.0f);
  try {
    engine.load(device);
  } catch (const poplar_error& e) {
    if (std::string(e.what()).find("target") == std::string::npos) throw;
    model.numIPUs = 2; // an executable compiled for two IPUs
    device = model.createDevice();
    engine.load(device);
  }
  // The reproducers' graph has a stream "in" only; "out" is connected where a file has it.
  for (auto& [handle, buffer] :
       {std::make_pair("in", input.data()), std::make_pair("out", output.data())}) {
    try {
      engine.connectStream(handle, buffer);
    } catch (const poplar_error& e) {
      if (std::string(e.what()).find("no stream with handle") == std::string::npos) throw;
    }
  }
  std::ostringstream printed;
  engine.setPrintTensorStream(printed);
  engine.run(0);
  return printed.str();
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: exe_runner FILE run|refused TEXT|reports-here DIR [--allow-oom]\n";
    return 2;
  }
  const std::string path = argv[1], mode = argv[2];
  const std::string arg = argc > 3 ? argv[3] : "";
  OptionFlags options;
  for (int i = 3; i < argc; ++i)
    if (!std::strcmp(argv[i], "--allow-oom")) options.set("debug.allowOutOfMemory", "true");
  // popops' vertices register from the library's initialisers: make sure it is linked.
  {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    popops::addCodelets(g);
  }
  try {
    const std::string ours = "exe-runner-reports";
    if (mode == "reports-here") {
      std::filesystem::remove_all(arg);
      std::filesystem::remove_all(ours);
      options.set("autoReport.all", "true");
      options.set("autoReport.directory", ours);
    }
    const std::string printed = runFile(path, options);
    std::cout << printed;
    if (printed.size() > 4096) {
      std::cerr << "FAIL: printed " << printed.size() << " bytes\n";
      return 1;
    }
    if (mode == "refused") {
      std::cerr << "FAIL: " << path << " ran; expected a poplar_error holding '" << arg << "'\n";
      return 1;
    }
    if (mode == "reports-here" && std::filesystem::exists(arg)) {
      std::cerr << "FAIL: the report went to '" << arg << "', the directory the file chose\n";
      return 1;
    }
    if (mode == "reports-here" && !hasReport(ours)) {
      std::cerr << "FAIL: no report in '" << ours << "', the directory this program chose\n";
      return 1;
    }
    std::cout << "ran\n";
    return 0;
  } catch (const poplar_error& e) {
    std::cout << "poplar_error: " << e.what() << "\n";
    if (mode == "refused" && std::string(e.what()).find(arg) != std::string::npos) return 0;
    std::cerr << "FAIL: unexpected poplar_error\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "FAIL: an exception other than poplar_error escaped: " << e.what() << "\n";
    return 1;
  }
}
