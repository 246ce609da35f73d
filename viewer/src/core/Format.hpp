// How numbers read in the viewer: bytes in the user's chosen units, counts and cycles with
// thousands separators. Pure functions, the same on every page, tested without widgets.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace tessera::viewer {

/// The memory-unit preference: raw bytes, binary (KiB, MiB) or SI (kB, MB).
enum class MemoryUnits { Bytes, Binary, Decimal };

/// "1,234 B", "1.21 KiB" or "1.23 kB". Values below one unit step are always shown in bytes.
QString formatBytes(std::uint64_t bytes, MemoryUnits units);
/// A signed difference in bytes: "+1.5 KiB", "-12 B", "0 B".
QString formatBytesDelta(std::int64_t bytes, MemoryUnits units);
/// "1,234,567".
QString formatCount(std::uint64_t n);
/// A FLOP estimate: "—" when there is none (the report has no FLOP estimates); "≥ 1,234" when
/// some vertices (user codelets) have no estimate, so the true count is at least that.
QString formatFlops(const std::optional<std::uint64_t>& flops,
                    std::uint64_t verticesWithoutEstimate);
/// "+1,234" / "-1,234" / "0".
QString formatCountDelta(std::int64_t n);
/// "12.3 %" (fraction 0.123); "-" for NaN.
QString formatPercent(double fraction, int decimals = 1);
/// Cycles compact for axis labels: "950", "12.5 k", "3.20 M", "1.10 G".
QString formatCyclesShort(double cycles);
/// Microseconds for a time axis or a duration: "850 ns", "12.3 µs", "4.56 ms", "1.23 s".
QString formatDurationNs(double nanoseconds);

/// Parses "bytes", "binary"/"kib", "decimal"/"si"/"kb"; returns false when unknown.
bool parseMemoryUnits(const QString& text, MemoryUnits* out);
QString memoryUnitsName(MemoryUnits units);

} // namespace tessera::viewer
