// Numbers as people read them: thousands separators, binary byte units, percentages, signed
// deltas. Only the human-readable (table/text) outputs use these; CSV and JSON keep raw numbers.
#pragma once

#include <cstdint>
#include <string>

namespace pvacli {

/// 1234567 -> "1,234,567".
std::string withCommas(std::uint64_t n);
/// -1234 -> "-1,234", 1234 -> "+1,234".
std::string signedWithCommas(std::int64_t n);
/// 11764736 -> "11.22 MiB" (B, KiB, MiB, GiB; two decimals above bytes).
std::string bytes(std::uint64_t n);
/// The same for a change: "+1.50 KiB", "-12 B".
std::string signedBytes(std::int64_t n);
/// 0.0213 -> "+2.13%"; infinity (the base was 0) -> "from 0".
std::string signedPercent(double fraction);
/// part/whole as "12.3%" ("-" when whole is 0).
std::string percentOf(std::uint64_t part, std::uint64_t whole);
/// Cycles at a clock in Hz as a duration: "6.707 ms".
std::string cyclesAsTime(std::uint64_t cycles, double clockHz);
/// Microseconds as "12.345 ms", "1.234 s" or "87 us".
std::string microseconds(double us);

} // namespace pvacli
