// tessera-fuzz-seeds OUT: writes small, valid inputs for the fuzz targets into OUT, from which
// fuzz/make_seeds.sh makes the seed corpora: a report of a 4-tile IPU (profile.pop and
// debug.cbor, two runs with execution profiles, a Repeat and a Sequence), and, when run with
// PVTI_OPTIONS, a trace with nested events, instant events, metadata, a graph and heatmaps.
#include "common/RemoteSum.hpp"

#include <cstdio>
#include <poplar/Engine.hpp>
#include <pvti/pvti.hpp>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tessera-fuzz-seeds OUT\n");
    return 2;
  }
  const std::string out = argv[1];
  pvti::TraceChannel channel{"seeds"};
  {
    pvti::Tracepoint scope(&channel, "report");
    test::RemoteSum s;
    namespace prog = poplar::program;
    const prog::Sequence program{prog::Repeat(2, s.program), s.program};
    // FLOP estimates on: the readers of compute_sets' FLOP columns (per tile since 1.4) get
    // seeds that have them.
    poplar::OptionFlags options{{"autoReport.all", "true"},
                                {"autoReport.directory", out},
                                {"profiler.includeFlopEstimates", "true"}};
    poplar::Engine engine(s.graph, program, options);
    engine.load(s.device);
    for (int run = 0; run < 2; ++run) {
      pvti::Metadata meta = pvti::createJsonMetadata(R"({"run":)" + std::to_string(run) + "}");
      pvti::Tracepoint r(&channel, std::string("run"), &meta);
      engine.run(0, "run" + std::to_string(run));
    }
  }
  pvti::Tracepoint::event(&channel, "done");
  pvti::Tracepoint::begin(&channel, "a");
  pvti::Tracepoint::end(&channel, "b"); // a mismatched end: the reader's instant-event path
  pvti::Graph graph("loss", "nats");
  auto series = graph.addSeries("train");
  for (int i = 0; i < 4; ++i)
    series.add(1.0 / (1 + i));
  pvti::HeatmapDouble weights("weights", {0.0, 1.0, 2.0}, "");
  weights.add({-1.0, 0.5, 1.5, 3.0});
  pvti::HeatmapInt64 sizes("sizes", {0, 10});
  sizes.add({1, 20});
  pvti::closeTrace();
  return 0;
}
