#include "Convert.hpp"
#include "GraphState.hpp"
#include "HostFunctionStreams.hpp"
#include "TensorData.hpp"
#include "codelets/CodeletLoader.hpp"
#include "compiler/CompiledGraph.hpp"
#include "report/SerializedGraph.hpp"

#include <algorithm>
#include <poplar/Device.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace detail::graph {

void TileMap::assign(std::size_t begin, std::size_t end, unsigned tile) {
  if (begin >= end) return;
  // Trim or split the segments that overlap [begin, end).
  auto it = segs_.lower_bound(begin);
  if (it != segs_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end > begin) {
      const Segment old = prev->second;
      prev->second.end = begin;
      if (old.end > end) segs_.emplace(end, Segment{old.end, old.tile});
    }
  }
  it = segs_.lower_bound(begin);
  while (it != segs_.end() && it->first < end) {
    const Segment old = it->second;
    it = segs_.erase(it);
    if (old.end > end) {
      segs_.emplace(end, old);
      break;
    }
  }
  // Merge with neighbours on the same tile so mappings stay compact.
  auto next = segs_.find(end);
  if (next != segs_.end() && next->second.tile == tile) {
    end = next->second.end;
    segs_.erase(next);
  }
  auto pos = segs_.emplace(begin, Segment{end, tile}).first;
  if (pos != segs_.begin()) {
    auto prev = std::prev(pos);
    if (prev->second.end == begin && prev->second.tile == tile) {
      prev->second.end = end;
      segs_.erase(pos);
    }
  }
}

std::size_t TileMap::mappedElements() const {
  std::size_t n = 0;
  for (const auto& [b, s] : segs_)
    n += s.end - b;
  return n;
}

} // namespace detail::graph

std::vector<Interval> detail::linearMapping(std::size_t numElements, unsigned numTiles,
                                            std::size_t minElementsPerTile, std::size_t grainSize) {
  std::vector<Interval> out(numTiles);
  if (numElements == 0 || numTiles == 0) return out;
  grainSize = std::max<std::size_t>(grainSize, 1);
  const std::size_t grains = (numElements + grainSize - 1) / grainSize;
  const std::size_t minGrains =
      std::max<std::size_t>(1, (minElementsPerTile + grainSize - 1) / grainSize);
  const std::size_t grainsPerTile = std::max((grains + numTiles - 1) / numTiles, minGrains);
  for (unsigned t = 0; t < numTiles; ++t) {
    const std::size_t b = std::min(numElements, t * grainsPerTile * grainSize);
    const std::size_t e = std::min(numElements, (t + 1) * grainsPerTile * grainSize);
    out[t] = Interval(b, e);
  }
  return out;
}

namespace detail::graph {

static_assert(sizeof(void*) != 8 || sizeof(VertexRec) == 24,
              "a record per vertex: millions of them (GraphState.hpp)");

EdgeRegions::EdgeRegions(const Tensor& t) {
  const auto& regions = t.getVarRegions();
  if (regions.size() == 1)
    one_ = regions[0];
  else if (regions.empty())
    one_.var = kNoRegion;
  else
    more_ = new Regions{regions, t.numElements()};
}

} // namespace detail::graph

