// Names of popfloat's kinds, and their spelling in vertex template arguments
// (poputil::templateVertex("...", RoundType::RN) names "popfloat::experimental::RoundType::RN").
#pragma once

#include <popfloat/experimental/GfloatExpr.hpp>
#include <poplar/Type.hpp>
#include <poputil/VertexTemplates.hpp>
#include <string>

namespace popfloat {
namespace experimental {

/// The enumerator's name ("RN", "BFLOAT16", "UNIFORM", "FP16"); a value outside the enumeration
/// throws poputil::poplibs_error.
std::string roundTypeToString(RoundType rmode);
std::string formatTypeToString(FormatType fmt);
std::string srDensityTypeToString(SRDensityType dist);
std::string specTypeToString(SpecType specType);

/// The Poplar type a cast's output is stored in: FP32 and BF16 give FLOAT, FP16 HALF, INT32 INT,
/// INT16 SHORT, INT8 SIGNED_CHAR. AUTO has no fixed type and throws poputil::poplibs_error.
poplar::Type specTypeToPoplarType(SpecType specType);

} // end namespace experimental
} // end namespace popfloat

namespace poputil {

template <> struct VertexTemplateToString<popfloat::experimental::RoundType> {
  static std::string to_string(const popfloat::experimental::RoundType& rmode) {
    return "popfloat::experimental::RoundType::" + popfloat::experimental::roundTypeToString(rmode);
  }
};

template <> struct VertexTemplateToString<popfloat::experimental::FormatType> {
  static std::string to_string(const popfloat::experimental::FormatType& fmt) {
    return "popfloat::experimental::FormatType::" + popfloat::experimental::formatTypeToString(fmt);
  }
};

template <> struct VertexTemplateToString<popfloat::experimental::SRDensityType> {
  static std::string to_string(const popfloat::experimental::SRDensityType& dist) {
    return "popfloat::experimental::SRDensityType::" +
           popfloat::experimental::srDensityTypeToString(dist);
  }
};

template <> struct VertexTemplateToString<popfloat::experimental::SpecType> {
  static std::string to_string(const popfloat::experimental::SpecType& spec) {
    return "popfloat::experimental::SpecType::" + popfloat::experimental::specTypeToString(spec);
  }
};

} // namespace poputil
