// What the driver records in each scenario, shared with the tests that check the read-back.
#pragma once

namespace scenario {

inline constexpr int kOuterLoops = 3;    ///< "basic": top-level events on the main thread
inline constexpr int kWorkers = 3;       ///< "basic": worker threads
inline constexpr int kWorkerSpans = 100; ///< "basic": top-level events per worker
inline constexpr const char* kChannel = "Test";
inline constexpr const char* kMetadataJson = R"({"batch":7,"phase":"train"})";
inline constexpr int kCrashEvents = 50;     ///< "crash": events recorded before "ready"
inline constexpr int kDiskFullRounds = 100; ///< "diskfull": flushes...
inline constexpr int kDiskFullEventsPerRound =
    500; ///< ...of this many distinct labels each (~2 MB of labels)
inline constexpr int kLoadGroup = 10;
inline constexpr int kSoakGroups = 2000; ///< "soak": groups of kLoadGroup spans per thread ///<
                                         ///< "load": spans per top-level group (1 outer + 9 inner)

} // namespace scenario
