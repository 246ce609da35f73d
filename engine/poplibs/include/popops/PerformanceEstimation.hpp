// PopLibs' cycle estimators of popops' vertices (PopLibs marks this header internal and liable
// to change; tools and custom planners use it all the same). Each function returns Tessera's
// estimate of the vertex, the same figure the profile charges where Tessera runs that vertex:
// the formulas live once, in Tessera's estimators (engine/poplibs/src/poplibs_support), and
// these are their PopLibs-named entry points.
//
// Differs from PopLibs: Tessera's slicing estimators assume every offset is in range and
// unsorted (numOffsetsInRangePerWorker, offsetsPerDictEntry, indicesAreSorted and
// splitSingleRegion are accepted and do not change the figure), derive sub-word writes from
// the sizes, and have no scale-precision variant; the cast estimators take float, half and the
// 32-bit integer types (char and 64-bit types are a poputil::poplibs_error); the broadcast
// estimators take their loop costs from the binary-operation tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/VectorLayout.hpp>
#include <popops/Expr.hpp>
#include <popops/OperationDef.hpp>
#include <vector>

namespace popops {

namespace internal {

/// The supervisor's cycles of the BinaryOp/UnaryOp MultiVertexes (+2 for ScaledPtr64 fields).
std::uint64_t basicOpSupervisorOverhead(const bool isScaledPtr64Type = false);

/// cyclesPerVector per vector of vectorSize elements over numElems elements.
std::uint64_t basicOpLoopCycles(const unsigned numElems, const unsigned vectorSize,
                                const unsigned cyclesPerVector);

/// A binary operation's inner loop: (cyclesPerVector + overheadPerLoop) per vector of the
/// type's vector width (one element when not `vectorize`).
std::uint64_t binaryOpInnerLoopCycles(const poplar::Target& target, const poplar::Type& type,
                                      const unsigned cyclesPerVector, const bool vectorize,
                                      const unsigned numElems, const std::uint64_t overheadPerLoop);

/// popops::DynamicSlice1d over regionSize elements and numSubElements slices.
std::uint64_t getDynamicSlice1DEstimate(const poplar::Target& target, const poplar::Type& type,
                                        const unsigned regionSize, const unsigned numSubElements);

/// popops::BinaryOp1DInPlace<op,type> over numElems elements, as a MultiVertex.
std::uint64_t getBinaryOp1DInPlaceEstimate(const poplar::Target& target, const poplar::Type& type,
                                           const popops::expr::BinaryOpType op,
                                           const unsigned numElems);

/// The target's figures the MultiSlice estimate needs.
struct MultiSliceTargetParameters {
  MultiSliceTargetParameters(const poplar::Target& target, const poplar::Type& type)
      : atomicWriteSize(target.getAtomicStoreGranularity()),
        dataPathWidth(target.getDataPathWidth()), bytesPerElem(target.getTypeSize(type)),
        numWorkerContexts(target.getNumWorkerContexts()) {}
  unsigned atomicWriteSize;
  unsigned dataPathWidth;
  unsigned bytesPerElem;
  unsigned numWorkerContexts;
};

/// popops::MultiSlice / MultiUpdate with numOffsets offsets of elemsPerSlice elements.
std::uint64_t getMultiSliceCycleEstimate(const MultiSliceTargetParameters& targetParams,
                                         const unsigned elemsPerSlice, const unsigned numOffsets,
                                         const unsigned numOffsetsInRangePerWorker,
                                         const unsigned offsetsPerDictEntry,
                                         const bool isUpdate = false,
                                         const bool indicesAreSorted = false,
                                         const bool splitSingleRegion = false);

/// The target's figures the MultiUpdateOp estimate needs.
struct MultiUpdateOpTargetParameters {
  MultiUpdateOpTargetParameters(const poplar::Target& target, const poplar::Type& type)
      : atomicWriteSize(target.getAtomicStoreGranularity()),
        numWorkerContexts(target.getNumWorkerContexts()), bytesPerElem(target.getTypeSize(type)) {}
  unsigned atomicWriteSize;
  unsigned numWorkerContexts;
  unsigned bytesPerElem;
};

/// popops::MultiUpdateAdd (scaled ADD) or MultiUpdateOp, as a MultiVertex: the worker figure
/// × the contexts.
std::uint64_t getMultiUpdateOpCycleEstimate(const MultiUpdateOpTargetParameters& targetParams,
                                            bool subWordWritesRequired,
                                            const unsigned elemsPerSlice, const unsigned numOffsets,
                                            const unsigned numOffsetsInRangePerWorker,
                                            const unsigned offsetsPerDictEntry, const Operation op,
                                            const bool scaled,
                                            const bool scaleHigherPrecisionThanData = false,
                                            const bool indicesAreSorted = false);

/// The target's figures the cast estimates need.
struct CastTargetParameters {
  CastTargetParameters(const poplar::Target& target, const poplar::Type& fromType,
                       const poplar::Type& toType)
      : numWorkerContexts(target.getNumWorkerContexts()), dataPathWidth(target.getDataPathWidth()),
        fromTypeSize(target.getTypeSize(fromType)), toTypeSize(target.getTypeSize(toType)) {}
  unsigned numWorkerContexts;
  unsigned dataPathWidth;
  unsigned fromTypeSize;
  unsigned toTypeSize;
};

/// Cast2D over regions of elemCounts elements.
std::uint64_t getCast2DCycleEstimate(const CastTargetParameters& targetParams,
                                     const poplar::Type& fromType, const poplar::Type& toType,
                                     std::vector<unsigned>& elemCounts);

/// popops::Cast<From,To> (one worker) over numElems elements.
std::uint64_t getCast1DSingleWorkerCycleEstimate(const CastTargetParameters& targetParams,
                                                 const poplar::Type& fromType,
                                                 const poplar::Type& toType,
                                                 const unsigned numElems);

/// Cast1D (a MultiVertex) over numElems elements.
std::uint64_t getCast1DCycleEstimate(const CastTargetParameters& targetParams,
                                     const poplar::Type& fromType, const poplar::Type& toType,
                                     const unsigned numElems);

/// The target's figure the fill estimates need.
struct FillTargetParameters {
  FillTargetParameters(const poplar::Target& target) : dataPathWidth(target.getDataPathWidth()) {}
  unsigned dataPathWidth;
};

/// popops::Fill<T> over numElems elements.
std::uint64_t getFill1DCycleEstimate(const FillTargetParameters& targetParams,
                                     const poplar::Type& type, const unsigned numElems);

/// Fill2D over regions of numElems elements.
std::uint64_t getFill2DCycleEstimate(const FillTargetParameters& targetParams,
                                     const poplar::Type& type,
                                     const std::vector<unsigned>& numElems);

enum class ScaledArithmeticOp { ADD, SUBTRACT, AXPLUSBY, AXMINUSBY };

/// The target's figures the scaled-arithmetic estimate needs.
struct ScaledArithmeticTargetParameters {
  ScaledArithmeticTargetParameters(const poplar::Target& target, const poplar::Type& dataType)
      : numWorkerContexts(target.getNumWorkerContexts()),
        vectorWidth(target.getVectorWidth(dataType)) {}
  unsigned numWorkerContexts;
  unsigned vectorWidth;
};

/// The ScaledAdd / ScaledSubtract / aXPlusbY / aXMinusbY supervisor vertices over numElems.
std::uint64_t getScaledArithmeticSupervisorCycleEstimate(
    const ScaledArithmeticTargetParameters& targetParams, const poplar::Type& dataType,
    const poplar::Type& dataBType, const bool memConstrained, const ScaledArithmeticOp operation,
    const poplar::layout::Vector& aLayout, const poplar::layout::Vector& bLayout,
    const unsigned numElems);

/// The scalar-broadcast 1D MultiVertexes over dataSize elements.
poplar::VertexPerfEstimate broadcastArithmetic1DCycleEstimate(const poplar::Target& target,
                                                              popops::expr::BinaryOpType op,
                                                              const poplar::Type& inType,
                                                              const poplar::Type& outType,
                                                              bool inPlace, std::size_t dataSize);

/// The scalar-broadcast 2D vertices over regions of `data` elements.
poplar::VertexPerfEstimate broadcastArithmeticCycleEstimate(const poplar::Target& target,
                                                            popops::expr::BinaryOpType op,
                                                            const poplar::Type& inType,
                                                            const poplar::Type& outType,
                                                            bool inPlace, bool uniformScalar,
                                                            const std::vector<std::size_t>& data);

} // namespace internal
} // namespace popops
