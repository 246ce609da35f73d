// The kind of sparsity a dynamically sparse operand has: element-wise or in blocks.
#pragma once

#include <array>
#include <cstddef>
#include <ostream>
#include <tuple>
#include <utility>

namespace popsparse {
namespace dynamic {

enum class SparsityType {
  Element, ///< each non-zero value stands alone
  Block,   ///< non-zero values come in blocks of blockDimensions
};
std::ostream& operator<<(std::ostream& os, const SparsityType& t);

/// How the non-zero values are spread; only unstructured sparsity exists.
enum class SparsityStructure { Unstructured };
std::ostream& operator<<(std::ostream& os, const SparsityStructure& s);

struct SparsityParams {
  SparsityType type;
  SparsityStructure structure;
  /// [rows, columns] of a block; {1, 1} for element-wise sparsity.
  std::array<std::size_t, 2> blockDimensions;

  /// The type follows the block dimensions (Element for {1, 1}, Block otherwise), whatever
  /// type_ says, as in PopLibs.
  SparsityParams(SparsityType type_ = SparsityType::Element,
                 SparsityStructure structure_ = SparsityStructure::Unstructured,
                 std::array<std::size_t, 2> blockDimensions_ = {1, 1})
      : type(blockDimensions_[0] * blockDimensions_[1] == 1 ? SparsityType::Element
                                                            : SparsityType::Block),
        structure(structure_), blockDimensions(blockDimensions_) {
    (void)type_;
  }
  SparsityParams(const SparsityParams&) = default;
  // Declared with the copy constructor PopLibs declares, so copies assign without
  // -Wdeprecated-copy.
  SparsityParams& operator=(const SparsityParams&) = default;

  friend bool operator<(const SparsityParams& a, const SparsityParams& b);
  friend bool operator==(const SparsityParams& a, const SparsityParams& b);
  friend bool operator!=(const SparsityParams& a, const SparsityParams& b);
  friend std::ostream& operator<<(std::ostream& os, const SparsityParams& p);
};

} // namespace dynamic
} // namespace popsparse
