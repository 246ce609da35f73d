#include "Walk.hpp"

#include "FuzzUtil.hpp"
#include "Oracles.hpp"
#include "Writers.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>

namespace fuzz {

namespace {

/// Sums values so the compiler cannot drop the reads.
volatile std::uint64_t sink = 0;
void use(std::uint64_t v) {
  sink = sink + v;
}
template <class C> void useAll(const C& values) {
  for (auto v : values)
    use(static_cast<std::uint64_t>(v));
}

void walkContext(const std::shared_ptr<const pva::DebugContext>& c) {
  if (!c) return;
  use(c->id());
  use(c->name().size() + c->path().size() + c->layer().size() + c->opType().size() +
      c->json().size());
  use(c->location().lineNumber() + c->location().fileName().size() +
      c->location().functionName().size());
  for (const auto& p : c->parents())
    use(p->id());
}

class Visitor : public pva::ProgramVisitor {
public:
  void visitRepeat(const pva::RepeatProgram& p) override { use(p.repeatCount()); }
  void visitOnTileExecute(const pva::OnTileExecuteProgram& p) override {
    part([&] {
      const pva::ComputeSet cs = p.computeSet();
      use(cs.id() + cs.numVertices());
    });
  }
  void visitSync(const pva::SyncProgram& p) override { use(p.syncType().size()); }
};

void walkProgram(const pva::ProgramPtr& p) {
  if (!p) return;
  use(p->_id() + p->name().size() + static_cast<unsigned>(p->type()) + p->dataBytes() +
      p->isStep());
  part([&] {
    for (const auto& c : p->children())
      use(c ? c->_id() : 0);
  });
  part([&] { useAll(p->controlCodeByTile()); });
  part([&] { useAll(p->estimatedCyclesByTile()); });
  part([&] { useAll(p->codeBytesByTile()); });
  part([&] {
    for (const auto& v : p->vars())
      use(v._id() + v.bytes() + static_cast<unsigned>(v.access()));
  });
  part([&] { walkContext(p->debugContext()); });
  Visitor v;
  part([&] { p->accept(v); });
}

void walkCompilation(const pva::CompilationReport& c) {
  part([&] {
    const pva::Target t = c.target();
    use(t.numTiles() + t.tilesPerReplica() + t.memoryPerReplica() +
        t.memoryElementOffsets().size());
  });
  part([&] { use(c.graph().numVertices()); });
  part([&] {
    const pva::Tiles tiles = c.tiles();
    for (std::size_t i = 0; i < std::min(tiles.size(), kMaxItems); ++i) {
      const pva::Tile& t = tiles[i];
      part([&] {
        use(t.memory().total().includingGaps() + t.memory().total().excludingGaps());
        use(t.memory().overflowed().includingGaps() + t.memory().alwaysLiveBytes() +
            t.memory().notAlwaysLiveBytes());
        use(t.memory().category().variable().total() + t.memory().category().stack().total());
        for (const auto& v : t.memory().vertices())
          use(v.count() + v.codeBytes() + v.type().name().size());
      });
    }
  });
  part([&] {
    for (const pva::Ipu& ipu : c.ipus())
      use(ipu.id() + ipu.tiles().size());
  });
  part([&] {
    const auto programs = c.programs();
    for (std::size_t i = 0; i < std::min(programs.size(), kMaxItems); ++i)
      walkProgram(programs[i]);
  });
  part([&] {
    for (const auto& p : c.entryPoints())
      walkProgram(p);
  });
  part([&] {
    const auto sets = c.computeSets();
    for (std::size_t i = 0; i < std::min(sets.size(), kMaxItems); ++i) {
      part([&] { useAll(sets[i].estimatedCyclesByTile()); });
      part([&] { useAll(sets[i].estimatedFlopsByTile()); });
      part([&] {
        for (const auto& v : sets[i].vertices())
          useAll(v.countByTile());
      });
      part([&] { walkContext(sets[i].debugContext()); });
    }
  });
  part([&] {
    const auto vars = c.variables();
    for (std::size_t i = 0; i < std::min(vars.size(), kMaxItems); ++i)
      part([&] { walkContext(vars[i].debugContext()); });
  });
  part([&] {
    const auto steps = c.livenessProgramSteps();
    for (std::size_t i = 0; i < std::min(steps.size(), kMaxItems); ++i) {
      const pva::ProgramStep& s = steps[i];
      part([&] { walkProgram(s.program()); });
      part([&] {
        use(s.notAlwaysLiveMemory().bytes() + s.notAlwaysLiveMemory().variables().size());
      });
      part([&] { use(s.notAlwaysLiveMemoryForTile(0).bytes()); });
      part([&] { use(s.notAlwaysLiveMemoryForIpu(0).bytes()); });
    }
  });
  part([&] { use(c.alwaysLiveVariables().size()); });
  part([&] { use(c.alwaysLiveVariablesForTile(0).size()); });
  part([&] {
    for (const auto& b : c.loweredVariables().allBriefVars())
      use(b.id() + b.bytes() + b.tileId());
  });
  part([&] {
    for (const auto& l : c.loweredVariables().forTile(0)) {
      use(l.offset() + l.alignment());
      if (l.hasUnloweredVar()) part([&] { use(l.unloweredVar().id()); });
    }
  });
}

void walkExecution(const pva::ExecutionReport& e) {
  part([&] {
    const auto runs = e.runs();
    for (std::size_t i = 0; i < std::min(runs.size(), kMaxItems); ++i) {
      const pva::Run& r = runs[i];
      use(r.cycles() + r.name().size() + r.programIndex());
      part([&] { use(r.tileCycleTotals().total()); });
      part([&] {
        std::size_t n = 0;
        for (const auto& s : r.steps()) {
          if (++n > kMaxItems) break;
          use(s.index());
        }
      });
    }
  });
  part([&] {
    std::size_t n = 0;
    for (const auto& s : e.steps()) {
      if (++n > kMaxItems) break;
      part([&] { walkProgram(s.program()); });
      part([&] {
        for (const pva::IpuExecution& ipu : s.ipus())
          use(ipu.cycles() + ipu.activeTiles() + ipu.allCycles().from().min());
      });
      part([&] {
        const pva::IpuExecutions ipus = s.ipus();
        if (!ipus.empty()) use(ipus.at(ipus.size() - 1).cycles());
      });
      part([&] { useAll(s.cyclesByTile()); });
      part([&] {
        for (const auto& cs : s.computeSets())
          useAll(cs.cyclesByTile());
      });
    }
  });
  part([&] { use(e.totalCycles().total()); });
  part([&] { use(e.tileCycleTotals().total()); });
  part([&] {
    for (const auto& b : e.blocks(0)) {
      use(b.from() + b.to() + b.run());
      part([&] { walkProgram(b.program()); });
    }
  });
}

} // namespace

void walkReport(const pva::Report& report, const pva::Report* valid) {
  part([&] { use(report.poplarVersion().string().size() + report.version().string().size()); });
  part([&] { use(static_cast<unsigned>(report.instrumentationSettings().compute())); });
  part([&] {
    use(report.timestamp().size() + static_cast<std::uint64_t>(report.timestampMicroseconds()));
  });
  part([&] { use(report.engineOptions().size() + report.outOfMemory()); });
  walkCompilation(report.compilation());
  walkExecution(report.execution());
  if (report.hasDebugInfo()) {
    part([&] {
      const pva::OperationAnalysis analysis(report);
      const auto ops = analysis.operations();
      for (std::size_t i = 0; i < std::min(ops.size(), kMaxItems); ++i) {
        use(ops[i].name().size() + ops[i].estimatedCycles() + ops[i].vars().size());
        part([&] { use(ops[i].variableBytes()); });
        part([&] {
          for (const auto& p : ops[i].programs())
            use(p ? p->_id() : 0);
        });
        walkContext(ops[i].debugContext());
      }
    });
  }
  if (valid) {
    part([&] { use(pva::compare(*valid, report).memory.categories.size()); });
    part([&] { use(pva::compare(report, *valid).cycles.runs.size()); });
  }
}

namespace {

void walkEvent(const pva::Event& e, unsigned depth) {
  use(e.label().size() + e.channel().size() + e.timestamp() + e.duration() + e.finished() +
      e.depth() + e.metadata().size() + static_cast<std::uint64_t>(e.endNs() - e.beginNs()));
  if (depth > 64) return; // the reader's own nesting is bounded by the data; so is this walk
  const auto children = e.children();
  for (std::size_t i = 0; i < std::min(children.size(), kMaxItems); ++i)
    walkEvent(children[i], depth + 1);
}

} // namespace

void walkTrace(const pva::Trace& trace) {
  use(trace.startTimestamp() + trace.formatVersion().size() + trace.path().size());
  for (const pva::Process& p : trace.processes()) {
    use(p.pid() + p.name().size());
    part([&] { use(trace.process(p.pid()).pid()); });
    for (const pva::Thread& t : p.threads()) {
      use(t.tid() + t.name().size() + t.numEvents());
      part([&] { use(p.thread(t.tid()).tid()); });
      const auto events = t.events();
      for (std::size_t i = 0; i < std::min(events.size(), kMaxItems); ++i)
        walkEvent(events[i], 0);
      for (const auto& i : t.instantEvents())
        use(i.label().size() + i.channel().size() + i.timestamp() +
            static_cast<unsigned>(i.kind()) + i.metadata().size());
    }
    for (const auto& g : p.graphs())
      for (const auto& s : g.series())
        use(s.samples().size() + s.name().size() + g.unit().size());
    for (const auto& h : p.heatmaps())
      for (const auto& s : h.samples())
        use(s.bins.size() + h.binEdges().size() + h.valueType().size());
  }
  // Every JSON written of a trace parses (strict: invalid UTF-8 is an error): the Chrome
  // export, and `pva trace --json`'s summary.
  std::ostringstream chrome;
  pva::exportChromeTrace(trace, chrome);
  mustParseJson(chrome.str(), "exportChromeTrace");
  std::ostringstream summary;
  pvacli::writeJson(summary, pvacli::traceSummaryJson(trace, 0));
  mustParseJson(summary.str(), "pva trace --json");
}

} // namespace fuzz
