// Debug information of PopLibs operations, as PopLibs' poputil/DebugInfo.hpp gives it: an op
// (built-in or user-written) records its arguments and outputs as ProfileValues and makes what
// it creates under a context of layer "poplibs" with the op's type, shown by the profile's debug
// information and the viewer's Operations view.
//
//   poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(a, b, options));
//   auto out = popops::add(graph, a, b, prog, {di});
//   di.addOutput(out);
//
// Differs from PopLibs: the op's context is a child named after `api` (PopLibs keeps the
// caller's path), and the values stay on the DebugInfo (getValues()) rather than in debug.cbor.
#pragma once

#include <array>
#include <cstddef>
#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/DebugInfo.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <utility>
#include <vector>

// PopLibs' switch for taking the calling function's name as the default `api`.
#if defined(__clang__)
#define SUPPORTS_FUNCTION_BUILTINS __has_builtin(__builtin_FUNCTION)
#elif __GNUC__ >= 7
#define SUPPORTS_FUNCTION_BUILTINS 1
#else
#define SUPPORTS_FUNCTION_BUILTINS 0
#endif

namespace poputil {

/// A value as a debug record shows it. Specialised below for numbers, strings and Poplar's
/// objects; containers and pointers map onto those.
template <typename T> poplar::ProfileValue toProfileValue(const T& t);

template <> poplar::ProfileValue toProfileValue(const int& v);
template <> poplar::ProfileValue toProfileValue(const unsigned int& v);
template <> poplar::ProfileValue toProfileValue(const unsigned long& v);
template <> poplar::ProfileValue toProfileValue(const unsigned char& v);
template <> poplar::ProfileValue toProfileValue(const bool& v);
template <> poplar::ProfileValue toProfileValue(const float& v);
template <> poplar::ProfileValue toProfileValue(const double& v);
template <> poplar::ProfileValue toProfileValue(const long long& v);
template <> poplar::ProfileValue toProfileValue(const unsigned long long& v);
template <> poplar::ProfileValue toProfileValue(const std::string& v);
template <> poplar::ProfileValue toProfileValue(const poplar::ComputeSet& t);
template <> poplar::ProfileValue toProfileValue(const poplar::OptionFlags& t);
template <> poplar::ProfileValue toProfileValue(const poplar::program::Copy& t);
template <> poplar::ProfileValue toProfileValue(const poplar::program::Sequence& t);
/// A tensor as {"shape": [...], "type": "float"}.
template <> poplar::ProfileValue toProfileValue(const poplar::Tensor& t);
template <> poplar::ProfileValue toProfileValue(const poplar::Type& t);
template <> poplar::ProfileValue toProfileValue(const poplar::TensorCloneMethod& t);
template <> poplar::ProfileValue toProfileValue(const std::vector<bool>& vec);

/// A null pointer is "<nullptr>", any other the value it points to.
template <typename T> poplar::ProfileValue toProfileValue(const T* t) {
  return t == nullptr ? poplar::ProfileValue("<nullptr>") : toProfileValue(*t);
}
template <typename T> poplar::ProfileValue toProfileValue(T* const& t) {
  return t == nullptr ? poplar::ProfileValue("<nullptr>") : toProfileValue(*t);
}

/// A vector as a map keyed "0", "1", ... (as PopLibs records it).
template <typename T> poplar::ProfileValue toProfileValue(const std::vector<T>& vec) {
  poplar::ProfileValue::Map v;
  for (std::size_t i = 0; i < vec.size(); ++i)
    v.insert({std::to_string(i), toProfileValue(vec[i])});
  return v;
}

template <typename T> poplar::ProfileValue toProfileValue(const poplar::ArrayRef<T>& vec) {
  poplar::ProfileValue::Vector v;
  for (std::size_t i = 0; i < vec.size(); ++i)
    v.push_back(toProfileValue(vec[i]));
  return v;
}

template <typename T1, typename T2>
poplar::ProfileValue toProfileValue(const std::pair<T1, T2>& pair) {
  poplar::ProfileValue::Map v;
  v.insert({"first", toProfileValue(pair.first)});
  v.insert({"second", toProfileValue(pair.second)});
  return v;
}

template <typename T, std::size_t N>
poplar::ProfileValue toProfileValue(const std::array<T, N>& array) {
  poplar::ProfileValue::Map v;
  for (std::size_t i = 0; i < N; ++i)
    v.insert({std::to_string(i), toProfileValue(array[i])});
  return v;
}

/// One named argument of an op (what DI_ARGS makes).
class ArgType {
public:
  std::string n;
  poplar::ProfileValue pv;

