// Executable files as a hostile format (issue 40): `Executable::deserialize` of any bytes gives
// an executable or a poplar_error; an executable it accepts is built into an Engine, loaded on
// an IPU Model of its own target and run, which gives results or a poplar_error, never a crash,
// a sanitizer report or an allocation beyond the host's budget.
//
// Structure-aware: a payload that fails its checksum is refused before any field is read, so
// byte mutations alone would test the checksum only. The custom mutator changes the payload (a
// field-sized slot set to a boundary value, or libFuzzer's own mutations of the payload) and
// reseals it: recomputes the payload's size and checksum as a foreign writer would. The payload
// is an unpacked Cap'n Proto message (profiler/schema/executable.capnp): its fields sit at
// offsets that are multiples of their width, so slots are aligned to theirs; a slot that lands on
// a pointer tests Cap'n Proto's checks and the reader's limits (traversal, nesting).
#include "codelets/Hash.hpp"
#include "executable/ExecutableState.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popops/codelets.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

using poplar::detail::compiler::LoweredProgram;

std::uint64_t readU64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}
void writeU64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// Where the header's payload size, checksum and payload are; false when the header itself
/// cannot be walked (then the bytes are mutated as they are).
struct Layout {
  std::size_t sizeField = 0, checksum = 0, payload = 0;
};
bool layout(const std::uint8_t* data, std::size_t size, Layout& l) {
  std::size_t at = 8 + 4;       // magic, format version
  for (int i = 0; i < 2; ++i) { // Tessera version, codelet ABI hash
    if (size < at + 8) return false;
    const std::uint64_t n = readU64(data + at);
    if (n > 256) return false;
    at += 8 + n;
  }
  l.sizeField = at;
  l.checksum = at + 8;
  l.payload = at + 8 + 32;
  return size >= l.payload;
}

void reseal(std::uint8_t* data, std::size_t size, const Layout& l) {
  writeU64(data + l.sizeField, size - l.payload);
  poplar::detail::codelets::Hasher h;
  h.add(std::string(reinterpret_cast<const char*>(data + l.payload), size - l.payload));
  const std::string hex = h.hex();
  std::memcpy(data + l.checksum, hex.data(), std::min<std::size_t>(32, hex.size()));
}

/// Steps a run would take at most, or 0 when a RepeatWhile could loop for ever (a program
/// whose loop never ends is a valid program: it is not run here).
std::uint64_t boundedWork(const poplar::detail::compiler::CompiledGraph& g, unsigned node,
                          int depth) {
  if (depth > 64) return 0;
  const auto& p = g.programs[node];
  using K = LoweredProgram::Kind;
  if (p.kind == K::RepeatWhileTrue || p.kind == K::RepeatWhileFalse) return 0;
  std::uint64_t work = 1;
  for (unsigned c : p.children) {
    const std::uint64_t w = boundedWork(g, c, depth + 1);
    if (!w) return 0;
    work += w;
  }
  if (p.kind == K::Repeat) work = p.count > 64 ? 0 : work * p.count + 1;
  return work > 100000 ? 0 : work;
}

