// Codelets as popc accepts them (issues 33 and 35): popc's command line as public Makefiles and
// CMake projects use it, vertex classes with const, private and never-set state or a declared
// constructor, non-const access through an Input, and the IPU builtins with host implementations.
#include "CodeletFiles.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>
#include <sstream>
#include <sys/wait.h>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Run {
  int status = -1;
  std::string output; ///< standard output and standard error
};

/// Runs popc with `args` (a shell word list), collecting what it prints.
Run popc(const std::string& args) {
  Run r;
  FILE* p = popen((std::string(POPC) + " " + args + " 2>&1").c_str(), "r");
  REQUIRE(p);
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p))
    r.output += buf.data();
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

Device smallDevice() {
  IPUModel model;
  model.tilesPerIPU = 4;
  return model.createDevice();
}

// Vertex classes written as public codelets write them, each accepted by the SDK's popc.
const char* const kStateCodelets = R"(
#include <poplar/Vertex.hpp>
using namespace poplar;

struct Cell { float speeds[3]; };

// A const state member, set by the graph.
class ConstScale : public Vertex {
public:
  InOut<Vector<float>> data;
  const float factor;
  bool compute() { for (unsigned i = 0; i < data.size(); ++i) data[i] *= factor; return true; }
};

// A constructor declared and never defined: the IPU never constructs a vertex.
class DeclaredConstructor : public Vertex {
public:
  DeclaredConstructor();
  Input<Vector<float>> in;
  Output<float> out;
  bool compute() { *out = in[0] + in[1]; return true; }
};

// A data-dependent vertex that counts its runs in a private InOut field (issue 35), with a
// protected state member the graph sets.
class Counter : public Vertex {
  InOut<unsigned> runs;
protected:
  unsigned step;
public:
  Input<float> x;
  Output<float> y;
  bool compute() { *runs += step; *y = x * 2.0f; return true; }
};

// An Input's elements reinterpreted as the codelet's own (non-const) struct, and an edge of a
// list of edges addressed as &in[i][0].
class CellSum : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR>> cells;
  Vector<Input<Vector<float>>> rows;
  Output<Vector<float>> out;
  bool compute() {
    auto c = reinterpret_cast<Cell*>(&cells[0]);
    float* r1 = &rows[1][0];
    out[0] = c[0].speeds[0] + c[1].speeds[2];
    out[1] = r1[0] + r1[1];
    return true;
  }
};

// A state field the program never sets.
class Unset : public Vertex {
public:
  Output<float> out;
  float bias;
  unsigned count;
  bool compute() { *out = bias + float(count) + 1.0f; return true; }
};
)";

} // namespace

TEST_CASE("popc --version prints the SDK's version line, whose third field build scripts parse",
          "[codelets][popc]") {
  const Run r = popc("--version");
  REQUIRE(r.status == 0);
  const std::string first = r.output.substr(0, r.output.find('\n'));
  // `popc --version | cut -d ' ' -f3 | head -1`, as public CMake projects read it.
  std::istringstream words(first);
  std::string poplar, version, number;
  words >> poplar >> version >> number;
  CHECK(poplar == "POPLAR");
  CHECK(version == "version");
  int major = -1, minor = -1, patch = -1;
  CHECK(std::sscanf(number.c_str(), "%d.%d.%d", &major, &minor, &patch) == 3);
  CHECK(major == 3);
  CHECK_THAT(first, Catch::Contains("(tessera-" TESSERA_VERSION ")"));
  CHECK_THAT(r.output, Catch::Contains("clang version")); // the compiler's line, as the SDK's
  const Run targets = popc("--list-targets");
  CHECK(targets.status == 0);
  CHECK(targets.output == "ipu1,ipu2,ipu21\n");
}

