#include "GraphOracle.hpp"

#include <capnp/serialize.h>
#include <fcntl.h>
#include <profiler/schema/profile.capnp.h>
#include <stdexcept>
#include <unistd.h>
#include <utility>

namespace viewer_test {

RawGraph readRawGraph(const QString& path) {
  const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open " + path.toStdString());
  RawGraph out;
  {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = uint64_t(1) << 32;
    capnp::StreamFdMessageReader reader(fd, options);
    auto g = reader.getRoot<tessera::profiler::capnp::SerializedGraph>();
    out.computeSets = int(g.getComputeSets().size());
    out.variables = int(g.getVariables().size());
    for (auto v : g.getVariables()) {
      auto& tiles = out.variableTiles[QString::fromUtf8(v.getName().cStr())];
      for (auto m : v.getMapping())
        tiles.insert(m.getTile());
    }
    std::set<std::pair<unsigned, unsigned>> pairs;
    for (unsigned c = 0; c < g.getComputeSets().size(); ++c)
      for (auto vertex : g.getComputeSets()[c].getVertices())
        for (auto field : vertex.getFields())
          for (auto edge : field.getEdges())
            for (auto region : edge.getRegions())
              pairs.insert({c, region.getVariable()});
    out.edges = int(pairs.size());
  }
  ::close(fd);
  return out;
}

} // namespace viewer_test
