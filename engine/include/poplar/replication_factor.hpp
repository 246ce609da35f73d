// The replication factor of a graph, as a type of its own so that Graph(target,
// replication_factor(n)) cannot be mistaken for another unsigned argument.
#pragma once

namespace poplar {

struct replication_factor {
  explicit replication_factor(unsigned v) : value(v) {}
  unsigned value;
};

} // namespace poplar
