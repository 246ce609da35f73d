// pva.insights: what an out-of-memory user reads first (pva/Insights.hpp), read-only, exactly as
// the C++ API gives it.
#include "Bind.hpp"

#include <pva/Insights.hpp>

namespace pvapy {

void bindInsights(py::module_& m) {
  py::class_<pva::InsightsOptions> options(m, "InsightsOptions",
                                           "Sizes of the lists pva.insights keeps.");
  options.def(py::init<>())
      .def_readwrite("worstTiles", &pva::InsightsOptions::worstTiles)
      .def_readwrite("topItems", &pva::InsightsOptions::topItems)
      .def_readwrite("suggestions", &pva::InsightsOptions::suggestions);

  py::class_<pva::NamedBytes>(m, "NamedBytes")
      .def_readonly("name", &pva::NamedBytes::name)
      .def_readonly("bytes", &pva::NamedBytes::bytes);

  py::class_<pva::LivenessSplit>(
      m, "LivenessSplit", "Always-live bytes and not-always-live bytes at one liveness step.")
      .def_readonly("stepKnown", &pva::LivenessSplit::stepKnown)
      .def_readonly("step", &pva::LivenessSplit::step)
      .def_readonly("alwaysLiveBytes", &pva::LivenessSplit::alwaysLiveBytes)
      .def_readonly("notAlwaysLiveBytes", &pva::LivenessSplit::notAlwaysLiveBytes)
      .def_property_readonly("total", &pva::LivenessSplit::total);

  py::class_<pva::TileInsight>(m, "TileInsight")
      .def_readonly("tile", &pva::TileInsight::tile)
      .def_readonly("ipu", &pva::TileInsight::ipu)
      .def_readonly("includingGapsBytes", &pva::TileInsight::includingGapsBytes)
      .def_readonly("excludingGapsBytes", &pva::TileInsight::excludingGapsBytes)
      .def_readonly("overBytes", &pva::TileInsight::overBytes)
      .def_readonly("freeBytes", &pva::TileInsight::freeBytes)
      .def_readonly("atModelPeak", &pva::TileInsight::atModelPeak)
      .def_readonly("atTilePeak", &pva::TileInsight::atTilePeak)
      .def_readonly("categories", &pva::TileInsight::categories);

  py::class_<pva::IpuInsight>(m, "IpuInsight")
      .def_readonly("ipu", &pva::IpuInsight::ipu)
      .def_readonly("capacityBytes", &pva::IpuInsight::capacityBytes)
      .def_readonly("includingGapsBytes", &pva::IpuInsight::includingGapsBytes)
      .def_readonly("tilesOutOfMemory", &pva::IpuInsight::tilesOutOfMemory)
      .def_readonly("fullestTile", &pva::IpuInsight::fullestTile)
      .def_readonly("atModelPeak", &pva::IpuInsight::atModelPeak)
      .def_readonly("atIpuPeak", &pva::IpuInsight::atIpuPeak);

  py::class_<pva::UsageBin>(
      m, "UsageBin", "Tiles whose memory is a share of the tile's in [fromFraction, toFraction).")
      .def_readonly("fromFraction", &pva::UsageBin::fromFraction)
      .def_readonly("toFraction", &pva::UsageBin::toFraction)
      .def_readonly("tiles", &pva::UsageBin::tiles);

  py::class_<pva::VertexTypeInsight>(m, "VertexTypeInsight")
      .def_readonly("name", &pva::VertexTypeInsight::name)
      .def_readonly("instances", &pva::VertexTypeInsight::instances)
      .def_readonly("stateBytesEach", &pva::VertexTypeInsight::stateBytesEach)
      .def_readonly("stateBytes", &pva::VertexTypeInsight::stateBytes)
      .def_readonly("codeBytesEach", &pva::VertexTypeInsight::codeBytesEach)
      .def_readonly("tiles", &pva::VertexTypeInsight::tiles)
      .def_readonly("codeBytes", &pva::VertexTypeInsight::codeBytes);

  py::class_<pva::ExchangeInsight>(m, "ExchangeInsight")
      .def_readonly("program", &pva::ExchangeInsight::program)
      .def_readonly("name", &pva::ExchangeInsight::name)
      .def_readonly("type", &pva::ExchangeInsight::type)
      .def_readonly("dataBytes", &pva::ExchangeInsight::dataBytes)
      .def_readonly("codeBytes", &pva::ExchangeInsight::codeBytes)
      .def_readonly("maxTileCodeBytes", &pva::ExchangeInsight::maxTileCodeBytes)
      .def_readonly("maxTile", &pva::ExchangeInsight::maxTile)
      .def_readonly("computeSets", &pva::ExchangeInsight::computeSets);

  py::class_<pva::Suggestion> suggestion(
      m, "Suggestion", "A change to the program and the memory it would save (an estimate).");
  py::enum_<pva::Suggestion::Kind>(suggestion, "Kind")
      .value("FloatToHalf", pva::Suggestion::Kind::FloatToHalf)
      .value("SpreadVariable", pva::Suggestion::Kind::SpreadVariable)
      .value("ExchangeCode", pva::Suggestion::Kind::ExchangeCode);
  suggestion.def_readonly("kind", &pva::Suggestion::kind)
      .def_property_readonly(
          "kindName", [](const pva::Suggestion& s) { return pva::Suggestion::kindName(s.kind); })
      .def_readonly("title", &pva::Suggestion::title)
      .def_readonly("detail", &pva::Suggestion::detail)
      .def_readonly("scope", &pva::Suggestion::scope)
      .def_readonly("savingBytes", &pva::Suggestion::savingBytes)
      .def_readonly("unit", &pva::Suggestion::unit)
      .def_readonly("wouldFit", &pva::Suggestion::wouldFit)
      .def_readonly("tilesOver", &pva::Suggestion::tilesOver)
      .def_readonly("tilesThatWouldFit", &pva::Suggestion::tilesThatWouldFit)
      .def_readonly("subjects", &pva::Suggestion::subjects);

  py::class_<pva::Insights>(m, "Insights",
                            "Does it fit, the worst tiles, what fills them, and what to change.")
      .def_readonly("scope", &pva::Insights::scope)
      .def_readonly("fits", &pva::Insights::fits)
      .def_readonly("bytesPerTile", &pva::Insights::bytesPerTile)
      .def_readonly("tilesOutOfMemory", &pva::Insights::tilesOutOfMemory)
      .def_readonly("worstOverBytes", &pva::Insights::worstOverBytes)
      .def_readonly("totalOverBytes", &pva::Insights::totalOverBytes)
      .def_readonly("headroomBytes", &pva::Insights::headroomBytes)
      .def_readonly("worstTiles", &pva::Insights::worstTiles)
      .def_readonly("usage", &pva::Insights::usage)
      .def_readonly("model", &pva::Insights::model)
      .def_readonly("peakProgram", &pva::Insights::peakProgram)
      .def_readonly("ipus", &pva::Insights::ipus)
      .def_readonly("largestVertexState", &pva::Insights::largestVertexState)
      .def_readonly("largestVertexCode", &pva::Insights::largestVertexCode)
      .def_readonly("largestExchanges", &pva::Insights::largestExchanges)
      .def_readonly("suggestions", &pva::Insights::suggestions);

  m.def("insights", &pva::insights, py::arg("report"), py::arg("options") = pva::InsightsOptions(),
        py::call_guard<py::gil_scoped_release>(),
        "Does it fit and by how much, the worst tiles, tiles by usage, always-live vs "
        "not-always-live at the "
        "peak, the largest vertex state, code and exchanges, and suggestions with estimated "
        "savings.");
}

} // namespace pvapy
