#include "Bind.hpp"

namespace pvapy {

void bindCompilation(py::module_& m) {
  py::class_<pva::Target> target(m, "Target", "The device the graph was compiled for.");
  py::enum_<pva::Target::Type>(target, "Type")
      .value("Ipu", pva::Target::Type::Ipu)
      .value("IpuModel", pva::Target::Type::IpuModel)
      .value("Cpu", pva::Target::Type::Cpu)
      .value("Unknown", pva::Target::Type::Unknown);
  py::class_<pva::Ipu> ipu(m, "IPU", "The tiles of one IPU.");
  py::enum_<pva::Target::Architecture>(ipu, "Architecture")
      .value("Ipu1", pva::Target::Architecture::Ipu1)
      .value("Ipu2", pva::Target::Architecture::Ipu2)
      .value("Ipu21", pva::Target::Architecture::Ipu21)
      .value("Unknown", pva::Target::Architecture::Unknown);
  // Tile lists are Python lists of Tile handles, each keeping the report open.
  ipu.def_property_readonly("id", &pva::Ipu::id)
      .def_property_readonly("tiles",
                             [](const pva::Ipu& i) { return std::vector<pva::Tile>(i.tiles()); });
  target.def_property_readonly("type", &pva::Target::type)
      .def_property_readonly("architecture", &pva::Target::architecture)
      .def_property_readonly("numIPUs", &pva::Target::numIPUs)
      .def_property_readonly("tilesPerIpu", &pva::Target::tilesPerIpu)
      .def_property_readonly("numTiles", &pva::Target::numTiles)
      .def_property_readonly("bytesPerTile", &pva::Target::bytesPerTile)
      .def_property_readonly("bytesPerIPU", &pva::Target::bytesPerIPU)
      .def_property_readonly("totalMemory", &pva::Target::totalMemory)
      .def_property_readonly("clockFrequency", &pva::Target::clockFrequency)
      .def_property_readonly("numReplicas", &pva::Target::numReplicas)
      .def_property_readonly("ipusPerReplica", &pva::Target::ipusPerReplica)
      .def_property_readonly("tilesPerReplica", &pva::Target::tilesPerReplica)
      .def_property_readonly("memoryPerReplica", &pva::Target::memoryPerReplica)
      .def_property_readonly("numWorkerContexts", &pva::Target::numWorkerContexts)
      .def_property_readonly("interleavedMemoryStart", &pva::Target::interleavedMemoryStart)
      .def_property_readonly("memoryElementOffsets", &pva::Target::memoryElementOffsets);

  py::class_<pva::Graph>(m, "Graph", "Graph-wide counts.")
      .def_property_readonly("numVertices", &pva::Graph::numVertices)
      .def_property_readonly("numComputeSets", &pva::Graph::numComputeSets)
      .def_property_readonly("numVariables", &pva::Graph::numVariables)
      .def_property_readonly("numEdges", &pva::Graph::numEdges);

  py::class_<pva::MemoryTotal>(m, "MemoryTotal")
      .def_property_readonly("includingGaps", &pva::MemoryTotal::includingGaps)
      .def_property_readonly("excludingGaps", &pva::MemoryTotal::excludingGaps);
  py::class_<pva::OverlapBytes>(m, "OverlapBytes")
      .def_property_readonly("nonOverlapped", &pva::OverlapBytes::nonOverlapped)
      .def_property_readonly("overlapped", &pva::OverlapBytes::overlapped)
      .def_property_readonly("total", &pva::OverlapBytes::total);
  py::class_<pva::CategoryMemory>(m, "CategoryMemory")
      .def_property_readonly("nonInterleaved", &pva::CategoryMemory::nonInterleaved)
      .def_property_readonly("interleaved", &pva::CategoryMemory::interleaved)
      .def_property_readonly("overflowed", &pva::CategoryMemory::overflowed)
      .def_property_readonly("total", &pva::CategoryMemory::total);
  py::class_<pva::MemoryCategories> categories(m, "MemoryCategories",
                                               "A tile's memory by category.");
  for (std::size_t i = 0; i < pva::MemoryCategories::size(); ++i)
    categories.def_property_readonly(pva::MemoryCategories::names()[i].c_str(),
                                     [i](const pva::MemoryCategories& c) { return c.at(i); });
  categories
      .def("__getitem__", [](const pva::MemoryCategories& c, const std::string& n) { return c[n]; })
      .def_static("names", &pva::MemoryCategories::names);

  py::class_<pva::VertexType>(m, "VertexType")
      .def_property_readonly("name", &pva::VertexType::name)
      .def_property_readonly("size", &pva::VertexType::size)
      .def_property_readonly("codeBytes", &pva::VertexType::codeBytes)
      .def_property_readonly("isSupervisor", &pva::VertexType::isSupervisor)
      .def("__repr__",
           [](const pva::VertexType& v) { return "<pva.VertexType " + v.name() + ">"; });
  py::class_<pva::TileVertexType>(m, "TileVertexType")
      .def_property_readonly("type", &pva::TileVertexType::type)
      .def_property_readonly("codeBytes", &pva::TileVertexType::codeBytes)
      .def_property_readonly("count", &pva::TileVertexType::count);
  py::class_<pva::TileMemory>(m, "TileMemory")
      .def_property_readonly("total", [](const pva::TileMemory& memory) { return memory.total(); })
      .def_property_readonly("overflowed",
                             [](const pva::TileMemory& memory) { return memory.overflowed(); })
      .def_property_readonly("alwaysLiveBytes", &pva::TileMemory::alwaysLiveBytes)
      .def_property_readonly("notAlwaysLiveBytes", &pva::TileMemory::notAlwaysLiveBytes)
      .def_property_readonly("category", &pva::TileMemory::category,
                             py::return_value_policy::reference_internal)
      .def_property_readonly("vertices", &pva::TileMemory::vertices);
  py::class_<pva::Tile>(m, "Tile")
      .def_property_readonly("number", &pva::Tile::number)
      .def_property_readonly("ipu", &pva::Tile::ipu)
      .def_property_readonly("memory", [](const pva::Tile& t) { return t.memory(); })
      .def("__repr__",
           [](const pva::Tile& t) { return "<pva.Tile " + std::to_string(t.number()) + ">"; });

  py::class_<pva::VertexCycleRule>(m, "VertexCycleRule",
                                   "How many instances one rule costs (docs/profiling.md).")
      .def_readonly("rule", &pva::VertexCycleRule::rule)
      .def_readonly("count", &pva::VertexCycleRule::count)
      .def("__repr__", [](const pva::VertexCycleRule& r) {
        return "<pva.VertexCycleRule " + r.rule + " x" + std::to_string(r.count) + ">";
      });
  py::class_<pva::ComputeSetVertices>(m, "ComputeSetVertices",
                                      "Instances of one vertex type in a compute set.")
      .def_property_readonly("type", &pva::ComputeSetVertices::type)
      .def_property_readonly("count", &pva::ComputeSetVertices::count)
      .def_property_readonly(
          "countByTile", [](const pva::ComputeSetVertices& v) { return toNumpy(v.countByTile()); })
      .def_property_readonly("cycleRules", &pva::ComputeSetVertices::cycleRules);
  py::class_<pva::ComputeSet>(m, "ComputeSet")
      .def_property_readonly("id", &pva::ComputeSet::id)
      .def_property_readonly("name", &pva::ComputeSet::name)
      .def_property_readonly("numVertices", &pva::ComputeSet::numVertices)
      .def_property_readonly("vertices", &pva::ComputeSet::vertices)
      .def_property_readonly(
          "estimatedCyclesByTile",
          [](const pva::ComputeSet& c) { return toNumpy(c.estimatedCyclesByTile()); })
      .def_property_readonly("estimatedFlops", &pva::ComputeSet::estimatedFlops)
      .def_property_readonly("verticesWithoutFlopEstimate",
                             &pva::ComputeSet::verticesWithoutFlopEstimate)
      .def_property_readonly("estimatedFlopsByTile",
                             [](const pva::ComputeSet& c) -> py::object {
                               std::vector<std::uint64_t> flops = c.estimatedFlopsByTile();
                               if (flops.empty()) return py::none(); // no estimate, never zeros
                               return toNumpy(std::move(flops));
                             })
      .def_property_readonly(
          "debugContext", [](const pva::ComputeSet& c) { return mutableContext(c.debugContext()); })
      .def("__repr__",
           [](const pva::ComputeSet& c) { return "<pva.ComputeSet " + c.name() + ">"; });

  py::class_<pva::Variable>(m, "Variable")
      .def_property_readonly("_id", &pva::Variable::id)
      .def_property_readonly("name", &pva::Variable::name)
      .def_property_readonly("size", &pva::Variable::size)
      .def_property_readonly("bytes", &pva::Variable::bytes)
      .def_property_readonly("alwaysLive", &pva::Variable::alwaysLive)
      .def_property_readonly("category", &pva::Variable::category)
      .def_property_readonly("elementType", &pva::Variable::elementType)
      .def_property_readonly("shape", &pva::Variable::shape)
      .def_property_readonly("liveFrom", &pva::Variable::liveFrom)
      .def_property_readonly("liveTo", &pva::Variable::liveTo)
      .def_property_readonly(
          "debugContext", [](const pva::Variable& v) { return mutableContext(v.debugContext()); })
      .def("__eq__", [](const pva::Variable& a, const pva::Variable& b) { return a == b; })
      .def("__hash__",
           [](const pva::Variable& v) { return py::hash(py::make_tuple(v.id(), v.name())); })
      .def("__repr__", [](const pva::Variable& v) {
        return "<pva.Variable " + v.name() + " " + std::to_string(v.size()) + " B>";
      });

  py::class_<pva::NotAlwaysLiveMemory>(m, "NotAlwaysLiveMemory")
      .def_property_readonly("bytes", &pva::NotAlwaysLiveMemory::bytes)
      .def_property_readonly("variables", &pva::NotAlwaysLiveMemory::variables);
  py::class_<pva::ProgramStep>(m, "ProgramStep", "One step of the compiled schedule, for liveness.")
      .def_property_readonly("index", &pva::ProgramStep::index)
      .def_property_readonly("program",
                             [](const pva::ProgramStep& s) { return mutableProgram(s.program()); })
      .def_property_readonly("notAlwaysLiveMemory", &pva::ProgramStep::notAlwaysLiveMemory)
      .def_property_readonly("notAlwaysLiveBytes", &pva::ProgramStep::notAlwaysLiveBytes)
      .def("notAlwaysLiveMemoryForTile", &pva::ProgramStep::notAlwaysLiveMemoryForTile,
           py::arg("tile"))
      .def("notAlwaysLiveMemoryForIpu", &pva::ProgramStep::notAlwaysLiveMemoryForIpu,
           py::arg("ipu"));

  py::class_<pva::BriefVar::Interval>(m, "LivenessInterval")
      .def_readonly("start", &pva::BriefVar::Interval::start)
      .def_readonly("end", &pva::BriefVar::Interval::end);
  py::class_<pva::BriefVar::EquivalenceClass>(m, "EquivalenceClass")
      .def_readonly("id", &pva::BriefVar::EquivalenceClass::id)
      .def_readonly("steps", &pva::BriefVar::EquivalenceClass::steps);
  py::class_<pva::BriefVar>(m, "BriefVar")
      .def_property_readonly("id", &pva::BriefVar::id)
      .def_property_readonly("bytes", &pva::BriefVar::bytes)
      .def_property_readonly("tileId", &pva::BriefVar::tileId)
      .def_property_readonly("equivalenceClass", &pva::BriefVar::equivalenceClass);
  py::class_<pva::LoweredVariable>(m, "LoweredVariable")
      .def_property_readonly("_id", &pva::LoweredVariable::id)
      .def_property_readonly("name", &pva::LoweredVariable::name)
      .def_property_readonly("bytes", &pva::LoweredVariable::bytes)
      .def_property_readonly("tile", &pva::LoweredVariable::tile)
      .def_property_readonly("offset", &pva::LoweredVariable::offset)
      .def_property_readonly("alignment", &pva::LoweredVariable::alignment)
      .def_property_readonly("category", &pva::LoweredVariable::category)
      .def_property_readonly("alwaysLive", &pva::LoweredVariable::alwaysLive)
      .def_property_readonly("hasUnloweredVar", &pva::LoweredVariable::hasUnloweredVar)
      .def_property_readonly("unloweredVar", &pva::LoweredVariable::unloweredVar);
  py::class_<pva::LoweredVariables>(m, "LoweredVariables")
      .def_property_readonly("allBriefVars", &pva::LoweredVariables::allBriefVars)
      .def("forTile", &pva::LoweredVariables::forTile, py::arg("tile"));

  py::class_<pva::CompilationReport>(m, "CompilationReport",
                                     "What was known at the end of compilation.")
      .def_property_readonly("target", &pva::CompilationReport::target)
      .def_property_readonly("graph", &pva::CompilationReport::graph)
      .def_property_readonly(
          "tiles",
          [](const pva::CompilationReport& c) { return std::vector<pva::Tile>(c.tiles()); })
      .def("tile", &pva::CompilationReport::tile, py::arg("number"))
      .def_property_readonly("ipus", &pva::CompilationReport::ipus)
      .def_property_readonly(
          "programs", [](const pva::CompilationReport& c) { return mutablePrograms(c.programs()); })
      .def_property_readonly(
          "entryPoints",
          [](const pva::CompilationReport& c) { return mutablePrograms(c.entryPoints()); })
      .def_property_readonly("computeSets", &pva::CompilationReport::computeSets)
      .def_property_readonly("variables", &pva::CompilationReport::variables)
      .def_property_readonly("livenessProgramSteps", &pva::CompilationReport::livenessProgramSteps)
      .def_property_readonly("alwaysLiveVariables", &pva::CompilationReport::alwaysLiveVariables)
      .def("alwaysLiveVariablesForTile", &pva::CompilationReport::alwaysLiveVariablesForTile,
           py::arg("tile"))
      .def_property_readonly("loweredVariables", &pva::CompilationReport::loweredVariables);
}

} // namespace pvapy
