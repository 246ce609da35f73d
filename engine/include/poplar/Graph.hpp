// The graph: variables and constants with their tile mappings, compute sets of vertices,
// host handles, streams, remote buffers and functions.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <iostream>
#include <map>
#include <memory>
#include <numeric> // std::iota, std::accumulate: Poplar's Graph.hpp brings them
#if __cplusplus >= 201703L
#include <optional> // as Poplar's headers bring it (C++17 and later)
#endif
#include <poplar/ArrayRef.hpp>
#include <poplar/CodeletFileType.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Program.hpp>
#include <poplar/SerializationFormat.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/VariableMappingMethod.hpp>
#include <poplar/Version.hpp>
#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp> // poplar_error & co. are visible from Graph.hpp, as in Poplar
#include <poplar/replication_factor.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {

class Device;

namespace detail {
/// Host values of arithmetic types with no device type (double, long double) are given to the
/// graph as float, as Poplar accepts them.
template <typename T> struct HostValue { using type = T; };
template <> struct HostValue<double> { using type = float; };
template <> struct HostValue<long double> { using type = float; };

/// `n` host values as the graph reads them: the values themselves, or float copies of them.
template <typename T> struct DeviceValues {
  using D = typename HostValue<T>::type;
  DeviceValues(const T* values, std::size_t n) : type(TypeOf<D>::value) {
    if (std::is_same<T, D>::value) {
      data = values;
    } else {
      converted.reset(new D[n ? n : 1]); // not a vector: std::vector<bool> has no data()
      std::copy(values, values + n, converted.get());
      data = converted.get();
    }
  }
  std::unique_ptr<D[]> converted;
  const void* data = nullptr;
  Type type;
};
} // namespace detail

class Graph {
public:
  /// For each tile, the intervals of the flattened tensor mapped to it.
  using TileToTensorMapping = std::vector<std::vector<Interval>>;

  /// One entry of addVertex's connection list: a field and a tensor, a list of tensors (the
  /// edges of a Vector<...> field), or a plain value (connected as connect(field, value) does).
  class ConnectionDesc {
  public:
    ConnectionDesc(StringRef field, Tensor t) : field_(field), tensors_{std::move(t)} {}
    ConnectionDesc(StringRef field, ArrayRef<Tensor> ts)
        : field_(field), isList_(true), tensors_(ts.begin(), ts.end()) {}
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                             std::is_same<T, half>::value>::type>
    ConnectionDesc(StringRef field, T value)
        : field_(field), valueType_(TypeOf<typename detail::HostValue<T>::type>::value) {
      const typename detail::HostValue<T>::type v = static_cast<decltype(v)>(value);
      static_assert(sizeof(v) <= sizeof(value_), "value too large");
      std::memcpy(value_, &v, sizeof(v));
    }

  private:
    friend class Graph;
    std::string field_;
    bool isList_ = false;
    std::vector<Tensor> tensors_;
    Type valueType_; ///< valid for a plain value
    unsigned char value_[8] = {};
  };

  Graph(const Target& target, replication_factor r = replication_factor(1))
      : Graph(target, r.value) {}
  Graph(const Device& device, replication_factor r = replication_factor(1))
      : Graph(device, r.value) {}
  /// Tessera's older spelling of the above (Poplar's replication_factor is explicit).
  Graph(const Target& target, unsigned replicationFactor);
  Graph(const Device& device, unsigned replicationFactor);

  /// The target of one replica (of this virtual graph): tiles are numbered from 0.
  const Target& getTarget() const { return target_; }
  unsigned getReplicationFactor() const;