TEST_CASE("popc accepts the flags public Makefiles pass and rejects unknown targets by name",
          "[codelets][popc]") {
  test::CodeletScratch scratch;
  const auto src = scratch.write("flags_codelets.cpp", test::kSumCodelet);
  const auto gp = scratch / "flags.gp";
  const std::string io = " -o '" + gp.string() + "' '" + src.string() + "'";
  for (const std::string flags :
       {"-O3 -target=ipu2", "--target ipu1,ipu2,ipu21 -O2", "--target=ipu2,ipu21 -DNDEBUG -O2",
        "-O3 -g -Werror -Wdouble-promotion -I .", "-X -ffast-math -O3 --target ipu2",
        "-O2 --target '[\"ipu2\",\"ipu21\"]'"}) {
    INFO(flags);
    const Run r = popc(flags + io);
    CHECK(r.status == 0);
    CHECK(r.output.empty());
    Graph graph(smallDevice().getTarget());
    graph.addCodelets(gp.string());
    CHECK(graph.hasCodelet("Sum"));
  }
  // An IPU code generation flag given with -X is named and skipped.
  const Run skipped = popc("-X -mipu-only" + io);
  CHECK(skipped.status == 0);
  CHECK_THAT(skipped.output, Catch::Contains("-X -mipu-only ignored"));

  const Run bad = popc("--target ipu3" + io);
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Catch::Contains("unknown target 'ipu3'"));
  const auto asm_ = scratch.write("kernel.S", "nop\n");
  const Run assembly = popc("-o x.gp '" + asm_.string() + "'");
  CHECK(assembly.status == 2);
  CHECK_THAT(assembly.output, Catch::Contains("'" + asm_.string() + "' is IPU assembly ('nop')"));
  // -S writes the host's assembly of the codelet.
  const auto s = scratch / "flags.s";
  CHECK(popc("-S -O2 -o '" + s.string() + "' '" + src.string() + "'").status == 0);
  CHECK_THAT(test::readFile(s), Catch::Contains("compute"));
}

TEST_CASE("const, private, protected and never-set state and a declared constructor run as on "
          "the IPU",
          "[codelets][popc]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("state_codelets.cpp", kStateCodelets);
  Device device = smallDevice();
  Graph g(device.getTarget());
  g.addCodelets(file.string());

  auto data = g.addVariable(FLOAT, {3}, "data");
  auto pair = g.addVariable(FLOAT, {2}, "pair");
  auto sum = g.addVariable(FLOAT, {}, "sum");
  auto runs = g.addVariable(UNSIGNED_INT, {}, "runs");
  auto x = g.addVariable(FLOAT, {}, "x");
  auto y = g.addVariable(FLOAT, {}, "y");
  auto cells = g.addVariable(FLOAT, {6}, "cells");
  auto rows = g.addVariable(FLOAT, {2, 2}, "rows");
  auto cellOut = g.addVariable(FLOAT, {2}, "cellOut");
  auto unsetOut = g.addVariable(FLOAT, {}, "unsetOut");
  for (const auto& t : {data, pair, sum, runs, x, y, cells, rows, cellOut, unsetOut})
    g.setTileMapping(t, 0);
  g.setInitialValue(data, std::vector<float>{1, 2, 3});
  g.setInitialValue(pair, std::vector<float>{4, 5});
  g.setInitialValue(runs, 0u);
  g.setInitialValue(x, 1.5f);
  g.setInitialValue(cells, std::vector<float>{1, 2, 3, 4, 5, 6});
  g.setInitialValue(rows, std::vector<float>{10, 20, 30, 40});

  auto cs = g.addComputeSet("state");
  auto scale = g.addVertex(cs, "ConstScale", {{"data", data}});
  g.setInitialValue(scale["factor"], 2.5f);
  auto declared = g.addVertex(cs, "DeclaredConstructor", {{"in", pair}, {"out", sum}});
  auto counter = g.addVertex(cs, "Counter", {{"runs", runs}, {"x", x}, {"y", y}});
  g.setInitialValue(counter["step"], 3u);
  auto cellSum = g.addVertex(cs, "CellSum", {{"cells", cells}, {"out", cellOut}});
  g.setFieldSize(cellSum["rows"], 2);
  g.connect(cellSum["rows"][0], rows[0]);
  g.connect(cellSum["rows"][1], rows[1]);
  auto unset = g.addVertex(cs, "Unset", {{"out", unsetOut}});
  for (const auto& v : {scale, declared, counter, cellSum, unset})
    g.setTileMapping(v, 0);
  const std::vector<std::pair<const char*, Tensor>> reads = {
      {"data", data}, {"sum", sum},         {"runs", runs},
      {"y", y},       {"cellOut", cellOut}, {"unsetOut", unsetOut}};
  for (const auto& [name, t] : reads)
    g.createHostRead(name, t);

  Engine engine(g, Repeat(2, Execute(cs)));
  engine.load(device);
  engine.run();
  std::vector<float> d(3), c(2);
  float s = 0, yy = 0, u = -1;
  unsigned r = 0;
  engine.readTensor("data", d.data(), d.data() + 3);
  engine.readTensor("sum", &s, &s + 1);
  engine.readTensor("runs", &r, &r + 1);
  engine.readTensor("y", &yy, &yy + 1);
  engine.readTensor("cellOut", c.data(), c.data() + 2);
  engine.readTensor("unsetOut", &u, &u + 1);
  CHECK(d == std::vector<float>{1 * 6.25f, 2 * 6.25f, 3 * 6.25f}); // two runs of * 2.5
  CHECK(s == 9.0f);
  CHECK(r == 6u); // the private counter: two runs of step 3
  CHECK(yy == 3.0f);
  CHECK(c == std::vector<float>{1 + 6, 30 + 40});
  CHECK(u == 1.0f); // never-set state reads as zero
}

