// What a user hands the graph (issue 40): constants and initial values of every type from
// values of every host type, and names of any bytes. Each gives a tensor or a poplar_error,
// never undefined behaviour (UBSan's float-cast-overflow found N3 here). Oracles:
//   - an integer value stored into an integer type reads back as the value modulo 2^bits (as
//     C++ converts integers), whatever the value;
//   - Graph::serialize(JSON) of a name succeeds exactly when the name is UTF-8, and the JSON
//     then parses back to the same name; Binary always succeeds, and pva::openSerializedGraph
//     gives the name back whole (NUL bytes included: N6).
//
// Input: [selector] [host type] [device type] [name length] [name bytes] [values...]
#include "graph/Convert.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <poplar/Device.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <pva/Exception.hpp>
#include <pva/SerializedGraph.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using poplar::Type;

const Type kTypes[] = {
    poplar::FLOAT,          poplar::HALF, poplar::INT,         poplar::UNSIGNED_INT,  poplar::SHORT,
    poplar::UNSIGNED_SHORT, poplar::CHAR, poplar::SIGNED_CHAR, poplar::UNSIGNED_CHAR, poplar::BOOL};

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "==fuzz oracle== %s\n", what.c_str());
  std::abort();
}

poplar::Device& device() {
  static poplar::Device d = [] {
    poplar::IPUModel model;
    model.tilesPerIPU = 4;
    return model.createDevice();
  }();
  return d;
}

template <typename T> std::vector<T> valuesOf(const std::uint8_t* p, std::size_t n) {
  std::vector<T> v(n / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), p, v.size() * sizeof(T));
  return v;
}

/// Adds the values as a constant and as an initial value; a poplar_error is an answer.
template <typename T> void addValues(Type type, const std::vector<T>& values, bool scalar) {
  if (values.empty()) return;
  poplar::Graph g(device().getTarget());
  try {
    if (scalar) {
      poplar::Tensor c = g.addConstant(type, {1}, values[0]);
      g.setTileMapping(c, 0);
    } else {
      poplar::Tensor c = g.addConstant(type, {values.size()}, values);
      g.setTileMapping(c, 0);
      poplar::Tensor v = g.addVariable(type, {values.size()}, "v");
      g.setTileMapping(v, 1);
      g.setInitialValue(v, values);
    }
  } catch (const poplar::poplar_error&) {
  }
}

/// The integer oracle, on the conversion the graph uses (graph/Convert.hpp).
void checkIntegerConversion(Type type, std::int64_t value) {
  unsigned bits = 0;
  bool isSigned = false;
  switch (type.id()) {
  case Type::Id::Int:
    bits = 32, isSigned = true;
    break;
  case Type::Id::UnsignedInt:
    bits = 32;
    break;
  case Type::Id::Short:
    bits = 16, isSigned = true;
    break;
  case Type::Id::UnsignedShort:
    bits = 16;
    break;
  case Type::Id::SignedChar:
    bits = 8, isSigned = true;
    break;
  case Type::Id::UnsignedChar:
    bits = 8;
    break;
  default:
    return;
  }
  // Integers beyond 2^53 are not exact as doubles, which the values pass through.
  if (value > (std::int64_t(1) << 53) || value < -(std::int64_t(1) << 53)) return;
  unsigned char stored[8] = {};
  poplar::detail::graph::storeFromDouble(type, stored, 0, double(value));
  const double back = poplar::detail::graph::loadAsDouble(type, stored, 0);
  const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
  std::uint64_t low = std::uint64_t(value) & mask;
  std::int64_t expected = std::int64_t(low);
  if (isSigned && (low >> (bits - 1))) expected = std::int64_t(low) - std::int64_t(mask) - 1;
  if (back != double(expected))
    finding(std::to_string(value) + " stored as " + type.toString() + " reads back as " +
            std::to_string(back) + ", not " + std::to_string(expected));
}

bool isUtf8(const std::string& s) {
  // Independent of the engine's check: nlohmann's strict dump refuses exactly what is not.
  try {
    (void)nlohmann::json(s).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

void checkName(const std::string& name) {
  poplar::Graph g(device().getTarget());
  poplar::Tensor v = g.addVariable(poplar::FLOAT, {4}, name);
  g.setTileMapping(v, 0);
  std::ostringstream json;
  bool wrote = true;
  try {
    g.serialize(json, poplar::SerializationFormat::JSON);
  } catch (const poplar::poplar_error&) {
    wrote = false;
  }
  if (wrote != isUtf8(name))
    finding(std::string("Graph::serialize(JSON) ") + (wrote ? "wrote" : "refused") +
            " a name that is " + (wrote ? "not " : "") + "UTF-8");
  // An empty name is no name: the graph gives the variable one of its own ("var<N>", as the
  // profile needs a name), which both formats must then carry.
  std::string expected = name;
  if (wrote) {
    const auto doc = nlohmann::json::parse(json.str());
    const std::string back = doc.at("variables").at(0).at("name").get<std::string>();
    if (name.empty() ? back.empty() : back != name) finding("a name came back from JSON changed");
    expected = back;
  }
  static const std::string path =
      "/tmp/tessera-fuzz-graph-values-" + std::to_string(getpid()) + ".capnp";
  {
    std::ofstream out(path, std::ios::binary);
    g.serialize(out, poplar::SerializationFormat::Binary);
  }
  const pva::SerializedGraph read = pva::openSerializedGraph(path);
  if (read.variables.size() != 1 || read.variables[0].name != expected ||
      read.variables[0].name.empty())
    finding("a name came back from a serialized graph changed");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint8_t selector = data[0];
  const unsigned hostType = data[1] % 6, deviceType = data[2] % 10;
  const std::size_t nameLength = std::min<std::size_t>(data[3], size - 4);
  const std::string name(reinterpret_cast<const char*>(data + 4), nameLength);
  const std::uint8_t* values = data + 4 + nameLength;
  const std::size_t n = std::min<std::size_t>(size - 4 - nameLength, 256);
  const Type type = kTypes[deviceType];
  const bool scalar = selector & 1;
  switch (hostType) {
  case 0:
    addValues(type, valuesOf<float>(values, n), scalar);
    break;
  case 1:
    addValues(type, valuesOf<int>(values, n), scalar);
    break;
  case 2:
    addValues(type, valuesOf<unsigned>(values, n), scalar);
    break;
  case 3:
    addValues(type, valuesOf<short>(values, n), scalar);
    break;
  case 4:
    addValues(type, valuesOf<unsigned char>(values, n), scalar);
    break;
  case 5:
    addValues(type, valuesOf<signed char>(values, n), scalar);
    break;
  }
  for (std::int64_t v : valuesOf<std::int64_t>(values, n))
    checkIntegerConversion(type, v);
  if (selector & 2) checkName(name);
  return 0;
}