  /// Makes a codelet file's vertices available to addVertex. A C++ source is compiled for the
  /// host (with __POPC__ defined, cached per user; see docs/engine.md), a .gp made by popc is
  /// loaded. The path is tried as given, then in the executable's directory. A library name
  /// such as "popops", or a file whose vertices are compiled into the program with
  /// TESSERA_VERTEX, enables those vertices. compileFlags: extra -I, -D, -O flags.
  /// targetName (an IPU architecture for Poplar's compiler) is accepted and not used: Tessera
  /// compiles codelets for the host.
  bool addCodelets(const std::string& src, CodeletFileType type = CodeletFileType::Auto,
                   const std::string& compileFlags = "", const std::string& targetName = "");
  /// As above; the compiler's messages are also written to compileOutput.
  bool addCodelets(const std::string& src, CodeletFileType type, const std::string& compileFlags,
                   std::ostream& compileOutput, const std::string& targetName = "");
  /// A C++ codelet source (or a .gp object) read from a stream.
  void addCodelets(std::istream& stream, CodeletFileType type = CodeletFileType::Auto,
                   const std::string& compileFlags = "", const std::string& targetName = "");
  /// As above; the compiler's messages are also written to compileOutput.
  void addCodelets(std::istream& stream, CodeletFileType type, const std::string& compileFlags,
                   std::ostream& compileOutput, const std::string& targetName = "");
  /// Several codelet files, each as addCodelets(file, Auto, compileFlags).
  void addCodelets(const std::vector<std::string>& files, const std::string& compileFlags = "",
                   const std::string& targetName = "");

