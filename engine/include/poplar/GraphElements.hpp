// Handles to things a graph owns: compute sets, vertices and their fields, streams, functions.
#pragma once

#include <cstddef>
#include <poplar/ReplicatedStreamMode.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

namespace detail {
struct GraphState;
}

class ComputeSet {
public:
  ComputeSet() = default;
  unsigned getId() const { return id_; }
  bool valid() const { return g_ != nullptr; }

private:
  friend class Graph;
  friend struct detail::GraphState;
  ComputeSet(const detail::GraphState* g, unsigned id) : g_(g), id_(id) {}
  const detail::GraphState* g_ = nullptr;
  unsigned id_ = 0;

public:
  const detail::GraphState* graphState() const { return g_; }
};

/// One field of one vertex, or (with an index) one edge of a Vector<...> field.
class FieldRef {
public:
  FieldRef operator[](std::size_t index) const { return FieldRef(vertex_, name_, long(index)); }
  unsigned vertexId() const { return vertex_; }
  const std::string& name() const { return name_; }
  /// -1 for the whole field.
  long index() const { return index_; }
  FieldRef(unsigned vertex, std::string name, long index = -1)
      : vertex_(vertex), name_(std::move(name)), index_(index) {}

private:
  unsigned vertex_;
  std::string name_;
  long index_;
};

class VertexRef {
public:
  VertexRef() = default;
  FieldRef operator[](const std::string& field) const { return FieldRef(id_, field); }
  unsigned getId() const { return id_; }

private:
  friend class Graph;
  explicit VertexRef(unsigned id) : id_(id) {}
  unsigned id_ = 0;
};

/// A FIFO between host and device, consumed or produced by program::Copy.
/// What a DataStream carries, and which way.
enum class DataStreamType {
  HostToDeviceFIFO,
  DeviceToHostFIFO,
  HostToDeviceBuffer,
  DeviceToHostBuffer
};

class DataStream {
public:
  DataStream() = default;
  unsigned getId() const { return id_; }
  const std::string& handle() const { return handle_; }
  Type elementType() const { return type_; }
  std::size_t numElements() const { return numElements_; }
  bool isHostToDevice() const { return hostToDevice_; }
  /// Streams made by addHostToDeviceFIFO / addDeviceToHostFIFO are FIFOs.
  DataStreamType type() const {
    return hostToDevice_ ? DataStreamType::HostToDeviceFIFO : DataStreamType::DeviceToHostFIFO;
  }
  const detail::GraphState* graphState() const { return g_; }

private:
  friend class Graph;
  DataStream(const detail::GraphState* g, unsigned id, std::string h, Type t, std::size_t n,
             bool toDev)
      : g_(g), id_(id), handle_(std::move(h)), type_(t), numElements_(n), hostToDevice_(toDev) {}
  const detail::GraphState* g_ = nullptr;
  unsigned id_ = 0;
  std::string handle_;
  Type type_;
  std::size_t numElements_ = 0;
  bool hostToDevice_ = true;
};

/// Off-chip (streaming memory) storage of `repeats` rows of numElements elements.
class RemoteBuffer {
public:
  RemoteBuffer() = default;
  unsigned getId() const { return id_; }
  const std::string& handle() const { return handle_; }
  Type elementType() const { return type_; }
  std::size_t numElements() const { return numElements_; }
  std::size_t getRepeats() const { return repeats_; }
  const detail::GraphState* graphState() const { return g_; }

private:
  friend class Graph;
  RemoteBuffer(const detail::GraphState* g, unsigned id, std::string h, Type t, std::size_t n,
               std::size_t r)
      : g_(g), id_(id), handle_(std::move(h)), type_(t), numElements_(n), repeats_(r) {}
  const detail::GraphState* g_ = nullptr;
  unsigned id_ = 0;
  std::string handle_;
  Type type_;
  std::size_t numElements_ = 0, repeats_ = 1;
};

/// A program added once to the graph and run by program::Call (one copy of its code).
class Function {
public:
  Function() = default;
  unsigned getId() const { return id_; }
  const detail::GraphState* graphState() const { return g_; }

private:
  friend class Graph;
  Function(const detail::GraphState* g, unsigned id) : g_(g), id_(id) {}
  const detail::GraphState* g_ = nullptr;
  unsigned id_ = 0;
};

/// One argument of a host function (Graph::addHostFunction): its element type and count.
struct HostFunctionArgument {
  HostFunctionArgument(Type elementType, std::size_t count)
      : type(elementType), numElements(count) {}
  Type type;
  std::size_t numElements;
};

/// A function run on the host by program::Call(HostFunction, inputs, outputs); the engine
/// binds it with Engine::connectHostFunction. Tessera carries the arguments over one
/// device-to-host stream per input and one host-to-device stream per output, named
/// "<handle>.hostfn.in<i>" / "<handle>.hostfn.out<j>" (docs/engine.md).
class HostFunction {
public:
  HostFunction() = default;
  const std::string& handle() const { return handle_; }
  const std::vector<DataStream>& inputStreams() const { return inputs_; }
  const std::vector<DataStream>& outputStreams() const { return outputs_; }

private:
  friend class Graph;
  HostFunction(std::string handle, std::vector<DataStream> inputs, std::vector<DataStream> outputs)
      : handle_(std::move(handle)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {}
  std::string handle_;
  std::vector<DataStream> inputs_, outputs_;
};

} // namespace poplar
