// How a vertex field's pointer and size are stored in vertex state, as Poplar names the forms.
// Its own header, as in Poplar. Tessera's vertices hold host pointers, so the layouts matter
// only to cycle estimators that charge the cost of unpacking them (popops/PerformanceEstimation).
#pragma once

namespace poplar {
namespace layout {

/// A vector field (Vector<T>, Input<Vector<T>>, ...).
enum class Vector {
  NotAVector,
  Span,
  ShortSpan,
  OnePtr,
  ScaledPtr32,
  ScaledPtr64,
  ScaledPtr128,
};

/// A list of vectors (Vector<Input<Vector<T>>>, ...).
enum class VectorList {
  NotAVector,
  OnePtr,
  ScaledPtr32,
  ScaledPtr64,
  ScaledPtr128,
  DeltaN,
  DeltaNElements,
};

} // namespace layout
} // namespace poplar
