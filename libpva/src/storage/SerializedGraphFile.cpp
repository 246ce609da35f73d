#include "SerializedGraphFile.hpp"

#include <algorithm>
#include <capnp/serialize.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <kj/array.h>
#include <kj/exception.h>
#include <memory>
#include <profiler/schema/profile.capnp.h>
#include <pva/Exception.hpp>
#include <sys/mman.h>
#include <unistd.h>

namespace pva::storage {

namespace cp = tessera::profiler::capnp;

namespace {

constexpr const char* kKind = "serialized graph";

/// Up to this many tiles, or one per byte of the file if more, a compute set's tiles are found
/// with one mark per tile of the target; above it, by sorting. Either way the memory is bounded
/// by the file's size (a real graph's file is far larger than its tile count).
constexpr std::uint64_t kMarkedTilesMin = 1 << 16;

/// The traversal limit: words read per word of the file, plus a little for tiny files.
constexpr std::uint64_t kTraversalsPerWord = 4, kTraversalSlackWords = 1024;

/// Cap'n Proto's reason in words a reader of the message understands, where it has its own.
std::string reason(const kj::Exception& e) {
  const std::string why = e.getDescription().cStr();
  if (why.find("'\\0'") != std::string::npos)
    return "a text (a name or type) is not NUL-terminated";
  if (why.find("traversal limit") != std::string::npos)
    return "its pointers lead to more data than the file holds (the same lists read over and over)";
  return why;
}

/// A text as its whole size says: names may hold NUL bytes (Graph::serialize writes them as
/// given), which cStr() would cut at.
std::string text(capnp::Text::Reader t) {
  return std::string(t.begin(), t.size());
}

/// Decodes the message; checks what the schema cannot say (indices in range) as it goes.
class Decoder {
public:
  Decoder(std::string shown, SerializedGraphDetail detail, std::uint64_t fileBytes)
      : shown_(std::move(shown)), detail_(detail),
        markLimit_(std::max(kMarkedTilesMin, fileBytes)) {}

