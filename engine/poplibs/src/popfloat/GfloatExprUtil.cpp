#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poputil/exceptions.hpp>

namespace popfloat {
namespace experimental {

namespace {
[[noreturn]] void notAValue(const char* function, const char* kind, int value) {
  throw poputil::poplibs_error(std::string("popfloat::experimental::") + function + ": " +
                               std::to_string(value) + " is not a " + kind);
}
} // namespace

std::string roundTypeToString(RoundType rmode) {
  switch (rmode) {
  case RoundType::INV:
    return "INV";
  case RoundType::RZ:
    return "RZ";
  case RoundType::RN:
    return "RN";
  case RoundType::RA:
    return "RA";
  case RoundType::RU:
    return "RU";
  case RoundType::RD:
    return "RD";
  case RoundType::SR:
    return "SR";
  case RoundType::SX:
    return "SX";
  }
  notAValue("roundTypeToString", "RoundType", static_cast<int>(rmode));
}

std::string formatTypeToString(FormatType fmt) {
  switch (fmt) {
  case FormatType::INVALID_FORMAT:
    return "INVALID_FORMAT";
  case FormatType::IEEE_FP16:
    return "IEEE_FP16";
  case FormatType::QUANTISED_FP32:
    return "QUANTISED_FP32";
  case FormatType::QUANTISED_FP16:
    return "QUANTISED_FP16";
  case FormatType::MIN_NORM_ALIGN_GF8:
    return "MIN_NORM_ALIGN_GF8";
  case FormatType::ONE_FIVE_TWO_GF8:
    return "ONE_FIVE_TWO_GF8";
  case FormatType::MAX_NORM_ALIGN_GF8:
    return "MAX_NORM_ALIGN_GF8";
  case FormatType::BFLOAT16:
    return "BFLOAT16";
  case FormatType::NO_DENORM_GF16:
    return "NO_DENORM_GF16";
  case FormatType::ENABLE_DENORM_GF16:
    return "ENABLE_DENORM_GF16";
  }
  notAValue("formatTypeToString", "FormatType", static_cast<int>(fmt));
}

std::string srDensityTypeToString(SRDensityType dist) {
  switch (dist) {
  case SRDensityType::INVALID:
    return "INVALID";
  case SRDensityType::UNIFORM:
    return "UNIFORM";
  case SRDensityType::NORMAL:
    return "NORMAL";
  case SRDensityType::TRUNCATED_NORMAL:
    return "TRUNCATED_NORMAL";
  case SRDensityType::BERNOULLI:
    return "BERNOULLI";
  case SRDensityType::LOGISTIC:
    return "LOGISTIC";
  case SRDensityType::TRUNCATED_LOGISTIC:
    return "TRUNCATED_LOGISTIC";
  case SRDensityType::LAPLACE:
    return "LAPLACE";
  case SRDensityType::TRUNCATED_LAPLACE:
    return "TRUNCATED_LAPLACE";
  case SRDensityType::LOGIT_NORMAL:
    return "LOGIT_NORMAL";
  case SRDensityType::TRUNCATED_LOGIT_NORMAL:
    return "TRUNCATED_LOGIT_NORMAL";
  }
  notAValue("srDensityTypeToString", "SRDensityType", static_cast<int>(dist));
}

std::string specTypeToString(SpecType specType) {
  switch (specType) {
  case SpecType::FP32:
    return "FP32";
  case SpecType::BF16:
    return "BF16";
  case SpecType::FP16:
    return "FP16";
  case SpecType::INT8:
    return "INT8";
  case SpecType::INT16:
    return "INT16";
  case SpecType::INT32:
    return "INT32";
  case SpecType::AUTO:
    return "AUTO";
  }
  notAValue("specTypeToString", "SpecType", static_cast<int>(specType));
}

poplar::Type specTypeToPoplarType(SpecType specType) {
  switch (specType) {
  case SpecType::FP32:
  case SpecType::BF16: // bfloat16 values are kept in a FLOAT, as PopLibs keeps them
    return poplar::FLOAT;
  case SpecType::FP16:
    return poplar::HALF;
  case SpecType::INT8:
    return poplar::SIGNED_CHAR;
  case SpecType::INT16:
    return poplar::SHORT;
  case SpecType::INT32:
    return poplar::INT;
  case SpecType::AUTO:
    throw poputil::poplibs_error("popfloat::experimental::specTypeToPoplarType: SpecType::AUTO "
                                 "has no fixed Poplar type (the cast's format decides it)");
  }
  notAValue("specTypeToPoplarType", "SpecType", static_cast<int>(specType));
}

} // end namespace experimental
} // end namespace popfloat