  ArgType(const std::string& name, const poplar::ProfileValue& value) : n(name), pv(value) {}
  ArgType(const std::pair<std::string, const poplar::ProfileValue>& p) : n(p.first), pv(p.second) {}
};

/// The debug record of an operation of any library: layer "poplibs", value "api".
class OpDebugInfo : public poplar::DebugInfo {
public:
  OpDebugInfo(const poplar::DebugContext& debugContext, std::string api);
  OpDebugInfo& operator=(const OpDebugInfo&) = delete;
  OpDebugInfo(const OpDebugInfo&) = delete;
  virtual ~OpDebugInfo() = default;

  /// Sets `name` to a map of the arguments (a name already set is left as it was).
  void add(std::string name, const std::vector<ArgType>& args);
  void add(std::string name, poplar::ProfileValue pv);

protected:
  /// Tessera: the op's own context, a child named `api` with op type `api`.
  OpDebugInfo(const poplar::DebugContext& debugContext, std::string api,
              poplar::SourceLocation loc);
};

/// The debug record of a PopLibs operation: its arguments ("args") and outputs ("outputs").
/// `api` defaults to the calling function's name and is the op type reports show.
class PoplibsOpDebugInfo : public OpDebugInfo {
public:
#if SUPPORTS_FUNCTION_BUILTINS
  PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                     const std::vector<ArgType>& args = {},
                     const std::string& api = __builtin_FUNCTION(),
                     poplar::SourceLocation loc = poplar::SourceLocation::Current());
#else
  PoplibsOpDebugInfo(const poplar::DebugContext& debugContext,
                     const std::vector<ArgType>& args = {}, const std::string& api = "",
                     poplar::SourceLocation loc = poplar::SourceLocation::Current());
#endif
  PoplibsOpDebugInfo& operator=(const PoplibsOpDebugInfo&) = delete;
  PoplibsOpDebugInfo(const PoplibsOpDebugInfo&) = delete;
  virtual ~PoplibsOpDebugInfo() = default;

  void addOutputs(const std::vector<ArgType>& outputs);
  /// The one output of an op, recorded as outputs.output.
  void addOutput(const poplar::Tensor& output);
};

} // namespace poputil

// DI_ARGS(a, b, c) is {{"a", toProfileValue(a)}, {"b", ...}, {"c", ...}}: an op's arguments by
// their names in the source, for PoplibsOpDebugInfo's constructor (up to 16 arguments).
#define DI_STR(S) #S
#define DI_XSTR(S) DI_STR(S)

#define DI_NUM_ARGS(...)                                                                           \
  DI_NUM_ARGS_IMPL(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define DI_NUM_ARGS_IMPL(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, \
                         ...)                                                                      \
  N

#define DI_CONCAT_IMPL(x, y) x##y
#define DI_MACRO_CONCAT(x, y) DI_CONCAT_IMPL(x, y)

#define DI_KEY_VALUE_ARG_0()                                                                       \
  {}
#define DI_KEY_VALUE_ARG_1(T)                                                                      \
  { DI_XSTR(T), poputil::toProfileValue(T) }
#define DI_KEY_VALUE_ARG_2(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_1(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_3(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_2(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_4(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_3(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_5(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_4(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_6(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_5(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_7(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_6(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_8(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_7(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_9(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_8(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_10(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_9(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_11(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_10(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_12(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_11(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_13(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_12(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_14(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_13(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_15(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_14(__VA_ARGS__)
#define DI_KEY_VALUE_ARG_16(T, ...) DI_KEY_VALUE_ARG_1(T), DI_KEY_VALUE_ARG_15(__VA_ARGS__)
#define DI_KEY_VALUE_ARG(...)                                                                      \
  DI_MACRO_CONCAT(DI_KEY_VALUE_ARG_, DI_NUM_ARGS(__VA_ARGS__))(__VA_ARGS__)

#define DI_ARGS(...)                                                                               \
  { DI_KEY_VALUE_ARG(__VA_ARGS__) }
