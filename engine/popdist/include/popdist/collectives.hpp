// Host-side collectives between the instances of a job (not between replicas: those are gcl's).
#pragma once

#include <cstddef>
#include <poplar/Type.hpp>
#include <string>

namespace popdist {
namespace collectives {

/// Replaces `data` (numElements of `type`) on every instance by root instance `rootRank`'s.
/// `name` only labels errors. Initializes the backend if needed.
void broadcast(void* data, std::size_t numElements, const poplar::Type& type, int rootRank = 0,
               const std::string& name = "");
/// Waits until every instance has called it.
void synchronize();

namespace sequential {
/// As collectives::broadcast, from instance 0.
void broadcast(void* data, std::size_t numElements, const poplar::Type& type);
} // namespace sequential

} // namespace collectives
} // namespace popdist
