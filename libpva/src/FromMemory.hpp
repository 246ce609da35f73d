// libpva's readers over bytes in memory instead of files: for the fuzz targets (fuzz/), which
// must run thousands of inputs a second and never touch the disk. Internal, not installed: the
// public API opens files only. The bytes go through the same code as a file's (storage/OpenFile),
// and `name` stands for the file in messages and in Report::profilePath/Trace::path.
#pragma once

#include <pva/Report.hpp>
#include <pva/SerializedGraph.hpp>
#include <pva/Trace.hpp>
#include <string>
#include <string_view>

namespace pva::detail {

/// pva::openReport over images of profile.pop and (when debugName is set) debug.cbor. The bytes
/// must outlive the report.
Report openReportImage(const std::string& profileName, std::string_view profile,
                       const std::string* debugName = nullptr, std::string_view debug = {});

/// pva::openTrace over the image of a .pvti (copied in openTrace's load; need not outlive it).
Trace openTraceImage(const std::string& name, std::string_view bytes);

/// pva::openSerializedGraph over the image of a serialized_graph.capnp (copied into word-aligned
/// memory; need not outlive the call).
SerializedGraph
openSerializedGraphImage(const std::string& name, std::string_view bytes,
                         SerializedGraphDetail detail = SerializedGraphDetail::Vertices);

} // namespace pva::detail