namespace {

std::string describe(const DebugContext& dc, const char* fallback) {
  auto p = dc.getPathName();
  return p.empty() ? fallback : p;
}

/// The vertex type `vertexType` names among the codelet sources the graph added.
const detail::VertexTypeDescriptor* resolveVertexType(detail::GraphState& g,
                                                      const std::string& vertexType) {
  auto& cache = g.resolvedTypes;
  const std::uint64_t generation = detail::vertexRegistryGeneration();
  if (cache.registryGeneration != generation || cache.codeletSources != g.codeletSources.size()) {
    cache.byName.clear();
    cache.registryGeneration = generation;
    cache.codeletSources = g.codeletSources.size();
  }
  if (auto it = cache.byName.find(vertexType); it != cache.byName.end()) return it->second;
  const auto candidates = detail::findVertexTypes(vertexType);
  if (candidates.empty())
    throw unknown_vertex_type("unknown vertex type '" + vertexType +
                              "': no codelet registers it (check the name and template arguments)");
  const detail::VertexTypeDescriptor* type = nullptr;
  for (const auto* c : candidates) {
    if (!g.codeletSources.count(c->codeletSource)) continue;
    if (type)
      throw unknown_vertex_type(
          "vertex type '" + vertexType + "' is defined by two codelet sources " +
          "this graph added: '" + detail::codelets::displaySourceName(type->codeletSource) +
          "' and '" + detail::codelets::displaySourceName(c->codeletSource) + "'");
    type = c;
  }
  if (!type) {
    const auto shown = detail::codelets::displaySourceName(candidates.front()->codeletSource);
    throw unknown_vertex_type("vertex type '" + vertexType + "' comes from codelet source '" +
                              shown + "', which this graph has not added: call " +
                              "graph.addCodelets(\"" + shown +
                              "\") (or the library's addCodelets(graph))");
  }
  cache.byName.emplace(vertexType, type);
  return type;
}

detail::graph::FieldConnection& fieldOf(detail::GraphState& g, const FieldRef& f,
                                        std::size_t* index) {
  if (f.vertexId() >= g.vertices.size())
    throw graph_connection_error("field '" + f.name() + "' of unknown vertex " +
                                 std::to_string(f.vertexId()));
  auto& v = g.vertices[f.vertexId()];
  const auto& fields = v.type->fields;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == f.name()) {
      *index = i;
      return v.fields[i];
    }
  std::string names;
  for (const auto& d : fields)
    names += (names.empty() ? "" : ", ") + d.name;
  throw unknown_field("vertex type '" + v.type->name + "' has no field '" + f.name() +
                      "' (its fields: " + names + ")");
}

} // namespace

Graph::Graph(const Target& target, unsigned replicationFactor)
    : state_(std::make_shared<detail::GraphState>()) {
  if (replicationFactor == 0) throw invalid_machine_model("replication factor must be at least 1");
  const unsigned ipus = target.getNumIPUs();
  if (ipus % replicationFactor != 0 && !(ipus == 1 && replicationFactor == 1))
    throw invalid_machine_model("replication factor " + std::to_string(replicationFactor) +
                                " does not divide the target's " + std::to_string(ipus) + " IPUs");
  state_->target = target;
  state_->replicationFactor = replicationFactor;
  state_->replicaTarget =
      replicationFactor == 1
          ? target
          : target.createVirtualTarget(ipus / replicationFactor, target.getTilesPerIPU());
  target_ = state_->replicaTarget;
}

Graph::Graph(const Device& device, unsigned replicationFactor)
    : Graph(device.getTarget(), replicationFactor) {}

Graph::Graph(std::shared_ptr<detail::GraphState> s, Target t, unsigned tileOffset)
    : state_(std::move(s)), target_(std::move(t)), tileOffset_(tileOffset) {}

unsigned Graph::getReplicationFactor() const {
  return state_->replicationFactor;
}

bool Graph::addCodelets(const std::string& src, CodeletFileType type,
                        const std::string& compileFlags, const std::string& /*targetName*/) {
  return addCodeletsFrom(src, type, compileFlags, nullptr);
}

bool Graph::addCodelets(const std::string& src, CodeletFileType type,
                        const std::string& compileFlags, std::ostream& compileOutput,
                        const std::string& /*targetName*/) {
  return addCodeletsFrom(src, type, compileFlags, &compileOutput);
}

bool Graph::addCodeletsFrom(const std::string& src, CodeletFileType type,
                            const std::string& compileFlags, std::ostream* compileOutput) {
  // Vertices compiled into the program (TESSERA_VERTEX) or a library ("popops") are registered
  // under the file or library name already: enable them. Anything else is a codelet file.
  if (type == CodeletFileType::Auto && detail::isCodeletSourceRegistered(src)) {
    state_->codeletSources.insert(detail::codeletSourceName(src.c_str()));
    return true;
  }
  state_->codeletSources.insert(
      poplar::detail::codelets::loadCodeletFile(src, type, compileFlags, compileOutput));
  return true;
}

void Graph::addCodelets(std::istream& stream, CodeletFileType type, const std::string& compileFlags,
                        const std::string& /*targetName*/) {
  state_->codeletSources.insert(
      poplar::detail::codelets::loadCodeletStream(stream, type, compileFlags, nullptr));
}

