// The report's program tree, steps and per-tile costs, against hand-computed values.
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>

using namespace poplar;
using test::Report;

namespace {
/// Cycle model constants (engine/src/models/CycleModel.hpp), spelled out for the expectations.
constexpr std::uint64_t kLaunch = 30, kContexts = 6, kExchangeSetup = 8, kPerMessage = 1;
} // namespace

TEST_CASE("An Execute with a remote input becomes Sync, DoExchange and OnTileExecute",
          "[program]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");

  CHECK(r.texts("SELECT type FROM programs WHERE id IN (SELECT child FROM program_children "
                "WHERE parent = (SELECT program FROM entry_points WHERE program_index = 0)) ORDER "
                "BY id") == std::vector<std::string>{"Sync", "DoExchange", "OnTileExecute"});
  CHECK(r.texts("SELECT p.name FROM liveness_steps l JOIN programs p ON p.id = l.program ORDER BY "
                "l.id") == std::vector<std::string>{"sum/Sync", "sum/Exchange", "sum"});
  CHECK(
      r.text(
          "SELECT type FROM programs WHERE id = (SELECT parent FROM program_children WHERE child = "
          "(SELECT program FROM entry_points))") == "OnEveryTileSwitch");

  // DoExchange: a[4..8) = 16 bytes from tile 1 to tile 0, one message each side.
  CHECK(r.integer("SELECT data_bytes FROM programs WHERE type = 'DoExchange'") == 16);
  const std::uint64_t exchange = kExchangeSetup + 16 / 4 + kPerMessage;
  CHECK(r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'DoExchange'") ==
        std::vector<std::uint64_t>{exchange, exchange, 0, 0});
  CHECK(r.tileValues("SELECT code_bytes_by_tile FROM programs WHERE type = 'DoExchange'") ==
        std::vector<std::uint64_t>{12, 12, 0, 0});
  // OnTileExecute: one worker vertex of 10 + 8 thread cycles runs on one of 6 contexts.
  const std::uint64_t compute = kLaunch + (10 + 8) * kContexts;
  CHECK(
      r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'OnTileExecute'") ==
      std::vector<std::uint64_t>{compute, 0, 0, 0});
  CHECK(r.tileValues("SELECT estimated_cycles_by_tile FROM compute_sets WHERE name = 'sum'") ==
        std::vector<std::uint64_t>{compute, 0, 0, 0});
  // Internal sync: 15 cycles for the nearest tile to 60 for the farthest.
  CHECK(r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'Sync'") ==
        std::vector<std::uint64_t>{15, 30, 45, 60});

  // Control code: the switch (16, all tiles), the sync (4, all tiles), the exchange call (8 on
  // tiles 0 and 1), the compute set (12 + 4 per vertex on tile 0); parents include children.
  CHECK(
      r.tileValues("SELECT control_code_by_tile FROM programs WHERE type = 'OnEveryTileSwitch'") ==
      std::vector<std::uint64_t>{16 + 4 + 8 + 16, 16 + 4 + 8, 20, 20});
  CHECK(r.tileValues("SELECT control_code_by_tile FROM programs WHERE type = 'OnTileExecute'") ==
        std::vector<std::uint64_t>{16, 0, 0, 0});

  // Variables each step touches: the exchange reads a and fills the message buffer.
  CHECK(
      r.texts("SELECT v.name || ':' || pv.access FROM program_variables pv JOIN variables v ON "
              "v.id = pv.variable "
              "JOIN programs p ON p.id = pv.program WHERE p.type = 'DoExchange' ORDER BY v.name") ==
      std::vector<std::string>{"a:read", "sum/message:write"});
  CHECK(
      r.texts(
          "SELECT v.name || ':' || pv.access FROM program_variables pv JOIN variables v ON v.id = "
          "pv.variable "
          "JOIN programs p ON p.id = pv.program WHERE p.type = 'OnTileExecute' ORDER BY v.name") ==
      std::vector<std::string>{"a:read", "out:write", "sum/message:read"});
}

TEST_CASE("Compute sets, vertex types and graph counts are recorded", "[program]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT num_vertices FROM graph") == 1);
  CHECK(r.integer("SELECT num_compute_sets FROM graph") == 1);
  CHECK(r.integer("SELECT num_variables FROM graph") == 3); // a, out and the message buffer
  CHECK(r.integer("SELECT num_edges FROM graph") == 2);
  CHECK(r.text("SELECT name FROM vertex_types") == "SumVertex");
  CHECK(r.integer("SELECT code_bytes FROM vertex_types") == 64 + 16 * 2);
  CHECK(r.integer("SELECT count FROM compute_set_vertices") == 1);
  CHECK(r.tileValues("SELECT count_by_tile FROM compute_set_vertices") ==
        std::vector<std::uint64_t>{1, 0, 0, 0});
  CHECK(r.rows("SELECT tile, count FROM tile_vertex_types").size() == 1);
}

