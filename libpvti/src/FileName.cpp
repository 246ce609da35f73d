#include "FileName.hpp"

#include <profiler/TraceSchema.hpp>

namespace pvti::detail {

std::string traceFileName(std::time_t when, long pid) {
  std::tm local{};
  localtime_r(&when, &local);
  // %a and %b are locale-dependent; the process has the "C" locale unless it called setlocale,
  // and PopVision's names are English, so spell them ourselves.
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char rest[64];
  std::strftime(rest, sizeof rest, "%d_%H:%M:%S_%Y_%Z", &local);
  std::string name =
      std::string(kDays[local.tm_wday % 7]) + "_" + kMonths[local.tm_mon % 12] + "_" + rest;
  // A zone without an abbreviation would leave an empty field.
  if (!name.empty() && name.back() == '_') name += "UTC";
  return name + "_" + std::to_string(pid) +
         std::string(tessera::profiler::schema::trace::kTraceFileExtension);
}

} // namespace pvti::detail
