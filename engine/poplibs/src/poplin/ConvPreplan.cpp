// poplin::preplan: the convolutions through preplanConvolutions, the products as matMul plans
// them (their 1x1-convolution plans), into one cache, after checking that every entry is for a
// machine of the same size (PopLibs plans them jointly for one target).
#include "MatMulOptions.hpp"

#include <poplin/ConvPreplan.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poplin {

void preplan(const std::set<ConvPlanParams>& convs, const std::set<MatMulPlanParams>& matmuls,
             PlanningCache& cache) {
  const std::string op = "poplin::preplan";
  const poplar::Target* first = nullptr;
  auto check = [&](const poplar::Target* target) {
    if (!target) throw poputil::poplibs_error(op + ": an entry has a null target");
    if (!first) first = target;
    if (target->getNumTiles() != first->getNumTiles() ||
        target->getTilesPerIPU() != first->getTilesPerIPU())
      throw poputil::poplibs_error(
          op + ": entries must have matching machine parameters; one target has " +
          std::to_string(first->getNumTiles()) + " tiles, another " +
          std::to_string(target->getNumTiles()));
  };
  for (const auto& c : convs)
    check(std::get<0>(c));
  for (const auto& m : matmuls)
    check(std::get<0>(m));
  preplanConvolutions(convs, cache);
  preplanMatMulsInto(matmuls, cache, op);
}

} // namespace poplin