TEST_CASE("Stream copies become StreamCopyBegin, Mid and End with the host link's cost",
          "[program]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor x = graph.addVariable(FLOAT, {8}, "x");
  graph.setTileMapping(x.slice(0, 4), 2);
  graph.setTileMapping(x.slice(4, 8), 3);
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
  Engine engine(graph, program::Copy(in, x), test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.texts("SELECT p.type FROM liveness_steps l JOIN programs p ON p.id = l.program ORDER BY "
                "l.id") ==
        std::vector<std::string>{"StreamCopyBegin", "StreamCopyMid", "StreamCopyEnd"});
  CHECK(r.integer("SELECT data_bytes FROM programs WHERE type = 'StreamCopyMid'") == 32);
  // The transfer takes the longer of the host link (32 bytes at 6 per cycle: 6) and the slowest
  // receiving tile (its 16 bytes at 4 bytes per cycle after the exchange set-up: 12), and every
  // tile of the IPU spends it: a stream copy is a step of the whole IPU.
  const std::uint64_t mid = kExchangeSetup + 4;
  CHECK(
      r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'StreamCopyMid'") ==
      std::vector<std::uint64_t>{mid, mid, mid, mid});
  // Begin is the host sync (the target's global sync cycles), End the release (20), on every tile.
  CHECK(r.tileValues(
            "SELECT estimated_cycles_by_tile FROM programs WHERE type = 'StreamCopyBegin'") ==
        std::vector<std::uint64_t>{378, 378, 378, 378});
  CHECK(
      r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'StreamCopyEnd'") ==
      std::vector<std::uint64_t>{20, 20, 20, 20});
  CHECK(r.tileValues("SELECT code_bytes_by_tile FROM programs WHERE type = 'StreamCopyMid'") ==
        std::vector<std::uint64_t>{0, 0, 12, 12});
  CHECK(r.text("SELECT sync_type FROM programs WHERE type = 'StreamCopyBegin'") == "EXTERNAL");
}

TEST_CASE("A copy between IPUs is a GlobalExchange moving bytes over the IPU-Links", "[program]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 2);
  auto graph = test::makeGraph(device);
  Tensor x = graph.addVariable(FLOAT, {4}, "x"), y = graph.addVariable(FLOAT, {4}, "y");
  graph.setTileMapping(x, 1);
  graph.setTileMapping(y, 5); // tile 1 of IPU 1
  graph.setInitialValue(x, std::vector<float>{1, 2, 3, 4});
  Engine engine(graph, program::Copy(x, y), test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.texts("SELECT p.type FROM liveness_steps l JOIN programs p ON p.id = l.program ORDER BY "
                "l.id") == std::vector<std::string>{"GlobalExchange"});
  CHECK(r.integer("SELECT data_bytes FROM programs WHERE type = 'GlobalExchange'") == 16);
  const auto cycles =
      r.tileValues("SELECT estimated_cycles_by_tile FROM programs WHERE type = 'GlobalExchange'");
  REQUIRE(cycles.size() == 8);
  CHECK(cycles[1] == kExchangeSetup + 4);
  CHECK(cycles[5] == kExchangeSetup + 4);
  CHECK(r.tileValues("SELECT code_bytes_by_tile FROM programs WHERE type = 'GlobalExchange'")[5] ==
        12);
}

TEST_CASE("Control programs keep their shape in the program tree", "[program]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor c = graph.addVariable(UNSIGNED_INT, {}, "counter");
  graph.setTileMapping(c, 0);
  ComputeSet cs = graph.addComputeSet("inc");
  graph.setTileMapping(graph.addVertex(cs, "IncrementVertex", {{"counter", c}}), 0);
  Tensor pred = graph.addConstant(BOOL, {}, true, "pred");
  graph.setTileMapping(pred, 0);
  program::Sequence body({program::Execute(cs)});
  program::Sequence prog(
      {program::Repeat(3, body), program::If(pred, program::Execute(cs), program::Sequence())});
  Engine engine(graph, prog, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT repeat_count FROM programs WHERE type = 'Repeat'") == 3);
  CHECK(r.integer("SELECT count(*) FROM program_children WHERE parent = (SELECT id FROM programs "
                  "WHERE type = 'If')") == 2);
  // The loop body appears once in the compiled schedule; If's branch once more.
  CHECK(r.integer("SELECT count(*) FROM liveness_steps l JOIN programs p ON p.id = l.program "
                  "WHERE p.type = 'OnTileExecute'") == 2);
  CHECK(r.texts("SELECT access FROM program_variables WHERE program = (SELECT id FROM programs "
                "WHERE type = 'If')") == std::vector<std::string>{"read"});
}

TEST_CASE("Each stream copy records whether it moves data to or from the host or a remote buffer",
          "[program]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor x = graph.addVariable(FLOAT, {8}, "x");
  graph.setTileMapping(x, 1);
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
  auto out = graph.addDeviceToHostFIFO("out", FLOAT, 8);
  auto buffer = graph.addRemoteBuffer("store", FLOAT, 8);
  program::Sequence seq{program::Copy(in, x), program::Copy(x, buffer), program::Copy(buffer, x),
                        program::Copy(x, out)};
  Engine engine(graph, seq, test::reportOptions(dir.path()));
  Report r(dir / "profile.pop");
  CHECK(r.texts("SELECT p.stream_destination FROM liveness_steps l JOIN programs p ON p.id = "
                "l.program ORDER BY l.id") ==
        std::vector<std::string>{"host", "host", "host", "remoteBuffer", "remoteBuffer",
                                 "remoteBuffer", "remoteBuffer", "remoteBuffer", "remoteBuffer",
                                 "host", "host", "host"});
  // Only stream copies carry it.
  CHECK(r.integer("SELECT COUNT(*) FROM programs WHERE stream_destination IS NOT NULL AND type NOT "
                  "LIKE 'StreamCopy%'") == 0);
  CHECK(r.text("SELECT value FROM meta WHERE key = 'format_version'") == "1.7.0");
}