void Graph::addCodelets(std::istream& stream, CodeletFileType type, const std::string& compileFlags,
                        std::ostream& compileOutput, const std::string& /*targetName*/) {
  state_->codeletSources.insert(
      poplar::detail::codelets::loadCodeletStream(stream, type, compileFlags, &compileOutput));
}

void Graph::addCodelets(const std::vector<std::string>& files, const std::string& compileFlags,
                        const std::string& /*targetName*/) {
  for (const auto& f : files)
    addCodelets(f, CodeletFileType::Auto, compileFlags);
}

void Graph::checkTensor(const Tensor& t, const char* what) const {
  if (!t.valid()) throw poplar_error(std::string(what) + ": invalid (default-constructed) tensor");
  if (t.graphId() != state_.get())
    throw graph_connection_error(std::string(what) + ": the tensor belongs to another graph");
}

unsigned Graph::globalTile(unsigned tile, const char* what) const {
  if (tile >= target_.getNumTiles())
    throw invalid_tile_mapping(std::string(what) + ": tile " + std::to_string(tile) +
                               " is out of range (this graph has " +
                               std::to_string(target_.getNumTiles()) + " tiles)");
  return tileOffset_ + tile;
}

Tensor Graph::addVariable(Type type, ArrayRef<std::size_t> shapeRef, const DebugContext& dc) {
  if (type.size() == 0) throw type_error("addVariable with an invalid element type");
  const std::vector<std::size_t> shape = shapeRef.cloneAsVector();
  detail::graph::VariableRec v;
  v.type = type;
  v.shape = shape;
  v.numElements = 1;
  for (auto d : shape)
    v.numElements *= d;
  v.debug = dc;
  v.name = describe(dc, "");
  if (v.name.empty()) v.name = "var" + std::to_string(state_->variables.size());
  const auto id = static_cast<unsigned>(state_->variables.size());
  const std::size_t n = v.numElements;
  state_->variables.push_back(std::move(v));
  std::vector<detail::VarRegion> regions;
  if (n) regions.push_back({id, 0, n});
  return Tensor(state_.get(), type, shape, std::move(regions));
}

Tensor Graph::addVariable(Type type, ArrayRef<std::size_t> shape, VariableMappingMethod mapping,
                          const DebugContext& dc) {
  Tensor t = addVariable(type, shape, dc);
  if (mapping == VariableMappingMethod::LINEAR) {
    const auto m = detail::linearMapping(t.numElements(), target_.getNumTiles(), 0, 1);
    TileToTensorMapping mm(m.size());
    for (std::size_t i = 0; i < m.size(); ++i)
      if (m[i].size()) mm[i].push_back(m[i]);
    setTileMapping(t, mm);
  }
  return t;
}

Tensor Graph::addLinearlyMappedVariable(const Type& type, ArrayRef<std::size_t> shape,
                                        const DebugContext& dc) {
  return addVariable(type, shape, VariableMappingMethod::LINEAR, dc);
}

Tensor Graph::addLinearlyMappedVariable(const Type& type, ArrayRef<std::size_t> shape,
                                        unsigned minElementsPerTile, unsigned grainSize,
                                        const DebugContext& dc) {
  if (grainSize == 0)
    throw invalid_tile_mapping("addLinearlyMappedVariable: grainSize must be at least 1 element");
  Tensor t = addVariable(type, shape, dc);
  const auto m =
      detail::linearMapping(t.numElements(), target_.getNumTiles(), minElementsPerTile, grainSize);
  TileToTensorMapping mapping(m.size());
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i].size()) mapping[i].push_back(m[i]);
  setTileMapping(t, mapping);
  return t;
}

bool Graph::hasCodelet(StringRef vertexType) const {
  for (const auto* type : detail::findVertexTypes(vertexType))
    if (state_->codeletSources.count(type->codeletSource)) return true;
  return false;
}

void Graph::checkValueCount(ArrayRef<std::size_t> shape, std::size_t n, const char* what) {
  std::size_t expected = 1;
  for (auto d : shape)
    expected *= d;
  if (n != expected)
    throw index_error(std::string(what) + ": " + std::to_string(n) + " values given for " +
                      std::to_string(expected) + " elements");
}

Tensor Graph::addConstantFrom(Type type, ArrayRef<std::size_t> shape, Type srcType,
                              const void* values, bool perElement, const DebugContext& dc) {
  Tensor t = addVariable(type, shape, dc);
  if (!t.getVarRegions().empty()) state_->variables[t.getVarRegions()[0].var].isConstant = true;
  setInitialValueFrom(t, srcType, values, perElement);
  return t;
}

