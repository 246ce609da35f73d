// Loop counters for codelets: `rptsize_t` is the type PopLibs' and users' codelets give a loop
// count that the IPU's `rpt` (hardware repeat) instruction can take, so that the IPU compiler may
// turn the loop into one. On the host there is no such instruction: any count is fine, and an
// unsigned int never truncates a count the IPU would take.
#pragma once

namespace poplar {
typedef unsigned rptsize_t;
} // namespace poplar

// Codelets name it unqualified, with or without `using namespace poplar;`.
using poplar::rptsize_t;
