// The report state's caches, and the builders of public objects from storage rows.
#include "Access.hpp"

#include <profiler/Schema.hpp>

namespace pva::detail {

namespace S = tessera::profiler::schema;

// The public enums mirror the stored ones value by value (checked in EnumNames.cpp), so a parsed
// stored value converts to its public value; a name this build does not know gives `unknown`.
namespace {
template <class Stored, class Public> Public parseAs(std::string_view text, Public unknown) {
  const auto v = S::parse<Stored>(text);
  return v ? static_cast<Public>(*v) : unknown;
}
} // namespace

// --- ReportState ---------------------------------------------------------------------------------

ReportState::ReportState(const storage::Source& profile, const storage::Source* debug)
    : store(profile) {
  if (debug) {
    debugPath = debug->path;
    auto it = store.meta().find(std::string(S::meta::reportId));
    const std::string id = it == store.meta().end() ? std::string() : it->second;
    debugRows = storage::readDebugInfo(*debug, id, store.shownPath());
    hasDebug = true;
  }
}

// --- StateRef
// -------------------------------------------------------------------------------------
//
// The tiles the report keeps for CompilationReport::tiles() refer to it without owning it (it
// cannot own itself): their pointer aliases an empty shared_ptr, so it has no control block and a
// use count of 0. Copying such a reference makes an owning one, so a Tile, TileMemory or
// MemoryTotal kept by value keeps the report open, while walking the tiles by reference touches
// no reference count.

namespace {
bool borrowed(const std::shared_ptr<ReportState>& p) noexcept {
  return p && p.use_count() == 0;
}
std::shared_ptr<ReportState> owning(const std::shared_ptr<ReportState>& p) {
  return borrowed(p) ? p->self() : p;
}
} // namespace

StateRef::StateRef(const StateRef& o) : p_(owning(o.p_)) {}
StateRef::StateRef(StateRef&& o) : p_(borrowed(o.p_) ? o.p_->self() : std::move(o.p_)) {}
StateRef& StateRef::operator=(const StateRef& o) {
  if (this != &o) p_ = owning(o.p_);
  return *this;
}
StateRef& StateRef::operator=(StateRef&& o) {
  if (this != &o) p_ = borrowed(o.p_) ? o.p_->self() : std::move(o.p_);
  return *this;
}
StateRef::~StateRef() = default;

void ReportState::badArgument(const std::string& what) const {
  throw InvalidArgumentError(store.shownPath() + ": " + what);
}

const Target& ReportState::getTarget() {
  target.get([&] { target.value = Access::target(store.target()); });
  return target.value;
}

unsigned ReportState::tilesPerReplica() {
  return getTarget().tilesPerReplica();
}

storage::U64s ReportState::perTile(storage::U64s values, const char* what) {
  const unsigned n = tilesPerReplica();
  if (values.size() == n) return values; // the writer's dense arrays: no copy, no fill
  if (!values.empty())
    store.corrupt("corrupted report (" + std::string(what) + " has " +
                  std::to_string(values.size()) + " tiles; a replica of the target has " +
                  std::to_string(n) + ")");
  values.assign(n, 0);
  return values;
}

const std::vector<Tile>& ReportState::getTiles() {
  tiles.get([&] {
    const Target& t = getTarget();
    const unsigned perReplica = t.tilesPerReplica();
    // Made in place and never copied or moved one by one: the tiles borrow this state, and a
    // copy would own it (the state would then keep itself alive).
    tiles.value = std::vector<Tile>(t.numTiles());
    for (unsigned n = 0; n < t.numTiles(); ++n)
      Access::initBorrowedTile(tiles.value[n], this, n, n / t.tilesPerIpu(), n % perReplica);
  });
  return tiles.value;
}

const storage::U64s& ReportState::getTileColumn(storage::TileColumn column) {
  auto& lazy = tileColumns[static_cast<std::size_t>(column)];
  lazy.get([&] {
    lazy.value = store.tileColumn(column, tilesPerReplica());
    if (lazy.value.size() != tilesPerReplica())
      store.corrupt("corrupted report (" + std::to_string(lazy.value.size()) +
                    " tiles of memory for a replica of " + std::to_string(tilesPerReplica()) +
                    " tiles)");
  });
  return lazy.value;
}

const std::vector<MemoryCategories>& ReportState::getCategories() {
  categories.get([&] {
    const unsigned n = tilesPerReplica();
    categories.value.assign(n, MemoryCategories());
    for (const auto& row : store.categories()) {
      if (row.tile >= n)
        store.corrupt("corrupted report (memory category row for tile " + std::to_string(row.tile) +
                      ")");
      Access::setCategory(categories.value[row.tile], row.category, row.bytes);
    }
  });
  return categories.value;
}

const std::vector<VertexType>& ReportState::getVertexTypes() {
  vertexTypes.get([&] {
    for (const auto& row : store.vertexTypes())
      vertexTypes.value.push_back(Access::vertexType(row));
  });
  return vertexTypes.value;
}

const ProgramCache& ReportState::getPrograms() {
  programs.get([&] {
    auto& c = programs.value;
    for (const auto& row : store.programs())
      c.objects.push_back(Access::program(this, row));
    c.children.resize(c.objects.size());
    for (const auto& [parent, child] : store.programChildren()) {
      if (parent >= c.objects.size() || child >= c.objects.size())
        store.corrupt("corrupted report (program tree refers to program " +
                      std::to_string(std::max(parent, child)) + ")");
      c.children[parent].push_back(child);
    }
    c.entryPoints = store.entryPoints();
    for (auto e : c.entryPoints)
      if (e >= c.objects.size())
        store.corrupt("corrupted report (entry point " + std::to_string(e) + ")");
  });
  return programs.value;
}

const std::vector<storage::ComputeSetRow>& ReportState::getComputeSets() {
  computeSets.get([&] { computeSets.value = store.computeSets(); });
  return computeSets.value;
}

const std::vector<storage::VariableRow>& ReportState::getVariables() {
  variables.get([&] { variables.value = store.variables(); });
  return variables.value;
}

const std::vector<storage::LivenessRow>& ReportState::getLiveness() {
  liveness.get([&] { liveness.value = store.livenessSteps(); });
  return liveness.value;
}

const std::vector<storage::RunRow>& ReportState::getRuns() {
  runs.get([&] { runs.value = store.runs(); });
  return runs.value;
}

const std::vector<std::unique_ptr<DebugContext>>& ReportState::getDebugContexts() {
  debugContexts.get([&] {
    for (const auto& row : debugRows)
      debugContexts.value.push_back(Access::debugContext(this, row));
  });
  return debugContexts.value;
}

ProgramPtr ReportState::program(std::uint64_t id) {
  const auto& objects = getPrograms().objects;
  if (id >= objects.size())
    badArgument("no program " + std::to_string(id) + " (the report has " +
                std::to_string(objects.size()) + ")");
  return ProgramPtr(self(), objects[id].get());
}

std::shared_ptr<const DebugContext> ReportState::debugContext(std::int64_t id) {
  if (!hasDebug || id < 0) return nullptr;
  const auto& contexts = getDebugContexts();
  if (std::uint64_t(id) >= contexts.size())
    return nullptr; // a report refers to a context the file lacks
  return std::shared_ptr<const DebugContext>(self(), contexts[std::size_t(id)].get());
}

Variable ReportState::variable(std::uint64_t id) {
  const auto& vars = getVariables();
  if (id >= vars.size())
    store.corrupt("corrupted report (reference to variable " + std::to_string(id) + ")");
  return Access::variable(self(), vars[id]);
}

// --- builders ------------------------------------------------------------------------------------

Report Access::report(std::shared_ptr<ReportState> s) {
  Report r;
  r.s_ = std::move(s);
  return r;
}

PoplarVersion Access::poplarVersion(unsigned major, unsigned minor, unsigned point,
                                    const std::string& hash) {
  PoplarVersion v;
  v.major_ = major;
  v.minor_ = minor;
  v.point_ = point;
  v.hash_ = hash;
  return v;
}

ProfileReportVersion Access::formatVersion(unsigned major, unsigned minor, unsigned point) {
  ProfileReportVersion v;
  v.major_ = major;
  v.minor_ = minor;
  v.point_ = point;
  return v;
}

InstrumentationSettings Access::instrumentation(const std::string& compute,
                                                const std::string& external) {
  using C = InstrumentationSettings::ComputeInstrumentationLevel;
  using E = InstrumentationSettings::ExternalExchangeInstrumentationLevel;
  InstrumentationSettings i;
  i.compute_ = parseAs<S::ComputeInstrumentation>(compute, C::Unknown);
  i.external_ = parseAs<S::ExternalExchangeInstrumentation>(external, E::Unknown);
  return i;
}

CompilationReport Access::compilation(std::shared_ptr<ReportState> s) {
  CompilationReport c;
  c.s_ = std::move(s);
  return c;
}

ExecutionReport Access::execution(std::shared_ptr<ReportState> s) {
  ExecutionReport e;
  e.s_ = std::move(s);
  return e;
}

Target Access::target(const storage::TargetRow& row) {
  Target t;
  t.type_ = parseAs<S::TargetType>(row.type, Target::Type::Unknown);
  t.arch_ = parseAs<S::Architecture>(row.architecture, Target::Architecture::Unknown);
  t.numIpus_ = row.numIpus;
  t.tilesPerIpu_ = row.tilesPerIpu;
  t.replicas_ = row.numReplicas;
  t.contexts_ = row.contexts;
  t.exchangeBytesPerCycle_ = row.exchangeBytesPerCycle;
  t.minSync_ = row.minSync;
  t.maxSync_ = row.maxSync;
  t.globalSync_ = row.globalSync;
  t.bytesPerTile_ = row.bytesPerTile;
  t.interleavedStart_ = row.interleavedStart;
  t.clock_ = row.clock;
  t.ipuLinkBytesPerCycle_ = row.ipuLink;
  t.hostLinkBytesPerCycle_ = row.hostLink;
  t.elementOffsets_ = row.elementOffsets;
  return t;
}

Graph Access::graph(const storage::GraphRow& row) {
  Graph g;
  g.vertices_ = row.vertices;
  g.computeSets_ = row.computeSets;
  g.variables_ = row.variables;
  g.edges_ = row.edges;
  return g;
}

void Access::initBorrowedTile(Tile& t, ReportState* s, unsigned number, unsigned ipu,
                              unsigned replicaTile) {
  // Set in place: assigning a StateRef would make it an owning one.
  const std::shared_ptr<ReportState> borrowed(std::shared_ptr<ReportState>(), s);
  static_assert(sizeof(Tile) <= 32, "the report keeps a Tile per tile: keep it small");
  t.number_ = number;
  t.ipu_ = ipu;
  t.memory_.total_.s_.p_ = borrowed;
  t.memory_.total_.tile_ = replicaTile;
}

Tiles Access::tiles(const std::shared_ptr<ReportState>& s, const Tile* tiles, std::size_t n) {
  Tiles l;
  l.report_ = s;
  l.first_ = tiles;
  l.size_ = n;
  return l;
}

Ipu Access::ipu(unsigned id, Tiles tiles) {
  Ipu i;
  i.id_ = id;
  i.tiles_ = std::move(tiles);
  return i;
}

void Access::setCategory(MemoryCategories& m, unsigned category,
                         const std::uint64_t (&bytes)[3][2]) {
  CategoryMemory& c = m.c_[category];
  for (int r = 0; r < 3; ++r) {
    c.regions_[r].nonOverlapped_ = bytes[r][0];
    c.regions_[r].overlapped_ = bytes[r][1];
  }
}

VertexType Access::vertexType(const storage::VertexTypeRow& row) {
  VertexType v;
  v.name_ = row.name;
  v.size_ = row.stateBytes;
  v.codeBytes_ = row.codeBytes;
  v.supervisor_ = row.supervisor;
  return v;
}

TileVertexType Access::tileVertexType(const VertexType& t, std::uint64_t count) {
  TileVertexType v;
  v.type_ = t;
  v.count_ = count;
  return v;
}

ComputeSet Access::computeSet(const std::shared_ptr<ReportState>& s,
                              const storage::ComputeSetRow& row) {
  ComputeSet c;
  c.s_ = s;
  c.id_ = unsigned(row.id);
  c.name_ = row.name;
  c.numVertices_ = row.numVertices;
  if (row.estimatedFlops) c.flops_ = OptionalCount(*row.estimatedFlops);
  if (row.verticesWithoutFlopEstimate)
    c.withoutFlops_ = OptionalCount(*row.verticesWithoutFlopEstimate);
  c.debug_ = row.debug;
  return c;
}

ComputeSetVertices Access::computeSetVertices(const std::shared_ptr<ReportState>& s,
                                              unsigned computeSet, std::uint64_t typeId,
                                              const VertexType& type, std::uint64_t count) {
  ComputeSetVertices v;
  v.s_ = s;
  v.computeSet_ = computeSet;
  v.typeId_ = typeId;
  v.type_ = type;
  v.count_ = count;
  return v;
}

Variable Access::variable(const std::shared_ptr<ReportState>& s, const storage::VariableRow& row) {
  Variable v;
  v.s_ = s;
  v.id_ = row.id;
  v.bytes_ = row.bytes;
  v.from_ = row.from;
  v.to_ = row.to;
  v.debug_ = row.debug;
  v.alwaysLive_ = row.alwaysLive;
  v.name_ = row.name;
  v.category_ = row.category;
  v.elementType_ = row.elementType;
  v.shape_ = row.shape;
  return v;
}

Variable Access::pseudoVariable(const std::string& category, std::uint64_t bytes) {
  Variable v;
  v.id_ = ~std::uint64_t(0);
  v.bytes_ = bytes;
  v.alwaysLive_ = true;
  v.name_ = category;
  v.category_ = category;
  return v;
}

NotAlwaysLiveMemory Access::notAlwaysLive(std::uint64_t bytes, std::vector<Variable> vars) {
  NotAlwaysLiveMemory m;
  m.bytes_ = bytes;
  m.variables_ = std::move(vars);
  return m;
}

ProgramStep Access::programStep(const std::shared_ptr<ReportState>& s,
                                const storage::LivenessRow& row) {
  ProgramStep p;
  p.s_ = s;
  p.index_ = row.id;
  p.bytes_ = row.bytes;
  p.program_ = row.program;
  return p;
}

BriefVar Access::briefVar(const storage::LoweredRow& row, std::uint64_t classId, std::uint64_t from,
                          std::uint64_t to) {
  BriefVar b;
  b.id_ = row.id;
  b.bytes_ = row.bytes;
  b.tile_ = row.tile;
  b.class_.id = classId;
  if (from < to) b.class_.steps.push_back({from, to});
  return b;
}

LoweredVariable Access::loweredVariable(const storage::LoweredRow& row, const Variable* var) {
  LoweredVariable l;
  l.id_ = row.id;
  l.bytes_ = row.bytes;
  l.offset_ = row.offset;
  l.alignment_ = row.alignment;
  l.tile_ = row.tile;
  l.alwaysLive_ = row.alwaysLive;
  l.category_ = row.category;
  l.hasVar_ = var != nullptr;
  if (var) {
    l.var_ = *var;
    l.name_ = var->name();
  } else {
    l.name_ = row.name;
  }
  return l;
}

LoweredVariables Access::loweredVariables(std::shared_ptr<ReportState> s) {
  LoweredVariables l;
  l.s_ = std::move(s);
  return l;
}

ProgramVariable Access::programVariable(const storage::VariableRow& var,
                                        const std::string& access) {
  ProgramVariable v;
  v.id_ = var.id;
  v.bytes_ = var.bytes;
  v.name_ = var.name;
  v.alwaysLive_ = var.alwaysLive;
  // An unknown access reads as Read, the weakest claim (as before the names moved to the schema).
  v.access_ = parseAs<S::VariableAccess>(access, ProgramVariable::Access::Read);
  return v;
}

TileCycleTotals Access::tileCycleTotals(std::vector<std::vector<std::uint64_t>> byKind,
                                        std::optional<std::vector<std::uint64_t>> excludingIdle) {
  TileCycleTotals t;
  for (std::size_t k = 0; k < TileCycleTotals::numKinds && k < byKind.size(); ++k)
    t.byKind_[k] = std::move(byKind[k]);
  if (excludingIdle) {
    t.hasExcludingIdle_ = true;
    t.excludingIdle_ = std::move(*excludingIdle);
  }
  return t;
}

TotalCycles Access::totalCycles(std::uint64_t total) {
  TotalCycles t;
  t.total_ = total;
  return t;
}

} // namespace pva::detail
