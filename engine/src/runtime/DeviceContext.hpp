// What device code may ask about where it runs: the tile of the running vertex (for
// __builtin_ipu_get_tile_id, ipu_builtins.h) and the floating-point control register of the
// simulated tiles (poplar/CSRFunctions.hpp). The runtime sets both before it runs a vertex.
#pragma once

#include <cstdint>

namespace poplar::detail::runtime {

/// The control register of one tile.
struct FloatingPointControl {
  enum Bit : std::uint32_t { Inv = 1, Div0 = 2, Oflo = 4, Esr = 8, Nanoo = 16 };
  std::uint32_t bits = 0; ///< the engine starts with every exception off, as Tessera always has
  bool stopsOnNaN() const { return bits & Inv; }
  bool stopsOnInfinity() const { return bits & (Oflo | Div0); }
};

/// The control of the tile whose vertex is running (null outside a compute set).
FloatingPointControl*& activeFloatingPointControl();
/// The tile of the running vertex.
unsigned& runningVertexTile();

} // namespace poplar::detail::runtime
