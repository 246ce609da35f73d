// poputil::graphfn: one body reused for several tensors (outlined as a Call, or inlined).
#include "TestUtil.hpp"

#include <popops/ElementWise.hpp>
#include <poputil/GraphFunction.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
namespace gf = poputil::graphfn;
using Catch::Contains;

namespace {

std::vector<float> plus(std::vector<float> a, const std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] += b[i];
  return a;
}

} // namespace

TEST_CASE("VoidFunction runs one body on several argument sets", "[poputil][graphfn]") {
  const bool inlined = GENERATE(false, true);
  test::Harness h(4);
  const std::vector<float> a1{1, 2, 3, 4, 5, 6}, b1{10, 20, 30, 40, 50, 60};
  const std::vector<float> a2{-1, -2, -3, -4, -5, -6}, b2{0.5f, 1, 1.5f, 2, 2.5f, 3};
  Tensor x1 = h.input("x1", FLOAT, {6}, a1), y1 = h.input("y1", FLOAT, {6}, b1);
  Tensor x2 = h.input("x2", FLOAT, {6}, a2), y2 = h.input("y2", FLOAT, {6}, b2);
  Tensor o1 = h.graph().clone(x1, "o1"), o2 = h.graph().clone(x1, "o2");
  int bodies = 0;
  gf::VoidFunction addInto(
      h.graph(), {gf::input(x1, "a"), gf::inout(y1, "b"), gf::output(x1, "sum")},
      [&](std::vector<Tensor>& args, Sequence& seq) {
        ++bodies;
        popops::addInPlace(h.graph(), args[1], args[0], seq, "body");
        seq.add(Copy(args[1], args[2]));
      },
      inlined, "addInto");
  CHECK(bodies == 1);
  std::vector<Tensor> call1{x1, y1, o1}, call2{x2, y2, o2};
  addInto(call1, h.prog());
  addInto(call2, h.prog());
  CHECK(bodies == 1); // the body is built once, whatever the number of calls
  h.read("y1", y1);
  h.read("o1", o1);
  h.read("y2", y2);
  h.read("o2", o2);
  h.run();
  CHECK(h.result("y1") == plus(a1, b1)); // inout written back
  CHECK(h.result("o1") == plus(a1, b1));
  CHECK(h.result("y2") == plus(a2, b2));
  CHECK(h.result("o2") == plus(a2, b2));
}

TEST_CASE("TensorFunction returns a new tensor per call", "[poputil][graphfn]") {
  test::Harness h(4);
  const std::vector<float> a{1, 2, 3, 4}, b{4, 3, 2, 1};
  Tensor x = h.input("x", FLOAT, {2, 2}, a), y = h.input("y", FLOAT, {2, 2}, b);
  gf::TensorFunction square(
      h.graph(), {gf::input(x, "in")},
      [&](std::vector<Tensor>& args, Sequence& seq, const DebugNameAndId& dnai) {
        return popops::mul(h.graph(), args[0], args[0], seq, {dnai, "square"});
      });
  std::vector<Tensor> args1{x}, args2{y};
  Tensor r1 = square(args1, h.prog());
  Tensor r2 = square(args2, h.prog());
  CHECK(args1.size() == 1); // the hidden created argument is gone again
  CHECK(r1.shape() == x.shape());
  h.read("r1", r1);
  h.read("r2", r2);
  h.run();
  CHECK(h.result("r1") == std::vector<float>{1, 4, 9, 16});
  CHECK(h.result("r2") == std::vector<float>{16, 9, 4, 1});
}

TEST_CASE("ProgramFunction returns the program of a call", "[poputil][graphfn]") {
  test::Harness h(4);
  Tensor x = h.input("x", FLOAT, {3}, {1, 2, 3});
  Tensor out = h.graph().clone(x, "out");
  gf::ProgramFunction negate(h.graph(), {gf::input(x), gf::created("neg")},
                             [&](std::vector<Tensor>& args) {
                               Sequence body;
                               args[1] = popops::neg(h.graph(), args[0], body, "neg");
                               return Program(body);
                             });
  std::vector<Tensor> args{x, Tensor()};
  h.prog().add(negate(args));
  REQUIRE(args[1].valid());
  h.prog().add(Copy(args[1], out));
  h.read("out", out);
  h.run();
  CHECK(h.result("out") == std::vector<float>{-1, -2, -3});
}

TEST_CASE("graph functions reject calls that do not match the signature", "[poputil][graphfn]") {
  test::Harness h(4);
  Tensor x = h.graph().addVariable(FLOAT, {4}, "x");
  poputil::mapTensorLinearly(h.graph(), x);
  gf::VoidFunction f(h.graph(), {gf::inout(x, "x")}, [&](std::vector<Tensor>& args, Sequence& s) {
    popops::negInPlace(h.graph(), args[0], s);
  });
  Tensor wrongShape = h.graph().addVariable(FLOAT, {5}, "w");
  Tensor wrongType = h.graph().addVariable(HALF, {4}, "w");
  std::vector<Tensor> none;
  std::vector<Tensor> shape{wrongShape}, type{wrongType};
  Sequence seq;
  CHECK_THROWS_MATCHES(f(none, seq), poputil::poplibs_error, test::What(Contains("1 arguments")));
  CHECK_THROWS_MATCHES(f(shape, seq), poputil::poplibs_error,
                       test::What(Contains("'x'") && Contains("{5}")));
  CHECK_THROWS_AS(f(type, seq), poputil::poplibs_error);
  // A body that never sets its created argument.
  CHECK_THROWS_MATCHES(
      gf::VoidFunction(h.graph(), {gf::created("result")}, [](std::vector<Tensor>&, Sequence&) {}),
      poputil::poplibs_error, test::What(Contains("'result'")));
}
