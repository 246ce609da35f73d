// SparsityParams, MatMulParams (dynamic and static) and FullyConnectedParams: construction
// checks, comparisons and printing.
#include <cmath>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparsityParams.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <tuple>

namespace popsparse {
namespace {

std::size_t nonZerosFromRatio(double ratio, std::size_t total, const std::string& op) {
  if (!(ratio > 0.0 && ratio <= 1.0))
    throw poputil::poplibs_error(op + ": nzRatio must be in (0, 1], not " + std::to_string(ratio));
  return std::size_t(std::ceil(ratio * double(total)));
}

void checkNonZeros(std::size_t nz, std::size_t total, const dynamic::SparsityParams& sp,
                   const std::string& op) {
  const std::size_t block = sp.blockDimensions[0] * sp.blockDimensions[1];
  if (block == 0) throw poputil::poplibs_error(op + ": block dimensions must be positive");
  if (nz == 0 || nz > total)
    throw poputil::poplibs_error(op + ": the number of non-zero values must be in [1, " +
                                 std::to_string(total) + "], not " + std::to_string(nz));
  if (nz % block != 0)
    throw poputil::poplibs_error(op + ": " + std::to_string(nz) +
                                 " non-zero values are not a whole number of " +
                                 std::to_string(block) + "-element blocks");
}

/// ceil, forgiving the rounding error of a ratio made from a count (nz / total * total).
std::size_t roundUp(double x) {
  return std::size_t(std::ceil(x - 1e-6));
}

} // namespace

namespace dynamic {

std::ostream& operator<<(std::ostream& os, const SparsityType& t) {
  return os << (t == SparsityType::Element ? "Element" : "Block");
}
std::ostream& operator<<(std::ostream& os, const SparsityStructure&) {
  return os << "Unstructured";
}
static auto key(const SparsityParams& p) {
  return std::make_tuple(p.type, p.structure, p.blockDimensions);
}
bool operator<(const SparsityParams& a, const SparsityParams& b) {
  return key(a) < key(b);
}
bool operator==(const SparsityParams& a, const SparsityParams& b) {
  return key(a) == key(b);
}
bool operator!=(const SparsityParams& a, const SparsityParams& b) {
  return !(a == b);
}
std::ostream& operator<<(std::ostream& os, const SparsityParams& p) {
  return os << "{type: " << p.type << ", structure: " << p.structure
            << ", block: " << p.blockDimensions[0] << "x" << p.blockDimensions[1] << "}";
}

// ---- dynamic::MatMulParams --------------------------------------------------------------------

MatMulParams MatMulParams::createWithNumNonZeroValues(const SparsityParams& sparsityParams,
                                                      std::size_t numNonZeroElems,
                                                      std::size_t groups, std::size_t m,
                                                      std::size_t k, std::size_t n) {
  const std::string op = "popsparse::dynamic::MatMulParams";
  checkNonZeros(numNonZeroElems, groups * m * k, sparsityParams, op);
  MatMulParams p;
  p.sparsityParams = sparsityParams;
  p.groups = groups, p.m = m, p.k = k, p.n = n;
  p.nzRatio = double(numNonZeroElems) / double(groups * m * k);
  return p;
}
MatMulParams MatMulParams::createWithNzRatio(const SparsityParams& sparsityParams, double nzRatio,
                                             std::size_t groups, std::size_t m, std::size_t k,
                                             std::size_t n) {
  const std::string op = "popsparse::dynamic::MatMulParams";
  const std::size_t block = sparsityParams.blockDimensions[0] * sparsityParams.blockDimensions[1];
  std::size_t nz = nonZerosFromRatio(nzRatio, groups * m * k, op);
  if (block > 1) nz = (nz + block - 1) / block * block; // whole blocks
  MatMulParams p = createWithNumNonZeroValues(sparsityParams, nz, groups, m, k, n);
  p.nzRatio = nzRatio;
  return p;
}
double MatMulParams::getNzRatio() const {
  return nzRatio;
}
std::size_t MatMulParams::getNumNonZeroValues() const {
  return roundUp(nzRatio * double(groups * m * k));
}
static auto key(const MatMulParams& p) {
  return std::make_tuple(key(p.getSparsityParams()), p.getNzRatio(), p.getNumGroups(), p.getM(),
                         p.getK(), p.getN());
}
bool operator<(const MatMulParams& a, const MatMulParams& b) {
  return key(a) < key(b);
}
bool operator==(const MatMulParams& a, const MatMulParams& b) {
  return key(a) == key(b);
}
bool operator!=(const MatMulParams& a, const MatMulParams& b) {
  return !(a == b);
}
std::ostream& operator<<(std::ostream& os, const MatMulParams& p) {
  return os << "{sparsity: " << p.getSparsityParams() << ", nzRatio: " << p.getNzRatio()
            << ", groups: " << p.getNumGroups() << ", m: " << p.getM() << ", k: " << p.getK()
            << ", n: " << p.getN() << "}";
}

// ---- FullyConnectedParams ---------------------------------------------------------------------

static std::size_t perGroup(std::size_t channels, std::size_t groups, const char* what) {
  if (groups == 0 || channels % groups != 0)
    throw poputil::poplibs_error(std::string("popsparse::dynamic::FullyConnectedParams: ") + what +
                                 " (" + std::to_string(channels) +
                                 ") must divide into numGroups (" + std::to_string(groups) +
                                 ") equal parts");
  return channels / groups;
}

FullyConnectedParams FullyConnectedParams::createWithNumNonZeroValues(
    const SparsityParams& sparsityParams, std::size_t numNonZeroElems, std::size_t batchSize,
    std::size_t numGroups, std::size_t inputChannels, std::size_t outputChannels) {
  FullyConnectedParams p;
  p.sparsityParams = sparsityParams;
  p.batchSize = batchSize;
  p.numGroups = numGroups;
  p.inputChannelsPerGroup = perGroup(inputChannels, numGroups, "inputChannels");
  p.outputChannelsPerGroup = perGroup(outputChannels, numGroups, "outputChannels");
  const std::size_t total = numGroups * p.inputChannelsPerGroup * p.outputChannelsPerGroup;
  checkNonZeros(numNonZeroElems, total, sparsityParams, "popsparse::dynamic::FullyConnectedParams");
  p.nzRatio = double(numNonZeroElems) / double(total);
  return p;
}
FullyConnectedParams FullyConnectedParams::createWithNzRatio(const SparsityParams& sparsityParams,
                                                             double nzRatio, std::size_t batchSize,
                                                             std::size_t numGroups,
                                                             std::size_t inputChannels,
                                                             std::size_t outputChannels) {
  const std::size_t in = perGroup(inputChannels, numGroups, "inputChannels");
  const std::size_t out = perGroup(outputChannels, numGroups, "outputChannels");
  const std::size_t block = sparsityParams.blockDimensions[0] * sparsityParams.blockDimensions[1];
  std::size_t nz =
      nonZerosFromRatio(nzRatio, numGroups * in * out, "popsparse::dynamic::FullyConnectedParams");
  if (block > 1) nz = (nz + block - 1) / block * block;
  FullyConnectedParams p = createWithNumNonZeroValues(sparsityParams, nz, batchSize, numGroups,
                                                      inputChannels, outputChannels);
  p.nzRatio = nzRatio;
  return p;
}
double FullyConnectedParams::getNzRatio() const {
  return nzRatio;
}
std::size_t FullyConnectedParams::getNumNonZeroValues() const {
  return std::size_t(
      roundUp(nzRatio * double(numGroups * inputChannelsPerGroup * outputChannelsPerGroup)));
}
static auto key(const FullyConnectedParams& p) {
  return std::make_tuple(key(p.getSparsityParams()), p.getNzRatio(), p.getBatchSize(),
                         p.getNumGroups(), p.getInputChannelsPerGroup(),
                         p.getOutputChannelsPerGroup());
}
bool operator<(const FullyConnectedParams& a, const FullyConnectedParams& b) {
  return key(a) < key(b);
}
bool operator==(const FullyConnectedParams& a, const FullyConnectedParams& b) {
  return key(a) == key(b);
}
bool operator!=(const FullyConnectedParams& a, const FullyConnectedParams& b) {
  return !(a == b);
}
std::ostream& operator<<(std::ostream& os, const FullyConnectedParams& p) {
  return os << "{sparsity: " << p.getSparsityParams() << ", nzRatio: " << p.getNzRatio()
            << ", batchSize: " << p.getBatchSize() << ", numGroups: " << p.getNumGroups()
            << ", inputChannels: " << p.getInputChannels()
            << ", outputChannels: " << p.getOutputChannels() << "}";
}

} // namespace dynamic

namespace static_ {

MatMulParams MatMulParams::createForSparseDense(std::size_t groups, std::size_t m, std::size_t k,
                                                std::size_t n) {
  MatMulParams p;
  p.groups = groups, p.m = m, p.k = k, p.n = n, p.transposed = false;
  return p;
}
MatMulParams MatMulParams::createForDenseSparse(std::size_t groups, std::size_t n, std::size_t k,
                                                std::size_t m) {
  MatMulParams p;
  p.groups = groups, p.m = m, p.k = k, p.n = n, p.transposed = true;
  return p;
}
static auto key(const MatMulParams& p) {
  return std::make_tuple(p.getNumGroups(), p.getM(), p.getK(), p.getN(), p.isTransposed());
}
bool operator<(const MatMulParams& a, const MatMulParams& b) {
  return key(a) < key(b);
}
bool operator==(const MatMulParams& a, const MatMulParams& b) {
  return key(a) == key(b);
}
bool operator!=(const MatMulParams& a, const MatMulParams& b) {
  return !(a == b);
}
std::ostream& operator<<(std::ostream& os, const MatMulParams& p) {
  return os << "{" << (p.isTransposed() ? "dense * sparse" : "sparse * dense")
            << ", groups: " << p.getNumGroups() << ", m: " << p.getM() << ", k: " << p.getK()
            << ", n: " << p.getN() << "}";
}

} // namespace static_
} // namespace popsparse