void Graph::setInitialValueFrom(const Tensor& t, Type srcType, const void* values,
                                bool perElement) {
  checkTensor(t, "setInitialValue");
  std::size_t i = 0;
  const double one = perElement ? 0 : detail::graph::loadAsDouble(srcType, values, 0);
  for (const auto& r : t.getVarRegions()) {
    auto& var = state_->variables[r.var];
    if (var.initial.empty()) var.initial.assign(var.numElements * var.type.size(), 0);
    for (std::size_t e = r.begin; e < r.end; ++e, ++i) {
      const double v = perElement ? detail::graph::loadAsDouble(srcType, values, i) : one;
      // An integer converts as C++ converts integers (-1 as UNSIGNED_INT is 4294967295); a
      // floating-point value must be a value of the type.
      if (srcType.isFloatingPoint() && !detail::graph::representable(var.type, v))
        throw poplar_error("setInitialValue: " + std::to_string(v) + " (value " +
                           std::to_string(i) + ") is not a value of " + var.type.toString() +
                           " (variable '" + var.name + "')");
      detail::graph::storeFromDouble(var.type, var.initial.data(), e, v);
    }
  }
}

void Graph::setFieldValue(const FieldRef& f, Type srcType, const void* value, std::size_t bytes) {
  std::size_t idx = 0;
  auto& conn = fieldOf(*state_, f, &idx);
  const auto& d = state_->vertices[f.vertexId()].type->fields[idx];
  if (d.direction != detail::FieldDirection::State)
    throw graph_connection_error("setInitialValue on field '" + f.name() + "' of vertex type '" +
                                 state_->vertices[f.vertexId()].type->name +
                                 "': it is an edge, connect a tensor to it instead");
  auto isInteger = [](Type t) { return t.size() && !t.isFloatingPoint(); };
  if (isInteger(d.elementType) && isInteger(srcType) && d.elementType != srcType &&
      d.elementType.size() == d.stateSize) {
    // An integer of another type (an int for an unsigned member, a std::size_t for an int):
    // converted as C++ converts it on assignment, as Poplar does. A float for an integer
    // member, or an integer for a float one, stays a type_error.
    std::vector<unsigned char> converted(d.stateSize);
    detail::graph::convertElements(srcType, value, d.elementType, converted.data(), 1);
    conn.state = std::move(converted);
    return;
  }
  if (d.elementType.size() && d.elementType != srcType)
    throw type_error("setInitialValue on field '" + f.name() + "': the field is " +
                     d.elementType.toString() + ", the value is " + srcType.toString());
  if (bytes != d.stateSize)
    throw type_error("setInitialValue on field '" + f.name() + "': the field has " +
                     std::to_string(d.stateSize) + " bytes, the value " + std::to_string(bytes));
  conn.state.assign(static_cast<const unsigned char*>(value),
                    static_cast<const unsigned char*>(value) + bytes);
}

Tensor Graph::addConstantHalf(Type type, ArrayRef<std::size_t> shape, std::uint16_t value,
                              const DebugContext& dc) {
  return addConstantFrom(type, shape, HALF, &value, false, dc);
}

Tensor Graph::addConstantHalf(Type type, ArrayRef<std::size_t> shape, const std::uint16_t* values,
                              const DebugContext& dc) {
  if (!values) throw index_error("addConstantHalf: the values pointer is null");
  return addConstantFrom(type, shape, HALF, values, true, dc);
}

void Graph::setInitialValueHalf(const Tensor& t, std::uint16_t value) {
  setInitialValueFrom(t, HALF, &value, false);
}

void Graph::setInitialValueHalf(const Tensor& t, ArrayRef<std::uint16_t> values) {
  checkTensor(t, "setInitialValueHalf");
  checkValueCount(t.shape(), values.size(), "setInitialValueHalf");
  setInitialValueFrom(t, HALF, values.data(), true);
}

