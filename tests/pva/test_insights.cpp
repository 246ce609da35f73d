// pva::insights on the samples' reports (out of memory, and the MLP that fits), against raw SQL
// over profile.pop; and on the hostile corpus, where it may only throw pva::Exception.
#include "PvaTestUtil.hpp"

#include <algorithm>
#include <filesystem>
#include <pva/Insights.hpp>

namespace {

using u64 = std::uint64_t;

u64 integer(test::Report& raw, const std::string& sql) {
  return u64(raw.integer(sql));
}

const pva::Suggestion* findSuggestion(const pva::Insights& in, pva::Suggestion::Kind kind,
                                      bool tileScope) {
  for (const pva::Suggestion& s : in.suggestions)
    if (s.kind == kind && (s.scope.rfind("tile ", 0) == 0) == tileScope) return &s;
  return nullptr;
}

} // namespace

TEST_CASE("Insights of the out-of-memory sample: how far over, where, and what would fit",
          "[pva][insights]") {
  const pva::Report report = pva::openReport(test::sampleReport("oom").string());
  test::Report raw(test::sampleReport("oom"));
  const pva::Insights in = pva::insights(report);
  const u64 cap = report.compilation().target().bytesPerTile();
  const std::string over = " FROM tile_memory WHERE including_gaps > " + std::to_string(cap);

  CHECK_FALSE(in.fits);
  CHECK(in.bytesPerTile == cap);
  CHECK(in.tilesOutOfMemory == integer(raw, "SELECT count(*)" + over));
  REQUIRE(in.tilesOutOfMemory > 0);
  CHECK(in.worstOverBytes == integer(raw, "SELECT max(including_gaps)" + over) - cap);
  CHECK(in.totalOverBytes ==
        integer(raw, "SELECT sum(including_gaps - " + std::to_string(cap) + ")" + over));
  CHECK(in.headroomBytes == 0);

  // Worst tiles: fullest first, then lower tile; each split adds up, and the tile's own peak is
  // the stored peak of its not-always-live bytes.
  REQUIRE(in.worstTiles.size() == 5);
  const auto order =
      raw.integers("SELECT tile FROM tile_memory ORDER BY including_gaps DESC, tile LIMIT 5");
  for (std::size_t k = 0; k < 5; ++k) {
    const pva::TileInsight& t = in.worstTiles[k];
    CHECK(t.tile == u64(order[k]));
    const std::string where = " FROM tile_memory WHERE tile = " + std::to_string(t.tile);
    CHECK(t.includingGapsBytes == integer(raw, "SELECT including_gaps" + where));
    CHECK(t.overBytes == t.includingGapsBytes - cap);
    CHECK(t.atTilePeak.alwaysLiveBytes == integer(raw, "SELECT always_live_bytes" + where));
    CHECK(t.atTilePeak.notAlwaysLiveBytes == integer(raw, "SELECT not_always_live_bytes" + where));
    CHECK(t.atModelPeak.notAlwaysLiveBytes <= t.atTilePeak.notAlwaysLiveBytes);
    REQUIRE_FALSE(t.categories.empty());
    CHECK(std::is_sorted(
        t.categories.begin(), t.categories.end(),
        [](const pva::NamedBytes& a, const pva::NamedBytes& b) { return a.bytes > b.bytes; }));
  }

  // The histogram holds every tile; its last bin is the tiles over their memory.
  REQUIRE(in.usage.size() == 11);
  u64 tiles = 0;
  for (const pva::UsageBin& b : in.usage)
    tiles += b.tiles;
  CHECK(tiles == integer(raw, "SELECT count(*) FROM tile_memory"));
  CHECK(in.usage.back().tiles == in.tilesOutOfMemory);

  // Always live / not always live at the peak: the summary's figures (one IPU, one replica).
  const pva::ReportSummary s = pva::summarize(report);
  REQUIRE(in.model.stepKnown);
  CHECK(in.model.step == s.memory.peakLiveness.step);
  CHECK(in.model.alwaysLiveBytes == s.memory.alwaysLiveBytes);
  CHECK(in.model.notAlwaysLiveBytes == s.memory.peakLiveness.notAlwaysLiveBytes);
  CHECK(in.model.total() == s.memory.peakLiveness.bytes);
  CHECK(in.peakProgram == s.memory.peakLiveness.program);
  REQUIRE(in.ipus.size() == 1);
  CHECK(in.ipus[0].atModelPeak.total() == in.model.total());
  CHECK(in.ipus[0].tilesOutOfMemory == in.tilesOutOfMemory);

  // Vertex code: bytes of one copy times the tiles holding it.
  REQUIRE_FALSE(in.largestVertexCode.empty());
  const pva::VertexTypeInsight& code = in.largestVertexCode.front();
  CHECK(code.tiles ==
        integer(
            raw,
            "SELECT count(*) FROM tile_vertex_types t JOIN vertex_types v ON v.id = t.vertex_type "
            "WHERE v.name = '" +
                code.name + "'"));
  CHECK(code.codeBytes == code.tiles * code.codeBytesEach);
  REQUIRE_FALSE(in.largestVertexState.empty());
  CHECK(in.largestVertexState.front().stateBytes ==
        in.largestVertexState.front().instances * in.largestVertexState.front().stateBytesEach);

  // The largest exchange is the matmul's, next to the compute sets it serves.
  REQUIRE_FALSE(in.largestExchanges.empty());
  const pva::ExchangeInsight& x = in.largestExchanges.front();
  CHECK(x.type == "DoExchange");
  CHECK_FALSE(x.computeSets.empty());
  // First the compute set it feeds ("<compute set>/Exchange"), then any whose results it moves.
  CHECK(x.name.rfind(x.computeSets.front() + "/", 0) == 0);

  // Suggestions, largest saving first: FLOAT weights as HALF, over the model and on the worst tile.
  REQUIRE_FALSE(in.suggestions.empty());
  for (std::size_t i = 1; i < in.suggestions.size(); ++i)
    CHECK(in.suggestions[i - 1].savingBytes >= in.suggestions[i].savingBytes);
  const pva::Suggestion* model = findSuggestion(in, pva::Suggestion::Kind::FloatToHalf, false);
  REQUIRE(model);
  const std::string step = std::to_string(in.model.step);
  CHECK(model->savingBytes ==
        integer(raw, "SELECT sum(bytes) FROM variables WHERE element_type = 'float' AND "
                     "(always_live = 1 OR (live_from <= " +
                         step + " AND " + step + " < live_to))") /
            2);
  const pva::Suggestion* tile = findSuggestion(in, pva::Suggestion::Kind::FloatToHalf, true);
  REQUIRE(tile);
  CHECK(tile->scope.find("tile " + std::to_string(in.worstTiles[0].tile) + " ") == 0);
  CHECK(tile->unit == "bytes");
  CHECK(tile->wouldFit == (tile->savingBytes >= in.worstTiles[0].overBytes));
  CHECK_FALSE(tile->subjects.empty());
}

