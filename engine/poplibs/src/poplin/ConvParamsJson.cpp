// poplin::operator>>(istream, ConvParams): PopLibs' JSON description of a convolution (the form
// its tools and tests read convolutions from), parsed with nlohmann::json.
#include <istream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <poplin/ConvParams.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace poplin {
namespace {

const std::string kOp = "poplin::operator>>(ConvParams)";

poplar::Type typeNamed(const nlohmann::json& j, const char* key) {
  if (!j.is_string()) throw poputil::poplibs_error(kOp + ": \"" + key + "\" must be a string");
  const std::string name = j.get<std::string>();
  if (name == "half") return poplar::HALF;
  if (name == "float") return poplar::FLOAT;
  throw poputil::poplibs_error(kOp + ": \"" + key + "\" = \"" + name +
                               "\": expected \"half\" or \"float\" (quarter is not simulated)");
}

template <typename T> void readScalar(const nlohmann::json& node, const char* key, T& field) {
  const auto it = node.find(key);
  if (it == node.end()) return;
  if (!it->is_number_unsigned())
    throw poputil::poplibs_error(kOp + ": \"" + key + "\" must be an unsigned integer");
  field = it->get<T>();
}

template <typename T>
void readVector(const nlohmann::json& node, const char* key, std::vector<T>& field) {
  const auto it = node.find(key);
  if (it == node.end()) return;
  if (!it->is_array()) throw poputil::poplibs_error(kOp + ": \"" + key + "\" must be an array");
  std::vector<T> values;
  for (const auto& item : *it) {
    if (std::is_same<T, bool>::value ? !(item.is_boolean() || item.is_number_unsigned())
                                     : !item.is_number_unsigned())
      throw poputil::poplibs_error(kOp + ": \"" + key + "\" must hold unsigned integers");
    values.push_back(item.is_boolean() ? T(item.get<bool>()) : T(item.get<unsigned>()));
  }
  field = std::move(values);
}

void readInputTransform(const nlohmann::json& root, const char* key,
                        ConvParams::InputTransform& t) {
  const auto it = root.find(key);
  if (it == root.end()) return;
  if (!it->is_object()) throw poputil::poplibs_error(kOp + ": \"" + key + "\" must be an object");
  readVector(*it, "truncationLower", t.truncationLower);
  readVector(*it, "truncationUpper", t.truncationUpper);
  readVector(*it, "dilation", t.dilation);
  readVector(*it, "paddingLower", t.paddingLower);
  readVector(*it, "paddingUpper", t.paddingUpper);
  readVector(*it, "flip", t.flip);
}

} // namespace

std::istream& operator>>(std::istream& is, ConvParams& p) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(is);
  } catch (const nlohmann::json::exception& e) {
    throw poputil::poplibs_error(kOp + ": not valid JSON: " + e.what());
  }
  if (!root.is_object()) throw poputil::poplibs_error(kOp + ": expected a JSON object");
  if (root.contains("dataType"))
    p.inputType = p.outputType = typeNamed(root["dataType"], "dataType");
  if (root.contains("inputType")) p.inputType = typeNamed(root["inputType"], "inputType");
  if (root.contains("outputType")) p.outputType = typeNamed(root["outputType"], "outputType");
  readScalar(root, "batchSize", p.batchSize);
  readScalar(root, "numConvGroups", p.numConvGroups);
  readScalar(root, "inputChannelsPerConvGroup", p.inputChannelsPerConvGroup);
  readScalar(root, "outputChannelsPerConvGroup", p.outputChannelsPerConvGroup);
  readVector(root, "inputFieldShape", p.inputFieldShape);
  readVector(root, "kernelShape", p.kernelShape);
  if (p.inputFieldShape.size() != p.kernelShape.size())
    throw poputil::poplibs_error(kOp +
                                 ": input and kernel must have the same number of "
                                 "dimensions, not " +
                                 std::to_string(p.inputFieldShape.size()) + " and " +
                                 std::to_string(p.kernelShape.size()));
  const std::size_t dims = p.inputFieldShape.size();
  p.inputTransform = ConvParams::InputTransform(dims);
  p.kernelTransform = ConvParams::InputTransform(dims);
  p.outputTransform = ConvParams::OutputTransform(dims);
  readInputTransform(root, "inputTransform", p.inputTransform);
  readInputTransform(root, "kernelTransform", p.kernelTransform);
  if (const auto it = root.find("outputTransform"); it != root.end()) {
    if (!it->is_object())
      throw poputil::poplibs_error(kOp + ": \"outputTransform\" must be an object");
    readVector(*it, "truncationLower", p.outputTransform.truncationLower);
    readVector(*it, "truncationUpper", p.outputTransform.truncationUpper);
    readVector(*it, "stride", p.outputTransform.stride);
    readVector(*it, "paddingLower", p.outputTransform.paddingLower);
    readVector(*it, "paddingUpper", p.outputTransform.paddingUpper);
  }
  return is;
}

} // namespace poplin