Tensor Graph::addReplicationIndexConstant(const DebugContext& dc) {
  Tensor t = addVariable(UNSIGNED_INT, {}, dc);
  auto& var = state_->variables[t.getVarRegions()[0].var];
  var.isConstant = true;
  // One initial value per replica, in replica order: the runtime gives each replica its own
  // (CompiledVariable::initial).
  const unsigned n = state_->replicationFactor;
  var.initial.resize(std::size_t(n) * sizeof(std::uint32_t));
  for (std::uint32_t r = 0; r < n; ++r)
    std::memcpy(var.initial.data() + r * sizeof r, &r, sizeof r);
  return t;
}

Tensor Graph::clone(const Tensor& t, const DebugContext& dc, TensorCloneMethod) {
  return clone(t.elementType(), t, dc);
}

Tensor Graph::clone(Type type, const Tensor& t, const DebugContext& dc) {
  checkTensor(t, "clone");
  Tensor c = addVariable(type, t.shape(), dc);
  setTileMapping(c, getTileMapping(t, false));
  return c;
}

void Graph::setTileMapping(const Tensor& t, unsigned tile) {
  checkTensor(t, "setTileMapping");
  const unsigned g = globalTile(tile, "setTileMapping");
  for (const auto& r : t.getVarRegions())
    state_->variables[r.var].mapping.assign(r.begin, r.end, g);
}

void Graph::setTileMapping(const Tensor& t, const TileToTensorMapping& mapping) {
  checkTensor(t, "setTileMapping");
  if (mapping.size() > target_.getNumTiles())
    throw invalid_tile_mapping("setTileMapping: the mapping lists " +
                               std::to_string(mapping.size()) + " tiles but this graph has " +
                               std::to_string(target_.getNumTiles()));
  const auto& regions = t.getVarRegions();
  const auto starts = t.getContiguousRegions();
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    const unsigned g = globalTile(tile, "setTileMapping");
    for (const auto& iv : mapping[tile]) {
      if (iv.end() > t.numElements())
        throw invalid_tile_mapping("setTileMapping: interval " + std::to_string(iv.begin()) + ".." +
                                   std::to_string(iv.end()) + " is outside a tensor of " +
                                   std::to_string(t.numElements()) + " elements");
      // Walk the regions overlapping the interval.
      auto r = std::upper_bound(starts.begin(), starts.end(), Interval(iv.begin(), size_t(-1))) -
               starts.begin() - 1;
      for (std::size_t pos = iv.begin(); pos < iv.end(); ++r) {
        const std::size_t off = pos - starts[r].begin();
        const std::size_t n = std::min(iv.end() - pos, regions[r].size() - off);
        state_->variables[regions[r].var].mapping.assign(regions[r].begin + off,
                                                         regions[r].begin + off + n, g);
        pos += n;
      }
    }
  }
}

void Graph::setTileMapping(VertexRef v, unsigned tile) {
  if (v.getId() >= state_->vertices.size())
    throw invalid_tile_mapping("setTileMapping of unknown vertex " + std::to_string(v.getId()));
  auto& vertex = state_->vertices[v.getId()];
  vertex.tile = globalTile(tile, "setTileMapping(vertex)");
  const auto constants = state_->fieldConstants.find(v.getId());
  if (constants != state_->fieldConstants.end())
    for (const Tensor& c : constants->second)
      setTileMapping(c, tile);
}

Graph::TileToTensorMapping Graph::getTileMapping(const Tensor& t, bool requireComplete) const {
  checkTensor(t, "getTileMapping");
  TileToTensorMapping out(target_.getNumTiles());
  std::size_t pos = 0;
  for (const auto& r : t.getVarRegions()) {
    const auto& var = state_->variables[r.var];
    const auto& segs = var.mapping.segments();
    auto it = segs.upper_bound(r.begin);
    if (it != segs.begin()) --it;
    std::size_t covered = r.begin;
    for (; it != segs.end() && it->first < r.end; ++it) {
      const std::size_t b = std::max(it->first, r.begin), e = std::min(it->second.end, r.end);
      if (e <= b) continue;
      if (b > covered && requireComplete) break;
      covered = e;
      const unsigned g = it->second.tile;
      if (g < tileOffset_ || g >= tileOffset_ + target_.getNumTiles()) continue;
      auto& list = out[g - tileOffset_];
      const std::size_t fb = pos + (b - r.begin), fe = pos + (e - r.begin);
      if (!list.empty() && list.back().end() == fb)
        list.back() = Interval(list.back().begin(), fe);
      else
        list.emplace_back(fb, fe);
    }
    if (requireComplete && covered < r.end)
      throw invalid_tile_mapping("variable '" + var.name + "' has unmapped elements (element " +
                                 std::to_string(covered) + " has no tile)");
    pos += r.size();
  }
  return out;
}

