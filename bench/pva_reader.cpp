// bench_pva_reader: libpva on a large synthetic report (16 IPUs x 1472 tiles, 1 M execution
// steps) against raw SQLite reading the same rows in the same run.
//
//   bench_pva_reader [--steps N] [--ipus I] [--reps R] [--file PATH] [--keep]
//                    [--graph-compute-sets C [--graph-vertices V]]
//
// With --graph-compute-sets, a model-scale serialized_graph.capnp (common/SyntheticGraph.hpp:
// C compute sets, V vertices each on average) is written beside the report for the viewer's
// Graph view; it is written even with --keep when the report exists but the graph does not.
//
// Measures: opening (goal < 50 ms whatever the size), summing ipus[0].cycles over every step
// and summing tile memory (goal: >= 80% of raw SQLite's speed, i.e. time ratio <= 1.25), the
// peak liveness, the resident memory added while iterating (bounded: steps are streamed), and the
// analysis layer: pva::summarize (goal < 2 s) and pva::analyseExecution against raw SQLite + capnp.
// The raw side is what a client without libpva would write: SQLite's C API and, for the packed
// per-IPU blobs, Cap'n Proto's own reader.
#include "common/CommandLine.hpp"
#include "common/SyntheticGraph.hpp"

#include <algorithm>
#include <capnp/serialize-packed.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <profiler/Blob.hpp>
#include <profiler/ReportWriter.hpp>
#include <profiler/Schema.hpp>
#include <profiler/schema/profile.capnp.h>
#include <pva/pva.hpp>
#include <random>
#include <sqlite3.h>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace S = tessera::profiler::schema;
using tessera::profiler::blob;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  std::uint64_t steps = 1000000;
  unsigned ipus = 16, tilesPerIpu = 1472, reps = 3;
  std::string file = (std::filesystem::temp_directory_path() / "tessera-bench-pva.pop").string();
  bool keep = false;
  std::uint64_t graphComputeSets = 0; ///< 0: no serialized graph
  unsigned graphVertices = 32;
};

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double timeIt(unsigned reps, const std::function<void()>& f) {
  std::vector<double> t;
  for (unsigned r = 0; r < reps; ++r) {
    const auto a = Clock::now();
    f();
    t.push_back(seconds(a, Clock::now()));
  }
  return median(t);
}

long maxRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// Writes the synthetic report: the tables libpva needs to open it and the ones measured.
void writeReport(const Options& o) {
  const unsigned tiles = o.ipus * o.tilesPerIpu;
  tessera::profiler::ReportWriter w(o.file);
  w.begin();
  w.setMeta(S::meta::reportId, "0123456789abcdef0123456789abcdef");
  w.setMeta(S::meta::createdAt, "2026-11-23T00:00:00Z");
  std::string enc;
  const std::vector<std::uint64_t> offsets{0, 16384, 32768};
  tessera::profiler::encodeTileValues(offsets.data(), offsets.size(), enc);
  w.inserter<S::TargetTable>().row("IPU_MODEL", "ipu2", o.ipus, o.tilesPerIpu, 638976, 1.33e9, 1, 6,
                                   4, 8, 12.0, 12.0, 15, 60, 1500, 262144, blob(enc));
  w.inserter<S::GraphTable>().row(1000000, 1000, 5000, 3000000);
  std::mt19937_64 rng(7);
  auto tileRows = w.inserter<S::TileMemory>();
  auto catRows = w.inserter<S::TileMemoryCategories>();
  for (unsigned t = 0; t < tiles; ++t) {
    const std::uint64_t al = 100000 + rng() % 50000, nal = rng() % 200000;
    tileRows.row(t, al + nal + 64, al + nal, al, nal, 0, 0);
    catRows.row(t, "variable", al / 2, nal, 0, 0, 0, 0);
    catRows.row(t, "vertexCode", al / 2, 0, 0, 0, 0, 0);
  }
  // 200 programs: a root and 199 compute steps with per-tile estimates.
  auto programs = w.inserter<S::Programs>();
  auto children = w.inserter<S::ProgramChildren>();
  std::vector<std::uint64_t> perTile(tiles);
  for (unsigned p = 0; p < 200; ++p) {
    for (auto& v : perTile)
      v = rng() % 1000;
    tessera::profiler::encodeTileValues(perTile.data(), perTile.size(), enc);
    if (p == 0)
      programs.row(p, "Sequence", "root", nullptr, nullptr, nullptr, nullptr, 0, blob(enc), nullptr,
                   nullptr, nullptr);
    else {
      programs.row(p, "Sync", "step" + std::to_string(p), nullptr, nullptr, "INTERNAL", nullptr, 0,
                   blob(enc), nullptr, blob(enc), nullptr);
      children.row(0, p - 1, p);
    }
  }
  w.inserter<S::EntryPoints>().row(0, 0);
  auto liveness = w.inserter<S::LivenessSteps>();
  std::vector<std::uint64_t> byIpu(o.ipus);
  for (unsigned s = 0; s < 199; ++s) {
    for (auto& v : perTile)
      v = rng() % 100000;
    tessera::profiler::encodeTileValues(perTile.data(), perTile.size(), enc);
    std::string ipuEnc;
    std::uint64_t total = 0;
    std::fill(byIpu.begin(), byIpu.end(), 0);
    for (unsigned t = 0; t < tiles; ++t) {
      byIpu[t / o.tilesPerIpu] += perTile[t];
      total += perTile[t];
    }
    tessera::profiler::encodeTileValues(byIpu.data(), byIpu.size(), ipuEnc);
    liveness.row(s, s + 1, total, blob(ipuEnc), blob(enc));
  }
  w.commit();
  w.publish();

  // One run of o.steps steps, every IPU taking part, committed in batches.
  auto steps = w.inserter<S::Steps>();
  std::vector<tessera::profiler::StepIpu> ipus(o.ipus);
  std::uint64_t clock = 0;
  w.begin();
  for (std::uint64_t s = 0; s < o.steps; ++s) {
    const std::uint64_t cycles = 100 + rng() % 5000;
    for (unsigned i = 0; i < o.ipus; ++i) {
      auto& x = ipus[i];
      x.ipu = i;
      x.cycles = cycles - i;
      x.activeTiles = 1000;
      x.activeFromMin = x.activeFromMax = x.allFromMin = x.allFromMax = clock;
      x.activeToMin = clock + cycles / 2;
      x.activeToMax = x.allToMax = clock + cycles;
      x.allToMin = clock;
      x.tileBalance = 0.5f;
      x.activeTileBalance = 0.7f;
    }
    clock += cycles;
    tessera::profiler::encodeStepIpus(ipus.data(), ipus.size(), enc);
    steps.row(s, 0, 1 + s % 199, nullptr, blob(enc));
    if (s % 100000 == 99999) {
      w.commit();
      w.begin();
    }
  }
  w.inserter<S::Runs>().row(0, "run0", 0, 0, 1, 0, o.steps, clock);
  // What the engine stores when a run ends (format 1.7): its steps are syncs, no stream copies.
  w.inserter<S::RunStreamCopyCycles>().row(0, 0, 0, 0);
  w.commit();
}

sqlite3* rawOpen(const std::string& file) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "cannot open %s\n", file.c_str());
    std::exit(1);
  }
  return db;
}

