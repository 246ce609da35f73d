// Trace file names: ctime-style local time, time zone and process id, as PopVision names them,
// e.g. Thu_Aug_27_09:46:55_2020_BST_2341.pvti.
#pragma once

#include <ctime>
#include <string>

namespace pvti::detail {

/// <Www>_<Mmm>_<DD>_<HH:MM:SS>_<YYYY>_<TZ>_<pid>.pvti; the day is zero-padded (ctime pads it with
/// a space, which would make a double underscore).
std::string traceFileName(std::time_t when, long pid);

} // namespace pvti::detail
