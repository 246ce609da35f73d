// Checking what exceptions say: the message of an expected exception, and a Catch matcher on
// an exception's what().
#pragma once

#include <catch2/catch.hpp>
#include <exception>
#include <string>

namespace test {

/// Runs f and returns the message of the E it throws; fails the test when it throws nothing.
template <class E, class F> std::string messageOf(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL("expected an exception, none was thrown");
  return {};
}

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
template <typename M> WhatMatcher<M> What(const M& m) {
  return WhatMatcher<M>(m);
}

} // namespace test
