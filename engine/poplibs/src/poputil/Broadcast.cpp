#include <algorithm>
#include <poputil/Broadcast.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poputil {
namespace {

std::string shapeString(const std::vector<std::size_t>& s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

/// The common shape of a and b, or false when a dimension differs and neither is 1.
bool commonShape(const std::vector<std::size_t>& a, const std::vector<std::size_t>& b,
                 std::vector<std::size_t>& out) {
  const std::size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::size_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::size_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

void expandRank(poplar::Tensor& t, std::size_t rank) {
  if (t.rank() >= rank) return;
  std::vector<std::size_t> shape(rank - t.rank(), 1);
  shape.insert(shape.end(), t.shape().begin(), t.shape().end());
  t = t.reshape(shape);
}

} // namespace

void expandToMatchRanks(poplar::Tensor& a, poplar::Tensor& b) {
  const std::size_t rank = std::max(a.rank(), b.rank());
  expandRank(a, rank);
  expandRank(b, rank);
}

void broadcastToMatch(poplar::Tensor& a, const std::vector<std::size_t>& shape) {
  if (a.rank() > shape.size())
    throw poplibs_error("poputil::broadcastToMatch: tensor of shape " + a.shapeToString() +
                        " has a higher rank than the shape " + shapeString(shape));
  expandRank(a, shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    if (a.dim(d) == shape[d]) continue;
    if (a.dim(d) != 1)
      throw poplibs_error("poputil::broadcastToMatch: tensor of shape " + a.shapeToString() +
                          " cannot be broadcast to " + shapeString(shape) + " (dimension " +
                          std::to_string(d) + " is neither 1 nor " + std::to_string(shape[d]) +
                          ")");
    a = shape[d] == 0 ? a.slice(0, 0, d) : a.broadcast(unsigned(shape[d]), d);
  }
}

void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b) {
  std::vector<std::size_t> shape;
  if (!commonShape(a.shape(), b.shape(), shape))
    throw poplibs_error("poputil::broadcastToMatch: shapes " + a.shapeToString() + " and " +
                        b.shapeToString() + " do not broadcast to each other");
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
}

void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b, poplar::Tensor& c) {
  std::vector<std::size_t> ab, shape;
  if (!commonShape(a.shape(), b.shape(), ab) || !commonShape(ab, c.shape(), shape))
    throw poplibs_error("poputil::broadcastToMatch: shapes " + a.shapeToString() + ", " +
                        b.shapeToString() + " and " + c.shapeToString() +
                        " do not broadcast to each other");
  broadcastToMatch(a, shape);
  broadcastToMatch(b, shape);
  broadcastToMatch(c, shape);
}

bool canBroadcastToMatch(const poplar::Tensor& a, const poplar::Tensor& b) {
  std::vector<std::size_t> shape;
  return commonShape(a.shape(), b.shape(), shape);
}

} // namespace poputil
