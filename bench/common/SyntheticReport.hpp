// The report a viewer benchmark measures: the user's, or bench_pva_reader's synthetic one
// (16 IPUs x 1,472 tiles), written once and reused with --keep.
#pragma once

#include <string>

namespace tessera::bench {

/// `report` when given; otherwise `file`, which bench_pva_reader (at `pvaReader`) first writes
/// with `steps` steps unless `keep` is set and it exists. Returns "" after printing why on
/// stderr, prefixed by `bench`, when bench_pva_reader fails.
std::string reportToMeasure(const std::string& report, const std::string& file, bool keep,
                            unsigned long long steps, const char* bench, const char* pvaReader);

} // namespace tessera::bench
