#include "SerializedGraphOracle.hpp"

#include <capnp/serialize.h>
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <profiler/schema/profile.capnp.h>
#include <set>
#include <unistd.h>
#include <vector>

namespace test {

namespace cp = tessera::profiler::capnp;

namespace {

/// Opens `path` and hands its root to `f` (large graphs exceed capnp's default read limit).
template <class F> void withRoot(const std::string& path, F&& f) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = uint64_t(1) << 32;
    capnp::StreamFdMessageReader reader(fd, options);
    f(reader.getRoot<cp::SerializedGraph>());
  }
  ::close(fd);
}

} // namespace

void checkAgainstRawCapnp(const pva::SerializedGraph& g, const std::string& path, bool vertices) {
  withRoot(path, [&](cp::SerializedGraph::Reader raw) {
    CHECK(g.numIpus == raw.getNumIpus());
    CHECK(g.tilesPerIpu == raw.getTilesPerIpu());
    REQUIRE(g.variables.size() == raw.getVariables().size());
    for (unsigned i = 0; i < g.variables.size(); ++i) {
      const auto& v = g.variables[i];
      auto r = raw.getVariables()[i];
      CHECK(v.name == r.getName().cStr());
      CHECK(v.elementType == r.getElementType().cStr());
      CHECK(v.isConstant == r.getIsConstant());
      REQUIRE(v.shape.size() == r.getShape().size());
      for (unsigned d = 0; d < v.shape.size(); ++d)
        CHECK(v.shape[d] == r.getShape()[d]);
      REQUIRE(v.mapping.size() == r.getMapping().size());
      for (unsigned m = 0; m < v.mapping.size(); ++m) {
        CHECK(v.mapping[m].begin == r.getMapping()[m].getBegin());
        CHECK(v.mapping[m].end == r.getMapping()[m].getEnd());
        CHECK(v.mapping[m].tile == r.getMapping()[m].getTile());
      }
    }
    REQUIRE(g.computeSets.size() == raw.getComputeSets().size());
    for (unsigned c = 0; c < g.computeSets.size(); ++c) {
      const auto& cs = g.computeSets[c];
      auto rcs = raw.getComputeSets()[c];
      CHECK(cs.name == rcs.getName().cStr());
      CHECK(cs.vertexCount == rcs.getVertices().size());
      std::set<unsigned> tiles, vars;
      for (auto rv : rcs.getVertices()) {
        tiles.insert(rv.getTile());
        for (auto rf : rv.getFields())
          for (auto re : rf.getEdges())
            for (auto rr : re.getRegions())
              vars.insert(rr.getVariable());
      }
      CHECK(cs.tiles == std::vector<unsigned>(tiles.begin(), tiles.end()));
      CHECK(cs.variables == std::vector<unsigned>(vars.begin(), vars.end()));
      if (!vertices) {
        CHECK(cs.vertices.empty());
        continue;
      }
      REQUIRE(cs.vertices.size() == rcs.getVertices().size());
      for (unsigned v = 0; v < cs.vertices.size(); ++v) {
        const auto& vx = cs.vertices[v];
        auto rv = rcs.getVertices()[v];
        CHECK(vx.type == rv.getType().cStr());
        CHECK(vx.tile == rv.getTile());
        REQUIRE(vx.fields.size() == rv.getFields().size());
        for (unsigned f = 0; f < vx.fields.size(); ++f) {
          auto rf = rv.getFields()[f];
          CHECK(vx.fields[f].name == rf.getName().cStr());
          REQUIRE(vx.fields[f].edges.size() == rf.getEdges().size());
          for (unsigned e = 0; e < vx.fields[f].edges.size(); ++e) {
            const auto& regions = vx.fields[f].edges[e];
            auto rr = rf.getEdges()[e].getRegions();
            REQUIRE(regions.size() == rr.size());
            for (unsigned k = 0; k < regions.size(); ++k) {
              CHECK(regions[k].variable == rr[k].getVariable());
              CHECK(regions[k].begin == rr[k].getBegin());
              CHECK(regions[k].end == rr[k].getEnd());
            }
          }
        }
      }
    }
  });
}

} // namespace test