TEST_CASE("IPU builtins and <ipu_intrinsics> compute on the host what the IPU computes",
          "[codelets][popc][intrinsics]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("intrinsic_codelets.cpp", R"(
#include <ipu_intrinsics>
#include <ipu_builtins.h>
#include <poplar/Vertex.hpp>
using namespace poplar;
class Builtins : public Vertex {
public:
  Input<Vector<float>> in;
  Input<Vector<half>> h;
  Output<Vector<float>> out;
  bool compute() {
    out[0] = __builtin_ipu_exp(in[0]);
    out[1] = __builtin_ipu_sigm(in[1]);
    out[2] = __builtin_ipu_f16tof32(h[0]);
    out[3] = __builtin_ipu_ln(in[2]);
    out[4] = ipu::clamp(in[3], float2{-1.0f, 1.0f});
    out[5] = ipu::andc(float2{in[0], in[1]}, float2{0.0f, in[1]})[0];
    const half2 e = __builtin_ipu_exp(half2{(__fp16)h[0], (__fp16)h[1]});
    out[6] = float(e[1]);
    out[7] = __builtin_ipu_sum(half2{(__fp16)h[0], (__fp16)h[1]});
    out[8] = __builtin_ipu_tanh(in[1]);
    const unsigned a = __builtin_ipu_urand32(), b = __builtin_ipu_urand32();
    out[9] = a != b ? 1.0f : 0.0f;
    return true;
  }
};
)");
  Device device = smallDevice();
  Graph g(device.getTarget());
  g.addCodelets(file.string());
  auto in = g.addVariable(FLOAT, {4}, "in");
  auto h = g.addVariable(HALF, {2}, "h");
  auto out = g.addVariable(FLOAT, {10}, "out");
  for (const auto& t : {in, h, out})
    g.setTileMapping(t, 0);
  const std::vector<float> inputs{0.5f, -1.25f, 3.0f, 7.0f};
  g.setInitialValue(in, inputs);
  g.setInitialValue(h, std::vector<half>{half(1.5f), half(-0.75f)});
  g.createHostRead("out", out);
  auto cs = g.addComputeSet("builtins");
  g.setTileMapping(g.addVertex(cs, "Builtins", {{"in", in}, {"h", h}, {"out", out}}), 0);
  Engine engine(g, Execute(cs));
  engine.load(device);
  engine.run();
  std::vector<float> o(10);
  engine.readTensor("out", o.data(), o.data() + 10);
  CHECK(o[0] == Approx(std::exp(0.5f)));
  CHECK(o[1] == Approx(1.0f / (1.0f + std::exp(1.25f))));
  CHECK(o[2] == 1.5f);
  CHECK(o[3] == Approx(std::log(3.0f)));
  CHECK(o[4] == 1.0f);
  CHECK(o[5] == 0.5f);                                   // 0.5 & ~0.0 keeps every bit
  CHECK(o[6] == Approx(std::exp(-0.75f)).epsilon(1e-3)); // computed in half
  CHECK(o[7] == 0.75f);
  CHECK(o[8] == Approx(std::tanh(-1.25f)));
  CHECK(o[9] == 1.0f);
}

