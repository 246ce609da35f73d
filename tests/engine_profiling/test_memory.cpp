// Tile memory: categories, layout, gaps, reuse of not-always-live memory, out of memory.
#include "common/Exceptions.hpp"
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using test::Report;

namespace {
std::vector<std::string> layout(Report& r, unsigned tile) {
  return r.texts("SELECT coalesce(lv.name, v.name) || '@' || lv.offset || '+' || lv.bytes || (CASE "
                 "lv.always_live "
                 "WHEN 1 THEN '' ELSE ' nal' END) FROM lowered_variables lv LEFT JOIN variables v "
                 "ON v.id = lv.variable "
                 "WHERE lv.tile = " +
                 std::to_string(tile) + " ORDER BY lv.offset, lv.id");
}
} // namespace

TEST_CASE("Every byte of a tile is placed: code, state, always-live and reused data", "[memory]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");

  // Code and state from address 0 (8-byte aligned), always-live data next, then the
  // not-always-live message buffer and output, which are live together at the compute step.
  CHECK(layout(r, 0) == std::vector<std::string>{"vertexCode@0+96", "vertexInstanceState@96+12",
                                                 "controlCode@112+44",
                                                 "internalExchangeCode@160+12", "stack@176+512",
                                                 "instrumentationResults@688+8", "a@696+16",
                                                 "sum/message@712+16 nal", "out@728+4 nal"});
  CHECK(layout(r, 1) ==
        std::vector<std::string>{"controlCode@0+28", "internalExchangeCode@32+12", "a@48+16"});
  CHECK(layout(r, 2) == std::vector<std::string>{"controlCode@0+20"});

  const auto t0 =
      r.rows("SELECT including_gaps, excluding_gaps, always_live_bytes, not_always_live_bytes, "
             "overflowed_including_gaps FROM tile_memory WHERE tile = 0")[0];
  CHECK(t0[0].i == 732); // the highest used address
  CHECK(t0[2].i == 96 + 12 + 44 + 12 + 512 + 8 + 16);
  CHECK(t0[3].i == 16 + 4); // message and out at the compute step
  CHECK(t0[1].i == t0[2].i + t0[3].i);
  CHECK(t0[4].i == 0);
  CHECK(r.integer("SELECT including_gaps FROM tile_memory WHERE tile = 1") == 64);
  CHECK(r.integer("SELECT excluding_gaps FROM tile_memory WHERE tile = 1") == 56);

  // The categories add up to the allocations; nothing overlaps here, all in the
  // non-interleaved region of a 624 KiB tile.
  CHECK(r.integer("SELECT non_interleaved_non_overlapped FROM tile_memory_categories WHERE tile = "
                  "0 AND category = 'variable'") == 20);
  CHECK(r.integer("SELECT non_interleaved_non_overlapped FROM tile_memory_categories WHERE tile = "
                  "0 AND category = 'message'") == 16);
  CHECK(r.integer(
            "SELECT sum(non_interleaved_overlapped + interleaved_non_overlapped + "
            "interleaved_overlapped + "
            "overflowed_non_overlapped + overflowed_overlapped) FROM tile_memory_categories") == 0);
  CHECK(r.integer("SELECT sum(non_interleaved_non_overlapped) FROM tile_memory_categories WHERE "
                  "tile = 0") ==
        r.integer("SELECT sum(bytes) FROM lowered_variables WHERE tile = 0"));
}

