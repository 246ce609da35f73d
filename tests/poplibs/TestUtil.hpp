// Helpers shared by the poplibs tests: a graph on a small IPU Model with every library's
// codelets, host values written and read in any element type, and comparisons. Exception
// matchers (test::What) come from tests/common.
#pragma once

#include "common/Exceptions.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <string>
#include <vector>

namespace test {

/// A device of `tiles` tiles, a graph on it with the popops, poplin, popnn and poprand codelets,
/// and a program to add operations to. Inputs are written before the program runs; outputs are
/// read after it, all as floats converted to and from the tensors' element types.
class Harness {
public:
  explicit Harness(unsigned tiles = 16);

  poplar::Graph& graph() { return graph_; }
  poplar::program::Sequence& prog() { return prog_; }

  /// A new variable mapped linearly over the tiles, written with `values` by run().
  poplar::Tensor input(const std::string& name, poplar::Type type,
                       const std::vector<std::size_t>& shape, const std::vector<float>& values);
  /// Writes `values` into the existing tensor `t` before the program runs.
  void write(const std::string& name, const poplar::Tensor& t, const std::vector<float>& values);
  /// Reads `t` after the program runs, into result(name).
  void read(const std::string& name, const poplar::Tensor& t);
  /// Compiles and loads the graph, writes the inputs, runs the program once, reads the outputs.
  void run(const poplar::OptionFlags& engineOptions = {});
  const std::vector<float>& result(const std::string& name) const { return results_.at(name); }

private:
  poplar::Device device_;
  poplar::Graph graph_;
  poplar::program::Sequence prog_;
  std::map<std::string, std::pair<poplar::Type, std::vector<float>>> writes_;
  std::map<std::string, poplar::Tensor> reads_;
  std::map<std::string, std::vector<float>> results_;
};

/// C[g] = A[g] . B[g] for g < G on the host, summed in double: A is [G,M,K], B [G,K,N], C [G,M,N],
/// all row-major (G = 1 for a plain product). The reference the matmul tests compare against.
std::vector<float> hostMatMul(const std::vector<float>& a, const std::vector<float>& b,
                              std::size_t G, std::size_t M, std::size_t K, std::size_t N);

/// `n` values uniformly distributed in [lo, hi), from a fixed seed.
std::vector<float> randomValues(std::size_t n, float lo, float hi, unsigned seed);

/// Matches values within absTol + relTol * |expected[i]| of `expected` element by element (NaN
/// matches NaN); a failure reports how many differ and the first one:
/// CHECK_THAT(h.result("C"), test::CloseTo(expected, 1e-5f))
class CloseTo : public Catch::MatcherBase<std::vector<float>> {
public:
  CloseTo(std::vector<float> expected, float relTol, float absTol = 0.0f)
      : expected_(std::move(expected)), relTol_(relTol), absTol_(absTol) {}
  bool match(const std::vector<float>& got) const override;
  std::string describe() const override;

private:
  std::vector<float> expected_;
  float relTol_, absTol_;
  mutable std::string mismatch_; ///< set by match(), read by describe()
};

} // namespace test
