// bench_executable_file: Executable::serialize and Executable::deserialize of one large
// executable in the Cap'n Proto format (format version 3) against the hand-written format it
// replaced (format version 2, kept in bench/exefile/ as the baseline), in the same run on the
// same compiled graph: the file's bytes, and the CPU seconds to write it and to read it back.
// The graph: n vertices on one Mk2 IPU (1472 tiles), n/1000 compute sets in sequence, each vertex
// reading a 16-float slice and one float of its neighbour and writing a 16-float slice (as
// bench_compile_scaling's).
//
//   bench_executable_file [--vertices 1000000] [--reps 3]
#include "LegacyExecutableFile.hpp"
#include "common/CommandLine.hpp"
#include "executable/ExecutableState.hpp"

#include <algorithm>
#include <capnp/serialize-packed.h>
#include <cstdio>
#include <ctime>
#include <functional>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Vertex.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;

namespace {

class BenchFileAxpy : public Vertex {
public:
  Input<Vector<float>> in;
  Input<float> neighbour;
  Output<Vector<float>> out;
  bool compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = 2.0f * in[i] + neighbour;
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector& v, const Target&) {
    return 20 + 2 * v.getFieldInfo("in").size();
  }
};
TESSERA_VERTEX(BenchFileAxpy, in, neighbour, out);

// Process CPU time (all threads), seconds: on a shared machine wall time depends on the load.
double cpuNow() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

constexpr std::size_t kVerticesPerComputeSet = 1000, kSlice = 16;

Executable compileLarge(const Target& target, std::size_t n) {
  Graph g(target);
  g.addCodelets(__FILE__);
  const unsigned tiles = target.getNumTiles();
  const std::size_t sets = std::max<std::size_t>(1, n / kVerticesPerComputeSet);
  const std::size_t perSet = n / sets;
  std::vector<Tensor> vars;
  for (std::size_t c = 0; c <= sets; ++c) {
    Tensor v = g.addVariable(FLOAT, {perSet * kSlice}, "v" + std::to_string(c));
    for (std::size_t i = 0; i < perSet; ++i)
      g.setTileMapping(v.slice(i * kSlice, (i + 1) * kSlice), unsigned(i % tiles));
    vars.push_back(v);
  }
  g.setInitialValue(vars[0], std::vector<float>(perSet * kSlice, 1.0f));
  g.createHostRead("result", vars.back());
  program::Sequence prog;
  for (std::size_t c = 0; c < sets; ++c) {
    ComputeSet cs = g.addComputeSet("layer" + std::to_string(c));
    for (std::size_t i = 0; i < perSet; ++i) {
      const std::size_t next = ((i + 1) % perSet) * kSlice;
      VertexRef v = g.addVertex(cs, "BenchFileAxpy",
                                {{"in", vars[c].slice(i * kSlice, (i + 1) * kSlice)},
                                 {"neighbour", vars[c][next]},
                                 {"out", vars[c + 1].slice(i * kSlice, (i + 1) * kSlice)}});
      g.setTileMapping(v, unsigned(i % tiles));
    }
    prog.add(program::Execute(cs));
  }
  return compileGraph(g, {prog});
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The payload's size, from the header (whose two version strings vary in length).
std::size_t payloadSize(const std::string& file) {
  std::size_t pos = 8 + 4;
  for (int i = 0; i < 2; ++i) {
    std::uint64_t n = 0;
    for (int b = 0; b < 8; ++b)
      n |= std::uint64_t(static_cast<unsigned char>(file[pos + b])) << (8 * b);
    pos += 8 + n;
  }
  std::uint64_t size = 0;
  for (int b = 0; b < 8; ++b)
    size |= std::uint64_t(static_cast<unsigned char>(file[pos + b])) << (8 * b);
  return static_cast<std::size_t>(size);
}

struct Figures {
  std::size_t bytes = 0;
  double writeSeconds = 0, readSeconds = 0;
};

using Write = std::function<void(const core::Executable&, std::ostream&)>;
using Read = std::function<std::unique_ptr<core::Executable>(std::istream&)>;

Figures measure(const core::Executable& exe, const Write& write, const Read& read, unsigned reps,
                std::string& bytesOut) {
  std::vector<double> writes, reads;
  for (unsigned r = 0; r < reps; ++r) {
    std::ostringstream out;
    double c0 = cpuNow();
    write(exe, out);
    writes.push_back(cpuNow() - c0);
    bytesOut = out.str();
    std::istringstream in(bytesOut);
    c0 = cpuNow();
    const auto back = read(in);
    reads.push_back(cpuNow() - c0);
    if (back->compiled.computeSets.size() != exe.compiled.computeSets.size())
      throw std::runtime_error("the executable read back lost compute sets");
  }
  return {bytesOut.size(), median(writes), median(reads)};
}

} // namespace

