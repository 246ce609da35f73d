// Forward declarations shared by libpva's public headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pva {

namespace detail {
struct ReportState; ///< the open report: storage and lazily loaded caches (private)
struct Access;      ///< builds public objects from private state (private)
struct StepBytes;   ///< a chunk of execution steps as read from the report (private)
} // namespace detail

class Program;
class ComputeSet;
class Variable;
class DebugContext;
using ProgramPtr = std::shared_ptr<const Program>;

} // namespace pva