  Tensor addVariable(Type type, ArrayRef<std::size_t> shape, const DebugContext& debugContext = {});
  Tensor addVariable(Type type, ArrayRef<std::size_t> shape, VariableMappingMethod mapping,
                     const DebugContext& debugContext = {});
  /// A variable spread over the graph's tiles as VariableMappingMethod::LINEAR spreads it.
  Tensor addLinearlyMappedVariable(const Type& type, ArrayRef<std::size_t> shape,
                                   const DebugContext& debugContext = {});
  /// The same with at least minElementsPerTile elements on each tile used, in whole grains of
  /// grainSize elements.
  Tensor addLinearlyMappedVariable(const Type& type, ArrayRef<std::size_t> shape,
                                   unsigned minElementsPerTile, unsigned grainSize,
                                   const DebugContext& debugContext = {});
  /// A constant filled with `values` (numElements of them) or with one repeated value.
  template <typename T>
  Tensor addConstant(Type type, ArrayRef<std::size_t> shape, const T* values,
                     const DebugContext& debugContext = {}) {
    std::size_t n = 1;
    for (auto d : shape)
      n *= d;
    detail::DeviceValues<T> v(values, n);
    return addConstantFrom(type, shape, v.type, v.data, true, debugContext);
  }
  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                           std::is_same<T, half>::value>::type>
  Tensor addConstant(Type type, ArrayRef<std::size_t> shape, T value,
                     const DebugContext& debugContext = {}) {
    detail::DeviceValues<T> v(&value, 1);
    return addConstantFrom(type, shape, v.type, v.data, false, debugContext);
  }
  template <typename T>
  Tensor addConstant(Type type, ArrayRef<std::size_t> shape, ArrayRef<T> values,
                     const DebugContext& debugContext = {}) {
    checkValueCount(shape, values.size(), "addConstant");
    detail::DeviceValues<T> v(values.data(), values.size());
    return addConstantFrom(type, shape, v.type, v.data, true, debugContext);
  }
  // A vector as it is (Alloc keeps a braced list from choosing this over ArrayRef<T>).
  template <typename T, typename Alloc>
  Tensor addConstant(Type type, ArrayRef<std::size_t> shape, const std::vector<T, Alloc>& values,
                     const DebugContext& debugContext = {}) {
    return addConstant(type, shape, ArrayRef<T>(values), debugContext);
  }
  /// A HALF constant from IEEE half bit patterns: one repeated value, or one per element.
  Tensor addConstantHalf(Type type, ArrayRef<std::size_t> shape, std::uint16_t value,
                         const DebugContext& debugContext = {});
  Tensor addConstantHalf(Type type, ArrayRef<std::size_t> shape, const std::uint16_t* values,
                         const DebugContext& debugContext = {});
  /// An UNSIGNED_INT scalar constant holding, in each replica, that replica's index (0 to the
  /// replication factor - 1).
  Tensor addReplicationIndexConstant(const DebugContext& debugContext = {});
  /// A copy of `t`'s shape and tile mapping as a new variable.
  Tensor clone(const Tensor& t, const DebugContext& debugContext = {},
               TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  Tensor clone(Type type, const Tensor& t, const DebugContext& debugContext = {});

  /// The value a variable holds when the engine loads (converted to the tensor's type).
  template <typename T> void setInitialValue(const Tensor& t, ArrayRef<T> values) {
    checkValueCount(t.shape(), values.size(), "setInitialValue");
    detail::DeviceValues<T> v(values.data(), values.size());
    setInitialValueFrom(t, v.type, v.data, true);
  }
  template <typename T, typename Alloc>
  void setInitialValue(const Tensor& t, const std::vector<T, Alloc>& values) {
    setInitialValue(t, ArrayRef<T>(values));
  }
  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                           std::is_same<T, half>::value>::type>
  void setInitialValue(const Tensor& t, T value) {
    detail::DeviceValues<T> v(&value, 1);
    setInitialValueFrom(t, v.type, v.data, false);
  }
  /// The value of a scalar state member of a vertex; an integer of another integer type than
  /// the member's is converted to it (as an implicit C++ conversion would).
  template <typename T> void setInitialValue(const FieldRef& field, T value) {
    detail::DeviceValues<T> v(&value, 1);
    setFieldValue(field, v.type, v.data, v.type.size());
  }
  /// HALF initial values from IEEE half bit patterns.
  void setInitialValueHalf(const Tensor& t, std::uint16_t value);
  void setInitialValueHalf(const Tensor& t, ArrayRef<std::uint16_t> values);

  void setTileMapping(const Tensor& t, unsigned tile);
  void setTileMapping(const Tensor& t, const TileToTensorMapping& mapping);
  void setTileMapping(VertexRef v, unsigned tile);
  /// Throws invalid_tile_mapping when `requireComplete` and some element is unmapped.
  TileToTensorMapping getTileMapping(const Tensor& t, bool requireComplete = true) const;
  /// The tiles holding at least one element of `t`.
  std::vector<unsigned> getTilesOf(const Tensor& t) const;

  ComputeSet addComputeSet(const DebugContext& debugContext = {});
  /// True when addVertex can make a vertex of this type: a codelet source this graph added
  /// (addCodelets, or a library's addCodelets(graph)) defines it.
  bool hasCodelet(StringRef vertexType) const;
  VertexRef addVertex(ComputeSet cs, const std::string& vertexType);
  /// A vertex with its fields connected: {{"in", tensor}, {"edges", tensors}, {"scale", 0.5f}}.
  VertexRef addVertex(ComputeSet cs, const std::string& vertexType,
                      ArrayRef<ConnectionDesc> connections);
  /// Connects a field to a tensor. A 2-D (or higher) tensor connected to a Vector<...> field of
  /// edges (Vector<Input<Vector<T>>>, VectorList) connects each row as one edge.
  void connect(const FieldRef& field, const Tensor& tensor);
  /// Connects the edges of a Vector<...> field, setting its size.
  void connect(const FieldRef& field, const std::vector<Tensor>& tensors);
  /// Connects a field to a constant holding `value` (converted to the field's element type),
  /// placed on the vertex's tile.
  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                           std::is_same<T, half>::value>::type>
  void connect(const FieldRef& field, T value) {
    detail::DeviceValues<T> v(&value, 1);
    connectConstant(field, v.type, v.data);
  }
  void setFieldSize(const FieldRef& field, std::size_t size);
  /// The vertex's cycle estimate and, for profiler.includeFlopEstimates, its floating-point
  /// operations per execution (0: none).
  void setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t flops = 0);
  void setPerfEstimate(const VertexRef& v, const VertexPerfEstimate& estimate) {
    setPerfEstimate(v, estimate.cycles, estimate.flops);
  }
  /// Older SDKs' name for setPerfEstimate(v, cycles).
  void setCycleEstimate(const VertexRef& v, std::uint64_t cycles) { setPerfEstimate(v, cycles); }
  /// A cycle estimator for every vertex of a type that has none of its own.
  void registerPerfEstimator(const std::string& vertexType, PerfEstimateFunc f);

