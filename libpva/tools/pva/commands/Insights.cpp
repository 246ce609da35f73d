// pva insights: does the program fit, where not and by how much, what fills the fullest tiles,
// and what to change, rendered from pva::insights (the figures the viewer's Insights page and
// Python show). The JSON object is built first and the text is written from it.
#include "Commands.hpp"
#include "Common.hpp"
#include "Writers.hpp"
#include "output/Format.hpp"
#include "output/Output.hpp"

#include <cmath>
#include <iostream>
#include <pva/Insights.hpp>

namespace pvacli {

namespace {

Json split(const pva::LivenessSplit& s) {
  return {{"step", s.stepKnown ? Json(s.step) : Json(nullptr)},
          {"alwaysLive", s.alwaysLiveBytes},
          {"notAlwaysLive", s.notAlwaysLiveBytes},
          {"total", s.total()}};
}

Json namedList(const std::vector<pva::NamedBytes>& items) {
  Json a = Json::array();
  for (const pva::NamedBytes& n : items)
    a.push_back({{"name", n.name}, {"bytes", n.bytes}});
  return a;
}

Json vertexList(const std::vector<pva::VertexTypeInsight>& items) {
  Json a = Json::array();
  for (const pva::VertexTypeInsight& v : items)
    a.push_back({{"name", v.name},
                 {"instances", v.instances},
                 {"stateBytesEach", v.stateBytesEach},
                 {"stateBytes", v.stateBytes},
                 {"codeBytesEach", v.codeBytesEach},
                 {"tiles", v.tiles},
                 {"codeBytes", v.codeBytes}});
  return a;
}

Json insightsOf(const pva::Report& report, const ReportFiles& files, unsigned top) {
  pva::InsightsOptions options;
  options.worstTiles = options.topItems = top;
  const pva::Insights in = pva::insights(report, options);
  Json j;
  j["report"] = {{"profile", files.profile}, {"outOfMemory", report.outOfMemory()}};
  j["scope"] = in.scope.describe();
  j["fit"] = {{"fits", in.fits},
              {"bytesPerTile", in.bytesPerTile},
              {"tilesOutOfMemory", in.tilesOutOfMemory},
              {"worstOverBytes", in.worstOverBytes},
              {"totalOverBytes", in.totalOverBytes},
              {"headroomBytes", in.headroomBytes}};
  Json tiles = Json::array();
  for (const pva::TileInsight& t : in.worstTiles)
    tiles.push_back({{"tile", t.tile},
                     {"ipu", t.ipu},
                     {"includingGaps", t.includingGapsBytes},
                     {"excludingGaps", t.excludingGapsBytes},
                     {"overBytes", t.overBytes},
                     {"freeBytes", t.freeBytes},
                     {"atModelPeak", split(t.atModelPeak)},
                     {"atTilePeak", split(t.atTilePeak)},
                     {"categories", namedList(t.categories)}});
  j["worstTiles"] = tiles;
  Json usage = Json::array();
  for (const pva::UsageBin& b : in.usage)
    usage.push_back({{"fromFraction", b.fromFraction},
                     {"toFraction", std::isinf(b.toFraction) ? Json(nullptr) : Json(b.toFraction)},
                     {"tiles", b.tiles}});
  j["usage"] = usage;
  Json model = split(in.model);
  model["program"] =
      in.model.stepKnown && !in.peakProgram.empty() ? Json(in.peakProgram) : Json(nullptr);
  j["model"] = model;
  Json ipus = Json::array();
  for (const pva::IpuInsight& i : in.ipus)
    ipus.push_back({{"ipu", i.ipu},
                    {"capacity", i.capacityBytes},
                    {"includingGaps", i.includingGapsBytes},
                    {"tilesOutOfMemory", i.tilesOutOfMemory},
                    {"fullestTile", {{"tile", i.fullestTile.tile}, {"bytes", i.fullestTile.bytes}}},
                    {"atModelPeak", split(i.atModelPeak)},
                    {"atIpuPeak", split(i.atIpuPeak)}});
  j["ipus"] = ipus;
  j["largestVertexState"] = vertexList(in.largestVertexState);
  j["largestVertexCode"] = vertexList(in.largestVertexCode);
  Json exchanges = Json::array();
  for (const pva::ExchangeInsight& x : in.largestExchanges)
    exchanges.push_back({{"program", x.program},
                         {"name", x.name},
                         {"type", x.type},
                         {"dataBytes", x.dataBytes},
                         {"codeBytes", x.codeBytes},
                         {"maxTile", x.maxTile},
                         {"maxTileCodeBytes", x.maxTileCodeBytes},
                         {"computeSets", x.computeSets}});
  j["largestExchanges"] = exchanges;
  Json suggestions = Json::array();
  for (const pva::Suggestion& s : in.suggestions)
    suggestions.push_back({{"kind", pva::Suggestion::kindName(s.kind)},
                           {"title", s.title},
                           {"detail", s.detail},
                           {"scope", s.scope},
                           {"saving", s.savingBytes},
                           {"unit", s.unit},
                           {"wouldFit", s.wouldFit},
                           {"subjects", namedList(s.subjects)}});
  j["suggestions"] = suggestions;
  return j;
}

std::uint64_t u(const Json& v) {
  return v.is_null() ? 0 : v.get<std::uint64_t>();
}

std::string splitText(const Json& s) {
  std::string text = bytes(u(s["total"])) + " = " + bytes(u(s["alwaysLive"])) + " always live + " +
                     bytes(u(s["notAlwaysLive"])) + " not always live";
  if (!s["step"].is_null()) text += " (step " + std::to_string(u(s["step"])) + ")";
  return text;
}

void writeText(std::ostream& out, const Json& j) {
  const Json& f = j["fit"];
  const std::uint64_t perTile = u(f["bytesPerTile"]);
  out << "Insights (" << j["scope"].get<std::string>() << ", " << bytes(perTile) << " per tile)\n";
  if (f["fits"].get<bool>()) {
    out << "  FITS: the fullest tile has " << bytes(u(f["headroomBytes"])) << " left\n";
  } else {
    out << "  DOES NOT FIT: " << withCommas(u(f["tilesOutOfMemory"]))
        << " tile(s) over their memory, the worst by " << bytes(u(f["worstOverBytes"])) << ", "
        << bytes(u(f["totalOverBytes"])) << " over in all\n";
  }

  out << "\nWorst tiles (including gaps)\n";
  for (const Json& t : j["worstTiles"]) {
    out << "  tile " << u(t["tile"]) << " (IPU " << u(t["ipu"]) << ")  "
        << bytes(u(t["includingGaps"])) << " (" << percentOf(u(t["includingGaps"]), perTile)
        << " of the tile";
    if (u(t["overBytes"])) out << ", over by " << bytes(u(t["overBytes"]));
    out << ")\n    at the model's peak: " << splitText(t["atModelPeak"])
        << "\n    at its own peak:     " << splitText(t["atTilePeak"])
        << "\n    largest categories:";
    std::size_t shown = 0;
    for (const Json& c : t["categories"]) {
      if (shown++ == 3) break;
      out << (shown > 1 ? "," : "") << " " << c["name"].get<std::string>() << " "
          << bytes(u(c["bytes"]));
    }
    out << "\n";
  }

  out << "\nTiles by memory used (share of the tile's memory, including gaps)\n";
  for (const Json& b : j["usage"]) {
    const double from = b["fromFraction"].get<double>();
    char label[32];
    if (b["toFraction"].is_null())
      std::snprintf(label, sizeof label, "over 100%%");
    else
      std::snprintf(label, sizeof label, "%3.0f-%3.0f%%", from * 100,
                    b["toFraction"].get<double>() * 100);
    out << "  " << label << std::string(12 - std::string(label).size(), ' ')
        << withCommas(u(b["tiles"])) << "\n";
  }

  const Json& m = j["model"];
  out << "\nAlways live and not always live at the peak step\n  model: " << splitText(m);
  if (!m["program"].is_null()) out << " in " << m["program"].get<std::string>();
  out << "\n";
  for (const Json& i : j["ipus"])
    out << "  IPU " << u(i["ipu"]) << ": " << splitText(i["atModelPeak"]) << "; its own peak "
        << splitText(i["atIpuPeak"]) << "\n";

  const auto vertexTable = [&](const char* title, const Json& list, bool code) {
    out << "\n" << title << "\n";
    if (list.empty()) out << "  none\n";
    for (const Json& v : list) {
      if (code)
        out << "  " << bytes(u(v["codeBytes"])) << "  " << v["name"].get<std::string>() << " ("
            << bytes(u(v["codeBytesEach"])) << " on each of " << withCommas(u(v["tiles"]))
            << " tiles)\n";
      else
        out << "  " << bytes(u(v["stateBytes"])) << "  " << v["name"].get<std::string>() << " ("
            << withCommas(u(v["instances"])) << " x " << bytes(u(v["stateBytesEach"])) << ")\n";
    }
  };
  vertexTable("Largest vertex state (one replica)", j["largestVertexState"], false);
  vertexTable("Largest vertex code (one replica)", j["largestVertexCode"], true);

  out << "\nLargest exchanges (by exchange code, one replica)\n";
  if (j["largestExchanges"].empty()) out << "  none\n";
  for (const Json& x : j["largestExchanges"]) {
    out << "  " << bytes(u(x["codeBytes"])) << " code, " << bytes(u(x["dataBytes"])) << " moved  "
        << x["name"].get<std::string>() << " (" << x["type"].get<std::string>() << ")\n";
    if (!x["computeSets"].empty()) {
      out << "    for compute set(s):";
      for (const Json& c : x["computeSets"])
        out << " " << c.get<std::string>();
      out << "\n";
    }
  }

  out << "\nSuggestions (estimated savings)\n";
  if (j["suggestions"].empty()) out << "  none from this report's figures\n";
  std::size_t n = 0;
  for (const Json& s : j["suggestions"]) {
    out << "  " << ++n << ". " << s["title"].get<std::string>() << ": saves about "
        << bytes(u(s["saving"])) << " on " << s["scope"].get<std::string>()
        << (s["wouldFit"].get<bool>() ? " (enough to fit that tile)" : "") << "\n     "
        << s["detail"].get<std::string>() << "\n";
  }
}

} // namespace

Json insightsJson(const pva::Report& report, const ReportFiles& files, unsigned top) {
  return insightsOf(report, files, top);
}

int runInsights(const InsightsCommandOptions& o, const GlobalOptions&) {
  ReportFiles files = findReport(o.report, o.debug);
  const pva::Report report = openReportFiles(files);
  const Json j = insightsJson(report, files, o.top);
  if (o.json)
    writeJson(std::cout, j);
  else
    writeText(std::cout, j);
  return kOk;
}

} // namespace pvacli
