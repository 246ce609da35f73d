# .pvti reading (issue 5), included by libpva/CMakeLists.txt. TraceLoader.cpp is the only file
# here with SQL; it builds its queries from profiler's TraceSchema.hpp.
list(APPEND PVA_TRACE_SOURCES
  src/trace/ChromeExport.cpp
  src/trace/EventReplay.cpp
  src/trace/Trace.cpp
  src/trace/TraceLoader.cpp)
