// Handles kept by value keep the report open by themselves; lists hand out references into the
// report's own objects, and walking them leaves nothing behind. Whether a report is open is seen
// from outside: its SQLite connection holds the file open until the last owner goes.
#include "PvaTestUtil.hpp"

#include <stdexcept>

namespace {

/// Whether this process has `file` open (Linux: /proc/self/fd links to the open files).
bool isOpen(const std::filesystem::path& file) {
  const auto target = std::filesystem::canonical(file);
  for (const auto& fd : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (std::filesystem::read_symlink(fd.path(), ec) == target && !ec) return true;
  }
  return false;
}

/// A report of its own (the RemoteSumReport keeps its report open for its whole life).
std::filesystem::path copyOf(const test::RemoteSumReport& r, const test::ScratchDir& dir) {
  const auto to = dir / "profile.pop";
  std::filesystem::copy_file(r.dir / "profile.pop", to);
  return to;
}

} // namespace

TEST_CASE("Walking the tiles leaves the report free to close", "[pva][handles]") {
  test::RemoteSumReport r;
  test::ScratchDir dir;
  const auto file = copyOf(r, dir);
  {
    const auto report = pva::openReport(file.string());
    std::uint64_t sum = 0;
    for (const pva::Tile& t : report.compilation().tiles())
      sum += t.memory().total().excludingGaps() + t.memory().alwaysLiveBytes();
    for (const pva::Ipu& ipu : report.compilation().ipus())
      for (const pva::Tile& t : ipu.tiles())
        sum += t.memory().overflowed().includingGaps();
    CHECK(sum > 0);
    CHECK(isOpen(file));
  }
  CHECK_FALSE(isOpen(file)); // the tiles the report keeps do not keep it alive
}

TEST_CASE("Tiles, tile memory and totals kept by value keep the report open", "[pva][handles]") {
  test::RemoteSumReport r;
  test::ScratchDir dir;
  const auto file = copyOf(r, dir);
  const auto expected = r.report.compilation().tiles();
  {
    pva::Tile tile;
    pva::TileMemory memory;
    pva::MemoryTotal total;
    pva::Tiles ipuTiles;
    std::vector<pva::Tile> copies;
    {
      const auto report = pva::openReport(file.string());
      const pva::Tiles tiles = report.compilation().tiles();
      // One set of tile objects per report: every list refers to it.
      CHECK(&tiles[3] == &report.compilation().tiles()[3]);
      CHECK(&tiles[0] == &report.compilation().ipus().at(0).tiles()[0]);
      tile = tiles[2];
      memory = tiles[1].memory();
      total = tiles.back().memory().total();
      ipuTiles = report.compilation().ipus().at(0).tiles();
      copies = report.compilation().tiles();
      CHECK_THROWS_AS(tiles.at(tiles.size()), std::out_of_range);
      // Parts of a temporary tile are handed out as handles, which outlive it.
      const pva::TileMemory& ofTemporary = report.compilation().tile(1).memory();
      const pva::MemoryTotal& totalOfTemporary = report.compilation().tile(3).memory().total();
      CHECK(ofTemporary.alwaysLiveBytes() == expected[1].memory().alwaysLiveBytes());
      CHECK(totalOfTemporary.includingGaps() == expected[3].memory().total().includingGaps());
    }
    CHECK(isOpen(file));
    CHECK(tile.number() == 2);
    CHECK(tile.memory().total().includingGaps() == expected[2].memory().total().includingGaps());
    CHECK(memory.alwaysLiveBytes() == expected[1].memory().alwaysLiveBytes());
    CHECK(memory.category().vertexCode().total() ==
          expected[1].memory().category().vertexCode().total());
    CHECK(total.excludingGaps() == expected[3].memory().total().excludingGaps());
    REQUIRE(ipuTiles.size() == expected.size());
    CHECK(ipuTiles.front().memory().notAlwaysLiveBytes() ==
          expected[0].memory().notAlwaysLiveBytes());
    REQUIRE(copies.size() == expected.size());
    CHECK(copies[3].memory().overflowed().excludingGaps() ==
          expected[3].memory().overflowed().excludingGaps());
    // Copies and moves of kept handles are handles too.
    pva::Tile moved = std::move(tile);
    tile = copies[0];
    CHECK(moved.memory().total().includingGaps() == expected[2].memory().total().includingGaps());
    CHECK(tile.memory().vertices().size() == expected[0].memory().vertices().size());
  }
  CHECK_FALSE(isOpen(file));
}

TEST_CASE("A step's IPU list, and steps kept past their chunk, keep the report open",
          "[pva][handles]") {
  test::RemoteSumReport r(2);
  test::ScratchDir dir;
  const auto file = copyOf(r, dir);
  {
    pva::IpuExecutions kept;
    std::vector<pva::ExecutionStep> steps;
    {
      const auto report = pva::openReport(file.string());
      for (const auto& step : report.execution().steps())
        steps.push_back(step);
      kept = report.execution().steps()[2].ipus();
    }
    CHECK(isOpen(file));
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].cycles() == 138);
    REQUIRE(steps.size() == 6);
    CHECK(steps[4].ipus().at(0).cycles() == 13);
    CHECK(steps[5].program()->name() == "sum");
    CHECK(steps[5].cyclesByTile() == std::vector<std::uint64_t>{138, 0, 0, 0});
  }
  CHECK_FALSE(isOpen(file));
}
