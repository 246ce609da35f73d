// How much host memory the simulated device may take. The arena of every replica, the remote
// buffers and the stream staging all live in this process: a graph or an executable asking for
// more than the host can give is refused with a poplar_error naming what asked, before anything
// is allocated, instead of an allocation that thrashes the machine or a std::bad_alloc.
#pragma once

#include <cstdint>
#include <string>

namespace poplar::detail::runtime {

/// The most bytes this process may allocate for the device: the smallest of half the physical
/// memory and the address-space and data limits (`ulimit -v`, `ulimit -d`), less 256 MiB for
/// the process itself. TESSERA_HOST_MEMORY_LIMIT (bytes) lowers it further.
std::uint64_t hostMemoryBudget();

/// `a * b` (and `* c`), or UINT64_MAX when it overflows: sizes from files are multiplied
/// without wrapping.
std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b, std::uint64_t c = 1);

/// `a + b`, or UINT64_MAX when it overflows.
std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b);

/// Throws poplar_error "`where`: `what` needs N bytes of host memory; this process can give
/// M" when `bytes` exceeds hostMemoryBudget().
void requireHostMemory(const std::string& where, const std::string& what, std::uint64_t bytes);

} // namespace poplar::detail::runtime
