// The vertex of sequenceSlice (PopLibs' name and fields): runs of rows of regionSize elements
// copied from srcT to dstT at the offsets the run table holds at run time.
#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Vector;

template <typename T> class SequenceSlice : public poplar::SupervisorVertex {
public:
  Input<Vector<T>> srcT;
  InOut<Vector<T>> dstT;
  Input<Vector<unsigned>> nElementsT;
  Input<Vector<unsigned>> srcOffsetT;
  Input<Vector<unsigned>> dstOffsetT;
  unsigned regionSize;
  bool compute() {
    const std::size_t srcRows = srcT.size() / regionSize, dstRows = dstT.size() / regionSize;
    for (std::size_t i = 0; i < nElementsT.size(); ++i) {
      const std::size_t n = nElementsT[i], from = srcOffsetT[i], to = dstOffsetT[i];
      if (n == 0) break;
      if (from + n > srcRows || to + n > dstRows) return false; // a run outside a tensor
      std::copy_n(&srcT[from * regionSize], n * regionSize, &dstT[to * regionSize]);
    }
    return true;
  }
  // PopLibs' estimate: 60 to call, every worker copying an equal share of the smaller tensor
  // (assumed copied whole) at 4 bytes per 2 cycles, in rounds of 6 runs, and 60 per run.
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const std::uint64_t runs = v.getFieldInfo("nElementsT").size();
    if (v.getFieldInfo("srcOffsetT").size() == 0 || runs == 0) return 40;
    const std::uint64_t elements =
        std::min(v.getFieldInfo("srcT").size(), v.getFieldInfo("dstT").size());
    const std::uint64_t bytes = elements * sizeof(T);
    const std::uint64_t perWorker = (bytes / 4 * 2 + runs - 1) / runs;
    const std::uint64_t workers = target.getNumWorkerContexts();
    const std::uint64_t rounds = (runs + workers - 1) / workers;
    return 60 + perWorker * workers * rounds + runs * 60;
  }
};

#define POPOPS_SEQUENCE_SLICE(T, Name)                                                             \
  using SequenceSlice_##T = SequenceSlice<T>;                                                      \
  TESSERA_VERTEX_IN("popops", "popops::SequenceSlice<" Name ">", SequenceSlice_##T, srcT, dstT,    \
                    nElementsT, srcOffsetT, dstOffsetT, regionSize)

using Unsigned = unsigned;
POPOPS_SEQUENCE_SLICE(float, "float");
POPOPS_SEQUENCE_SLICE(half, "half");
POPOPS_SEQUENCE_SLICE(int, "int");
POPOPS_SEQUENCE_SLICE(Unsigned, "unsigned int");

} // namespace
} // namespace popops
