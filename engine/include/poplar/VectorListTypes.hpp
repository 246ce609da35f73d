// The layouts of a vertex's lists of vectors (VectorListLayout), in the header Poplar's codelets
// include for them (public codelets include it beside <poplar/Vertex.hpp>). Tessera declares
// the enumeration with the other field layouts in FieldTypes.hpp.
#pragma once

#include <poplar/FieldTypes.hpp>
