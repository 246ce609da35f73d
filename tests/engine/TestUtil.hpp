// Helpers shared by the engine tests.
#pragma once

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <vector>

namespace test {

/// A small IPU Model device (tiles per IPU and IPUs configurable), quick to compile for.
poplar::Device smallDevice(unsigned tilesPerIPU = 8, unsigned numIPUs = 1);

/// A graph on `device` with the test codelets added.
poplar::Graph makeGraph(const poplar::Device& device, unsigned replicationFactor = 1);

/// For each element of the flattened tensor, its (variable element) index, assuming it is a view
/// of the single variable `base`.
std::vector<std::size_t> elementIndices(const poplar::Tensor& t);

/// Maps every element of `t` to tile (index % numTiles), in blocks of `block`.
void mapRoundRobin(poplar::Graph& g, const poplar::Tensor& t, std::size_t block = 1);

} // namespace test

#include <catch2/catch.hpp>

namespace test {

/// Matches an exception whose what() satisfies a string matcher:
/// CHECK_THROWS_MATCHES(expr, poplar::type_error, test::What(Catch::Contains("float")))
template <typename M> class WhatMatcher : public Catch::MatcherBase<std::exception> {
public:
  explicit WhatMatcher(const M& m) : m_(m) {}
  bool match(const std::exception& e) const override { return m_.match(e.what()); }
  std::string describe() const override { return "has a message that " + m_.toString(); }

private:
  const M& m_; // the matcher lives until the end of the assertion's full expression
};
template <typename M> WhatMatcher<M> What(const M& m) { return WhatMatcher<M>(m); }

} // namespace test
