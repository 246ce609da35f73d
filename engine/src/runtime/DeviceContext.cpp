#include "DeviceContext.hpp"

namespace poplar::detail::runtime {

// Thread-local: two engines may run at once on different threads.
FloatingPointControl*& activeFloatingPointControl() {
  thread_local FloatingPointControl* active = nullptr;
  return active;
}

unsigned& runningVertexTile() {
  thread_local unsigned tile = 0;
  return tile;
}

} // namespace poplar::detail::runtime

// ipu_builtins.h: __builtin_ipu_get_tile_id() in a codelet calls this.
extern "C" __attribute__((visibility("default"))) unsigned tessera_device_tile_id() {
  return poplar::detail::runtime::runningVertexTile();
}
