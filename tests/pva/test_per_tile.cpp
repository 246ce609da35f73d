// Per-tile arrays hold one entry per tile of a replica whatever the program, compute set or step
// (public clients index them by tile), and operations without steps say so without a number.
// Lengths and values are checked against the file read with raw SQLite, not against libpva.
#include "PvaTestUtil.hpp"
#include "common/RawDb.hpp"

#include <map>
#include <optional>
#include <set>

namespace {

/// Tiles of one replica, from the target row and, independently, from the tile_memory rows.
std::size_t tilesPerReplica(test::Report& raw) {
  const auto fromTarget = raw.integer("SELECT num_ipus / num_replicas * tiles_per_ipu FROM target");
  const auto memoryRows = raw.integer("SELECT count(*) FROM tile_memory");
  REQUIRE(fromTarget == memoryRows);
  return std::size_t(fromTarget);
}

/// The stored TileValues of `column` of program `id`, or all zeros when the column is NULL.
std::vector<std::uint64_t> storedOrZeros(test::Report& raw, const char* column, std::uint64_t id,
                                         std::size_t n) {
  const std::string where = " FROM programs WHERE id = " + std::to_string(id);
  if (raw.integer(std::string("SELECT ") + column + " IS NULL" + where))
    return std::vector<std::uint64_t>(n, 0);
  return raw.tileValues(std::string("SELECT ") + column + where);
}

void checkFullLength(const std::filesystem::path& profile) {
  INFO("report " << profile);
  test::Report raw(profile);
  const std::size_t n = tilesPerReplica(raw);
  const auto report = pva::openReport(profile.string());
  const auto c = report.compilation();
  REQUIRE(c.target().tilesPerReplica() == n);

  std::size_t nullCode = 0, nullEstimate = 0;
  for (const auto& p : c.programs()) {
    INFO("program " << p->_id() << " " << p->name());
    CHECK(p->controlCodeByTile() == storedOrZeros(raw, "control_code_by_tile", p->_id(), n));
    CHECK(p->codeBytesByTile() == storedOrZeros(raw, "code_bytes_by_tile", p->_id(), n));
    CHECK(p->estimatedCyclesByTile() ==
          storedOrZeros(raw, "estimated_cycles_by_tile", p->_id(), n));
    CHECK(p->controlCodeByTile().size() == n);
    CHECK(p->codeBytesByTile().size() == n);
    CHECK(p->estimatedCyclesByTile().size() == n);
    nullCode += raw.integer("SELECT code_bytes_by_tile IS NULL FROM programs WHERE id = " +
                            std::to_string(p->_id()));
    nullEstimate +=
        raw.integer("SELECT estimated_cycles_by_tile IS NULL FROM programs WHERE id = " +
                    std::to_string(p->_id()));
  }
  // The cases that used to come back empty are there: the zeros above were filled in.
  CHECK(nullCode > 0);
  CHECK(nullEstimate > 0);

  for (const auto& cs : c.computeSets()) {
    INFO("compute set " << cs.name());
    CHECK(cs.estimatedCyclesByTile().size() == n);
    for (const auto& v : cs.vertices()) {
      const auto counts = v.countByTile();
      REQUIRE(counts.size() == n);
      std::uint64_t sum = 0;
      for (auto k : counts)
        sum += k;
      CHECK(sum == v.count());
    }
  }

  const auto e = report.execution();
  std::size_t steps = 0;
  for (const auto& step : e.steps()) {
    INFO("step " << step.index() << " " << step.program()->name());
    CHECK(step.cyclesByTile().size() == n);
    for (const auto& cs : step.computeSets()) {
      CHECK(cs.cyclesByTile().size() == n);
      CHECK(cs.estimatedCyclesByTile().size() == n);
    }
    ++steps;
  }
  CHECK(steps == std::size_t(raw.integer("SELECT count(*) FROM steps")));
  for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k) {
    const auto kind = pva::TileCycleTotals::Kind(k);
    CHECK(e.tileCycleTotals().byTile(kind).size() == n);
    for (const auto& run : e.runs())
      CHECK(run.tileCycleTotals().byTile(kind).size() == n);
  }
}

} // namespace