/// Runs `sql` and calls f(stmt) for each row.
void rawQuery(sqlite3* db, const char* sql, const std::function<void(sqlite3_stmt*)>& f) {
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
  while (sqlite3_step(st) == SQLITE_ROW)
    f(st);
  sqlite3_finalize(st);
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  tessera::cli::CommandLine cli(
      "bench_pva_reader",
      "bench_pva_reader: libpva on a large synthetic report against raw SQLite "
      "reading the same rows.",
      "bench_pva_reader --steps 2000 --ipus 2 --reps 1 --file /tmp/bench-pva-small.pop");
  const CLI::Validator& positive = tessera::cli::PositiveNumber;
  cli.add_option("--steps", o.steps, "Execution steps in the report")->check(positive);
  cli.add_option("--ipus", o.ipus, "IPUs in the report")->check(positive);
  cli.add_option("--reps", o.reps, "Timed runs of each (medians are reported)")->check(positive);
  cli.add_option("--file", o.file, "Where the report is written")->type_name("PATH");
  cli.add_flag("--keep", o.keep, "Reuse the report at --file if it exists (and leave it)");
  cli.add_option("--graph-compute-sets", o.graphComputeSets,
                 "Also write a model-scale serialized_graph.capnp beside the report, with about "
                 "this many compute sets")
      ->check(positive);
  cli.add_option("--graph-vertices", o.graphVertices,
                 "With --graph-compute-sets: mean vertices per compute set")
      ->check(positive);
  cli.parseOrExit(argc, argv);
  if (!o.keep || !std::filesystem::exists(o.file)) {
    std::printf("writing a synthetic report: %u IPUs x %u tiles, %llu steps ...\n", o.ipus,
                o.tilesPerIpu, static_cast<unsigned long long>(o.steps));
    const auto a = Clock::now();
    writeReport(o);
    std::printf("  %.1f s, %.0f MiB\n", seconds(a, Clock::now()),
                double(std::filesystem::file_size(o.file)) / (1 << 20));
  }
  const std::filesystem::path graphFile =
      std::filesystem::absolute(o.file).parent_path() /
      std::string(tessera::profiler::schema::kSerializedGraphFileName);
  if (o.graphComputeSets > 0 && (!o.keep || !std::filesystem::exists(graphFile))) {
    tessera::bench::SyntheticGraphShape shape;
    shape.computeSets = o.graphComputeSets;
    shape.verticesPerComputeSet = o.graphVertices;
    shape.ipus = o.ipus;
    shape.tilesPerIpu = o.tilesPerIpu;
    const auto a = Clock::now();
    try {
      const auto c = tessera::bench::writeSyntheticGraph(graphFile.string(), shape);
      std::printf(
          "wrote %s: %llu compute sets, %llu variables, %llu vertices, %llu edges "
          "(%llu layers), %.0f MiB in %.1f s\n",
          graphFile.c_str(), static_cast<unsigned long long>(c.computeSets),
          static_cast<unsigned long long>(c.variables), static_cast<unsigned long long>(c.vertices),
          static_cast<unsigned long long>(c.edges), static_cast<unsigned long long>(c.layers),
          double(c.bytes) / (1 << 20), seconds(a, Clock::now()));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_pva_reader: %s\n", e.what());
      return 1;
    }
  }

  // Opening.
  const double openPva = timeIt(o.reps * 5, [&] { pva::openReport(o.file); });
  const double openRaw = timeIt(o.reps * 5, [&] {
    sqlite3* db = rawOpen(o.file);
    rawQuery(db, "SELECT key, value FROM meta", [](sqlite3_stmt*) {});
    sqlite3_close(db);
  });

  // Sum of ipus[0].cycles over every step.
  std::uint64_t sumPva = 0, sumRaw = 0;
  const long rssBefore = maxRssKiB();
  const double stepsPva = timeIt(o.reps, [&] {
    sumPva = 0;
    const auto report = pva::openReport(o.file);
    for (const auto& step : report.execution().steps())
      sumPva += step.ipus()[0].cycles();
  });
  const long rssGrowth = maxRssKiB() - rssBefore;
  const double stepsRaw = timeIt(o.reps, [&] {
    sumRaw = 0;
    sqlite3* db = rawOpen(o.file);
    // What a client without libpva writes: SQLite, then Cap'n Proto's own packed reader.
    rawQuery(db, "SELECT ipus FROM steps ORDER BY id", [&](sqlite3_stmt* st) {
      kj::ArrayInputStream in(kj::arrayPtr(static_cast<const kj::byte*>(sqlite3_column_blob(st, 0)),
                                           std::size_t(sqlite3_column_bytes(st, 0))));
      capnp::PackedMessageReader reader(in);
      sumRaw += reader.getRoot<tessera::profiler::capnp::StepIpus>().getIpus()[0].getCycles();
    });
    sqlite3_close(db);
  });

  // Sum of tile memory on a freshly opened report (opening is measured above, so both sides
  // open outside the timing: libpva's first sum includes reading the column into its cache).
  std::uint64_t memPva = 0, memRaw = 0;
  std::vector<double> pvaTimes, rawTimes;
  for (unsigned r = 0; r < o.reps * 3; ++r) {
    const auto report = pva::openReport(o.file);
    auto a = Clock::now();
    memPva = 0;
    for (const auto& t : report.compilation().tiles())
      memPva += t.memory().total().excludingGaps();
    pvaTimes.push_back(seconds(a, Clock::now()));
    sqlite3* db = rawOpen(o.file);
    a = Clock::now();
    memRaw = 0;
    rawQuery(db, "SELECT excluding_gaps FROM tile_memory ORDER BY tile",
             [&](sqlite3_stmt* st) { memRaw += std::uint64_t(sqlite3_column_int64(st, 0)); });
    rawTimes.push_back(seconds(a, Clock::now()));
    sqlite3_close(db);
  }
  const double memoryPva = median(pvaTimes), memoryRaw = median(rawTimes);
  // The same with the opening inside the timing.
  const double memoryOpenPva = timeIt(o.reps, [&] {
    const auto report = pva::openReport(o.file);
    std::uint64_t m = 0;
    for (const auto& t : report.compilation().tiles())
      m += t.memory().total().excludingGaps();
    if (m != memRaw) std::abort();
  });
  const double memoryOpenRaw = timeIt(o.reps, [&] {
    sqlite3* db = rawOpen(o.file);
    std::uint64_t m = 0;
    rawQuery(db, "SELECT excluding_gaps FROM tile_memory ORDER BY tile",
             [&](sqlite3_stmt* st) { m += std::uint64_t(sqlite3_column_int64(st, 0)); });
    sqlite3_close(db);
    if (m != memRaw) std::abort();
  });

  // The same sum again on a report already open: libpva answers from its cache.
  std::uint64_t memWarm = 0;
  const auto openReport = pva::openReport(o.file);
  for (const auto& t : openReport.compilation().tiles())
    memWarm += t.memory().total().excludingGaps();
  const double memoryPvaWarm = timeIt(o.reps, [&] {
    memWarm = 0;
    for (const auto& t : openReport.compilation().tiles())
      memWarm += t.memory().total().excludingGaps();
  });

  // Peak liveness: always live over tiles + the largest not-always-live step.
  std::uint64_t peakPva = 0, peakRaw = 0;
  const double peakTimePva = timeIt(o.reps, [&] {
    const auto report = pva::openReport(o.file);
    std::uint64_t al = 0, nal = 0;
    for (const auto& t : report.compilation().tiles())
      al += t.memory().alwaysLiveBytes();
    for (const auto& s : report.compilation().livenessProgramSteps())
      nal = std::max(nal, s.notAlwaysLiveBytes());
    peakPva = al + nal;
  });
  const double peakTimeRaw = timeIt(o.reps, [&] {
    sqlite3* db = rawOpen(o.file);
    std::uint64_t al = 0, nal = 0;
    rawQuery(db, "SELECT sum(always_live_bytes) FROM tile_memory",
             [&](sqlite3_stmt* st) { al = std::uint64_t(sqlite3_column_int64(st, 0)); });
    rawQuery(db, "SELECT max(not_always_live_bytes) FROM liveness_steps",
             [&](sqlite3_stmt* st) { nal = std::uint64_t(sqlite3_column_int64(st, 0)); });
    peakRaw = al + nal;
    sqlite3_close(db);
  });

  // The analysis layer: pva::summarize (memory, liveness peak, runs; no step is read) and
  // pva::analyseExecution (every step: cycles per program), each against the raw SQLite + capnp a
  // client without libpva writes for the same figures. Goal: the summary of this report < 2 s.
  pva::ReportSummary summary;
  const long rssBeforeSummary = maxRssKiB();
  const double summaryPva =
      timeIt(o.reps, [&] { summary = pva::summarize(pva::openReport(o.file)); });
  const long summaryRss = maxRssKiB() - rssBeforeSummary;
  std::uint64_t summaryRawIncl = 0, summaryRawPeak = 0;
  const double summaryRaw = timeIt(o.reps, [&] {
    sqlite3* db = rawOpen(o.file);
    std::uint64_t incl = 0, excl = 0, al = 0, maxTile = 0, nal = 0, cycles = 0, categories = 0;
    rawQuery(
        db,
        "SELECT including_gaps, excluding_gaps, always_live_bytes FROM tile_memory ORDER BY tile",
        [&](sqlite3_stmt* st) {
          const auto i = std::uint64_t(sqlite3_column_int64(st, 0));
          incl += i;
          excl += std::uint64_t(sqlite3_column_int64(st, 1));
          al += std::uint64_t(sqlite3_column_int64(st, 2));
          maxTile = std::max(maxTile, i);
        });
    rawQuery(db,
             "SELECT category, sum(non_interleaved_non_overlapped + non_interleaved_overlapped + "
             "interleaved_non_overlapped"
             " + interleaved_overlapped + overflowed_non_overlapped + overflowed_overlapped)"
             " FROM tile_memory_categories GROUP BY category",
             [&](sqlite3_stmt* st) { categories += std::uint64_t(sqlite3_column_int64(st, 1)); });
    rawQuery(db, "SELECT max(not_always_live_bytes) FROM liveness_steps",
             [&](sqlite3_stmt* st) { nal = std::uint64_t(sqlite3_column_int64(st, 0)); });
    rawQuery(db, "SELECT sum(cycles), sum(num_steps) FROM runs",
             [&](sqlite3_stmt* st) { cycles = std::uint64_t(sqlite3_column_int64(st, 0)); });
    sqlite3_close(db);
    summaryRawIncl = incl;
    summaryRawPeak = al + nal;
    if (excl == 0 || cycles == 0 || categories == 0) std::abort();
  });

  pva::ExecutionAnalysis analysis;
  const long rssBeforeAnalysis = maxRssKiB();
  const double analysisPva =
      timeIt(o.reps, [&] { analysis = pva::analyseExecution(pva::openReport(o.file)); });
  const long analysisRss = maxRssKiB() - rssBeforeAnalysis;
  std::vector<std::uint64_t> rawByProgram;
  const double analysisRaw = timeIt(o.reps, [&] {
    rawByProgram.assign(analysis.allRuns.programs.size(), 0);
    sqlite3* db = rawOpen(o.file);
    rawQuery(db, "SELECT program, ipus FROM steps ORDER BY id", [&](sqlite3_stmt* st) {
      kj::ArrayInputStream in(kj::arrayPtr(static_cast<const kj::byte*>(sqlite3_column_blob(st, 1)),
                                           std::size_t(sqlite3_column_bytes(st, 1))));
      capnp::PackedMessageReader reader(in);
      std::uint64_t slowest = 0;
      for (auto ipu : reader.getRoot<tessera::profiler::capnp::StepIpus>().getIpus())
        slowest = std::max(slowest, ipu.getCycles());
      const auto program = std::size_t(sqlite3_column_int64(st, 0));
      if (program < rawByProgram.size()) rawByProgram[program] += slowest;
    });
    sqlite3_close(db);
  });
  for (std::size_t p = 0; p < rawByProgram.size(); ++p)
    if (rawByProgram[p] != analysis.allRuns.programs[p].cycles) {
      std::fprintf(
          stderr, "bench_pva_reader: analyseExecution and raw SQLite disagree on program %zu\n", p);
      return 1;
    }
  if (summary.memory.includingGapsBytes != summaryRawIncl ||
      summary.memory.peakLiveness.bytes != summaryRawPeak) {
    std::fprintf(stderr, "bench_pva_reader: summarize and raw SQLite disagree\n");
    return 1;
  }

  if (sumPva != sumRaw || memPva != memRaw || memWarm != memRaw || peakPva != peakRaw) {
    std::fprintf(stderr, "bench_pva_reader: libpva and raw SQLite disagree\n");
    return 1;
  }
  std::printf("\n%-34s %12s %12s %10s\n", "median of runs", "libpva", "raw SQLite", "ratio");
  auto row = [](const char* what, double a, double b) {
    std::printf("%-34s %10.2f ms %10.2f ms %9.2fx\n", what, a * 1e3, b * 1e3, a / b);
  };
  row("open", openPva, openRaw);
  row("sum ipus[0].cycles over steps", stepsPva, stepsRaw);
  row("sum tile memory (just opened)", memoryPva, memoryRaw);
  row("open + sum tile memory", memoryOpenPva, memoryOpenRaw);
  row("sum tile memory (report open)", memoryPvaWarm, memoryRaw);
  row("peak liveness", peakTimePva, peakTimeRaw);
  row("pva::summarize (open + all)", summaryPva, summaryRaw);
  row("pva::analyseExecution (open + all)", analysisPva, analysisRaw);
  std::printf("steps/s: libpva %.2f M, raw %.2f M (speed %.0f%% of raw; goal >= 80%%)\n",
              double(o.steps) / stepsPva / 1e6, double(o.steps) / stepsRaw / 1e6,
              100.0 * stepsRaw / stepsPva);
  std::printf("tile memory: speed %.0f%% of raw; open %.2f ms (goal < 50 ms)\n",
              100.0 * memoryRaw / memoryPva, openPva * 1e3);
  std::printf("resident memory added while iterating %llu steps: %ld KiB\n",
              static_cast<unsigned long long>(o.steps), rssGrowth);
  std::printf("summary: %.2f s (goal < 2 s), resident memory added %ld KiB; analyseExecution: %.2f "
              "M steps/s, %ld KiB added\n",
              summaryPva, summaryRss, double(o.steps) / analysisPva / 1e6, analysisRss);
  if (!o.keep) {
    std::filesystem::remove(o.file);
    if (o.graphComputeSets > 0) std::filesystem::remove(graphFile);
  }
  return 0;
}