TEST_CASE("popc links .gp files and sources into one .gp, as PopLibs links its partial .gp files",
          "[codelets][popc]") {
  test::CodeletScratch scratch;
  const auto a = scratch.write("add_codelets.cpp", R"(
#include <poplar/Vertex.hpp>
using namespace poplar;
class AddOne : public poplar::Vertex {
public:
  InOut<Vector<float>> x;
  bool compute() { for (unsigned i = 0; i < x.size(); ++i) x[i] += 1.0f; return true; }
};
)");
  const auto b = scratch.write("twice_codelets.cpp", R"(
#include <poplar/Vertex.hpp>
using namespace poplar;
class Twice : public poplar::Vertex {
  InOut<Vector<float>> x; // private, as popc allows
public:
  bool compute() { for (unsigned i = 0; i < x.size(); ++i) x[i] *= 2.0f; return true; }
};
)");
  const auto c = scratch.write("square_codelets.cpp", R"(
#include <poplar/Vertex.hpp>
using namespace poplar;
class Square : public poplar::Vertex {
public:
  InOut<Vector<float>> x;
  bool compute() { for (unsigned i = 0; i < x.size(); ++i) x[i] *= x[i]; return true; }
};
// Its cost shows whether execution is counted: n iterations, whatever its fields' sizes.
class Spin : public poplar::Vertex {
public:
  Input<unsigned> n;
  Output<float> out;
  bool compute() { float v = 1; for (unsigned i = 0; i < n; ++i) v = v * 1.5f + 1; *out = v; return true; }
};
)");
  // PopLibs' assembly: everything under __IPU__, which the host never defines.
  const auto guarded = scratch.write("kernels.S", "// IPU only\n#ifdef __IPU__\n"
                                                  ".section .text.AddOne\n  exitz $m15\n"
                                                  "#endif\n");
  auto q = [](const std::filesystem::path& p) { return " '" + p.string() + "'"; };
  const auto gpA = scratch / "a.gp", gpB = scratch / "b.gp", gpAsm = scratch / "asm.gp";
  const auto all = scratch / "all.gp";
  REQUIRE(popc("-O2 --target '[\"ipu2\"]' -o" + q(gpA) + q(a)).status == 0);
  REQUIRE(popc("-O2 --target '[\"ipu21\"]' -o" + q(gpB) + q(b)).status == 0);
  const Run asmRun = popc("--target ipu2,ipu21 -o" + q(gpAsm) + q(guarded));
  INFO(asmRun.output);
  REQUIRE(asmRun.status == 0);
  // The partial .gp files, a source and a .gp given twice (one part, kept once).
  const Run linked = popc("-O2 -o" + q(all) + q(gpA) + q(gpB) + q(gpAsm) + q(c) + q(gpA));
  INFO(linked.output);
  REQUIRE(linked.status == 0);

  Device device = smallDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(all.string());
  auto x = graph.addVariable(FLOAT, {4}, "x");
  graph.setTileMapping(x, 0);
  graph.setInitialValue(x, std::vector<float>{1, 2, 3, 4});
  Sequence prog;
  for (const char* vertex : {"AddOne", "Twice", "Square"}) {
    ComputeSet cs = graph.addComputeSet(vertex);
    VertexRef v = graph.addVertex(cs, vertex, {{"x", x}});
    graph.setTileMapping(v, 0);
    prog.add(Execute(cs));
  }
  for (unsigned n : {1u, 200u}) {
    const std::string name = "spin" + std::to_string(n);
    auto count = graph.addConstant(UNSIGNED_INT, {}, n, name + "Count");
    auto result = graph.addVariable(FLOAT, {}, name + "Out");
    graph.setTileMapping(count, 1);
    graph.setTileMapping(result, 1);
    ComputeSet cs = graph.addComputeSet(name);
    graph.setTileMapping(graph.addVertex(cs, "Spin", {{"n", count}, {"out", result}}), 1);
    prog.add(Execute(cs));
  }
  graph.createHostRead("x", x);
  Engine engine(graph, prog, {{"debug.instrument", "true"}});
  engine.load(device);
  engine.run(0);
  std::vector<float> out(4);
  engine.readTensor("x", out.data(), out.data() + out.size());
  CHECK(out == std::vector<float>{16, 36, 64, 100}); // ((x + 1) * 2)^2
  // The linked .gp counts what its vertices execute (one counter for all its parts): 200
  // iterations cost more than one, which a field-size estimate would not tell apart.
  std::map<std::string, std::uint64_t> cycles;
  for (const auto& step : engine.getReport().execution().steps())
    for (const auto& cs : step.computeSets())
      cycles[cs.name()] += step.cyclesByTile().at(1);
  CHECK(cycles.at("spin200") > cycles.at("spin1") + 100);

  // A .gp that Tessera's popc did not make, assembly left for the host, one vertex twice, and
  // counted with uncounted parts: each an error naming the file or the vertex.
  const auto foreign = scratch.write("foreign.gp", "not a codelet object");
  const Run notOurs = popc("-o" + q(scratch / "x.gp") + q(foreign));
  CHECK(notOurs.status == 2);
  CHECK_THAT(notOurs.output, Catch::Contains("cannot link '" + foreign.string() + "'"));
  const auto unguarded = scratch.write("unguarded.S", ".section .text\n  exitz $m15\n");
  const Run bare = popc("-o" + q(scratch / "x.gp") + q(gpA) + q(unguarded));
  CHECK(bare.status == 2);
  CHECK_THAT(bare.output,
             Catch::Contains("'" + unguarded.string() + "' is IPU assembly ('.section .text')"));
  CHECK_THAT(bare.output, Catch::Contains("cannot run on the host"));
  const Run twice = popc("-O3 -o" + q(scratch / "x.gp") + q(a) + q(gpA));
  CHECK(twice.status == 2);
  CHECK_THAT(twice.output, Catch::Contains("vertex 'AddOne' is defined twice"));
  const auto plain = scratch / "plain.gp";
  REQUIRE(popc("--no-execution-counts -o" + q(plain) + q(c)).status == 0);
  const Run mixed = popc("-o" + q(scratch / "x.gp") + q(gpA) + q(plain));
  CHECK(mixed.status == 2);
  CHECK_THAT(mixed.output, Catch::Contains("--no-execution-counts"));
}

