// The independent reading of serialized_graph.capnp the libpva tests compare against: the file
// decoded with Cap'n Proto's own stream reader and the schema, field by field, with no libpva code.
#pragma once

#include <pva/SerializedGraph.hpp>
#include <string>

namespace test {

/// Checks (Catch CHECK/REQUIRE) that `g` holds exactly what the file at `path` holds: every
/// vertex when `vertices`, and each compute set's vertex count, tiles and variables either way.
void checkAgainstRawCapnp(const pva::SerializedGraph& g, const std::string& path,
                          bool vertices = true);

} // namespace test
