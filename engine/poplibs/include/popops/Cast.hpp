// Element type conversion between FLOAT, HALF, INT, UNSIGNED_INT and BOOL. Floating-point
// values are rounded to nearest (to HALF) or truncated toward zero (to integers); values outside
// the destination's range saturate, and NaN converts to 0. To BOOL, non-zero is true; from BOOL,
// true is 1. Casts to or from BOOL run the fused expression vertex (popops::map::...), so the
// ComputeSet forms do not accept BOOL.
//
// QUARTER (poplar/Quarter.hpp): FLOAT, HALF and QUARTER convert to QUARTER with the forms that
// take a QUARTER_METADATA tensor (its format and scale, read when the program runs; the result
// carries it), or into a QUARTER tensor that has metadata; a QUARTER tensor with metadata
// converts to FLOAT, HALF or (under other metadata) QUARTER with every form. Rounding is to
// nearest, ties to even, once; values beyond the format's range, infinities and NaN give NaN
// (the IPU Model's behaviour: it always has NaN-on-overflow). PopLibs also casts QUARTER to and
// from the char types; Tessera does not.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Program.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popops {

/// A new tensor of `dstType`, mapped like `src`, holding src's values converted.
poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// A new QUARTER tensor (`dstType` must be QUARTER), mapped like `src`, holding src's values in
/// the format and scale of `metadata` (a one-element QUARTER_METADATA tensor), which it keeps.
poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    const poplar::Tensor& metadata, poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = {});

/// A program converting `src` into the existing tensor `dst` of the same shape (a Copy when
/// the types are equal).
poplar::program::Program cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext& debugContext = {});

/// Adds the vertices converting `src` into `dst` (same shape, different types) to `cs`.
void cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst, poplar::ComputeSet cs);

/// A new tensor of `dstType`, mapped like `src`, and the vertices filling it added to `cs`.
poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    poplar::ComputeSet cs, const poplar::DebugContext& debugContext = {});

/// As above, QUARTER with `metadata`: the vertices are added to `cs`.
poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    const poplar::Tensor& metadata, poplar::ComputeSet cs,
                    const poplar::DebugContext& debugContext = {});

/// Converts `src` into the existing tensor `dst`, added to `prog`.
void castWithOutput(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// A one-element BOOL tensor: whether the one-element FLOAT tensor `input` converts to
/// `outputType` (HALF) with a relative error of at most `tolerance` (and without overflow).
poplar::Tensor checkAccuracyWhenCast(poplar::Graph& graph, const poplar::Tensor& input,
                                     poplar::Type outputType, double tolerance,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {});

} // namespace popops
