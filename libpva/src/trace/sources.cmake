# .pvti reading (issue 5), included by libpva/CMakeLists.txt. No file here has SQL:
# TraceLoader.cpp builds the object model from the rows storage/TraceStore.cpp reads.
list(APPEND PVA_TRACE_SOURCES
  src/trace/ChromeExport.cpp
  src/trace/EventReplay.cpp
  src/trace/Trace.cpp
  src/trace/TraceAlignment.cpp
  src/trace/TraceLoader.cpp)