TEST_CASE("Insights of the MLP sample: it fits, with the fullest tile's headroom",
          "[pva][insights]") {
  const pva::Report report = pva::openReport(test::sampleReport("mlp").string());
  test::Report raw(test::sampleReport("mlp"));
  pva::InsightsOptions options;
  options.worstTiles = 3;
  options.topItems = 2;
  const pva::Insights in = pva::insights(report, options);
  const u64 cap = report.compilation().target().bytesPerTile();
  CHECK(in.fits);
  CHECK(in.tilesOutOfMemory == 0);
  CHECK(in.worstOverBytes == 0);
  CHECK(in.headroomBytes == cap - integer(raw, "SELECT max(including_gaps) FROM tile_memory"));
  CHECK(in.worstTiles.size() == 3);
  CHECK(in.largestVertexCode.size() <= 2);
  CHECK(in.largestExchanges.size() <= 2);
  CHECK(in.usage.back().tiles == 0);
  for (const pva::Suggestion& s : in.suggestions)
    CHECK_FALSE(s.wouldFit); // nothing to fit
}

TEST_CASE("Insights of hostile and broken reports give a result or a pva::Exception",
          "[pva][insights][hostile]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& dir :
       {fs::path(TESSERA_TEST_DATA_DIR), fs::path(TESSERA_TEST_DATA_DIR) / "fuzz"})
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".pop") files.push_back(e.path());
  REQUIRE(files.size() > 5);
  for (const fs::path& f : files) {
    INFO(f.string());
    try {
      const pva::Report report = pva::openReport(f.string());
      const pva::Insights in = pva::insights(report);
      u64 tiles = 0;
      for (const pva::UsageBin& b : in.usage)
        tiles += b.tiles;
      CHECK(in.worstTiles.size() <= 5);
      CHECK(in.suggestions.size() <= 8);
      (void)tiles;
    } catch (const pva::Exception&) {
      // a clear error naming the file is what a broken report gives
    }
  }
}
