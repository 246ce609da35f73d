// Reads a report's execution into the compact per-IPU index the Execution page paints from.
#include "core/ExecutionIndex.hpp"

#include "core/Session.hpp"

#include <QCoreApplication>
#include <QHash>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <pva/Blocks.hpp>
#include <pva/Compilation.hpp>
#include <pva/Debug.hpp>
#include <pva/Execution.hpp>
#include <pva/Report.hpp>
#include <pva/StepCycleKind.hpp>

namespace tessera::viewer {

StepKind stepKindOf(pva::Program::Type type) {
  // libpva's rule, the one the report's cycle totals follow (a StreamCopyBegin is a host sync).
  pva::TileCycleTotals::Kind kind;
  if (!pva::stepCycleKind(type, kind)) return StepKind::Other;
  switch (kind) {
  case pva::TileCycleTotals::Kind::Compute:
    return StepKind::Compute;
  case pva::TileCycleTotals::Kind::InternalExchange:
    return StepKind::InternalExchange;
  case pva::TileCycleTotals::Kind::GlobalExchange:
    return StepKind::GlobalExchange;
  case pva::TileCycleTotals::Kind::StreamCopy:
    return StepKind::StreamCopy;
  case pva::TileCycleTotals::Kind::Sync:
    return StepKind::Sync;
  }
  return StepKind::Other;
}

QString stepKindName(StepKind kind) {
  switch (kind) {
  case StepKind::Compute:
    return QCoreApplication::translate("Execution", "Compute");
  case StepKind::InternalExchange:
    return QCoreApplication::translate("Execution", "Internal exchange");
  case StepKind::GlobalExchange:
    return QCoreApplication::translate("Execution", "Global exchange");
  case StepKind::StreamCopy:
    return QCoreApplication::translate("Execution", "Stream copy");
  case StepKind::Sync:
    return QCoreApplication::translate("Execution", "Sync");
  case StepKind::Other:
    break;
  }
  return QCoreApplication::translate("Execution", "Other");
}

std::uint64_t LaneTotals::total() const {
  std::uint64_t t = 0;
  for (auto c : cycles)
    t += c;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Header

namespace {

/// Operations from libpva (pva::OperationAnalysis and its program -> operation lookup), and the
/// distinct prefixes of their paths as a tree of nodes, for the flame view's lanes.
void readOperations(const pva::Report& report, ExecutionHeader& h) {
  if (!report.hasDebugInfo()) return;
  const pva::OperationAnalysis analysis(report);
  const std::vector<pva::Operation> ops = analysis.operations();
  std::map<QString, std::uint32_t> nodeOfPath;
  auto nodeOf = [&](const QStringList& parts, int levels) {
    std::uint32_t parent = kNoOperation;
    QString path;
    for (int d = 0; d < levels; ++d) {
      path = d == 0 ? parts[0] : path + QLatin1Char('/') + parts[d];
      const auto it = nodeOfPath.find(path);
      if (it != nodeOfPath.end()) {
        parent = it->second;
        continue;
      }
      ExecPathNode node;
      node.label = parts[d];
      node.path = path;
      node.parent = parent;
      node.depth = std::uint16_t(d);
      // A hash of the path, not its position: an operation keeps its colour in any report.
      node.hue = float(double(qHash(path, 0) % 4096) / 4096.0);
      parent = std::uint32_t(h.pathNodes.size());
      nodeOfPath.emplace(path, parent);
      h.pathNodes.push_back(std::move(node));
    }
    return parent;
  };
  h.operations.reserve(ops.size());
  std::vector<char> named(ops.size(), 0);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const pva::Operation& op = ops[i];
    ExecOperationInfo info;
    info.name = QString::fromStdString(op.name());
    info.layer = QString::fromStdString(op.debugContext()->layerName());
    info.type = QString::fromStdString(op.type());
    const QStringList parts = info.name.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (!parts.isEmpty()) {
      const int levels = int(std::min<qsizetype>(parts.size(), kMaxFlameDepth));
      info.node = nodeOf(parts, levels);
      if (h.pathNodes[info.node].operation == kNoOperation)
        h.pathNodes[info.node].operation = std::uint32_t(i);
      named[i] = 1;
    }
    h.operations.push_back(std::move(info));
  }
  // A context without a name says nothing a lane could show: its steps have no operation.
  const std::vector<std::int64_t>& owner = analysis.operationOfProgram();
  h.programOperation.assign(h.programs.size(), kNoOperation);
  for (std::size_t p = 0; p < owner.size() && p < h.programOperation.size(); ++p)
    if (owner[p] >= 0 && std::size_t(owner[p]) < ops.size() && named[std::size_t(owner[p])]) {
      const ExecOperationInfo& op = h.operations[std::size_t(owner[p])];
      h.programOperation[p] = std::uint32_t(owner[p]);
      // Lanes for the levels of operations that own a step; deeper ones never draw.
      if (h.programs[p].isStep)
        h.operationDepth = std::max(h.operationDepth, unsigned(h.pathNodes[op.node].depth) + 1u);
    }
}

} // namespace

ExecutionHeader readExecutionHeader(const Document& doc, Progress& progress) {
  ExecutionHeader h;
  const pva::Report& report = doc.report();
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  h.numIpus = target.ipusPerReplica();
  h.replicas = std::max(1u, target.numReplicas());
  h.tilesPerIpu = target.tilesPerIpu();
  h.clockHz = target.clockFrequency();

  // Programs and the tree above the steps: the first parent met walking down from the entry
  // points (a program called from two places keeps the first), depth by walking up.
  const std::vector<pva::ProgramPtr> programs = compilation.programs();
  h.programs.resize(programs.size());
  std::vector<std::vector<std::uint32_t>> children(programs.size());
  for (std::size_t i = 0; i < programs.size(); ++i) {
    if (i % 4096 == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(0.5 * double(i) / double(programs.size()));
    }
    const pva::Program& p = *programs[i];
    ExecProgramInfo& info = h.programs[i];
    info.name = QString::fromStdString(p.name());
    info.type = p.type();
    info.kind = stepKindOf(p.type());
    info.isStep = p.isStep();
    for (const pva::ProgramPtr& c : p.children())
      children[i].push_back(std::uint32_t(c->_id()));
  }
  std::vector<std::uint32_t> stack;
  std::vector<char> seen(programs.size(), 0);
  for (const pva::ProgramPtr& e : compilation.entryPoints())
    if (e->_id() < programs.size() && !seen[e->_id()]) {
      seen[e->_id()] = 1;
      stack.push_back(std::uint32_t(e->_id()));
    }
  while (!stack.empty()) {
    const std::uint32_t p = stack.back();
    stack.pop_back();
    for (std::uint32_t c : children[p])
      if (c < programs.size() && !seen[c]) {
        seen[c] = 1;
        h.programs[c].parent = p;
        stack.push_back(c);
      }
  }
  for (ExecProgramInfo& info : h.programs) {
    unsigned depth = 0;
    for (std::uint32_t p = info.parent; p != kNoProgram && depth < 1000; p = h.programs[p].parent)
      ++depth;
    info.depth = std::uint16_t(std::min(depth, 65535u));
  }

  if (report.outOfMemory()) {
    h.noExecutionReason = QCoreApplication::translate(
        "Execution", "Compilation ran out of tile memory, so the program never ran.");
    return h;
  }
  const pva::ExecutionReport execution = report.execution();
  const pva::ExecutionSteps steps = execution.steps();
  h.numSteps = steps.size();
  if (h.numSteps == 0) {
    h.noExecutionReason =
        QCoreApplication::translate("Execution", "The program was compiled but never run.");
    return h;
  }
  if (h.numSteps > std::numeric_limits<std::uint32_t>::max())
    throw pva::Exception(doc.profilePath().toStdString() +
                         ": more than 4 G execution steps; the viewer indexes at most 4 G");
  std::uint64_t first = 0;
  for (const pva::Run& r : execution.runs()) {
    ExecRunInfo run;
    run.name = QString::fromStdString(r.name());
    run.firstStep = first;
    run.numSteps = r.steps().size();
    run.cycles = r.cycles();
    first += run.numSteps;
    h.runs.push_back(std::move(run));
  }
  std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
  for (const pva::IpuExecution& ipu : steps[0].ipus())
    origin = std::min(origin, ipu.allCycles().from().min());
  h.origin = origin == std::numeric_limits<std::uint64_t>::max() ? 0 : origin;
  h.hasExecution = true;

  // Lightweight profiling: libpva's blocks of each IPU's recording tile and its I/O tiles.
  const pva::BlockFigures blocks = pva::analyseBlocks(report);
  h.blocksTile = blocks.recordingTile;
  h.blockRecords = blocks.numRecords;
  h.blockTiles = blocks.numTiles;
  h.blockPrograms = blocks.programs;
  std::map<std::string, std::uint32_t> figuresOf;
  for (std::size_t i = 0; i < blocks.programs.size(); ++i)
    figuresOf.emplace(blocks.programs[i].name, std::uint32_t(i));
  auto info = [&](const pva::Block& b, unsigned tiles) {
    ExecBlockInfo out;
    out.from = b.from() > h.origin ? b.from() - h.origin : 0;
    out.to = std::max(out.from, b.to() > h.origin ? b.to() - h.origin : 0);
    out.cycles = b.to() > b.from() ? b.to() - b.from() : 0;
    const pva::ProgramPtr p = b.program();
    out.program = p ? std::uint32_t(p->_id()) : kNoProgram;
    const auto f = figuresOf.find(p ? p->name() : std::string("(unknown)"));
    out.figures = f == figuresOf.end() ? kNoProgram : f->second;
    out.tiles = tiles;
    out.kind = b.isStreamCopy()   ? ExecBlockInfo::StreamCopy
               : b.isBlockFlush() ? ExecBlockInfo::BlockFlush
               : b.isOverflow()   ? ExecBlockInfo::Overflow
                                  : ExecBlockInfo::Common;
    return out;
  };
  if (blocks.any()) {
    h.blocks.resize(h.numIpus);
    h.ioBlocks.resize(h.numIpus);
    for (unsigned ipu = 0; ipu < h.numIpus && ipu < blocks.recorded.size(); ++ipu) {
      for (const pva::Block& b : blocks.recorded[ipu])
        h.blocks[ipu].push_back(info(b, 1));
      for (const pva::IoBlock& b : blocks.io[ipu])
        h.ioBlocks[ipu].push_back(info(b.block, b.tiles));
    }
  }
  progress.report(1.0);
  return h;
}

// ---------------------------------------------------------------------------------------------
// The index

ExecutionIndex::ExecutionIndex(ExecutionHeader header)
    : header_(std::move(header)), lanes_(header_.numIpus) {
  const std::size_t n = header_.numSteps;
  // new T[n] without value-initialisation: pages are resident only once written (a lane's
  // step numbers never are while the lane holds every step: Lane::dense). Transparent huge pages
  // (madvise) were tried for these arrays and dropped: 55-480 ms of CPU against a steady
  // 115-135 ms with 4 KiB pages for 16 lanes of 12 MB, the spread being the kernel's compaction.
  for (Lane& lane : lanes_) {
    lane.begin.reset(new std::uint64_t[n]);
    lane.duration.reset(new std::uint32_t[n]);
    lane.step.reset(new std::uint32_t[n]);
    lane.balance.reset(new std::uint16_t[n]);
    lane.kind.reset(new std::uint8_t[n]);
    lane.prefix.reset(new Cumulative[n / kBlock + 1]);
    lane.blockBegin.reset(new std::uint64_t[n / kBlock + 1]);
  }
  stepProgram_.reset(new std::uint32_t[n]);
  stepRun_.reset(new std::uint16_t[n]);
  stepOperation_.reset(new std::uint32_t[n]);
}

std::size_t ExecutionIndex::lowerBound(unsigned lane, std::size_t n, double t) const {
  const Lane& l = lanes_[lane];
  if (t <= 0 || n == 0) return 0;
  const double ceiling = std::ceil(t);
  if (ceiling >= double(std::numeric_limits<std::uint64_t>::max())) return n;
  const std::uint64_t limit = std::uint64_t(ceiling);
  // The first block starting at or after the limit; the answer is in the block before it.
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  const std::size_t b =
      std::size_t(std::lower_bound(l.blockBegin.get(), l.blockBegin.get() + blocks, limit) -
                  l.blockBegin.get());
  const std::size_t lo = b == 0 ? 0 : (b - 1) * kBlock, hi = std::min(b * kBlock, n);
  return std::size_t(std::lower_bound(l.begin.get() + lo, l.begin.get() + hi, limit) -
                     l.begin.get());
}

std::size_t ExecutionIndex::lowerBoundFrom(unsigned lane, std::size_t n, double t,
                                           std::size_t from) const {
  const Lane& l = lanes_[lane];
  if (from >= n || t <= 0 || double(l.begin[from]) >= t) return lowerBound(lane, n, t);
  const double ceiling = std::ceil(t);
  if (ceiling >= double(std::numeric_limits<std::uint64_t>::max())) return n;
  const std::uint64_t limit = std::uint64_t(ceiling);
  // Gallop over the block starts from `from`'s block (blockBegin[b] <= begin[from] < limit):
  // the next column's steps are usually a few blocks on, a cache line or two away.
  const std::size_t blocks = (n + kBlock - 1) / kBlock, b = from / kBlock;
  std::size_t lo = b, step = 1, hi = b + 1;
  while (hi < blocks && l.blockBegin[hi] < limit) {
    lo = hi;
    step *= 2;
    hi = b + step;
  }
  hi = std::min(hi, blocks);
  const std::size_t first =
      std::size_t(std::lower_bound(l.blockBegin.get() + lo + 1, l.blockBegin.get() + hi, limit) -
                  l.blockBegin.get());
  const std::size_t a = std::max(from, (first - 1) * kBlock), z = std::min(first * kBlock, n);
  return std::size_t(std::lower_bound(l.begin.get() + a, l.begin.get() + z, limit) - l.begin.get());
}

std::size_t ExecutionIndex::blockLowerBound(unsigned lane, std::size_t n, double t,
                                            std::size_t from) const {
  const Lane& l = lanes_[lane];
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  const std::uint64_t* b = l.blockBegin.get();
  if (from >= blocks || double(b[from]) >= t) {
    // Behind the hint: a plain search from the start.
    return std::size_t(std::lower_bound(b, b + std::min(from, blocks),
                                        std::uint64_t(std::max(0.0, std::ceil(t)))) -
                       b);
  }
  const std::uint64_t limit = std::uint64_t(std::ceil(t));
  std::size_t lo = from, step = 1, hi = from + 1;
  while (hi < blocks && b[hi] < limit) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  hi = std::min(hi, blocks);
  return std::size_t(std::lower_bound(b + lo + 1, b + hi, limit) - b);
}

std::size_t ExecutionIndex::stepLowerBound(unsigned lane, std::size_t n, std::uint64_t step) const {
  const Lane& l = lanes_[lane];
  if (l.dense.load(std::memory_order_acquire)) return std::size_t(std::min<std::uint64_t>(step, n));
  const std::uint32_t* s = l.step.get();
  return std::size_t(std::lower_bound(s, s + n, step) - s);
}

std::int64_t ExecutionIndex::entryOfStep(unsigned lane, std::uint64_t step) const {
  const std::size_t n = entries(lane);
  const std::size_t i = stepLowerBound(lane, n, step);
  return i < n && this->step(lane, i) == step ? std::int64_t(i) : -1;
}

LaneTotals ExecutionIndex::totals(unsigned lane, std::size_t first, std::size_t last) const {
  LaneTotals t;
  if (last <= first) return t;
  const Lane& l = lanes_[lane];
  t.count = last - first;
  auto scan = [&](std::size_t a, std::size_t b) {
    for (std::size_t i = a; i < b; ++i)
      t.cycles[l.kind[i]] += l.duration[i];
  };
  const std::size_t b0 = (first + kBlock - 1) / kBlock, b1 = last / kBlock;
  if (b1 <= b0) {
    scan(first, last);
  } else {
    scan(first, b0 * kBlock);
    const Cumulative &lo = l.prefix[b0], &hi = l.prefix[b1];
    for (int k = 0; k < kStepKinds; ++k)
      t.cycles[std::size_t(k)] += hi.cycles[std::size_t(k)] - lo.cycles[std::size_t(k)];
    scan(b1 * kBlock, last);
  }
  return t;
}

std::array<std::uint64_t, kStepKinds>
ExecutionIndex::approximateCycles(unsigned lane, std::size_t first, std::size_t last) const {
  if (last <= first + 4 * kBlock) return totals(lane, first, last).cycles;
  const Lane& l = lanes_[lane];
  // Nearest block boundaries; both are below the published count, so their sums exist.
  const Cumulative& lo = l.prefix[(first + kBlock / 2) / kBlock];
  const Cumulative& hi = l.prefix[(last + kBlock / 2) / kBlock > entries(lane) / kBlock
                                      ? last / kBlock
                                      : (last + kBlock / 2) / kBlock];
  std::array<std::uint64_t, kStepKinds> c{};
  for (std::size_t k = 0; k < c.size(); ++k)
    c[k] = hi.cycles[k] - lo.cycles[k];
  return c;
}

std::uint64_t ExecutionIndex::loadedEnd() const {
  std::uint64_t end = 0;
  for (unsigned lane = 0; lane < numLanes(); ++lane) {
    const std::size_t n = entries(lane);
    if (n) end = std::max(end, this->end(lane, n - 1));
  }
  return end;
}

bool ExecutionIndex::runSpan(unsigned run, std::uint64_t* from, std::uint64_t* to) const {
  if (run >= header_.runs.size()) return false;
  const ExecRunInfo& r = header_.runs[run];
  if (r.numSteps == 0 || loadedSteps() < r.firstStep + r.numSteps) return false;
  std::uint64_t a = std::numeric_limits<std::uint64_t>::max(), b = 0;
  for (unsigned lane = 0; lane < numLanes(); ++lane) {
    const std::size_t n = entries(lane);
    const std::size_t i = stepLowerBound(lane, n, r.firstStep);
    const std::size_t j = stepLowerBound(lane, n, r.firstStep + r.numSteps);
    if (i >= j) continue;
    a = std::min(a, begin(lane, i));
    b = std::max(b, end(lane, j - 1));
  }
  if (b == 0 && a == std::numeric_limits<std::uint64_t>::max()) return false;
  *from = a;
  *to = b;
  return true;
}

std::uint64_t ExecutionIndex::memoryBytes() const {
  std::uint64_t bytes = loadedSteps() * (2 * sizeof(std::uint32_t) + sizeof(std::uint16_t));
  for (unsigned lane = 0; lane < numLanes(); ++lane)
    bytes += entries(lane) * (8 + 4 + (lanes_[lane].dense.load() ? 0 : 4) + 2 + 1) +
             (entries(lane) / kBlock + 1) * (sizeof(Cumulative) + 8);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Filling

/// The only writer of an index: keeps its own counts and publishes them with release stores.
/// It rides on libpva's pass over the steps (pva::StepObserver): the steps the run figures are
/// derived from are the ones indexed, each decoded once for both.
class ExecutionIndexWriter final : public pva::StepObserver {
public:
  ExecutionIndexWriter(ExecutionIndex& index, const pva::Report& report, QString file)
      : file_(std::move(file)), index_(index), count_(index.numLanes(), 0), cum_(index.numLanes()),
        shift_(index.numLanes(), 0), lastEnd_(index.numLanes(), 0), lastBegin_(index.numLanes(), 0),
        dense_(index.numLanes(), true) {
    // The operations are read here, not with the header: OperationAnalysis reads every program
    // and variable, which would delay the first paint. No reader looks at them before the
    // first step is published (release store in publish()).
    readOperations(report, index.header_);
    const ExecutionHeader& h = index.header();
    // Operation lanes when debug.cbor names operations; the program tree otherwise.
    flame_.operations = h.operationDepth > 0;
    if (flame_.operations) {
      flame_.depth = std::min(h.operationDepth, kMaxFlameDepth);
    } else {
      unsigned maxDepth = 0;
      for (const ExecProgramInfo& p : h.programs)
        maxDepth = std::max<unsigned>(maxDepth, p.depth);
      flame_.depth = std::min(maxDepth, kMaxFlameDepth);
    }
    flame_.lanes.assign(index.numLanes(), std::vector<std::vector<FlameRun>>(flame_.depth));
    lastRun_.assign(index.numLanes(), ~0u);
  }

  void step(const pva::ExecutionStep& step, std::uint64_t programId, const pva::IpuExecution* ipus,
            std::size_t numIpus) override {
    const std::uint64_t stepIndex = step.index();
    // The arrays are sized by the header's step count: a step past it (or out of order) means
    // the file is not the one the header was read from.
    if (stepIndex != added_ || stepIndex >= index_.numSteps()) changed();
    add(stepIndex,
        programId == pva::StepObserver::kNoProgram
            ? kNoProgram
            : std::uint32_t(std::min<std::uint64_t>(programId, kNoProgram - 1)),
        step.run(), ipus, ipus + numIpus);
    // Publishing often lets the page paint early; every 4096 steps costs nothing measurable.
    if (++added_ % 4096 == 0) publish(added_);
  }

  /// Steps handed over so far.
  std::uint64_t added() const { return added_; }

  [[noreturn]] void changed() const {
    throw pva::Exception(file_.toStdString() + ": the execution changed while it was being read");
  }

  void add(std::uint64_t stepIndex, std::uint32_t program, unsigned run,
           const pva::IpuExecution* first, const pva::IpuExecution* last) {
    index_.stepProgram_[stepIndex] = program;
    index_.stepRun_[stepIndex] = std::uint16_t(std::min(run, 65535u));
    const auto& programOperation = index_.header().programOperation;
    const std::uint32_t operation =
        program < programOperation.size() ? programOperation[program] : kNoOperation;
    index_.stepOperation_[stepIndex] = operation;
    const auto& programs = index_.header().programs;
    const StepKind kind = program < programs.size() ? programs[program].kind : StepKind::Other;
    for (const pva::IpuExecution* it = first; it != last; ++it) {
      const pva::IpuExecution& x = *it;
      const unsigned lane = x.ipu();
      if (lane >= index_.numLanes()) continue; // an IPU outside the target: nothing to draw it in
      ExecutionIndex::Lane& l = index_.lanes_[lane];
      const std::size_t k = count_[lane];
      const std::uint64_t from = x.allCycles().from().min(),
                          to = std::max(from, x.allCycles().to().max());
      const std::uint64_t origin = index_.header().origin;
      std::uint64_t begin = (from > origin ? from - origin : 0) + shift_[lane];
      // Counters that go back (a counter restarted for a new run) continue after the last step,
      // so the lane stays sorted by time.
      if (begin < lastBegin_[lane]) {
        shift_[lane] += lastEnd_[lane] - begin;
        begin = lastEnd_[lane];
      }
      const std::uint64_t duration =
          std::min<std::uint64_t>(to - from, std::numeric_limits<std::uint32_t>::max());
      l.begin[k] = begin;
      if (k % ExecutionIndex::kBlock == 0) l.blockBegin[k / ExecutionIndex::kBlock] = begin;
      l.duration[k] = std::uint32_t(duration);
      if (!dense_[lane]) {
        l.step[k] = std::uint32_t(stepIndex);
      } else if (stepIndex != k) {
        // The first step this IPU sat out: the step numbers so far were implied; write them
        // before any reader can see an entry that needs them.
        for (std::size_t e = 0; e < k; ++e)
          l.step[e] = std::uint32_t(e);
        l.step[k] = std::uint32_t(stepIndex);
        dense_[lane] = false;
        l.dense.store(false, std::memory_order_release);
      }
      l.kind[k] = std::uint8_t(kind);
      const double balance = std::clamp(x.tileBalance(), 0.0, 1.0);
      l.balance[k] = std::uint16_t(std::lround(balance * 65535.0));
      lastBegin_[lane] = begin;
      lastEnd_[lane] = std::max(lastEnd_[lane], begin + duration);
      ExecutionIndex::Cumulative& cum = cum_[lane];
      cum.cycles[std::size_t(kind)] += duration;
      if ((k + 1) % ExecutionIndex::kBlock == 0) l.prefix[(k + 1) / ExecutionIndex::kBlock] = cum;
      count_[lane] = k + 1;
      addFlame(lane, k, program, operation, run);
    }
  }

  void publish(std::uint64_t loadedSteps) {
    for (unsigned lane = 0; lane < index_.numLanes(); ++lane)
      index_.lanes_[lane].count.store(count_[lane], std::memory_order_release);
    index_.loadedSteps_.store(loadedSteps, std::memory_order_release);
  }

  FlameRows takeFlame() { return std::move(flame_); }

private:
  void addFlame(unsigned lane, std::size_t entry, std::uint32_t program, std::uint32_t operation,
                unsigned run) {
    if (flame_.depth == 0 || flame_.truncated) return;
    // What the step is under, root first, into chain_[0 .. depth).
    unsigned depth = 0;
    if (flame_.operations) {
      const ExecutionHeader& h = index_.header();
      const std::uint32_t node =
          operation < h.operations.size() ? h.operations[operation].node : kNoOperation;
      if (node < h.pathNodes.size()) {
        depth = std::min<unsigned>(h.pathNodes[node].depth + 1u, flame_.depth);
        std::uint32_t n = node;
        for (unsigned skip = h.pathNodes[node].depth + 1u; skip > depth && n != kNoOperation;
             --skip)
          n = h.pathNodes[n].parent;
        for (unsigned d = depth; d-- > 0 && n != kNoOperation; n = h.pathNodes[n].parent)
          chain_[d] = n;
      }
    } else {
      const auto& programs = index_.header().programs;
      if (program < programs.size()) {
        depth = std::min<unsigned>(programs[program].depth, flame_.depth);
        std::uint32_t p = programs[program].parent;
        for (unsigned skip = programs[program].depth; skip > depth && p != kNoProgram; --skip)
          p = programs[p].parent;
        for (unsigned d = depth; d-- > 0 && p != kNoProgram; p = programs[p].parent)
          chain_[d] = p;
      }
    }
    // A new run of the execution starts new blocks: a program repeated by every run is not one
    // block across them.
    const bool newRun = run != lastRun_[lane];
    lastRun_[lane] = run;
    const std::uint32_t none = flame_.operations ? kNoOperation : kNoProgram;
    auto& rows = flame_.lanes[lane];
    for (unsigned d = 0; d < flame_.depth; ++d) {
      const std::uint32_t id = d < depth ? chain_[d] : none;
      auto& row = rows[d];
      if (row.empty() || row.back().id != id || newRun) {
        row.push_back({std::uint32_t(entry), id});
        if (++flameRuns_ > kMaxFlameRuns) {
          flame_.truncated = true;
          for (auto& r : flame_.lanes)
            for (auto& runs : r)
              std::vector<FlameRun>().swap(runs);
          return;
        }
      }
    }
  }

  static constexpr std::size_t kMaxFlameRuns = std::size_t(8) << 20; // 64 MiB of runs at most
  QString file_;
  std::uint64_t added_ = 0;
  ExecutionIndex& index_;
  std::vector<std::size_t> count_;
  std::vector<ExecutionIndex::Cumulative> cum_;
  std::vector<std::uint64_t> shift_, lastEnd_, lastBegin_;
  std::vector<char> dense_; ///< per lane: entry i is step i so far (ExecutionIndex::Lane::dense)
  std::vector<unsigned> lastRun_; ///< per lane: the run of its last entry
  FlameRows flame_;
  std::size_t flameRuns_ = 0;
  std::array<std::uint32_t, kMaxFlameDepth> chain_{};
};

FlameRows fillExecutionIndex(const Document& doc, ExecutionIndex& index, Progress& progress) {
  if (!index.header().hasExecution || index.numSteps() == 0) return {};
  const pva::Report& report = doc.report();
  ExecutionIndexWriter writer(index, report, doc.profilePath());
  // One pass for the index and the run figures: the session's (libpva's) pass over the steps
  // hands each decoded step to the writer, and keeps the figures for the page's tables.
  doc.session().execution(progress, writer);
  if (writer.added() != index.numSteps()) writer.changed();
  writer.publish(writer.added());
  progress.report(1.0);
  return writer.takeFlame();
}

} // namespace tessera::viewer