void runExecutable(std::unique_ptr<poplar::core::Executable> state) {
  const auto& g = state->compiled;
  if (g.target.getNumTiles() > 64 || g.target.getNumIPUs() > 4) return;
  for (unsigned e : g.entryPoints)
    if (!boundedWork(g, e, 0)) return;
  std::vector<std::vector<unsigned char>> buffers;
  for (const auto& s : g.streams) {
    const std::uint64_t bytes = std::uint64_t(s.numElements) * s.type.size();
    if (bytes > (1u << 20)) return;
    buffers.emplace_back(bytes + 1);
  }
  std::vector<std::string> handles;
  for (const auto& s : g.streams)
    handles.push_back(s.handle);
  const unsigned ipus = g.target.getNumIPUs(), tiles = g.target.getTilesPerIPU();
  const std::size_t entries = g.entryPoints.size();
  poplar::Engine engine(poplar::Executable(std::move(state)), {});
  poplar::IPUModel model;
  model.numIPUs = ipus;
  model.tilesPerIPU = tiles;
  poplar::Device device = model.createDevice();
  engine.load(device);
  for (std::size_t i = 0; i < handles.size(); ++i)
    engine.connectStream(handles[i], buffers[i].data());
  std::ostringstream printed;
  engine.setPrintTensorStream(printed);
  for (unsigned e = 0; e < entries; ++e)
    engine.run(e);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // popops' vertices (the seeds run popops::Fill) register from the library's initialisers.
  poplar::IPUModel model;
  model.tilesPerIPU = 4;
  poplar::Device device = model.createDevice();
  poplar::Graph g(device.getTarget());
  popops::addCodelets(g);
  // A report or a trace only if the fuzzed file could ask for one: it cannot (issue 40).
  unsetenv("POPLAR_ENGINE_OPTIONS");
  // The device may take 1 GiB of host memory here (libFuzzer's -rss_limit_mb is 2 GiB): a
  // file asking for more must be refused, not allocated.
  setenv("TESSERA_HOST_MEMORY_LIMIT", "1073741824", 1);
  setenv("TESSERA_THREADS", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::unique_ptr<poplar::core::Executable> state;
  try {
    state = poplar::detail::executable::readExecutable(in, false);
  } catch (const poplar::poplar_error&) {
    return 0;
  }
  // Oracle: what was read is written back as it was read (the reader keeps every field).
  {
    std::ostringstream again;
    poplar::detail::executable::writeExecutable(*state, again);
    std::istringstream in2(again.str());
    auto reread = poplar::detail::executable::readExecutable(in2, false);
    std::ostringstream third;
    poplar::detail::executable::writeExecutable(*reread, third);
    if (third.str() != again.str()) {
      std::fprintf(stderr, "==fuzz oracle== an executable read back differs from itself\n");
      std::abort();
    }
  }
  try {
    runExecutable(std::move(state));
  } catch (const poplar::poplar_error&) {
  }
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned seed) {
  Layout l;
  if (!layout(data, size, l) || maxSize <= l.payload) return LLVMFuzzerMutate(data, size, maxSize);
  std::minstd_rand rng(seed);
  const std::size_t payload = size - l.payload;
  std::size_t newPayload = payload;
  if (payload >= 8 && rng() % 2) {
    // A field-sized slot set to a boundary value: counts, sizes, indices and offsets are u32
    // and u64 little-endian, kinds u8, list and struct pointers u64 (Cap'n Proto's layout).
    static const std::uint64_t values[] = {0,
                                           1,
                                           2,
                                           3,
                                           4,
                                           7,
                                           8,
                                           255,
                                           256,
                                           1000,
                                           65535,
                                           0x7fffffff,
                                           0x80000000,
                                           0xffffffff,
                                           0x100000000ull,
                                           std::uint64_t(1) << 30,
                                           std::uint64_t(1) << 33,
                                           std::uint64_t(1) << 36,
                                           0x7fffffffffffffffull,
                                           0x8000000000000000ull,
                                           ~std::uint64_t(0),
                                           ~std::uint64_t(0) - 1};
    const unsigned widths[] = {1, 4, 8};
    const unsigned width = widths[rng() % 3];
    const std::size_t at = l.payload + rng() % ((payload - width) / width + 1) * width;
    std::uint64_t v = values[rng() % (sizeof values / sizeof values[0])];
    if (rng() % 4 == 0) v += readU64(data + std::min(at, size - 8)) & 0xff; // near the old value
    for (unsigned i = 0; i < width; ++i)
      data[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  } else {
    newPayload = LLVMFuzzerMutate(data + l.payload, payload, maxSize - l.payload);
  }
  reseal(data, l.payload + newPayload, l);
  return l.payload + newPayload;
}