TEST_CASE("Every per-tile array of the samples' reports has one entry per tile of a replica",
          "[pva][per-tile]") {
  for (const char* sample : {"mlp", "pipeline", "oom"}) {
    INFO("sample " << sample);
    checkFullLength(test::sampleReport(sample));
  }
}

TEST_CASE(
    "The mlp softmax copy (an exchange with no exchange code) has all-zero code bytes per tile",
    "[pva][per-tile]") {
  const auto& profile = test::sampleReport("mlp");
  test::Report raw(profile);
  const std::size_t n = tilesPerReplica(raw);
  // The case a public pipelining tool stopped on: stored as NULL, so it came back empty.
  const auto stored =
      raw.integers("SELECT id FROM programs WHERE name = 'fwd/softmax/SOFTMAX_STABLE/copy' "
                   "AND type = 'DoExchange' AND code_bytes_by_tile IS NULL");
  REQUIRE(stored.size() == 1);
  const auto report = pva::openReport(profile.string());
  const auto p = report.compilation().program(std::uint64_t(stored[0]));
  REQUIRE(p->type() == pva::Program::Type::DoExchange);
  const auto code = p->codeBytesByTile();
  REQUIRE(code.size() == n);
  CHECK(code == std::vector<std::uint64_t>(n, 0));
  // Indexing by any tile of the target works, as the tool does.
  CHECK(code[n - 1] == 0);
}

