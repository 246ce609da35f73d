// Renders the schema descriptors as the markdown reference held in docs/formats.md.
#include "SchemaMarkdown.hpp"

#include <profiler/Schema.hpp>

namespace tessera::profiler::schema {

std::string toString(FormatVersion v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.point);
}

namespace {

using namespace markdown;

// The meaning of each key. The key names themselves come from Schema.hpp.
const KeyDoc kMetaKeys[] = {
    {meta::format, "always `tessera-profile`"},
    {meta::formatVersion, "format version, `major.minor.point`"},
    {meta::tool, "`Tessera`"},
    {meta::toolVersion, "version of the tool that wrote the report, `major.minor.point`"},
    {meta::packageHash, "build identifier of the tool"},
    {meta::reportId, "32 hex digits; the same value is in debug.cbor"},
    {meta::createdAt, "creation time, ISO 8601 UTC"},
    {meta::createdAtUnixUs, "creation time, microseconds since the Unix epoch"},
    {meta::computeInstrumentation, "`Off`, `Vertex`, `Tile`, `Ipu` or `Device`"},
    {meta::externalExchangeInstrumentation, "`Off` or `Tile`"},
    {meta::outOfMemory, "`true` when compilation ran out of tile memory"},
    {meta::executionProfile, "`true` when runs are recorded"},
    {meta::flopEstimates, "`true` when `compute_sets` carry FLOP estimates "
                          "(`profiler.includeFlopEstimates`; since 1.1, absent before)"},
    {meta::instanceIndex, "this instance's index in its poprun job, from 0 (since 1.5; absent "
                          "before: a job of one instance)"},
    {meta::numInstances, "instances in the job (since 1.5)"},
    {meta::replicaOffset, "global index of this instance's first replica (since 1.5)"},
    {meta::totalReplicas,
     "replicas of the whole job, which its collectives span (since 1.5; the report's own "
     "replicas are `target.num_replicas`)"},
};

const KeyDoc kCborKeys[] = {
    {cbor::format, "text: always `tessera-debug`"},
    {cbor::version, "text: format version, `major.minor.point`"},
    {cbor::reportId, "text: equals the report id in the meta table of its profile.pop"},
    {cbor::contexts, "array of context maps, in id order (a parent before its children)"},
    {cbor::id, "context: unsigned, its index in `contexts`"},
    {cbor::name, "context: text, its own name"},
    {cbor::path, "context: text, names from the root joined by `/`"},
    {cbor::layer, "context: text, `user`, `poplar` or `poplibs`"},
    {cbor::opType, "context: text, the op that made it (empty: none)"},
    {cbor::parent, "context: unsigned id of its parent, or null for a root"},
    {cbor::location, "context: map with the three keys below"},
    {cbor::file, "location: text, source file"},
    {cbor::function, "location: text, function"},
    {cbor::line, "location: unsigned, line (0: unknown)"},
};

} // namespace

std::string renderSchemaMarkdown() {
  std::string md;
  md += "### Versions\n\n";
  md += "- profile.pop: format " + code(kProfileFormatName) + ", version " +
        toString(kProfileFormatVersion) + "\n";
  md += "- debug.cbor: format " + code(kDebugFormatName) + ", version " +
        toString(kDebugFormatVersion) + "\n\n";

  md += "### Tables of profile.pop\n\n";
  forEachTable([&](const auto& t) { renderTable(md, t); });

  md += "### Indexes\n\n| index | table | column |\n|---|---|---|\n";
  for (const Index& i : kIndexes)
    md += "| " + code(i.name) + " | " + code(i.table) + " | " + code(i.column) + " |\n";
  md += '\n';

  md += "### Meta keys\n\n";
  renderKeys(md, "key", kMetaKeys, std::size(kMetaKeys));

  md += "### Enumerations stored as text\n\n";
  renderEnum(md, "ProgramType", columnRef(Programs::table, Programs::type), kProgramTypeNames);
  renderEnum(md, "MemoryCategory",
             columnRef(LoweredVariables::table, LoweredVariables::category) + ", " +
                 columnRef(TileMemoryCategories::table, TileMemoryCategories::category),
             kMemoryCategoryNames);
  renderEnum(md, "CycleKind", columnRef(RunTileCycles::table, RunTileCycles::kind),
             kCycleKindNames);
  renderEnum(md, "BlockKind", columnRef(Blocks::table, Blocks::kind), kBlockKindNames);
  renderEnum(md, "CycleRule", columnRef(VertexCycleRules::table, VertexCycleRules::rule),
             kCycleRuleNames);
  renderEnum(md, "TargetType", columnRef(TargetTable::table, TargetTable::type), kTargetTypeNames);
  renderEnum(md, "Architecture", columnRef(TargetTable::table, TargetTable::architecture),
             kArchitectureNames);
  renderEnum(md, "SyncType", columnRef(Programs::table, Programs::syncType), kSyncTypeNames);
  renderEnum(md, "StreamDestination", columnRef(Programs::table, Programs::streamDestination),
             kStreamDestinationNames);
  renderEnum(md, "VariableAccess", columnRef(ProgramVariables::table, ProgramVariables::access),
             kVariableAccessNames);
  renderEnum(md, "ComputeInstrumentation", "meta " + std::string(meta::computeInstrumentation),
             kComputeInstrumentationNames);
  renderEnum(md, "ExternalExchangeInstrumentation",
             "meta " + std::string(meta::externalExchangeInstrumentation),
             kExternalExchangeInstrumentationNames);
  md += '\n';

  md += "### debug.cbor keys\n\n";
  renderKeys(md, "key", kCborKeys, std::size(kCborKeys));
  trimTrailingBlankLines(md);
  return md;
}

} // namespace tessera::profiler::schema
