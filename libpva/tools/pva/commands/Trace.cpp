// pva trace TRACE.pvti: what a host trace holds (processes, threads, event counts, the labels
// that took the most time, graphs and heatmaps), and --export-chrome for chrome://tracing and
// Perfetto. Durations are summed per label over every event, nested ones included, so a label
// and the labels inside it both count the same time: the table answers "where did the time of
// X go", not "what adds up to the run".
#include "Commands.hpp"
#include "Common.hpp"
#include "Writers.hpp"
#include "output/Format.hpp"
#include "output/Output.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <pva/Trace.hpp>

namespace pvacli {

namespace {

struct LabelTotal {
  std::uint64_t count = 0, unfinished = 0;
  std::int64_t totalNs = 0, maxNs = 0;
};

void addEvents(const std::vector<pva::Event>& events,
               std::map<std::pair<std::string, std::string>, LabelTotal>& totals) {
  for (const pva::Event& e : events) {
    LabelTotal& t = totals[{e.channel(), e.label()}];
    ++t.count;
    if (!e.finished()) ++t.unfinished;
    // A file's times are anything it says: differences and sums saturate (as pva::summarize's).
    std::int64_t ns = 0;
    if (__builtin_sub_overflow(e.endNs(), e.beginNs(), &ns))
      ns = e.endNs() < e.beginNs() ? std::numeric_limits<std::int64_t>::min()
                                   : std::numeric_limits<std::int64_t>::max();
    if (__builtin_add_overflow(t.totalNs, ns, &t.totalNs))
      t.totalNs = ns < 0 ? std::numeric_limits<std::int64_t>::min()
                         : std::numeric_limits<std::int64_t>::max();
    t.maxNs = std::max(t.maxNs, ns);
    addEvents(e.children(), totals);
  }
}

Json summarise(const pva::Trace& trace, std::size_t top) {
  Json j;
  j["path"] = trace.path();
  j["formatVersion"] = trace.formatVersion();
  j["startTimestamp"] = trace.startTimestamp();
  std::map<std::pair<std::string, std::string>, LabelTotal> totals;
  std::int64_t firstNs = 0, lastNs = 0;
  bool any = false;
  Json processes = Json::array();
  for (const pva::Process& p : trace.processes()) {
    Json threads = Json::array();
    for (const pva::Thread& t : p.threads()) {
      const auto events = t.events();
      addEvents(events, totals);
      for (const pva::Event& e : events) {
        firstNs = any ? std::min(firstNs, e.beginNs()) : e.beginNs();
        lastNs = any ? std::max(lastNs, e.endNs()) : e.endNs();
        any = true;
      }
      threads.push_back({{"tid", t.tid()},
                         {"name", t.name()},
                         {"events", t.numEvents()},
                         {"topLevelEvents", events.size()},
                         {"instantEvents", t.instantEvents().size()}});
    }
    Json graphs = Json::array();
    for (const pva::TraceGraph& g : p.graphs()) {
      Json series = Json::array();
      for (const pva::TraceSeries& s : g.series()) {
        Json sj = {{"name", s.name()}, {"samples", s.samples().size()}};
        if (!s.samples().empty()) {
          const auto [lo, hi] =
              std::minmax_element(s.samples().begin(), s.samples().end(),
                                  [](const auto& a, const auto& b) { return a.value < b.value; });
          sj["min"] = lo->value;
          sj["max"] = hi->value;
          sj["last"] = s.samples().back().value;
        }
        series.push_back(std::move(sj));
      }
      graphs.push_back({{"name", g.name()}, {"unit", g.unit()}, {"series", series}});
    }
    Json heatmaps = Json::array();
    for (const pva::TraceHeatmap& h : p.heatmaps())
      heatmaps.push_back({{"name", h.name()},
                          {"unit", h.unit()},
                          {"valueType", h.valueType()},
                          {"bins", h.binEdges().size() + 1},
                          {"samples", h.samples().size()}});
    processes.push_back({{"pid", p.pid()},
                         {"name", p.name()},
                         {"threads", threads},
                         {"graphs", graphs},
                         {"heatmaps", heatmaps}});
  }
  j["spanMicroseconds"] = any ? (double(lastNs) - double(firstNs)) / 1e3 : 0.0; // no int64 overflow
  j["processes"] = processes;
  std::vector<std::pair<std::pair<std::string, std::string>, LabelTotal>> sorted(totals.begin(),
                                                                                 totals.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.totalNs > b.second.totalNs;
  });
  Json labels = Json::array();
  for (std::size_t i = 0; i < sorted.size() && (top == 0 || i < top); ++i) {
    const auto& [key, t] = sorted[i];
    labels.push_back({{"channel", key.first},
                      {"label", key.second},
                      {"count", t.count},
                      {"totalMicroseconds", double(t.totalNs) / 1e3},
                      {"maxMicroseconds", double(t.maxNs) / 1e3},
                      {"unfinished", t.unfinished}});
  }
  j["distinctLabels"] = sorted.size();
  j["topLabels"] = labels;
  return j;
}

void writeText(std::ostream& out, const Json& j) {
  out << "Trace " << j["path"].get<std::string>() << " (format "
      << j["formatVersion"].get<std::string>() << "), "
      << microseconds(j["spanMicroseconds"].get<double>()) << " of events\n";
  for (const Json& p : j["processes"]) {
    out << "\nProcess " << p["pid"].get<std::uint64_t>() << " " << p["name"].get<std::string>()
        << "\n";
    for (const Json& t : p["threads"])
      out << "  thread " << t["tid"].get<std::uint64_t>() << " " << t["name"].get<std::string>()
          << ": " << withCommas(t["events"].get<std::uint64_t>()) << " events ("
          << withCommas(t["topLevelEvents"].get<std::uint64_t>()) << " top level), "
          << withCommas(t["instantEvents"].get<std::uint64_t>()) << " instant events\n";
    for (const Json& g : p["graphs"]) {
      out << "  graph " << g["name"].get<std::string>();
      if (!g["unit"].get<std::string>().empty()) out << " (" << g["unit"].get<std::string>() << ")";
      out << "\n";
      for (const Json& s : g["series"]) {
        out << "    " << s["name"].get<std::string>() << ": " << s["samples"].get<std::uint64_t>()
            << " samples";
        if (s.contains("min"))
          out << ", min " << s["min"].get<double>() << ", max " << s["max"].get<double>()
              << ", last " << s["last"].get<double>();
        out << "\n";
      }
    }
    for (const Json& h : p["heatmaps"])
      out << "  heatmap " << h["name"].get<std::string>() << " ("
          << h["valueType"].get<std::string>() << ", " << h["bins"].get<std::uint64_t>()
          << " bins): " << h["samples"].get<std::uint64_t>() << " samples\n";
  }
  Table labels("\nLabels by total duration (nested events count in their own label too; " +
                   std::to_string(j["distinctLabels"].get<std::size_t>()) + " labels)",
               {{"channel", Column::Kind::Text},
                {"label", Column::Kind::Text},
                {"count", Column::Kind::Count},
                {"total", Column::Kind::Text},
                {"max", Column::Kind::Text}});
  for (const Json& l : j["topLabels"])
    labels.add({l["channel"], l["label"], l["count"],
                microseconds(l["totalMicroseconds"].get<double>()),
                microseconds(l["maxMicroseconds"].get<double>())});
  labels.writeText(out);
}

} // namespace

Json traceSummaryJson(const pva::Trace& trace, std::size_t top) {
  return summarise(trace, top);
}

int runTrace(const TraceOptions& o, const GlobalOptions&) {
  const pva::Trace trace = pva::openTrace(o.path);
  if (!o.chrome.empty()) {
    if (o.chrome == "-") {
      pva::exportChromeTrace(trace, std::cout);
      return kOk; // stdout holds the export; no summary mixed into it
    }
    std::ofstream out(o.chrome);
    if (!out) throw UsageError(o.chrome + ": cannot write the export file");
    pva::exportChromeTrace(trace, out);
    out.close();
    if (!out) throw UsageError(o.chrome + ": error writing the export file");
    std::cerr << "pva: wrote " << escapeControls(o.chrome)
              << " (open it in ui.perfetto.dev or chrome://tracing)\n";
  }
  const Json j = traceSummaryJson(trace, o.top);
  if (o.json)
    writeJson(std::cout, j);
  else
    writeText(std::cout, j);
  return kOk;
}

} // namespace pvacli
