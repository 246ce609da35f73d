// Running another program (a sample) from a test, its output discarded.
#pragma once

#include <string>

namespace test {

/// Runs `command` with /bin/sh, output discarded; returns its exit status (-1: killed by a signal).
int runProgram(const std::string& command);

} // namespace test