std::vector<unsigned> Graph::getTilesOf(const Tensor& t) const {
  const auto m = getTileMapping(t, false);
  std::vector<unsigned> tiles;
  for (unsigned i = 0; i < m.size(); ++i)
    if (!m[i].empty()) tiles.push_back(i);
  return tiles;
}

ComputeSet Graph::addComputeSet(const DebugContext& dc) {
  const auto id = static_cast<unsigned>(state_->computeSets.size());
  auto name = describe(dc, "");
  if (name.empty()) name = "cs" + std::to_string(id);
  state_->computeSets.push_back({name, dc, {}});
  return ComputeSet(state_.get(), id);
}

VertexRef Graph::addVertex(ComputeSet cs, const std::string& vertexType) {
  if (cs.graphState() != state_.get() || cs.getId() >= state_->computeSets.size())
    throw graph_connection_error("addVertex(\"" + vertexType +
                                 "\"): the compute set belongs to another graph");
  detail::graph::VertexRec v;
  v.type = resolveVertexType(*state_, vertexType);
  v.computeSet = cs.getId();
  v.fields = state_->fieldArena.allocate(v.type->fields.size());
  const auto id = static_cast<unsigned>(state_->vertices.size());
  state_->vertices.push_back(std::move(v));
  state_->computeSets[cs.getId()].vertices.push_back(id);
  return VertexRef(id);
}

VertexRef Graph::addVertex(ComputeSet cs, const std::string& vertexType,
                           ArrayRef<ConnectionDesc> connections) {
  VertexRef v = addVertex(cs, vertexType);
  for (const auto& c : connections) {
    if (c.isList_)
      connect(v[c.field_], c.tensors_);
    else if (!c.tensors_.empty())
      connect(v[c.field_], c.tensors_.front());
    else
      connectConstant(v[c.field_], c.valueType_, c.value_);
  }
  return v;
}

void Graph::connect(const FieldRef& f, const Tensor& t) {
  checkTensor(t, "connect");
  std::size_t idx = 0;
  auto& conn = fieldOf(*state_, f, &idx);
  const auto& vertex = state_->vertices[f.vertexId()];
  const auto& d = vertex.type->fields[idx];
  // Named only in errors: built on the way to a throw, not for every edge of a large graph.
  auto where = [&] {
    return "field '" + f.name() + "' of vertex type '" + vertex.type->name + "'";
  };
  if (d.direction == detail::FieldDirection::State)
    throw graph_connection_error(where() + " is vertex state: set it with setInitialValue");
  if (t.elementType() != d.elementType)
    throw type_error("connect: " + where() + " holds " + d.elementType.toString() +
                     " but the tensor is " + t.elementType().toString());
  if (!d.isVector && t.numElements() != 1)
    throw index_error("connect: " + where() + " is a scalar but the tensor has shape " +
                      t.shapeToString());
  if (d.isEdgeList && f.index() < 0 && t.rank() >= 2) {
    // As Poplar: each row of a 2-D tensor is one edge of a Vector<Input<Vector<T>>> field.
    std::vector<Tensor> rows;
    rows.reserve(t.dim(0));
    for (std::size_t i = 0; i < t.dim(0); ++i)
      rows.push_back(t[i].flatten());
    connect(f, rows);
    return;
  }
  if (d.isEdgeList) {
    if (f.index() < 0)
      throw graph_connection_error("connect: " + where() + " is a list of edges: connect v[\"" +
                                   f.name() + "\"][i], or pass a list of tensors");
    if (!conn.edges.sized)
      throw no_size_specified("connect: " + where() + " has no size: call setFieldSize first");
    if (std::size_t(f.index()) >= conn.edges.size())
      throw index_error("connect: edge " + std::to_string(f.index()) + " of " + where() +
                        ", which has " + std::to_string(conn.edges.size()) + " edges");
    conn.edges[f.index()] = detail::graph::EdgeRegions(t);
    return;
  }
  if (f.index() >= 0)
    throw graph_connection_error("connect: " + where() + " is not a list; it has no edge " +
                                 std::to_string(f.index()));
  conn.edges.assign(1, detail::graph::EdgeRegions(t));
}

