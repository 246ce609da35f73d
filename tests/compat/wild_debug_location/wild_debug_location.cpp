// A library's own debug layer, written as public Poplar libraries write theirs: a subclass of
// poplar::DebugInfo that names its contexts after the API and the calling function, read from
// a poplar::SourceLocation filled in by SourceLocation::Current() at the call site.
#include <iostream>
#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/SourceLocation.hpp>
#include <poputil/DebugInfo.hpp>
#include <string>

namespace mylib {

class DebugInfo : public poplar::DebugInfo {
  static std::string pathName(const std::string &api, poplar::SourceLocation loc) {
    std::string name = api;
    if (loc.isValid())
      name += "::" + std::string(loc.getFunctionName());
    return name;
  }

public:
  DebugInfo(const std::string &api, const std::vector<poputil::ArgType> &args = {},
            poplar::SourceLocation loc = poplar::SourceLocation::Current())
      : poplar::DebugInfo(poplar::DebugContext(pathName(api, loc), loc), "mylib") {
    setValue("api", api);
    poplar::ProfileValue::Map argsPV;
    for (auto &a : args)
      argsPV.insert({a.n, a.pv});
    if (!argsPV.empty())
      setValue("args", argsPV);
  }
  ~DebugInfo() override = default;
};

poplar::Tensor makeOnes(poplar::Graph &graph, unsigned n) {
  DebugInfo di("makeOnes", {{"n", poputil::toProfileValue(n)}});
  poplar::Tensor t = graph.addConstant(poplar::FLOAT, {n}, 1.0f, {di, "ones"});
  graph.setTileMapping(t, 0);
  return t;
}

} // namespace mylib

poplar::SourceLocation here(poplar::SourceLocation loc = poplar::SourceLocation::Current()) {
  return loc;
}

int main() {
  constexpr poplar::SourceLocation none;
  static_assert(!none.isValid(), "a default location is not valid");
  std::cout << "default: valid " << none.isValid() << ", line " << none.getLineNumber()
            << ", function '" << none.getFunctionName() << "', file '" << none.getFileName()
            << "'\n";

  poplar::SourceLocation given("solve", "solver.cpp", 42);
  std::cout << "given: valid " << given.isValid() << ", " << given.getFunctionName() << " in "
            << given.getFileName() << ":" << given.getLineNumber() << "\n";

  poplar::SourceLocation loc = here();
  const std::string file = loc.getFileName();
  std::cout << "Current(): valid " << loc.isValid() << ", function " << loc.getFunctionName()
            << ", file ends in wild_debug_location.cpp: "
            << (file.size() >= 23 && file.compare(file.size() - 23, 23, "wild_debug_location.cpp") == 0)
            << ", line " << loc.getLineNumber() << "\n";

  poplar::IPUModel model;
  model.tilesPerIPU = 2;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor ones = mylib::makeOnes(graph, 4);
  poplar::Tensor x = graph.addVariable(poplar::FLOAT, {4}, {poplar::DebugContext("x", given)});
  graph.setTileMapping(x, 1);
  poplar::program::Sequence prog{poplar::program::Copy(ones, x)};
  graph.createHostRead("x", x);
  poplar::Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> host(4);
  engine.readTensor("x", host.data(), host.data() + host.size());
  std::cout << "x:";
  for (float v : host)
    std::cout << " " << v;
  std::cout << "\n";
  mylib::DebugInfo di("run");
  std::cout << "debug path: " << di.getPathName() << "\n";
  return 0;
}
