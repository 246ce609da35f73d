// popops/PerformanceEstimation.hpp: PopLibs' names for Tessera's vertex estimators. Nothing is
// computed here beyond choosing the estimator and converting PopLibs' parameters; every
// formula is in poplibs_support.
#include "poplibs_support/CycleEstimators.hpp"
#include "poplibs_support/ElementWiseCycleEstimators.hpp"
#include "poplibs_support/ScaledBroadcastCycleEstimators.hpp"
#include "poplibs_support/SliceCycleEstimators.hpp"

#include <popops/ExprOpUtils.hpp>
#include <popops/PerformanceEstimation.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

namespace popops {
namespace internal {

namespace {

std::string opName(expr::BinaryOpType op) {
  using namespace popops::expr::ostream_ext;
  std::ostringstream os;
  os << op;
  return os.str();
}

/// The types Tessera's Cast estimate covers.
void checkCastTypes(const poplar::Type& from, const poplar::Type& to, const std::string& fn) {
  for (const poplar::Type& t : {from, to})
    if (t != poplar::FLOAT && t != poplar::HALF && t != poplar::INT && t != poplar::UNSIGNED_INT &&
        t != poplar::BOOL)
      throw poputil::poplibs_error("popops::internal::" + fn + ": no cast estimate for " +
                                   from.toString() + " to " + to.toString());
}

/// Runs an estimator that reports a missing table entry as std::invalid_argument.
template <typename F> auto estimating(const std::string& fn, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    throw poputil::poplibs_error("popops::internal::" + fn + ": " + e.what());
  }
}

} // namespace

std::uint64_t basicOpSupervisorOverhead(const bool isScaledPtr64Type) {
  return poplibs_support::basicOpSupervisorOverhead(isScaledPtr64Type);
}

std::uint64_t basicOpLoopCycles(const unsigned numElems, const unsigned vectorSize,
                                const unsigned cyclesPerVector) {
  if (vectorSize == 0)
    throw poputil::poplibs_error("popops::internal::basicOpLoopCycles: vectorSize is 0");
  return poplibs_support::basicOpLoopCycles(numElems, vectorSize, cyclesPerVector);
}

std::uint64_t binaryOpInnerLoopCycles(const poplar::Target& target, const poplar::Type& type,
                                      const unsigned cyclesPerVector, const bool vectorize,
                                      const unsigned numElems,
                                      const std::uint64_t overheadPerLoop) {
  return poplibs_support::innerLoopCycles(numElems, vectorize ? target.getVectorWidth(type) : 1,
                                          cyclesPerVector + overheadPerLoop);
}

std::uint64_t getDynamicSlice1DEstimate(const poplar::Target& target, const poplar::Type& type,
                                        const unsigned regionSize, const unsigned numSubElements) {
  return poplibs_support::dynamicSlice1dCycles(target, type, regionSize, numSubElements);
}

std::uint64_t getBinaryOp1DInPlaceEstimate(const poplar::Target& target, const poplar::Type& type,
                                           const popops::expr::BinaryOpType op,
                                           const unsigned numElems) {
  const std::string name = opName(op);
  const auto info = poplibs_support::binaryOpLoopInfo(name, type, true);
  if (!info)
    throw poputil::poplibs_error("popops::internal::getBinaryOp1DInPlaceEstimate: no "
                                 "BinaryOp1DInPlace vertex for " +
                                 name + " on " + type.toString());
  return poplibs_support::binaryOp1DMultiVertexCycles(target, name, type, true, numElems, *info);
}

std::uint64_t getMultiSliceCycleEstimate(const MultiSliceTargetParameters& targetParams,
                                         const unsigned elemsPerSlice, const unsigned numOffsets,
                                         const unsigned, const unsigned, const bool, const bool,
                                         const bool) {
  return poplibs_support::multiSliceCycles(targetParams.dataPathWidth, targetParams.bytesPerElem,
                                           elemsPerSlice, numOffsets);
}

std::uint64_t getMultiUpdateOpCycleEstimate(const MultiUpdateOpTargetParameters& targetParams, bool,
                                            const unsigned elemsPerSlice, const unsigned numOffsets,
                                            const unsigned, const unsigned, const Operation op,
                                            const bool scaled, const bool, const bool) {
  const std::uint64_t worker =
      scaled && op == Operation::ADD
          ? poplibs_support::multiUpdateAddCycles(
                targetParams.atomicWriteSize, targetParams.bytesPerElem,
                targetParams.bytesPerElem == 4, elemsPerSlice, numOffsets)
          : poplibs_support::multiUpdateOpWorkerCycles(
                targetParams.atomicWriteSize, targetParams.bytesPerElem, elemsPerSlice, numOffsets);
  return worker * targetParams.numWorkerContexts;
}

std::uint64_t getCast2DCycleEstimate(const CastTargetParameters& targetParams,
                                     const poplar::Type& fromType, const poplar::Type& toType,
                                     std::vector<unsigned>& elemCounts) {
  checkCastTypes(fromType, toType, "getCast2DCycleEstimate");
  return poplibs_support::cast2DCycles(targetParams.dataPathWidth, fromType, toType, elemCounts);
}

std::uint64_t getCast1DSingleWorkerCycleEstimate(const CastTargetParameters& targetParams,
                                                 const poplar::Type& fromType,
                                                 const poplar::Type& toType,
                                                 const unsigned numElems) {
  checkCastTypes(fromType, toType, "getCast1DSingleWorkerCycleEstimate");
  return poplibs_support::castCycles(targetParams.dataPathWidth, fromType, toType, numElems);
}

std::uint64_t getCast1DCycleEstimate(const CastTargetParameters& targetParams,
                                     const poplar::Type& fromType, const poplar::Type& toType,
                                     const unsigned numElems) {
  checkCastTypes(fromType, toType, "getCast1DCycleEstimate");
  return poplibs_support::cast1DCycles(targetParams.dataPathWidth, targetParams.numWorkerContexts,
                                       fromType, toType, numElems);
}

std::uint64_t getFill1DCycleEstimate(const FillTargetParameters& targetParams,
                                     const poplar::Type& type, const unsigned numElems) {
  return poplibs_support::fillCycles(targetParams.dataPathWidth, type, numElems);
}

std::uint64_t getFill2DCycleEstimate(const FillTargetParameters& targetParams,
                                     const poplar::Type& type,
                                     const std::vector<unsigned>& numElems) {
  return poplibs_support::fill2DCycles(targetParams.dataPathWidth, type, numElems);
}

std::uint64_t getScaledArithmeticSupervisorCycleEstimate(
    const ScaledArithmeticTargetParameters& targetParams, const poplar::Type& dataType,
    const poplar::Type& dataBType, const bool memConstrained, const ScaledArithmeticOp operation,
    const poplar::layout::Vector& aLayout, const poplar::layout::Vector& bLayout,
    const unsigned numElems) {
  if (dataType != poplar::FLOAT && dataType != poplar::HALF && dataType != poplar::INT &&
      dataType != poplar::UNSIGNED_INT)
    throw poputil::poplibs_error("popops::internal::getScaledArithmeticSupervisorCycleEstimate: "
                                 "no estimate for " +
                                 dataType.toString() + " data");
  return poplibs_support::scaledArithmeticSupervisorCycles(
      targetParams.numWorkerContexts, targetParams.vectorWidth, dataType, dataBType, memConstrained,
      poplibs_support::ScaledOp(int(operation)), aLayout, bLayout, numElems);
}

poplar::VertexPerfEstimate broadcastArithmetic1DCycleEstimate(const poplar::Target& target,
                                                              popops::expr::BinaryOpType op,
                                                              const poplar::Type& inType,
                                                              const poplar::Type& outType,
                                                              bool inPlace, std::size_t dataSize) {
  return estimating("broadcastArithmetic1DCycleEstimate", [&] {
    return poplibs_support::broadcastScalar1DCycles(target, opName(op), inType, outType, inPlace,
                                                    dataSize);
  });
}

poplar::VertexPerfEstimate broadcastArithmeticCycleEstimate(const poplar::Target& target,
                                                            popops::expr::BinaryOpType op,
                                                            const poplar::Type& inType,
                                                            const poplar::Type& outType,
                                                            bool inPlace, bool uniformScalar,
                                                            const std::vector<std::size_t>& data) {
  return estimating("broadcastArithmeticCycleEstimate", [&] {
    return poplibs_support::broadcastScalar2DCycles(target, opName(op), inType, outType, inPlace,
                                                    uniformScalar, data);
  });
}

} // namespace internal
} // namespace popops
