// The formats Graph::serialize writes.
#pragma once

namespace poplar {

enum class SerializationFormat {
  Binary, ///< the Cap'n Proto SerializedGraph message, as serialized_graph.capnp holds it
  JSON    ///< the same content as a JSON object
};

} // namespace poplar
