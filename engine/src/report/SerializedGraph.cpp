#include "SerializedGraph.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poplar/exceptions.hpp>
#include <profiler/schema/profile.capnp.h>
#include <unistd.h>

namespace poplar::detail::report {
using compiler::CompiledGraph;

namespace cp = tessera::profiler::capnp;

namespace {

/// A name as a Cap'n Proto text of its whole size: converting a std::string goes through
/// c_str(), which would cut a name at its first NUL byte.
capnp::Text::Reader text(const std::string& s) {
  return capnp::Text::Reader(s.data(), s.size());
}

void buildMessage(capnp::MallocMessageBuilder& message, const CompiledGraph& g) {
  auto graph = message.initRoot<cp::SerializedGraph>();
  graph.setNumIpus(g.replicaTarget.getNumIPUs());
  graph.setTilesPerIpu(g.replicaTarget.getTilesPerIPU());
  auto vars = graph.initVariables(static_cast<unsigned>(g.variables.size()));
  for (unsigned i = 0; i < g.variables.size(); ++i) {
    const auto& v = g.variables[i];
    auto out = vars[i];
    out.setName(text(v.name));
    out.setElementType(v.type.toString());
    auto shape = out.initShape(static_cast<unsigned>(v.shape.size()));
    for (unsigned d = 0; d < v.shape.size(); ++d)
      shape.set(d, v.shape[d]);
    out.setIsConstant(v.isConstant);
    auto mapping = out.initMapping(static_cast<unsigned>(v.mapping.size()));
    for (unsigned m = 0; m < v.mapping.size(); ++m) {
      mapping[m].setBegin(v.mapping[m].begin);
      mapping[m].setEnd(v.mapping[m].end);
      mapping[m].setTile(v.mapping[m].tile);
    }
  }
  auto sets = graph.initComputeSets(static_cast<unsigned>(g.computeSets.size()));
  for (unsigned c = 0; c < g.computeSets.size(); ++c) {
    const auto& cs = g.computeSets[c];
    sets[c].setName(text(cs.name));
    auto vertices = sets[c].initVertices(static_cast<unsigned>(cs.vertices.size()));
    for (unsigned v = 0; v < cs.vertices.size(); ++v) {
      const auto& cv = cs.vertices[v];
      vertices[v].setType(text(cv.type->name));
      vertices[v].setTile(cv.tile);
      const auto cfs = cs.fieldsOf(cv);
      auto fields = vertices[v].initFields(static_cast<unsigned>(cfs.size()));
      for (unsigned f = 0; f < cfs.size(); ++f) {
        fields[f].setName(text(cv.type->fields[f].name));
        const auto ces = cs.edgesOf(cfs[f]);
        auto edges = fields[f].initEdges(static_cast<unsigned>(ces.size()));
        for (unsigned e = 0; e < ces.size(); ++e) {
          const auto regions = cs.regionsOf(ces[e]);
          auto rs = edges[e].initRegions(static_cast<unsigned>(regions.size()));
          for (unsigned r = 0; r < regions.size(); ++r) {
            rs[r].setVariable(regions[r].var);
            rs[r].setBegin(regions[r].begin);
            rs[r].setEnd(regions[r].end);
          }
        }
      }
    }
  }
}

} // namespace

void writeSerializedGraph(const std::string& path, const CompiledGraph& g) {
  capnp::MallocMessageBuilder message;
  buildMessage(message, g);
  const std::string partial = path + ".partial";
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw profiling_error("cannot write " + path + ": " + std::strerror(errno));
  try {
    capnp::writeMessageToFd(fd, message);
  } catch (const std::exception& e) {
    ::close(fd);
    std::remove(partial.c_str());
    throw profiling_error("cannot write " + path + ": " + e.what());
  }
  if (::close(fd) != 0 || std::rename(partial.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(partial.c_str());
    throw profiling_error("cannot write " + path + ": " + why);
  }
}

void writeSerializedGraph(std::ostream& out, const CompiledGraph& g) {
  capnp::MallocMessageBuilder message;
  buildMessage(message, g);
  const auto words = capnp::messageToFlatArray(message);
  const auto bytes = words.asBytes();
  out.write(reinterpret_cast<const char*>(bytes.begin()), std::streamsize(bytes.size()));
  if (!out) throw profiling_error("Graph::serialize: writing the graph to the stream failed");
}

namespace {
/// JSON holds only UTF-8 text: a name that is not (a user's bytes) is refused by name.
void requireUtf8(const std::string& s, const std::string& what) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = byte(i);
    std::size_t n = 4; // continuation bytes; 4: no UTF-8 sequence starts with c
    std::uint32_t cp = 0;
    if (c < 0x80)
      n = 0, cp = c;
    else if ((c >> 5) == 0x6)
      n = 1, cp = c & 0x1f;
    else if ((c >> 4) == 0xe)
      n = 2, cp = c & 0x0f;
    else if ((c >> 3) == 0x1e)
      n = 3, cp = c & 0x07;
    bool ok = n < 4 && i + n < s.size();
    for (std::size_t k = 1; ok && k <= n; ++k) {
      ok = (byte(i + k) & 0xc0) == 0x80;
      cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    static const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (ok && (cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)) ok = false;
    if (!ok) {
      std::string shown;
      for (unsigned char ch : s) {
        char hex[5];
        std::snprintf(hex, sizeof hex, "\\x%02x", ch);
        shown += ch >= 0x20 && ch < 0x7f ? std::string(1, static_cast<char>(ch)) : hex;
      }
      throw profiling_error("Graph::serialize(JSON): the name of " + what + " '" + shown +
                            "' is not UTF-8 (at byte " + std::to_string(i) +
                            "), which JSON cannot hold: serialize it as Binary");
    }
    i += n + 1;
  }
}
} // namespace

void writeSerializedGraphJson(std::ostream& out, const CompiledGraph& g) {
  using nlohmann::json;
  for (const auto& v : g.variables)
    requireUtf8(v.name, "a variable");
  for (const auto& cs : g.computeSets)
    requireUtf8(cs.name, "a compute set");
  json vars = json::array();
  for (const auto& v : g.variables) {
    json mapping = json::array();
    for (const auto& m : v.mapping)
      mapping.push_back({{"begin", m.begin}, {"end", m.end}, {"tile", m.tile}});
    vars.push_back({{"name", v.name},
                    {"elementType", v.type.toString()},
                    {"shape", v.shape},
                    {"isConstant", v.isConstant},
                    {"mapping", std::move(mapping)}});
  }
  json sets = json::array();
  for (const auto& cs : g.computeSets) {
    json vertices = json::array();
    for (const auto& cv : cs.vertices) {
      json fields = json::array();
      const auto cfs = cs.fieldsOf(cv);
      for (std::size_t f = 0; f < cfs.size(); ++f) {
        json edges = json::array();
        for (const auto& e : cs.edgesOf(cfs[f])) {
          json regions = json::array();
          for (const auto& r : cs.regionsOf(e))
            regions.push_back({{"variable", r.var}, {"begin", r.begin}, {"end", r.end}});
          edges.push_back({{"regions", std::move(regions)}});
        }
        fields.push_back({{"name", cv.type->fields[f].name}, {"edges", std::move(edges)}});
      }
      vertices.push_back(
          {{"type", cv.type->name}, {"tile", cv.tile}, {"fields", std::move(fields)}});
    }
    sets.push_back({{"name", cs.name}, {"vertices", std::move(vertices)}});
  }
  const json doc = {{"numIpus", g.replicaTarget.getNumIPUs()},
                    {"tilesPerIpu", g.replicaTarget.getTilesPerIPU()},
                    {"variables", std::move(vars)},
                    {"computeSets", std::move(sets)}};
  out << doc.dump(1) << "\n";
  if (!out) throw profiling_error("Graph::serialize: writing the graph to the stream failed");
}

} // namespace poplar::detail::report