void Graph::connect(const FieldRef& f, const std::vector<Tensor>& tensors) {
  setFieldSize(f, tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i)
    connect(f[i], tensors[i]);
}

void Graph::setFieldSize(const FieldRef& f, std::size_t size) {
  std::size_t idx = 0;
  auto& conn = fieldOf(*state_, f, &idx);
  const auto& vertex = state_->vertices[f.vertexId()];
  if (!vertex.type->fields[idx].isEdgeList)
    throw graph_connection_error("setFieldSize: field '" + f.name() + "' of vertex type '" +
                                 vertex.type->name + "' is not a Vector<...> of edges");
  if (size > 0xffffffffu)
    throw graph_connection_error("setFieldSize: field '" + f.name() + "' of vertex type '" +
                                 vertex.type->name + "' cannot hold " + std::to_string(size) +
                                 " edges (at most 2^32 - 1)");
  conn.edges.sized = true;
  conn.edges.assign(size, detail::graph::EdgeRegions());
}

void Graph::setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t flops) {
  if (v.getId() >= state_->vertices.size())
    throw graph_connection_error("setPerfEstimate of unknown vertex " + std::to_string(v.getId()));
  state_->perfEstimates[v.getId()] = {cycles, flops};
}

void Graph::connectConstant(const FieldRef& f, Type srcType, const void* value) {
  std::size_t idx = 0;
  fieldOf(*state_, f, &idx);
  auto& vertex = state_->vertices[f.vertexId()];
  const auto& d = vertex.type->fields[idx];
  if (d.direction != detail::FieldDirection::In)
    throw graph_connection_error(
        "connect: field '" + f.name() + "' of vertex type '" + vertex.type->name +
        "' is not an Input: only an Input can be connected to a constant value");
  // Poplar places the constant with the vertex; the vertex may not be placed yet.
  Tensor c = addConstantFrom(d.elementType, {}, srcType, value, false,
                             DebugContext(vertex.type->name + "/" + f.name() + "/constant"));
  state_->fieldConstants[f.vertexId()].push_back(c);
  if (vertex.hasTile())
    state_->variables[c.getVarRegions()[0].var].mapping.assign(0, 1, vertex.tile);
  connect(f, c);
}

void Graph::registerPerfEstimator(const std::string& vertexType, PerfEstimateFunc f) {
  state_->perfEstimators[vertexType] = std::move(f);
}

namespace {
void addHostHandle(detail::GraphState& g, const std::string& handle, const Tensor& t, bool write) {
  if (g.hostHandles.count(handle))
    throw tensor_io_state_error("host handle '" + handle + "' already exists");
  g.hostHandles.emplace(handle, detail::graph::HostHandleRec{t, write});
}
} // namespace

void Graph::createHostWrite(const std::string& handle, const Tensor& t, bool) {
  checkTensor(t, "createHostWrite");
  if (t.containsAliases())
    throw tensor_io_state_error("createHostWrite(\"" + handle + "\"): the tensor contains aliases");
  addHostHandle(*state_, handle, t, true);
}

void Graph::createHostRead(const std::string& handle, const Tensor& t, bool) {
  checkTensor(t, "createHostRead");
  addHostHandle(*state_, handle, t, false);
}

namespace {
// Poplar's DataStream documentation gives 128 MB as the largest buffer of one stream; Tessera
// keeps the limit so that a program that builds here builds on the SDK (docs/compatibility.md).
constexpr std::size_t kMaxStreamBytes = 128u << 20;

DataStream checkStream(detail::GraphState& g, const std::string& handle, Type type, std::size_t n) {
  if (handle.empty()) throw stream_connection_error("a stream needs a non-empty handle");
  if (g.streamHandles.count(handle))
    throw stream_connection_error("stream handle '" + handle + "' already exists");
  if (n == 0) throw stream_connection_error("stream '" + handle + "' has no elements");
  if (n * type.size() > kMaxStreamBytes)
    throw stream_connection_error("stream '" + handle + "' needs " +
                                  std::to_string(n * type.size()) +
                                  " bytes, over the 128 MiB (134,217,728 bytes) Poplar allows one "
                                  "stream: use several streams, or copy the data in slices "
                                  "through one stream");
  return {};
}
} // namespace

