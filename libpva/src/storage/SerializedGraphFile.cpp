#include "SerializedGraphFile.hpp"

#include <profiler/schema/profile.capnp.h>
#include <pva/Exception.hpp>

#include <capnp/serialize.h>
#include <kj/array.h>
#include <kj/exception.h>

#include <algorithm>
#include <cstring>

namespace pva::storage {

namespace cp = tessera::profiler::capnp;

namespace {

constexpr const char* kKind = "serialized graph";

/// Decodes the message; checks what the schema cannot say (indices in range) as it goes.
class Decoder {
public:
  explicit Decoder(std::string shown) : shown_(std::move(shown)) {}

  SerializedGraph decode(cp::SerializedGraph::Reader in) {
    SerializedGraph g;
    g.numIpus = in.getNumIpus();
    g.tilesPerIpu = in.getTilesPerIpu();
    if (g.numIpus == 0 || g.tilesPerIpu == 0)
      fail("the target has " + std::to_string(g.numIpus) + " IPUs of " + std::to_string(g.tilesPerIpu) + " tiles");
    const std::uint64_t tiles = std::uint64_t(g.numIpus) * g.tilesPerIpu;
    g.variables.reserve(in.getVariables().size());
    for (auto v : in.getVariables()) {
      SerializedVariable out;
      out.name = v.getName().cStr();
      out.elementType = v.getElementType().cStr();
      for (auto d : v.getShape()) out.shape.push_back(d);
      out.isConstant = v.getIsConstant();
      for (auto m : v.getMapping()) {
        if (m.getTile() >= tiles || m.getBegin() > m.getEnd())
          fail("variable '" + out.name + "' is mapped to [" + std::to_string(m.getBegin()) + ", " +
               std::to_string(m.getEnd()) + ") on tile " + std::to_string(m.getTile()) + " of " +
               std::to_string(tiles));
        out.mapping.push_back({m.getBegin(), m.getEnd(), m.getTile()});
      }
      g.variables.push_back(std::move(out));
    }
    g.computeSets.reserve(in.getComputeSets().size());
    for (auto cs : in.getComputeSets()) {
      SerializedComputeSet out;
      out.name = cs.getName().cStr();
      out.vertices.reserve(cs.getVertices().size());
      for (auto v : cs.getVertices()) out.vertices.push_back(vertex(v, out.name, g.variables.size(), tiles));
      g.computeSets.push_back(std::move(out));
    }
    return g;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidReportError(shown_ + ": corrupted serialized graph: " + what);
  }

private:
  SerializedVertex vertex(cp::SerializedGraph::Vertex::Reader v, const std::string& cs, std::size_t vars,
                          std::uint64_t tiles) const {
    SerializedVertex out;
    out.type = v.getType().cStr();
    out.tile = v.getTile();
    if (out.tile >= tiles)
      fail("a vertex of compute set '" + cs + "' is on tile " + std::to_string(out.tile) + " of " +
           std::to_string(tiles));
    for (auto f : v.getFields()) {
      SerializedField field;
      field.name = f.getName().cStr();
      for (auto e : f.getEdges()) {
        std::vector<SerializedRegion> regions;
        for (auto r : e.getRegions()) {
          if (r.getVariable() >= vars || r.getBegin() > r.getEnd())
            fail("field '" + field.name + "' of a vertex of compute set '" + cs + "' names variable " +
                 std::to_string(r.getVariable()) + " of " + std::to_string(vars));
          regions.push_back({r.getVariable(), r.getBegin(), r.getEnd()});
        }
        field.edges.push_back(std::move(regions));
      }
      out.fields.push_back(std::move(field));
    }
    return out;
  }

  std::string shown_;
};

} // namespace

SerializedGraph readSerializedGraph(const Source& source) {
  const std::string shown = source.shown();
  const std::string bytes = readWholeFile(source, kKind, UINT64_MAX);
  if (bytes.empty()) throw InvalidReportError(shown + ": empty file, not a serialized graph");
  if (bytes.size() % sizeof(capnp::word) != 0)
    throw InvalidReportError(shown + ": truncated serialized graph (" + std::to_string(bytes.size()) +
                             " bytes is not a whole number of 8-byte words)");
  // Cap'n Proto reads words in place: copy into word-aligned memory.
  auto words = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
  std::memcpy(words.begin(), bytes.data(), bytes.size());
  Decoder decoder(shown);
  try {
    capnp::ReaderOptions options;
    // The default limit (64 MiB read) is below what a large graph legitimately takes; reading
    // each word a few times over is still bounded by the file's size.
    options.traversalLimitInWords = std::max<std::uint64_t>(options.traversalLimitInWords, 4 * words.size());
    capnp::FlatArrayMessageReader reader(words.asPtr(), options);
    if (reader.getEnd() != words.end())
      throw InvalidReportError(shown + ": corrupted serialized graph: " +
                               std::to_string((words.end() - reader.getEnd()) * sizeof(capnp::word)) +
                               " bytes after the message");
    SerializedGraph g = decoder.decode(reader.getRoot<cp::SerializedGraph>());
    g.path = source.path;
    return g;
  } catch (const kj::Exception& e) {
    const std::string why = e.getDescription().cStr();
    const bool truncated = why.find("ends prematurely") != std::string::npos ||
                           why.find("out-of-bounds") != std::string::npos;
    throw InvalidReportError(shown + (truncated ? ": truncated serialized graph: " : ": corrupted serialized graph: ") +
                             why);
  }
}

} // namespace pva::storage
