// The streams a host function's arguments travel over (Graph::addHostFunction makes them,
// program::Call(HostFunction) copies over them, Engine::connectHostFunction serves them): one
// name for the three, "<handle>.hostfn.in<i>" and "<handle>.hostfn.out<j>" (docs/engine.md).
#pragma once

#include <cstddef>
#include <string>

namespace poplar::detail::graph {

inline std::string hostFunctionStream(const std::string& handle, bool input, std::size_t index) {
  return handle + (input ? ".hostfn.in" : ".hostfn.out") + std::to_string(index);
}

} // namespace poplar::detail::graph