DataStream Graph::addHostToDeviceFIFO(const std::string& handle, Type type, std::size_t n,
                                      ReplicatedStreamMode mode, const OptionFlags&) {
  checkStream(*state_, handle, type, n);
  const auto id = static_cast<unsigned>(state_->streams.size());
  state_->streams.push_back({handle, type, n, true, mode});
  state_->streamHandles.insert(handle);
  return DataStream(state_.get(), id, handle, type, n, true);
}

DataStream Graph::addDeviceToHostFIFO(const std::string& handle, Type type, std::size_t n,
                                      const OptionFlags&) {
  checkStream(*state_, handle, type, n);
  const auto id = static_cast<unsigned>(state_->streams.size());
  state_->streams.push_back({handle, type, n, false, ReplicatedStreamMode::REPLICATE});
  state_->streamHandles.insert(handle);
  return DataStream(state_.get(), id, handle, type, n, false);
}

RemoteBuffer Graph::addRemoteBuffer(const std::string& handle, Type type, std::size_t n,
                                    std::size_t repeats, bool, bool) {
  if (n == 0 || repeats == 0)
    throw stream_connection_error("remote buffer '" + handle + "' needs elements and repeats > 0");
  for (const auto& rb : state_->remoteBuffers)
    if (rb.handle == handle)
      throw stream_connection_error("remote buffer handle '" + handle + "' already exists");
  const auto id = static_cast<unsigned>(state_->remoteBuffers.size());
  state_->remoteBuffers.push_back({handle, type, n, repeats});
  return RemoteBuffer(state_.get(), id, handle, type, n, repeats);
}

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) const {
  const unsigned n = upperTile - lowerTile, perIPU = target_.getTilesPerIPU();
  if (lowerTile >= upperTile || upperTile > target_.getNumTiles())
    throw invalid_tile_mapping("createVirtualGraph(" + std::to_string(lowerTile) + ", " +
                               std::to_string(upperTile) + "): this graph has tiles [0, " +
                               std::to_string(target_.getNumTiles()) + ")");
  Target t = n <= perIPU && lowerTile / perIPU == (upperTile - 1) / perIPU
                 ? target_.createVirtualTarget(1, n)
             : (lowerTile % perIPU == 0 && n % perIPU == 0)
                 ? target_.createVirtualTarget(n / perIPU, perIPU)
                 : throw invalid_tile_mapping(
                       "createVirtualGraph: tiles [" + std::to_string(lowerTile) + ", " +
                       std::to_string(upperTile) + ") must lie in one IPU or be whole IPUs");
  return Graph(state_, t, tileOffset_ + lowerTile);
}

Function Graph::addFunction(const program::Program& program) {
  const auto id = static_cast<unsigned>(state_->functions.size());
  state_->functions.push_back(program);
  return Function(state_.get(), id);
}

HostFunction Graph::addHostFunction(StringRef handle, ArrayRef<HostFunctionArgument> inputs,
                                    ArrayRef<HostFunctionArgument> outputs) {
  const std::string name(handle.begin(), handle.end());
  if (name.empty()) throw stream_connection_error("addHostFunction: empty handle");
  // Streams named after the function (program::Call(HostFunction) copies over them).
  std::vector<DataStream> in, out;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    in.push_back(addDeviceToHostFIFO(detail::graph::hostFunctionStream(name, true, i),
                                     inputs[i].type, inputs[i].numElements));
  for (std::size_t j = 0; j < outputs.size(); ++j)
    out.push_back(addHostToDeviceFIFO(detail::graph::hostFunctionStream(name, false, j),
                                      outputs[j].type, outputs[j].numElements));
  return HostFunction(name, std::move(in), std::move(out));
}

void Graph::serialize(std::ostream& out, SerializationFormat format) const {
  serialize(out, {}, format);
}

void Graph::serialize(std::ostream& out, ArrayRef<program::Program> programs,
                      SerializationFormat format) const {
  // What the graph holds once compiled: every variable placed, every vertex bound. A graph
  // that cannot be compiled cannot be serialized either, with the same error.
  const auto compiled = detail::compiler::compile(*state_, programs.cloneAsVector(), {});
  if (format == SerializationFormat::JSON)
    detail::report::writeSerializedGraphJson(out, compiled);
  else
    detail::report::writeSerializedGraph(out, compiled);
}

} // namespace poplar
