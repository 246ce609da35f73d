// Everything a Graph (and its virtual graphs) owns. Shared by Graph handles; read by the compiler.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <set>
#include <unordered_map>
#include <vector>

namespace poplar::detail {

/// Counts vertex type registrations (VertexRegistry.cpp): a change means a name may resolve
/// differently now.
std::uint64_t vertexRegistryGeneration();

} // namespace poplar::detail

namespace poplar::detail::graph {

/// Which tile holds each element of a variable: disjoint [begin, end) -> tile segments.
class TileMap {
public:
  struct Segment {
    std::size_t end;
    unsigned tile;
  };
  void assign(std::size_t begin, std::size_t end, unsigned tile);
  const std::map<std::size_t, Segment>& segments() const { return segs_; }
  std::size_t mappedElements() const;

private:
  std::map<std::size_t, Segment> segs_; // key: begin
};

struct VariableRec {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool isConstant = false;
  TileMap mapping;                    ///< tiles are replica-global
  std::vector<unsigned char> initial; ///< empty: no initial value
  DebugContext debug;
};

/// What one vertex edge connects: the tensor's variable regions, without the Tensor. A graph of
/// millions of edges would otherwise keep a TensorData (shape, regions, a shared count) alive
/// for each of them, most of them slices nothing else holds (issue 38: 10 M vertices).
class EdgeRegions {
public:
  EdgeRegions() = default; ///< not connected (setFieldSize before connect)
  explicit EdgeRegions(const Tensor& t);
  EdgeRegions(const EdgeRegions& o) noexcept : one_(o.one_), more_(o.more_) { share(); }
  EdgeRegions(EdgeRegions&& o) noexcept : one_(o.one_), more_(o.more_) { o.more_ = nullptr; }
  EdgeRegions& operator=(EdgeRegions o) noexcept {
    std::swap(one_, o.one_);
    std::swap(more_, o.more_);
    return *this;
  }
  ~EdgeRegions() { release(); }
  bool valid() const { return more_ || one_.var != kUnconnected; }
  std::size_t numElements() const {
    return more_ ? more_->numElements : one_.var < kNoRegion ? one_.size() : 0;
  }
  const VarRegion* begin() const { return more_ ? more_->regions.data() : &one_; }
  const VarRegion* end() const {
    return more_ ? more_->regions.data() + more_->regions.size()
                 : &one_ + (one_.var < kNoRegion ? 1 : 0);
  }

private:
  // one_.var also says what the edge is when it has no more_: kUnconnected, kNoRegion (a tensor
  // of no elements) or a variable (one region, most edges: kept inline, 40 bytes in all).
  static constexpr unsigned kUnconnected = ~0u, kNoRegion = ~0u - 1;
  struct Regions {
    std::vector<VarRegion> regions;
    std::size_t numElements;
    std::atomic<std::size_t> refs{1};
  };
  void share() const {
    if (more_) more_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (more_ && more_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete more_;
  }
  VarRegion one_{kUnconnected, 0, 0};
  /// Two or more regions; shared, as copies of an edge never change it. Counted here rather
  /// than by a shared_ptr: one pointer, not two, in each of the millions of edges (issue 38).
  Regions* more_ = nullptr;
};

/// A field's edges: one for a plain field (held inline: no allocation for most fields), or
/// setFieldSize entries for edge lists (one array on the heap). 56 bytes with `sized`, a field of
/// every vertex (issue 38: 72 with a vector for the rare edge list).
class EdgeList {
public:
  EdgeList() = default;
  EdgeList(const EdgeList& o) { *this = o; }
  EdgeList(EdgeList&&) noexcept = default;
  EdgeList& operator=(EdgeList&&) noexcept = default;
  EdgeList& operator=(const EdgeList& o) {
    if (this == &o) return *this;
    one_ = o.one_;
    size_ = o.size_;
    sized = o.sized;
    many_.reset();
    if (o.many_) {
      many_.reset(new EdgeRegions[o.size_]);
      std::copy(o.many_.get(), o.many_.get() + o.size_, many_.get());
    }
    return *this;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  EdgeRegions& operator[](std::size_t i) { return size_ == 1 ? one_ : many_[i]; }
  const EdgeRegions& operator[](std::size_t i) const { return size_ == 1 ? one_ : many_[i]; }
  const EdgeRegions* begin() const { return size_ == 1 ? &one_ : many_.get(); }
  const EdgeRegions* end() const { return begin() + size_; }
  void assign(std::size_t n, const EdgeRegions& e) {
    size_ = static_cast<std::uint32_t>(n); // Graph::setFieldSize refuses more
    one_ = n == 1 ? e : EdgeRegions();
    many_.reset();
    if (n > 1) {
      many_.reset(new EdgeRegions[n]);
      std::fill(many_.get(), many_.get() + n, e);
    }
  }

private:
  EdgeRegions one_;
  std::unique_ptr<EdgeRegions[]> many_; ///< when size_ > 1
  std::uint32_t size_ = 0;

public:
  bool sized = false; ///< edge lists: setFieldSize (or connect with a list) was called
};

/// A State member's bytes (set by setInitialValue), on the heap: most fields are edges, and an
/// empty vector in each of them was 24 bytes a field (issue 38).
class StateBytes {
public:
  StateBytes() = default;
  StateBytes(const StateBytes& o) { *this = o; }
  StateBytes(StateBytes&&) noexcept = default;
  StateBytes& operator=(StateBytes&&) noexcept = default;
  StateBytes& operator=(const StateBytes& o) {
    if (this != &o) bytes_.reset(o.bytes_ ? new std::vector<unsigned char>(*o.bytes_) : nullptr);
    return *this;
  }
  StateBytes& operator=(std::vector<unsigned char>&& b) {
    bytes_.reset(new std::vector<unsigned char>(std::move(b)));
    return *this;
  }
  template <class It> void assign(It first, It last) {
    bytes_.reset(new std::vector<unsigned char>(first, last));
  }
  bool empty() const { return !bytes_ || bytes_->empty(); }
  /// The bytes (an empty vector when never set).
  const std::vector<unsigned char>& bytes() const {
    static const std::vector<unsigned char> none;
    return bytes_ ? *bytes_ : none;
  }
  auto begin() const { return bytes().begin(); }
  auto end() const { return bytes().end(); }

private:
  std::unique_ptr<std::vector<unsigned char>> bytes_;
};

struct FieldConnection {
  EdgeList edges;   ///< one for a plain field; setFieldSize entries for edge lists
  StateBytes state; ///< State members: bytes set by setInitialValue
};
static_assert(sizeof(void*) != 8 || sizeof(FieldConnection) <= 56,
              "a field connection per field of every vertex: millions of them");

/// Where the graph keeps its vertices' field connections: each vertex's fields side by side in
/// large blocks, rather than an array on the heap per vertex (issue 38: a vector in the record
/// and the heap's overhead were 40 of the 256 bytes a vertex of three fields kept). Connections
/// are never moved or freed before the graph is.
class FieldArena {
public:
  FieldArena() = default;
  FieldArena(const FieldArena&) = delete;
  FieldArena& operator=(const FieldArena&) = delete;
  ~FieldArena() {
    std::allocator<FieldConnection> alloc;
    for (const Block& b : blocks_) {
      std::destroy_n(b.data, b.used);
      alloc.deallocate(b.data, b.capacity);
    }
  }
  /// `n` new (unconnected) fields, contiguous; nullptr for none.
  FieldConnection* allocate(std::size_t n) {
    if (n == 0) return nullptr;
    if (blocks_.empty() || blocks_.back().capacity - blocks_.back().used < n) {
      const std::size_t capacity = std::max(n, kBlockFields);
      blocks_.reserve(blocks_.size() + 1); // nothing can throw between the block and its record
      blocks_.push_back({std::allocator<FieldConnection>().allocate(capacity), 0, capacity});
    }
    Block& b = blocks_.back();
    FieldConnection* first = b.data + b.used;
    std::uninitialized_value_construct_n(first, n); // noexcept: the members start empty
    b.used += n;
    return first;
  }

private:
  static constexpr std::size_t kBlockFields = 4096; // 256 KiB: the heap maps it on its own
  struct Block {
    FieldConnection* data;
    std::size_t used, capacity;
  };
  std::vector<Block> blocks_;
};

struct VertexRec {
  static constexpr unsigned kNoTile = ~0u;
  const VertexTypeDescriptor* type = nullptr;
  FieldConnection* fields = nullptr; ///< indexed like type->fields (in GraphState::fieldArena)
  unsigned computeSet = 0;
  unsigned tile = kNoTile; ///< kNoTile until Graph::setTileMapping(vertex, tile)
  bool hasTile() const { return tile != kNoTile; }
  // Few vertices have a perfEstimate or constant fields: those live in GraphState's maps, keyed
  // by vertex id, so the millions of others do not carry them. 24 bytes in all.
};

/// Graph::setPerfEstimate's figures for one vertex.
struct VertexPerfEstimate {
  std::uint64_t cycles = 0;
  std::uint64_t flops = 0; ///< 0: not given
};

struct ComputeSetRec {
  std::string name;
  DebugContext debug;
  std::vector<unsigned> vertices;
};

struct HostHandleRec {
  Tensor tensor;
  bool isWrite;
};

struct StreamRec {
  std::string handle;
  Type type;
  std::size_t numElements;
  bool hostToDevice;
  ReplicatedStreamMode mode;
};

struct RemoteBufferRec {
  std::string handle;
  Type type;
  std::size_t numElements, repeats;
};

} // namespace poplar::detail::graph

namespace poplar::detail {

struct GraphState {
  Target target;        ///< the whole device
  Target replicaTarget; ///< one replica: what tile ids are relative to
  unsigned replicationFactor = 1;
  std::set<std::string> codeletSources;
  std::map<std::string, PerfEstimateFunc> perfEstimators;
  std::vector<graph::VariableRec> variables;
  std::vector<graph::ComputeSetRec> computeSets;
  /// The vertices' field connections (VertexRec::fields point into it): declared before the
  /// vertices, it outlives them.
  graph::FieldArena fieldArena;
  /// A deque: it grows without copying its millions of records or holding spare capacity.
  std::deque<graph::VertexRec> vertices;
  std::unordered_map<unsigned, graph::VertexPerfEstimate> perfEstimates; ///< by vertex id
  /// Constants made by Graph::connect(field, value), by vertex id: they go wherever the vertex
  /// goes.
  std::unordered_map<unsigned, std::vector<Tensor>> fieldConstants;
  std::map<std::string, graph::HostHandleRec> hostHandles; // reads and writes share one namespace
  std::vector<graph::StreamRec> streams;
  std::vector<graph::RemoteBufferRec> remoteBuffers;
  std::set<std::string> streamHandles;
  std::vector<program::Program> functions;
  /// The QUARTER_METADATA tensor of each QUARTER variable that has one (Quarter.cpp), by
  /// variable index: Tessera's place for what Poplar keeps in the QUARTER tensor itself.
  std::map<unsigned, Tensor> quarterMetadata;
  /// addVertex's resolved vertex type names (a graph adds millions of vertices of a few types),
  /// valid while the registry and this graph's codelet sources are unchanged.
  struct ResolvedTypes {
    std::unordered_map<std::string, const VertexTypeDescriptor*> byName;
    std::uint64_t registryGeneration = 0;
    std::size_t codeletSources = 0;
  } resolvedTypes;
};

} // namespace poplar::detail
