// PrintTensor's text, as Poplar lays it out (PrintTensorFmt): scripts written for Poplar grep it.
#include "TestUtil.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iostream>
#include <poplar/PrintTensor.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

/// What the programs built by `make` print, with PrintTensor's stream captured.
struct Printer {
  Device device = test::smallDevice(4);
  Graph graph{device.getTarget()};

  template <typename T>
  Tensor constant(Type type, std::vector<std::size_t> shape, std::vector<T> values) {
    Tensor t = graph.addConstant<T>(type, shape, values);
    graph.setTileMapping(t, 0);
    return t;
  }

  std::string print(const Program& p) {
    Engine e(graph, p);
    std::ostringstream os;
    e.setPrintTensorStream(os);
    e.load(device);
    e.run();
    return os.str();
  }
};

std::vector<float> iota(std::size_t n, float scale = 1) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(i) * scale;
  return v;
}

} // namespace

TEST_CASE_METHOD(Printer, "PrintTensor: a float vector on one line, 8 significant digits",
                 "[print]") {
  Tensor v = constant<float>(FLOAT, {4}, {1, 1.5f, 2, 2.5f});
  CHECK(print(PrintTensor("v1-debug", v)) ==
        "v1-debug: [1.0000000 1.5000000 2.0000000 2.5000000]\n");
  Tensor zeros = constant<float>(FLOAT, {3}, {0, 0, 0});
  CHECK(print(PrintTensor("z", zeros)) == "z: [0.0000000 0.0000000 0.0000000]\n");
}

TEST_CASE_METHOD(Printer, "PrintTensor: a matrix has one row per line, indented by depth",
                 "[print]") {
  Tensor m = constant<float>(FLOAT, {2, 2}, {5, 4.5f, 4, 3.5f});
  CHECK(print(PrintTensor("v3", m)) ==
        "v3: [\n [5.0000000 4.5000000]\n [4.0000000 3.5000000]\n]\n");
  Tensor cube = constant<int>(INT, {2, 1, 2}, {1, 2, 3, 4});
  CHECK(print(PrintTensor("c", cube)) == "c: [\n [\n  [1 2]\n ]\n [\n  [3 4]\n ]\n]\n");
}