int main(int argc, char** argv) {
  std::size_t vertices = 1000000;
  unsigned reps = 3;
  tessera::cli::CommandLine cli(
      "bench_executable_file",
      "bench_executable_file: serialize and deserialize of a large executable, the Cap'n Proto "
      "format against the hand-written one it replaced, in the same run.",
      "bench_executable_file --vertices 10000 --reps 1");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--vertices", vertices, "Vertices in the graph")->check(positive);
  cli.add_option("--reps", reps, "Writes and reads per format (medians are reported)")
      ->check(positive);
  cli.parseOrExit(argc, argv);

  IPUModel model("ipu2");
  const double c0 = cpuNow();
  Executable exe = compileLarge(model.createTarget(), vertices);
  const core::Executable& state = exe.getImpl();
  std::printf("%zu vertices, %zu compute sets, %zu variables on one Mk2 IPU: compiled in %.2f s "
              "CPU; median of %u\n",
              vertices, state.compiled.computeSets.size(), state.compiled.variables.size(),
              cpuNow() - c0, reps);

  std::string legacyBytes, bytes;
  const Figures legacy = measure(
      state,
      [](const core::Executable& e, std::ostream& o) {
        detail::executable::legacyWriteExecutable(e, o);
      },
      [](std::istream& i) { return detail::executable::legacyReadExecutable(i, false); }, reps,
      legacyBytes);
  const Figures capnp = measure(
      state,
      [](const core::Executable& e, std::ostream& o) { detail::executable::writeExecutable(e, o); },
      [](std::istream& i) { return detail::executable::readExecutable(i, true); }, reps, bytes);

  std::printf("%-34s %12s %10s %10s %10s\n", "format", "MiB", "write s", "read s", "B/vertex");
  auto row = [&](const char* name, const Figures& f) {
    std::printf("%-34s %12.2f %10.3f %10.3f %10.1f\n", name, double(f.bytes) / (1 << 20),
                f.writeSeconds, f.readSeconds, double(f.bytes) / double(vertices));
  };
  row("hand-written (format 2, baseline)", legacy);
  row("Cap'n Proto (format 3)", capnp);
  // What packing the message would give (not used: an unpacked payload is read in place, its
  // memory bounded by the file's size, its fields at fixed offsets): the bytes and the CPU.
  {
    struct Counter : kj::OutputStream {
      std::size_t bytes = 0;
      void write(const void*, size_t size) override { bytes += size; }
    } counter;
    const std::size_t header = bytes.size() - payloadSize(bytes);
    const double p0 = cpuNow();
    {
      kj::BufferedOutputStreamWrapper buffered(counter);
      {
        capnp::_::PackedOutputStream packed(buffered);
        packed.write(bytes.data() + header, bytes.size() - header);
      }
      buffered.flush();
    }
    std::printf("%-34s %12.2f %10.3f %10s %10.1f  (size and packing CPU only)\n",
                "Cap'n Proto packed (not used)", double(counter.bytes + header) / (1 << 20),
                cpuNow() - p0, "-", double(counter.bytes + header) / double(vertices));
  }
  std::printf("Cap'n Proto / baseline: size %.2fx, write %.2fx, read %.2fx (CPU seconds)\n",
              double(capnp.bytes) / double(legacy.bytes), capnp.writeSeconds / legacy.writeSeconds,
              capnp.readSeconds / legacy.readSeconds);
  // The same file read back must write the same bytes: the benchmark measured real round trips.
  std::istringstream again(bytes);
  std::ostringstream rewritten;
  detail::executable::writeExecutable(*detail::executable::readExecutable(again, true), rewritten);
  if (rewritten.str() != bytes) {
    std::fprintf(stderr, "bench_executable_file: the executable read back writes other bytes\n");
    return 1;
  }
  return 0;
}
