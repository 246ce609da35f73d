// What the runtime takes from the engine's options, parsed in session/EngineOptions.cpp. Its own
// header so that option parsing (and the engine-options fuzz target) needs none of the runtime.
#pragma once

namespace poplar::detail::runtime {

struct RuntimeOptions {
  bool floatingPointChecks = false; ///< debug.floatPointOpException
  /// exchange.enablePrefetch with exchange.streamBufferOverlap=none: after each copy from a
  /// host-to-device stream served by a StreamCallback, its prefetch() is offered the next buffer.
  bool streamPrefetch = false;
  /// Host threads executing a compute set's tiles (tessera.threads / TESSERA_THREADS).
  unsigned threads = 1;
};

} // namespace poplar::detail::runtime
