#include <poputil/DebugInfo.hpp>

namespace poputil {

template <> poplar::ProfileValue toProfileValue(const int& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned int& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned long& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned char& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const bool& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const float& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const double& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const long long& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const unsigned long long& v) {
  return v;
}
template <> poplar::ProfileValue toProfileValue(const std::string& v) {
  return v;
}

template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet& t) {
  return poplar::ProfileValue::Map{{"computeSet", t.getId()}};
}

template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags& t) {
  poplar::ProfileValue::Map options;
  for (const auto& option : t)
    options.insert({option.first, option.second});
  return options;
}

// Programs are recorded by kind only: their contents are in the profile's program tree.
template <> poplar::ProfileValue toProfileValue(const poplar::program::Copy&) {
  return poplar::ProfileValue("Copy");
}
template <> poplar::ProfileValue toProfileValue(const poplar::program::Sequence&) {
  return poplar::ProfileValue("Sequence");
}

template <> poplar::ProfileValue toProfileValue(const poplar::Tensor& t) {
  poplar::ProfileValue::Vector shape;
  for (auto d : t.shape())
    shape.push_back(d);
  return poplar::ProfileValue::Map{{"shape", std::move(shape)},
                                   {"type", t.elementType().toString()}};
}

template <> poplar::ProfileValue toProfileValue(const poplar::Type& t) {
  return t.toString();
}

template <> poplar::ProfileValue toProfileValue(const poplar::TensorCloneMethod& t) {
  switch (t) {
  case poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES:
    return "PRESERVE_ORDER_AND_ALIASES";
  case poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES:
    return "PRESERVE_ORDER_UNLESS_ALIASES";
  case poplar::TensorCloneMethod::CREATE_NEW_ORDER:
    return "CREATE_NEW_ORDER";
  }
  return "<unknown>";
}

template <> poplar::ProfileValue toProfileValue(const std::vector<bool>& vec) {
  poplar::ProfileValue::Map v;
  for (std::size_t i = 0; i < vec.size(); ++i)
    v.insert({std::to_string(i), bool(vec[i])});
  return v;
}

OpDebugInfo::OpDebugInfo(const poplar::DebugContext& debugContext, std::string api)
    : poplar::DebugInfo(debugContext, "poplibs") {
  setValue("api", std::move(api));
}

OpDebugInfo::OpDebugInfo(const poplar::DebugContext& debugContext, std::string api,
                         poplar::SourceLocation loc)
    : poplar::DebugInfo(debugContext, "poplibs", api, loc) {
  setValue("api", std::move(api));
}

void OpDebugInfo::add(std::string name, const std::vector<ArgType>& args) {
  poplar::ProfileValue::Map m;
  for (const auto& a : args)
    m.insert({a.n, a.pv});
  setValue(std::move(name), std::move(m));
}

void OpDebugInfo::add(std::string name, poplar::ProfileValue pv) {
  setValue(std::move(name), std::move(pv));
}

PoplibsOpDebugInfo::PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                                       const std::vector<ArgType>& args, const std::string& api,
                                       poplar::SourceLocation loc)
    : OpDebugInfo(debugContext, api, loc) {
  if (!args.empty()) add("args", args);
}

void PoplibsOpDebugInfo::addOutputs(const std::vector<ArgType>& outputs) {
  add("outputs", outputs);
}

void PoplibsOpDebugInfo::addOutput(const poplar::Tensor& output) {
  add("outputs", {ArgType("output", toProfileValue(output))});
}

} // namespace poputil
