// The spelling codelets use when the SDK's include directory is on their path
// (`#include <StackSizeDefs.hpp>`, as PopLibs' and research codelets do): the same macros as
// <poplar/StackSizeDefs.hpp>.
#pragma once

#include <poplar/StackSizeDefs.hpp>
