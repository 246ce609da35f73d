// The engine's host tracepoints (libpvti, channel "Poplar"): the helpers that would clutter
// Engine.cpp. The tracepoints themselves are one line each where the work happens.
#pragma once

#include <functional>
#include <memory>
#include <poplar/StreamCallback.hpp>
#include <string>

namespace poplar::detail::session {

/// Adds the process's resident set size to the "Host memory" graph (series "RSS", MiB) when
/// tracing is on; called between compile phases.
void sampleHostMemory();

/// Stream callbacks that record a "stream callback <handle>" event each time they run.
std::function<void(void*)> traced(const std::string& handle, std::function<void(void*)> f);
std::unique_ptr<StreamCallback> traced(const std::string& handle,
                                       std::unique_ptr<StreamCallback> cb);

} // namespace poplar::detail::session