  SerializedGraph decode(cp::SerializedGraph::Reader in) {
    SerializedGraph g;
    g.numIpus = in.getNumIpus();
    g.tilesPerIpu = in.getTilesPerIpu();
    if (g.numIpus == 0 || g.tilesPerIpu == 0)
      fail("the target has " + std::to_string(g.numIpus) + " IPUs of " +
           std::to_string(g.tilesPerIpu) + " tiles");
    const std::uint64_t tiles = std::uint64_t(g.numIpus) * g.tilesPerIpu;
    // Each list is got once: every get counts against the traversal limit, and both details
    // must count the same.
    const auto variables = in.getVariables();
    g.variables.reserve(variables.size());
    for (auto v : variables) {
      SerializedVariable out;
      out.name = text(v.getName());
      out.elementType = text(v.getElementType());
      for (auto d : v.getShape())
        out.shape.push_back(d);
      out.isConstant = v.getIsConstant();
      const auto mapping = v.getMapping();
      out.mapping.reserve(mapping.size());
      for (auto m : mapping) {
        if (m.getTile() >= tiles || m.getBegin() > m.getEnd())
          fail("variable '" + out.name + "' is mapped to [" + std::to_string(m.getBegin()) + ", " +
               std::to_string(m.getEnd()) + ") on tile " + std::to_string(m.getTile()) + " of " +
               std::to_string(tiles));
        out.mapping.push_back({m.getBegin(), m.getEnd(), m.getTile()});
      }
      g.variables.push_back(std::move(out));
    }
    const auto computeSets = in.getComputeSets();
    g.computeSets.reserve(computeSets.size());
    // Marks of what the current compute set touches, cleared through the lists after each. The
    // target's tile count is two numbers in the file, not items in it (1 IPU of 2^32 - 1 tiles
    // is 8 bytes): above markLimit_ the tiles are collected and sorted instead, so that memory
    // stays bounded by the file's size.
    const bool markTiles = tiles <= markLimit_;
    std::vector<char> tileSeen(markTiles ? tiles : 0, 0), varSeen(g.variables.size(), 0);
    const bool keep = detail_ == SerializedGraphDetail::Vertices;
    for (auto cs : computeSets) {
      SerializedComputeSet out;
      out.name = text(cs.getName());
      const auto vertices = cs.getVertices();
      out.vertexCount = vertices.size();
      if (keep) out.vertices.reserve(vertices.size());
      for (auto v : vertices) {
        // One pass over the regions both checks them, collects the variables and (for
        // Vertices) copies them: on a large graph (hundreds of MB of regions) this loop is the
        // reading's cost. Both details follow exactly the same pointers, once each, so they
        // accept the same files under the same traversal limit.
        if (v.getTile() >= tiles)
          fail("a vertex of compute set '" + out.name + "' is on tile " +
               std::to_string(v.getTile()) + " of " + std::to_string(tiles));
        if (!markTiles)
          out.tiles.push_back(v.getTile());
        else if (!tileSeen[v.getTile()])
          tileSeen[v.getTile()] = 1, out.tiles.push_back(v.getTile());
        const capnp::Text::Reader type = v.getType(); // read (so checked) whatever the detail
        SerializedVertex copy;
        const auto fields = v.getFields();
        if (keep)
          copy.type = text(type), copy.tile = v.getTile(), copy.fields.reserve(fields.size());
        for (auto f : fields) {
          const capnp::Text::Reader name = f.getName();
          const auto edges = f.getEdges();
          SerializedField field;
          if (keep) field.name = text(name), field.edges.reserve(edges.size());
          for (auto e : edges) {
            const auto regions = e.getRegions();
            std::vector<SerializedRegion> kept;
            if (keep) kept.reserve(regions.size());
            for (auto r : regions) {
              const unsigned var = r.getVariable();
              if (var >= varSeen.size() || r.getBegin() > r.getEnd())
                fail("field '" + text(name) + "' of a vertex of compute set '" + out.name +
                     "' names variable " + std::to_string(var) + " of " +
                     std::to_string(varSeen.size()));
              if (!varSeen[var]) varSeen[var] = 1, out.variables.push_back(var);
              if (keep) kept.push_back({var, r.getBegin(), r.getEnd()});
            }
            if (keep) field.edges.push_back(std::move(kept));
          }
          if (keep) copy.fields.push_back(std::move(field));
        }
        if (keep) out.vertices.push_back(std::move(copy));
      }
      if (markTiles)
        for (unsigned t : out.tiles)
          tileSeen[t] = 0;
      for (unsigned v : out.variables)
        varSeen[v] = 0;
      std::sort(out.tiles.begin(), out.tiles.end());
      if (!markTiles)
        out.tiles.erase(std::unique(out.tiles.begin(), out.tiles.end()), out.tiles.end());
      std::sort(out.variables.begin(), out.variables.end());
      g.computeSets.push_back(std::move(out));
    }
    return g;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidReportError(shown_ + ": corrupted serialized graph: " + what);
  }

private:
  std::string shown_;
  SerializedGraphDetail detail_;
  std::uint64_t markLimit_;
};

} // namespace

SerializedGraph readSerializedGraph(const Source& source, SerializedGraphDetail detail) {
  const std::string shown = source.shown();
  const std::uint64_t size = checkRegularFile(source, kKind);
  if (size == 0) throw InvalidReportError(shown + ": empty file, not a serialized graph");
  if (size % sizeof(capnp::word) != 0)
    throw InvalidReportError(shown + ": truncated serialized graph (" + std::to_string(size) +
                             " bytes is not a whole number of 8-byte words)");
  // Cap'n Proto reads words in place. A file is mapped (page-aligned, no copy: a large graph
  // is hundreds of MB, and copying it into fresh memory cost more than decoding it); an image
  // is copied into word-aligned memory. (The engine writes the file under another name and
  // renames it, so a mapped file is never truncated under the reader.)
  kj::Array<capnp::word> copy;
  std::unique_ptr<void, std::function<void(void*)>> mapping;
  kj::ArrayPtr<const capnp::word> words;
  if (source.image) {
    copy = kj::heapArray<capnp::word>(size / sizeof(capnp::word));
    std::memcpy(copy.begin(), source.image->bytes.data(), size);
    words = copy.asPtr();
  } else {
    const int fd = ::open(source.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw FileNotFoundError(shown + ": cannot read the " + kKind + ": " + std::strerror(errno));
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
                     0); // one fault pass, not one per page
    const int err = errno;
    ::close(fd);
    if (p == MAP_FAILED)
      throw FileNotFoundError(shown + ": cannot read the " + kKind + ": " + std::strerror(err));
    mapping = std::unique_ptr<void, std::function<void(void*)>>(
        p, [size](void* q) { ::munmap(q, size); });
    ::madvise(p, size, MADV_SEQUENTIAL);
    words = kj::ArrayPtr<const capnp::word>(static_cast<const capnp::word*>(p),
                                            size / sizeof(capnp::word));
  }
  Decoder decoder(shown, detail, size);
  try {
    capnp::ReaderOptions options;
    // The limit is the file's size a few times over: the decoder follows each pointer once, and a
    // message whose pointers make it read the same words again and again is refused. Cap'n Proto's
    // default (64 MiB) is both too small for a large graph and far too generous for a small file:
    // before, a 7 KB file whose pointers alias one list took seconds (fuzz_serialized_graph).
    options.traversalLimitInWords = kTraversalsPerWord * words.size() + kTraversalSlackWords;
    capnp::FlatArrayMessageReader reader(words, options);
    if (reader.getEnd() != words.end())
      throw InvalidReportError(
          shown + ": corrupted serialized graph: " +
          std::to_string((words.end() - reader.getEnd()) * sizeof(capnp::word)) +
          " bytes after the message");
    SerializedGraph g = decoder.decode(reader.getRoot<cp::SerializedGraph>());
    g.path = source.path;
    return g;
  } catch (const kj::Exception& e) {
    const std::string why = reason(e);
    const bool truncated = why.find("ends prematurely") != std::string::npos ||
                           why.find("out-of-bounds") != std::string::npos;
    throw InvalidReportError(
        shown + (truncated ? ": truncated serialized graph: " : ": corrupted serialized graph: ") +
        why);
  }
}

} // namespace pva::storage
