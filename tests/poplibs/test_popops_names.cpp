// popops' naming helpers: OperationDefUtil.hpp and ExprOpUtils.hpp.
#include "TestUtil.hpp"

#include <popops/ExprOpUtils.hpp>
#include <popops/OperationDefUtil.hpp>
#include <sstream>

TEST_CASE("reduction operations print and name vertex templates as PopLibs", "[popops]") {
  CHECK(std::string(poputil::asString(popops::Operation::SQUARE_ADD)) == "Square Add");
  CHECK(std::string(poputil::asString(popops::Operation::LOGICAL_OR)) == "Logical Or");
  CHECK(poputil::templateVertex("popops::Reduce", popops::Operation::MAX, poplar::HALF) ==
        "popops::Reduce<popops::Operation::MAX,half>");
  CHECK_THROWS_AS(poputil::asString(static_cast<popops::Operation>(99)), poputil::poplibs_error);
}

TEST_CASE("expression operators print their names", "[popops]") {
  using namespace popops::expr::ostream_ext;
  std::ostringstream os;
  os << popops::expr::UnaryOpType::SQRT << ' ' << popops::expr::BinaryOpType::GREATER_THAN << ' '
     << popops::expr::TernaryOpType::CLAMP;
  CHECK(os.str() == "SQRT GREATER_THAN CLAMP");
}