TEST_CASE("half converts to and from scalar fields and scales half vectors as on the IPU; written "
          "scalar fields update in place",
          "[codelets][popc]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("half_codelets.cpp", R"(
#include <ipudef.h>
#include <ipuvectormath>
#include <poplar/Vertex.hpp>
using namespace poplar;
class FillScale : public Vertex {
public:
  Input<float> value;  // into half elements: one implicit conversion, as on the IPU
  Input<half> factor;  // read as a float
  Output<Vector<half, VectorLayout::ONE_PTR, 8>> out;
  Output<float> norm;
  InOut<unsigned> runs; // updated in place, as public codelets do
  bool compute() {
    runs += 2;
    ++runs;
    runs -= 1;
    for (unsigned i = 0; i < 8; ++i) out[i] = value;
    half4 *v = reinterpret_cast<half4 *>(&out[0]);
    const float f = factor;
    v[0] = (half)f * v[0];      // half times half4
    v[1] = v[1] / half(0.5f) - half(1.0f);
    *norm = ipu::sqrt(float(out[0]) * float(out[0]));
    return true;
  }
};
)");
  Device device = smallDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(file.string());
  auto value = graph.addConstant(FLOAT, {}, 1.5f, "value");
  auto factor = graph.addConstant(HALF, {}, 3.0f, "factor");
  auto out = graph.addVariable(HALF, {8}, "out");
  auto norm = graph.addVariable(FLOAT, {}, "norm");
  auto runs = graph.addVariable(UNSIGNED_INT, {}, "runs");
  graph.setInitialValue(runs, 0u);
  for (const auto& t : {value, factor, out, norm, runs})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("fill");
  VertexRef v = graph.addVertex(
      cs, "FillScale",
      {{"value", value}, {"factor", factor}, {"out", out}, {"norm", norm}, {"runs", runs}});
  graph.setTileMapping(v, 0);
  graph.createHostRead("out", out);
  graph.createHostRead("norm", norm);
  graph.createHostRead("runs", runs);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  engine.run(0);
  unsigned timesTwo = 0;
  engine.readTensor("runs", &timesTwo, &timesTwo + 1);
  CHECK(timesTwo == 4);
  std::vector<std::uint16_t> raw(8);
  engine.readTensor("out", raw.data(), raw.data() + raw.size());
  std::vector<float> halves(8);
  copyDeviceHalfToFloat(device.getTarget(), raw.data(), halves.data(), halves.size());
  CHECK(halves == std::vector<float>{4.5f, 4.5f, 4.5f, 4.5f, 2, 2, 2, 2});
  float n = 0;
  engine.readTensor("norm", &n, &n + 1);
  CHECK(n == 4.5f);
}
