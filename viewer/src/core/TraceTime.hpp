// Time on the Host trace page: the axis' tick step and labels ("0:00:01.250" with more digits as
// you zoom), relative to the trace start or as absolute wall-clock time. Pure functions.
#pragma once

#include <QString>
#include <cstdint>

namespace tessera::viewer {

/// A 1-2-5 step in nanoseconds, at least `minStepNs`.
double niceTimeStep(double minStepNs);

/// "H:MM:SS" plus as many decimals as `stepNs` needs (a 1 ms step: "0:00:01.250"); negative
/// times get a leading "-". Relative to the trace start.
QString formatTraceTime(double ns, double stepNs);

/// The wall-clock time of day of a trace time: `startUs` is the trace start in microseconds since
/// the Unix epoch; shown in local time as "HH:MM:SS" plus the decimals `stepNs` needs.
QString formatAbsoluteTraceTime(std::uint64_t startUs, double ns, double stepNs);

} // namespace tessera::viewer
