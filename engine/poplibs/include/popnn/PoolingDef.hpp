// The kinds of pooling popnn implements.
#pragma once

namespace popnn {

/// MAX: the largest element of each window; AVG: the mean of the window's input elements
/// (padding not counted); SUM: their sum.
enum class PoolingType { MAX, AVG, SUM };

} // namespace popnn
