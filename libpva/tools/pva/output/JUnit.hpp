// JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters): one <testsuite> with one
// <testcase> per gated quantity, a <failure> when it grew too much, <skipped/> when not gated.
#pragma once

#include "Gate.hpp"

#include <iosfwd>
#include <string>

namespace pvacli {

/// `name` is the suite name ("pva compare BASE NEW").
void writeJUnit(std::ostream& out, const std::string& name, const std::vector<GateCheck>& checks);

/// Escapes &, <, >, " and ' for XML text and attributes; drops control characters XML 1.0
/// forbids (a compute set name could hold anything).
std::string xmlEscape(const std::string& s);

} // namespace pvacli