TEST_CASE_METHOD(Printer, "PrintTensor: integers and mixed widths are aligned", "[print]") {
  Tensor i = constant<int>(INT, {10}, {10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
  CHECK(print(PrintTensor("v4-1", i)) == "v4-1: [10 11 12 13 14 15 16 17 18 19]\n");
  Tensor mixed = constant<int>(INT, {3}, {7, -2, 40});
  CHECK(print(PrintTensor("counts", mixed)) == "counts: [ 7 -2 40]\n");
  Tensor f = constant<float>(FLOAT, {2, 2}, {1.5f, -2, 3, 40});
  CHECK(print(PrintTensor("w", f)) == "w: [\n [ 1.500000 -2.000000]\n [ 3.000000 40.000000]\n]\n");
}

TEST_CASE_METHOD(Printer, "PrintTensor: without a title, scalars and unsigned types", "[print]") {
  Tensor u = constant<unsigned>(UNSIGNED_INT, {3}, {1, 2, 3});
  CHECK(print(PrintTensor(u)) == "[1 2 3]\n");
  Tensor scalar = constant<float>(FLOAT, {}, {3});
  CHECK(print(PrintTensor("/print-tensor", scalar)) == "/print-tensor: 3.0000000\n");
}

TEST_CASE_METHOD(Printer, "PrintTensor: large and tiny magnitudes switch to scientific",
                 "[print]") {
  Tensor big = constant<float>(FLOAT, {2}, {1.5e9f, -2});
  CHECK(print(PrintTensor("big", big)) == "big: [ 1.5000000e+09 -2.0000000e+00]\n");
  Tensor tiny = constant<float>(FLOAT, {2}, {1e-6f, 1});
  CHECK(print(PrintTensor("tiny", tiny)) == "tiny: [1.0000000e-06 1.0000000e+00]\n");
}

TEST_CASE_METHOD(Printer, "PrintTensor: more elements than the threshold are summarised",
                 "[print]") {
  Tensor v = constant<float>(FLOAT, {2000}, iota(2000));
  CHECK(print(PrintTensor("v", v)) ==
        "v: [   0.0000    1.0000    2.0000 ... 1997.0000 1998.0000 1999.0000]\n");
  Tensor m = constant<float>(FLOAT, {100, 20}, iota(2000));
  const std::string text = print(PrintTensor("m", m));
  CHECK(text.rfind("m: [\n [   0.0000    1.0000    2.0000 ...   17.0000   18.0000   19.0000]\n",
                   0) == 0);
  CHECK_THAT(text, Catch::Contains("\n ...\n"));
  CHECK_THAT(text, Catch::EndsWith(
                       " [1980.0000 1981.0000 1982.0000 ... 1997.0000 1998.0000 1999.0000]\n]\n"));
  // Six rows shown (three at each end), plus the title line, the gap and the closing bracket.
  CHECK(std::count(text.begin(), text.end(), '\n') == 9);
}

TEST_CASE_METHOD(Printer, "PrintTensor: PrintTensorFmt sets format, separator, brackets and width",
                 "[print]") {
  Tensor m = constant<float>(FLOAT, {2, 2}, {1.4962566f, 1.7682219f, 1.0884774f, 1.1320305f});
  using FF = PrintTensorFmt::FloatFormat;
  CHECK(print(PrintTensor("title", m, PrintTensorFmt(1000, 3, 75, 8, FF::Fixed, ';', '(', ')'))) ==
        "title: (\n (1.4962566;1.7682219)\n (1.0884774;1.1320305)\n)\n");
  CHECK(print(PrintTensor("title", m, PrintTensorFmt(1000, 2, 15, 8, FF::Scientific, ','))) ==
        "title: [\n [1.4962566e+00,\n   1.7682219e+00]\n [1.0884774e+00,\n   1.1320305e+00]\n]\n");
  CHECK(print(PrintTensor("title", m, PrintTensorFmt(1000, 3, 75, 0))) ==
        "title: [\n [1.49626 1.76822]\n [1.08848 1.13203]\n]\n");
  Tensor v = constant<float>(FLOAT, {2000}, iota(2000));
  const std::string all = print(PrintTensor("v", v, PrintTensorFmt(0, 3, 0)));
  CHECK(all.find("...") == std::string::npos);
  CHECK(std::count(all.begin(), all.end(), '\n') == 1);
}

TEST_CASE_METHOD(Printer, "PrintTensor: more than 64 digits print as 64 (fuzz_executable X8)",
                 "[print]") {
  // An executable's PrintTensorFmt held 2^31 digits: int arithmetic on them overflowed (UBSan).
  Tensor v = constant<float>(FLOAT, {2}, {1.5f, -0.25f});
  using FF = PrintTensorFmt::FloatFormat;
  for (FF format : {FF::Auto, FF::Fixed, FF::Scientific, FF::None}) {
    const std::string capped = print(PrintTensor("v", v, PrintTensorFmt(1000, 3, 0, 64, format)));
    for (unsigned digits : {65u, 0x80000000u, 0xffffffffu})
      CHECK(print(PrintTensor("v", v, PrintTensorFmt(1000, 3, 0, digits, format))) == capped);
  }
}

TEST_CASE_METHOD(Printer, "PrintTensor: long rows wrap at the line width", "[print]") {
  Tensor v = constant<float>(FLOAT, {20}, iota(20, 0.5f));
  const std::string text = print(PrintTensor("v", v));
  std::istringstream lines(text);
  std::string line;
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    ++count;
    CHECK(line.size() <= 75);
    if (count > 1) CHECK(line.rfind("  ", 0) == 0); // continuation lines are indented
  }
  CHECK(count > 1);
}

TEST_CASE("PrintTensor writes to standard error unless redirected", "[print]") {
  Device device = test::smallDevice(2);
  Graph graph(device.getTarget());
  Tensor t = graph.addConstant<int>(INT, {2}, std::vector<int>{4, 2});
  graph.setTileMapping(t, 1);
  Engine e(graph, PrintTensor("t", t));
  e.load(device);
  std::ostringstream captured;
  std::streambuf* const saved = std::cerr.rdbuf(captured.rdbuf());
  try {
    e.run();
  } catch (...) {
    std::cerr.rdbuf(saved);
    throw;
  }
  std::cerr.rdbuf(saved);
  CHECK(captured.str() == "t: [4 2]\n");
}

TEST_CASE("PrintTensor of an unmapped tensor is a graph error naming the tensor",
          "[print][errors]") {
  Device device = test::smallDevice(2);
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(FLOAT, {3}, "loose");
  CHECK_THROWS_MATCHES(Engine(graph, PrintTensor("t", t)), poplar_error,
                       test::What(Catch::Contains("loose")));
}