TEST_CASE("A stored per-tile array of the wrong length is a corrupted report, not a short array",
          "[pva][per-tile][hostile]") {
  test::RemoteSumReport r;
  test::ScratchDir dir;
  const auto profile = dir / "short.pop";
  std::filesystem::copy_file(r.dir / "profile.pop", profile);
  // Three tiles of exchange code on every exchange, whatever the target's tile count.
  std::string hex;
  for (unsigned char b : tessera::profiler::encodeTileValues({1, 2, 3})) {
    static const char* digits = "0123456789ABCDEF";
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  test::execSql(profile, "UPDATE programs SET code_bytes_by_tile = X'" + hex +
                             "' WHERE type = 'DoExchange'");
  const auto report = pva::openReport(profile.string());
  REQUIRE(report.compilation().target().tilesPerReplica() != 3);
  bool checked = false;
  for (const auto& p : report.compilation().programs()) {
    if (p->type() != pva::Program::Type::DoExchange) continue;
    CHECK_THROWS_AS(p->codeBytesByTile(), pva::InvalidReportError);
    CHECK_THROWS_WITH(p->codeBytesByTile(),
                      Catch::Contains("short.pop") && Catch::Contains("has 3 tiles"));
    checked = true;
  }
  CHECK(checked);
}

TEST_CASE("Operations that run no step have no step indices; the others a range that matches the "
          "schedule",
          "[pva][debug][per-tile]") {
  const auto& profile = test::sampleReport("mlp");
  test::Report raw(profile);
  // Oracle: the liveness steps each program executes (its own and those of every program inside
  // it, through program_children), by raw SQL.
  std::map<std::uint64_t, std::vector<std::uint64_t>> stepsOf;
  for (const auto& row :
       raw.rows("WITH RECURSIVE under(top, id) AS ("
                "  SELECT id, id FROM programs"
                "  UNION SELECT under.top, c.child FROM under JOIN program_children c ON c.parent "
                "= under.id)"
                " SELECT s.id, under.top FROM under JOIN liveness_steps s ON s.program = under.id"
                " ORDER BY s.id"))
    stepsOf[std::uint64_t(row[1].i)].push_back(std::uint64_t(row[0].i));
  const auto numSteps = std::uint64_t(raw.integer("SELECT count(*) FROM liveness_steps"));

  const auto report =
      pva::openReport(profile.string(), (profile.parent_path() / "debug.cbor").string());
  std::size_t withSteps = 0, without = 0, loopsWithSteps = 0;
  for (const auto& op : pva::OperationAnalysis(report).operations()) {
    INFO("operation " << op.name());
    std::optional<std::uint64_t> first, last;
    bool hasLoop = false;
    for (const auto& p : op.programs()) {
      hasLoop = hasLoop || p->type() == pva::Program::Type::Repeat;
      auto it = stepsOf.find(p->_id());
      if (it == stepsOf.end()) continue;
      first = first ? std::min(*first, it->second.front()) : it->second.front();
      last = last ? std::max(*last, it->second.back()) : it->second.back();
    }
    REQUIRE(op.firstStepIndex().has_value() == first.has_value());
    REQUIRE(op.lastStepIndex().has_value() == last.has_value());
    if (op.firstStepIndex()) {
      ++withSteps;
      if (hasLoop) ++loopsWithSteps;
      CHECK(op.firstStepIndex().value() == *first);
      CHECK(op.lastStepIndex().value() == *last);
      CHECK(*op.firstStepIndex() <= *op.lastStepIndex());
      CHECK(*op.lastStepIndex() < numSteps);
    } else {
      ++without;
      // No number to take for a step: reading one is an error naming the reason.
      CHECK_THROWS_AS(op.firstStepIndex().value(), pva::InvalidArgumentError);
      CHECK_THROWS_AS(*op.lastStepIndex(), pva::InvalidArgumentError);
      CHECK(op.firstStepIndex().value_or(numSteps) == numSteps);
    }
  }
  CHECK(withSteps > 0);
  CHECK(without > 0);        // variables' debug contexts
  CHECK(loopsWithSteps > 0); // the training loop spans the steps of the ops inside it
}

TEST_CASE("With replicas, per-tile arrays cover the tiles of one replica", "[pva][per-tile]") {
  // The RemoteSum example on 2 replicas of one 4-tile IPU each: 8 tiles on the device.
  using namespace poplar;
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 2);
  Graph graph = test::makeGraph(device, 2);
  Tensor a = graph.addVariable(FLOAT, {8}, "a");
  graph.setTileMapping(a.slice(0, 4), 0);
  graph.setTileMapping(a.slice(4, 8), 1);
  graph.setInitialValue(a, std::vector<float>(8, 1.0f));
  Tensor out = graph.addVariable(FLOAT, {1}, "out");
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("sum");
  graph.setTileMapping(graph.addVertex(cs, "SumVertex", {{"in", a}, {"out", out[0]}}), 0);
  {
    Engine engine(graph, program::Execute(cs), test::reportOptions(dir.path()));
    engine.load(device);
    engine.run(0);
  }
  test::Report raw(dir / "profile.pop");
  const std::size_t n = tilesPerReplica(raw);
  REQUIRE(n == 4);
  const auto report = pva::openReport((dir / "profile.pop").string());
  REQUIRE(report.compilation().target().numTiles() == 8);
  bool exchange = false;
  for (const auto& p : report.compilation().programs()) {
    CHECK(p->controlCodeByTile().size() == n);
    CHECK(p->codeBytesByTile().size() == n);
    CHECK(p->estimatedCyclesByTile().size() == n);
    if (p->type() == pva::Program::Type::DoExchange) {
      exchange = true;
      CHECK(p->codeBytesByTile() ==
            raw.tileValues("SELECT code_bytes_by_tile FROM programs WHERE id = " +
                           std::to_string(p->_id())));
    }
  }
  CHECK(exchange);
  for (const auto& c : report.compilation().computeSets()) {
    CHECK(c.estimatedCyclesByTile().size() == n);
    for (const auto& v : c.vertices())
      CHECK(v.countByTile() == std::vector<std::uint64_t>{1, 0, 0, 0});
  }
  std::size_t steps = 0;
  for (const auto& s : report.execution().steps()) {
    CHECK(s.cyclesByTile().size() == n);
    ++steps;
  }
  CHECK(steps > 0);
}
