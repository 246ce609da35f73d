// openReport and the Report's own accessors (identity, versions, options).
#include "../FromMemory.hpp"
#include "Access.hpp"

#include <cstdio>
#include <profiler/Schema.hpp>

namespace pva {

namespace S = tessera::profiler::schema;
using detail::Access;
using detail::ReportState;

namespace {

const std::string& metaValue(const ReportState& s, std::string_view key) {
  static const std::string empty;
  auto it = s.store.meta().find(std::string(key));
  return it == s.store.meta().end() ? empty : it->second;
}

void parseVersion(const std::string& text, unsigned& major, unsigned& minor, unsigned& point) {
  major = minor = point = 0;
  std::sscanf(text.c_str(), "%u.%u.%u", &major, &minor, &point);
}

} // namespace

std::string PoplarVersion::string() const {
  return std::to_string(major_) + "." + std::to_string(minor_) + "." + std::to_string(point_) +
         " (" + hash_ + ")";
}

std::string ProfileReportVersion::string() const {
  return std::to_string(major_) + "." + std::to_string(minor_) + "." + std::to_string(point_);
}

ProfileReportVersion supportedFormatVersion() {
  return detail::Access::formatVersion(S::kProfileFormatVersion.major,
                                       S::kProfileFormatVersion.minor,
                                       S::kProfileFormatVersion.point);
}

Report openReport(const std::string& profilePath) {
  return Access::report(std::make_shared<ReportState>(storage::Source{profilePath}, nullptr));
}

Report openReport(const std::string& profilePath, const std::string& debugPath) {
  const storage::Source debug{debugPath};
  return Access::report(std::make_shared<ReportState>(storage::Source{profilePath}, &debug));
}

namespace detail {

Report openReportImage(const std::string& profileName, std::string_view profile,
                       const std::string* debugName, std::string_view debug) {
  const storage::FileImage profileImage{profile}, debugImage{debug};
  const storage::Source debugSource{debugName ? *debugName : std::string(), &debugImage};
  return Access::report(std::make_shared<ReportState>(storage::Source{profileName, &profileImage},
                                                      debugName ? &debugSource : nullptr));
}

} // namespace detail

CompilationReport Report::compilation() const {
  return Access::compilation(s_);
}
ExecutionReport Report::execution() const {
  return Access::execution(s_);
}

PoplarVersion Report::poplarVersion() const {
  unsigned a, b, c;
  parseVersion(metaValue(*s_, S::meta::toolVersion), a, b, c);
  return Access::poplarVersion(a, b, c, metaValue(*s_, S::meta::packageHash));
}

ProfileReportVersion Report::version() const {
  unsigned a, b, c;
  parseVersion(metaValue(*s_, S::meta::formatVersion), a, b, c);
  return Access::formatVersion(a, b, c);
}

InstrumentationSettings Report::instrumentationSettings() const {
  return Access::instrumentation(metaValue(*s_, S::meta::computeInstrumentation),
                                 metaValue(*s_, S::meta::externalExchangeInstrumentation));
}

std::string Report::timestamp() const {
  return metaValue(*s_, S::meta::createdAt);
}

std::int64_t Report::timestampMicroseconds() const {
  const std::string& v = metaValue(*s_, S::meta::createdAtUnixUs);
  return v.empty() ? 0 : std::strtoll(v.c_str(), nullptr, 10);
}

std::map<std::string, std::string> Report::engineOptions() const {
  return s_->store.engineOptions();
}
bool Report::outOfMemory() const {
  return metaValue(*s_, S::meta::outOfMemory) == "true";
}
bool Report::hasFlopEstimates() const {
  return s_->store.hasFlopEstimates();
}
JobPlacement Report::jobPlacement() const {
  const auto row = s_->store.jobPlacement();
  JobPlacement p;
  p.instanceIndex = row.instanceIndex;
  p.numInstances = row.numInstances;
  p.replicaOffset = row.replicaOffset;
  p.totalReplicas = row.totalReplicas ? row.totalReplicas : compilation().target().numReplicas();
  return p;
}
bool Report::hasFlopEstimatesByTile() const {
  return s_->store.hasFlopEstimatesByTile();
}
const std::string& Report::profilePath() const {
  return s_->store.path();
}
const std::string& Report::debugPath() const {
  return s_->debugPath;
}
bool Report::hasDebugInfo() const {
  return s_->hasDebug;
}

} // namespace pva