  void createHostWrite(const std::string& handle, const Tensor& t, bool rearrangeOnHost = false);
  void createHostRead(const std::string& handle, const Tensor& t, bool rearrangeOnHost = false);
  DataStream addHostToDeviceFIFO(const std::string& handle, Type type, std::size_t numElements,
                                 ReplicatedStreamMode mode = ReplicatedStreamMode::REPLICATE,
                                 const OptionFlags& options = {});
  DataStream addDeviceToHostFIFO(const std::string& handle, Type type, std::size_t numElements,
                                 const OptionFlags& options = {});
  RemoteBuffer addRemoteBuffer(const std::string& handle, Type type, std::size_t numElements,
                               std::size_t repeats = 1, bool rearrangeOnHost = false,
                               bool optimiseMemory = false);

  /// A graph over tiles [lowerTile, upperTile) of this one, numbered from 0; shares all objects.
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile) const;
  Function addFunction(const program::Program& program);
  /// A function the host runs when a program::Call of it is reached; its callback is connected
  /// with Engine::connectHostFunction(handle, ...). Arguments are (type, element count).
  HostFunction addHostFunction(StringRef handle, ArrayRef<HostFunctionArgument> inputs,
                               ArrayRef<HostFunctionArgument> outputs);

  /// Writes the graph's structure (variables and their mapping, compute sets and vertices,
  /// streams, programs) as JSON, for tools that inspect a graph without running it
  /// (docs/compatibility.md). Poplar writes its own formats; this one is Tessera's.
  void serialize(std::ostream& out, SerializationFormat format) const;
  void serialize(std::ostream& out, ArrayRef<program::Program> programs,
                 SerializationFormat format) const;

  /// Graphviz (dot) drawings for looking at a graph: the vertex graph has a node per vertex and
  /// per variable, with an edge for each field connection; the compute graph a node per compute
  /// set (in the order `programs` execute them, when given) and per variable each reads or writes.
  void outputVertexGraph(std::ostream& out, ArrayRef<program::Program> programs = {}) const;
  void outputComputeGraph(std::ostream& out, ArrayRef<program::Program> programs = {}) const;

  // Tessera extensions, used by the engine and by tooling.
  const std::shared_ptr<detail::GraphState>& state() const { return state_; }
  /// First global tile of this (virtual) graph within a replica.
  unsigned tileOffset() const { return tileOffset_; }

private:
  bool addCodeletsFrom(const std::string& src, CodeletFileType type,
                       const std::string& compileFlags, std::ostream* compileOutput);
  Graph(std::shared_ptr<detail::GraphState> s, Target t, unsigned tileOffset);
  void connectConstant(const FieldRef& field, Type srcType, const void* value);
  Tensor addConstantFrom(Type type, ArrayRef<std::size_t> shape, Type srcType, const void* values,
                         bool perElement, const DebugContext& dc);
  void setInitialValueFrom(const Tensor& t, Type srcType, const void* values, bool perElement);
  void setFieldValue(const FieldRef& f, Type srcType, const void* value, std::size_t bytes);
  static void checkValueCount(ArrayRef<std::size_t> shape, std::size_t n, const char* what);
  unsigned globalTile(unsigned tile, const char* what) const;
  void checkTensor(const Tensor& t, const char* what) const;

  std::shared_ptr<detail::GraphState> state_;
  Target target_;
  unsigned tileOffset_ = 0;
};

namespace detail {
/// Internal (shared by VariableMappingMethod::LINEAR and poputil): spreads `numElements` over
/// `numTiles` tiles in grains of `grainSize`, at least `minElementsPerTile` on each used tile.
/// Returns, per tile, the interval it holds (possibly empty).
std::vector<Interval> linearMapping(std::size_t numElements, unsigned numTiles,
                                    std::size_t minElementsPerTile, std::size_t grainSize);
} // namespace detail

} // namespace poplar
