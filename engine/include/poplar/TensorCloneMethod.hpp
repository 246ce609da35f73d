// How Graph::clone lays out the new variable. Its own header, as in Poplar.
#pragma once

namespace poplar {

enum class TensorCloneMethod {
  PRESERVE_ORDER_AND_ALIASES,
  PRESERVE_ORDER_UNLESS_ALIASES,
  CREATE_NEW_ORDER
};

} // namespace poplar
