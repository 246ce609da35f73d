// QUARTER_METADATA tensors for QUARTER tensors (Poplar's poplar/MetadataCreation.hpp; the
// deprecated poputil::createVariableMetadataTensor / createConstantMetadataTensor call these).
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/Tensor.hpp>

namespace poplar {

/// A one-element QUARTER_METADATA variable on tile 0, initialised to (format, scale). A program
/// may write it (as a byte: packQuarterMetadata's layout) to change the casts that read it.
Tensor createVariableMetadataTensor(Graph& graph, QuarterMetadata::Format format, int scale,
                                    const DebugContext& debugContext = {});
/// A one-element QUARTER_METADATA constant holding (format, scale), on tile 0.
Tensor createConstantMetadataTensor(Graph& graph, QuarterMetadata::Format format, int scale,
                                    const DebugContext& debugContext = {});

} // namespace poplar
