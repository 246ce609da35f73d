// How a vertex's vector fields are laid out in tile memory on the IPU. On the IPU a layout
// decides how many bits the field's pointer and size take in the vertex state; the host build
// stores every layout the same way (a pointer and a size), so each one is accepted and the
// code that uses it runs unchanged.
#pragma once

namespace poplar {

enum class VectorLayout {
  ONE_PTR,       ///< a pointer; the size is known to the codelet some other way
  SPAN,          ///< a pointer and a size
  SHORT_SPAN,    ///< a pointer and a size packed into 32 bits
  SCALED_PTR32,  ///< a pointer scaled by 4 bytes
  SCALED_PTR64,  ///< a pointer scaled by 8 bytes
  SCALED_PTR128, ///< a pointer scaled by 16 bytes
  COMPACT_PTR,   ///< a pointer compacted by its alignment
  DELTAN,
  COMPACT_DELTAN
};

/// How a VectorList's sub-vectors are described on the IPU.
enum class VectorListLayout { DELTAN, DELTANELEMENTS, COMPACT_DELTAN };

} // namespace poplar
