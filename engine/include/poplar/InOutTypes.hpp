// The field types of a vertex, Input, Output and InOut, which newer SDKs declare in a header of
// their own and codelets include by this name. Tessera declares them in poplar/Vertex.hpp.
#pragma once

#include <poplar/Vertex.hpp>