TEST_CASE("Alignment padding counts including gaps, not excluding them", "[memory]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor c = graph.addVariable(CHAR, {3}, "c"), f = graph.addVariable(FLOAT, {1}, "f");
  graph.setTileMapping(c, 0);
  graph.setTileMapping(f, 0);
  graph.setInitialValue(c, std::vector<char>{1, 2, 3});
  graph.setInitialValue(f, std::vector<float>{1});
  Engine engine(graph, program::Sequence(), test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(layout(r, 0) == std::vector<std::string>{"controlCode@0+16", "c@16+3", "f@24+4"});
  CHECK(r.integer("SELECT including_gaps FROM tile_memory WHERE tile = 0") == 28);
  CHECK(r.integer("SELECT excluding_gaps FROM tile_memory WHERE tile = 0") == 23);
}

TEST_CASE("Variables whose lives do not overlap share addresses", "[memory]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  auto onTile0 = [&](Tensor t) {
    graph.setTileMapping(t, 0);
    return t;
  };
  Tensor x = onTile0(graph.addVariable(FLOAT, {4}, "x")),
         y = onTile0(graph.addVariable(FLOAT, {4}, "y"));
  Tensor r1 = onTile0(graph.addVariable(FLOAT, {1}, "r1")),
         r2 = onTile0(graph.addVariable(FLOAT, {1}, "r2"));
  graph.createHostRead("r1", r1);
  graph.createHostRead("r2", r2);
  program::Sequence prog;
  auto execute = [&](const char* name, const char* type, std::map<std::string, Tensor> fields) {
    ComputeSet cs = graph.addComputeSet(name);
    VertexRef v = graph.addVertex(cs, type);
    for (auto& [f, t] : fields)
      graph.connect(v[f], t);
    graph.setTileMapping(v, 0);
    prog.add(program::Execute(cs));
  };
  execute("makeX", "IotaVertex", {{"out", x}});
  execute("sumX", "SumVertex", {{"in", x}, {"out", r1[0]}});
  execute("makeY", "IotaVertex", {{"out", y}});
  execute("sumY", "SumVertex", {{"in", y}, {"out", r2[0]}});
  Engine engine(graph, prog, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");

  // Steps: Sync, makeX, Sync, sumX, Sync, makeY, Sync, sumY.
  CHECK(r.integer("SELECT live_from FROM variables WHERE name = 'x'") == 1);
  CHECK(r.integer("SELECT live_to FROM variables WHERE name = 'x'") == 4);
  CHECK(r.integer("SELECT live_from FROM variables WHERE name = 'y'") == 5);
  CHECK(r.integer("SELECT live_to FROM variables WHERE name = 'y'") == 8);
  const auto offsets = r.integers(
      "SELECT lv.offset FROM lowered_variables lv JOIN variables v ON v.id = lv.variable "
      "WHERE v.name IN ('x', 'y') ORDER BY v.name");
  REQUIRE(offsets.size() == 2);
  CHECK(offsets[0] == offsets[1]);
  CHECK(r.integer("SELECT not_always_live_bytes FROM tile_memory WHERE tile = 0") == 16);
  CHECK(r.integer("SELECT non_interleaved_overlapped FROM tile_memory_categories WHERE tile = 0 "
                  "AND category = 'variable'") == 32);
  CHECK(r.integer("SELECT non_interleaved_non_overlapped FROM tile_memory_categories WHERE tile = "
                  "0 AND category = 'variable'") == 8);
  const long long top =
      r.integer("SELECT max(offset + bytes) FROM lowered_variables WHERE tile = 0");
  CHECK(r.integer("SELECT including_gaps FROM tile_memory WHERE tile = 0") == top);
  CHECK(offsets[0] + 16 == top); // one 16-byte slot, not two
}

TEST_CASE("Out of memory fails with the worst tiles named and still writes the report",
          "[memory][oom]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 1, 4096);
  auto graph = test::makeGraph(device);
  Tensor big = graph.addVariable(FLOAT, {2048}, "big"); // 8 KiB on a 4 KiB tile
  graph.setTileMapping(big, 2);
  graph.setInitialValue(big, std::vector<float>(2048, 0.5f));
  const std::string msg = test::messageOf<graph_memory_allocation_error>(
      [&] { Engine engine(graph, program::Sequence(), test::reportOptions(dir.path())); });
  CHECK_THAT(msg, Catch::Contains("1 of 4 tiles"));
  CHECK_THAT(msg, Catch::Contains("tile 2 needs 8208 bytes (4112 over)"));
  CHECK_THAT(msg, Catch::Contains((dir / "profile.pop").string()));

  Report r(dir / "profile.pop");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'out_of_memory'") == "true");
  CHECK(r.integer("SELECT overflowed_including_gaps FROM tile_memory WHERE tile = 2") == 4112);
  CHECK(r.integer("SELECT overflowed_non_overlapped FROM tile_memory_categories WHERE tile = 2 AND "
                  "category = 'variable'") == 4112);
  CHECK(r.integer("SELECT sum(overflowed_including_gaps) FROM tile_memory WHERE tile <> 2") == 0);
}

TEST_CASE("debug.allowOutOfMemory lets an out-of-memory graph compile and run", "[memory][oom]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 1, 4096);
  auto graph = test::makeGraph(device);
  Tensor big = graph.addVariable(FLOAT, {2048}, "big");
  graph.setTileMapping(big, 0);
  graph.createHostWrite("big", big);
  graph.createHostRead("bigOut", big);
  auto options = test::reportOptions(dir.path());
  options.set("debug.allowOutOfMemory", "true");
  Engine engine(graph, program::Sequence(), options);
  engine.load(device);
  std::vector<float> in(2048, 3.0f), out(2048);
  engine.writeTensor("big", in.data(), in.data() + in.size());
  engine.run(0);
  engine.readTensor("bigOut", out.data(), out.data() + out.size());
  CHECK(out == in);
  Report r(dir / "profile.pop");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'out_of_memory'") == "true");
  CHECK(r.integer("SELECT count(*) FROM runs") == 1);
}

TEST_CASE("Bytes past the interleaved boundary are counted in the interleaved region", "[memory]") {
  test::ScratchDir dir;
  // A 64 KiB tile has four 16 KiB memory elements, all below the interleaved element index
  // (16): no interleaved region, every byte is non-interleaved.
  auto device = test::tinyDevice(4, 1, 65536);
  auto graph = test::makeGraph(device);
  Tensor v = graph.addVariable(FLOAT, {4096}, "v");
  graph.setTileMapping(v, 0);
  graph.setInitialValue(v, std::vector<float>(4096, 1.0f));
  Engine engine(graph, program::Sequence(), test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT interleaved_memory_start FROM target") == 65536);
  CHECK(r.integer("SELECT non_interleaved_non_overlapped FROM tile_memory_categories WHERE tile = "
                  "0 AND category = 'variable'") == 16384);

  test::ScratchDir dir2;
  auto big = test::tinyDevice(4, 1, 638976);
  auto g2 = test::makeGraph(big);
  Tensor w = g2.addVariable(FLOAT, {100000}, "w"); // 400,000 bytes: past 256 KiB
  g2.setTileMapping(w, 0);
  g2.setInitialValue(w, std::vector<float>(100000, 1.0f));
  Engine e2(g2, program::Sequence(), test::reportOptions(dir2.path()));
  Report r2(dir2 / "profile.pop");
  const long long start = r2.integer("SELECT interleaved_memory_start FROM target");
  CHECK(start == 16 * 16384);
  const long long offset = r2.integer("SELECT offset FROM lowered_variables WHERE variable = 0");
  CHECK(r2.integer("SELECT non_interleaved_non_overlapped FROM tile_memory_categories WHERE tile = "
                   "0 AND category = 'variable'") == start - offset);
  CHECK(r2.integer("SELECT interleaved_non_overlapped FROM tile_memory_categories WHERE tile = 0 "
                   "AND category = 'variable'") == 400000 - (start - offset));
}

// Many short- and long-lived variables on one tile: each not-always-live piece must sit at the
// lowest 8-byte-aligned address above the always-live data that is free of every piece placed
// before it (largest first, ties in variable order) whose live steps meet its own. The reference
// here is the plain quadratic scan; the compiler finds the same pieces faster.
TEST_CASE(
    "Interval allocation is first fit, largest first, against every piece live at the same time",
    "[memory]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  constexpr unsigned kVars = 60;
  Tensor results = graph.addVariable(FLOAT, {kVars}, "results");
  graph.setTileMapping(results, 0);
  graph.createHostRead("results", results);
  // Variable i is made at event i and summed `span` events later: spans from 1 to 40 events mix
  // every length class, sizes from 1 to 23 floats mix sizes and ties.
  std::vector<std::pair<unsigned, std::pair<bool, unsigned>>> events; // (position, (isSum, var))
  std::vector<Tensor> vars;
  for (unsigned i = 0; i < kVars; ++i) {
    const unsigned size = 1 + (i * 7) % 23, span = 1 + (i * 13) % 40;
    vars.push_back(graph.addVariable(FLOAT, {size}, "x" + std::to_string(i)));
    graph.setTileMapping(vars.back(), 0);
    events.push_back({2 * i, {false, i}});
    events.push_back({2 * (i + span) + 1, {true, i}});
  }
  std::stable_sort(events.begin(), events.end(),
                   [](auto& a, auto& b) { return a.first < b.first; });
  program::Sequence prog;
  for (const auto& [position, what] : events) {
    const auto [isSum, i] = what;
    ComputeSet cs = graph.addComputeSet((isSum ? "sum" : "make") + std::to_string(i));
    VertexRef v = isSum ? graph.addVertex(cs, "SumVertex", {{"in", vars[i]}, {"out", results[i]}})
                        : graph.addVertex(cs, "IotaVertex", {{"out", vars[i]}});
    graph.setTileMapping(v, 0);
    prog.add(program::Execute(cs));
  }
  Engine engine(graph, prog, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");

  struct Piece {
    long long var, bytes, from, to, offset;
  };
  std::vector<Piece> pieces;
  for (const auto& row :
       r.rows("SELECT lv.variable, lv.bytes, v.live_from, v.live_to, lv.offset FROM "
              "lowered_variables lv "
              "JOIN variables v ON v.id = lv.variable WHERE lv.tile = 0 AND lv.always_live = 0 "
              "ORDER BY lv.variable"))
    pieces.push_back({row[0].i, row[1].i, row[2].i, row[3].i, row[4].i});
  REQUIRE(pieces.size() == kVars);
  const long long base = r.integer(
      "SELECT max(offset + bytes) FROM lowered_variables WHERE tile = 0 AND always_live = 1");
  auto alignUp = [](long long x) { return (x + 7) / 8 * 8; };
  std::vector<const Piece*> order;
  for (const auto& p : pieces)
    order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const Piece* a, const Piece* b) { return a->bytes > b->bytes; });
  std::vector<const Piece*> placed;
  for (const Piece* p : order) {
    std::vector<std::pair<long long, long long>> busy;
    for (const Piece* q : placed)
      if (q->from < p->to && p->from < q->to) busy.push_back({q->offset, q->offset + q->bytes});
    std::sort(busy.begin(), busy.end());
    long long at = alignUp(base);
    for (const auto& [b, e] : busy) {
      if (at + p->bytes <= b) break;
      at = std::max(at, alignUp(e));
    }
    INFO("variable " << p->var << " of " << p->bytes << " bytes, live " << p->from << "-" << p->to);
    CHECK(p->offset == at);
    placed.push_back(p);
  }
  // Reuse happened (the test would prove little otherwise) and the overlap totals match the pairs.
  long long overlappedBytes = 0;
  for (const auto& p : pieces) {
    bool overlapped = false;
    for (const auto& q : pieces)
      if (&p != &q && q.offset < p.offset + p.bytes && p.offset < q.offset + q.bytes)
        overlapped = true;
    if (overlapped) overlappedBytes += p.bytes;
  }
  CHECK(overlappedBytes > 0);
  CHECK(r.integer("SELECT non_interleaved_overlapped FROM tile_memory_categories WHERE tile = 0 "
                  "AND category = 'variable'") == overlappedBytes);
}

// Enough pieces (36 variables spread over 1,472 tiles: 52,992) for the memory model to lay tiles
// out on several host threads: the layout must not depend on how many there are.
TEST_CASE("The memory layout is the same whatever the number of host threads",
          "[memory][threads]") {
  IPUModel model("ipu2");
  Device device = model.createDevice();
  auto layoutWith = [&](const std::string& threads) {
    test::ScratchDir dir;
    Graph graph = test::makeGraph(device);
    program::Sequence prog;
    const unsigned tiles = device.getTarget().getNumTiles();
    std::vector<Tensor> vars;
    for (unsigned i = 0; i < 36; ++i) {
      vars.push_back(graph.addVariable(FLOAT, {tiles * (1 + i % 3)}, "v" + std::to_string(i)));
      graph.setTileMapping(vars.back(), 0);
      for (unsigned t = 0; t < tiles; ++t)
        graph.setTileMapping(vars.back().slice(t * (1 + i % 3), (t + 1) * (1 + i % 3)), t);
      if (i % 2) { // half of them live only between two steps: reused memory on every tile
        prog.add(program::WriteUndef(vars.back()));
        const std::size_t n = std::min(vars[i - 1].numElements(), vars.back().numElements());
        prog.add(program::Copy(vars[i - 1].slice(0, n), vars.back().slice(0, n)));
      }
    }
    OptionFlags options = test::reportOptions(dir.path());
    options.set("tessera.threads", threads);
    Engine engine(graph, prog, options);
    Report r(dir / "profile.pop");
    auto rows =
        r.texts("SELECT tile || ':' || coalesce(variable, name) || '@' || offset || '+' || bytes "
                "FROM lowered_variables ORDER BY id");
    for (auto& t : r.texts("SELECT tile || ':' || including_gaps || '/' || excluding_gaps FROM "
                           "tile_memory ORDER BY tile"))
      rows.push_back(t);
    return rows;
  };
  const auto one = layoutWith("1");
  REQUIRE(one.size() > 52992);
  CHECK(layoutWith("2") == one);
  CHECK(layoutWith("8") == one);
}

// With more than one host thread the engine writes profile.pop on a thread of its own while the
// memory model lays tiles out and hands them over one by one; the report must not tell: every
// row of every table is the one the sequential path writes (bar the report's id and time).
TEST_CASE("Every table of the report is the same whatever the number of host threads",
          "[memory][threads][report]") {
  IPUModel model("ipu2");
  Device device = model.createDevice();
  auto reportWith = [&](const std::string& threads) {
    test::ScratchDir dir;
    Graph graph = test::makeGraph(device);
    program::Sequence prog;
    const unsigned tiles = device.getTarget().getNumTiles();
    std::vector<Tensor> vars;
    for (unsigned i = 0; i < 36; ++i) { // 52,992 pieces: the layout runs on several threads too
      vars.push_back(graph.addVariable(FLOAT, {tiles * 2}, "v" + std::to_string(i)));
      for (unsigned t = 0; t < tiles; ++t)
        graph.setTileMapping(vars.back().slice(t * 2, t * 2 + 2), t);
      if (i % 2) {
        prog.add(program::WriteUndef(vars.back()));
        prog.add(program::Copy(vars[i - 1], vars.back()));
      }
    }
    // A compute set whose vertices read from the next tile: messages, exchanges, vertex tables.
    Tensor sums = graph.addVariable(FLOAT, {tiles}, "sums");
    ComputeSet cs = graph.addComputeSet("sum");
    for (unsigned t = 0; t < tiles; ++t) {
      graph.setTileMapping(sums[t], t);
      const unsigned next = (t + 1) % tiles;
      VertexRef v = graph.addVertex(
          cs, "SumVertex",
          {{"in", concat(vars[1].slice(t * 2, t * 2 + 2), vars[1].slice(next * 2, next * 2 + 1))},
           {"out", sums[t]}});
      graph.setTileMapping(v, t);
    }
    prog.add(program::Execute(cs));
    OptionFlags options = test::reportOptions(dir.path());
    options.set("tessera.threads", threads);
    Engine engine(graph, prog, options);
    Report r(dir / "profile.pop");
    std::vector<std::string> rows;
    for (const std::string& table :
         r.texts("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      std::string columns;
      for (const std::string& c :
           r.texts("SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid"))
        columns += (columns.empty() ? "" : " || '|' || ") + std::string("quote(\"") + c + "\")";
      const std::string where =
          table == "meta" ? " WHERE key NOT IN ('report_id', 'created_at', 'created_at_unix_us')"
                          : "";
      for (auto& row :
           r.texts("SELECT " + columns + " FROM \"" + table + "\"" + where + " ORDER BY rowid"))
        if (row.rfind("'autoReport.directory'|", 0) != 0 &&
            row.rfind("'tessera.threads'|", 0) != 0) // differ by design
          rows.push_back(table + ": " + row);
    }
    return rows;
  };
  const auto one = reportWith("1");
  REQUIRE(one.size() > 52992);
  const auto two = reportWith("2");
  REQUIRE(two.size() == one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    INFO("row " << i);
    REQUIRE(two[i] == one[i]); // stops at the first difference
  }
  CHECK(reportWith("8") == one);
}

// The report thread's errors, out of memory and the report written despite it come out as they do
// when everything runs on one thread.
TEST_CASE("Report and out-of-memory errors are the same with the report written on its own thread",
          "[memory][threads][oom]") {
  for (const std::string threads : {"1", "4"}) {
    INFO("tessera.threads " << threads);
    {
      test::ScratchDir dir;
      std::ofstream(dir / "file") << "not a directory";
      test::RemoteSum s;
      OptionFlags options = test::reportOptions(dir / "file" / "reports");
      options.set("tessera.threads", threads);
      const std::string msg =
          test::messageOf<profiling_error>([&] { Engine engine(s.graph, s.program, options); });
      CHECK_THAT(msg, Catch::Contains((dir / "file" / "reports").string()));
    }
    {
      test::ScratchDir dir;
      auto device = test::tinyDevice(4, 1, 4096);
      auto graph = test::makeGraph(device);
      Tensor big = graph.addVariable(FLOAT, {2048}, "big");
      graph.setTileMapping(big, 2);
      OptionFlags options = test::reportOptions(dir.path());
      options.set("tessera.threads", threads);
      const std::string msg = test::messageOf<graph_memory_allocation_error>(
          [&] { Engine engine(graph, program::Sequence(), options); });
      CHECK_THAT(msg, Catch::Contains("tile 2 needs 8208 bytes (4112 over)"));
      CHECK_THAT(msg, Catch::Contains((dir / "profile.pop").string()));
      Report r(dir / "profile.pop");
      CHECK(r.text("SELECT value FROM meta WHERE key = 'out_of_memory'") == "true");
      CHECK(r.integer("SELECT overflowed_including_gaps FROM tile_memory WHERE tile = 2") == 4112);

      options.set("debug.allowOutOfMemory", "true");
      Engine engine(graph, program::Sequence(), options); // runs anyway, with its runtime
      engine.load(device);
      engine.run(0);
    }
  }
}
