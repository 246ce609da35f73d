// The products of a fully-connected layer's passes (poplin/FullyConnected.hpp). With A the
// activations [G][batch][in] and B the weights [G][in][out], the backward pass multiplies the
// gradients [G][batch][out] by the transposed weights [G][out][in], and the weight update the
// transposed activations [G][in][batch] by the gradients [G][batch][out].
#include <poplin/FullyConnected.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {
namespace fc {

namespace {

MatMulParams product(std::size_t groups, std::size_t rows, std::size_t inner, std::size_t cols,
                     const poplar::Type& type) {
  return {type, type, {groups, rows, inner}, {groups, inner, cols}};
}

std::pair<MatMulParams, poplar::OptionFlags>
withPass(MatMulParams params, poplar::OptionFlags options, const char* pass) {
  options.set("fullyConnectedPass", pass);
  return {std::move(params), std::move(options)};
}

} // namespace

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(FullyConnectedParams p, poplar::OptionFlags matmulOptions,
                           poplar::Type type, bool inferenceOnly) {
  const std::string op = "poplin::fc::getMatMulPrePlanParameters";
  if (!p.numGroups || !p.batchSize || !p.inputSize || !p.outputSize)
    throw poputil::poplibs_error(op + ": numGroups, batchSize, inputSize and outputSize must "
                                      "all be at least 1");
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(op + ": type must be float or half, not " + type.toString());
  std::vector<std::pair<MatMulParams, poplar::OptionFlags>> matmuls;
  matmuls.push_back(withPass(product(p.numGroups, p.batchSize, p.inputSize, p.outputSize, type),
                             matmulOptions, inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD"));
  if (!inferenceOnly) {
    matmuls.push_back(withPass(product(p.numGroups, p.batchSize, p.outputSize, p.inputSize, type),
                               matmulOptions, "TRAINING_BWD"));
    matmuls.push_back(withPass(product(p.numGroups, p.inputSize, p.batchSize, p.outputSize, type),
                               matmulOptions, "TRAINING_WU"));
  }
  return matmuls;
}

} // namespace fc
} // namespace poplin
