// pva::openSerializedGraph and where a report's serialized graph lives; the decoding is in
// storage/SerializedGraphFile.
#include "../FromMemory.hpp"
#include "../storage/SerializedGraphFile.hpp"

#include <filesystem>
#include <profiler/Schema.hpp>
#include <pva/Report.hpp>
#include <pva/SerializedGraph.hpp>

namespace pva {

SerializedGraph openSerializedGraph(const std::string& path, SerializedGraphDetail detail) {
  storage::Source source;
  source.path = path;
  return storage::readSerializedGraph(source, detail);
}

namespace detail {

SerializedGraph openSerializedGraphImage(const std::string& name, std::string_view bytes,
                                         SerializedGraphDetail detail) {
  const storage::FileImage image{bytes};
  return storage::readSerializedGraph(storage::Source{name, &image}, detail);
}

} // namespace detail

std::string serializedGraphPath(const Report& report) {
  namespace S = tessera::profiler::schema;
  const std::filesystem::path dir = std::filesystem::path(report.profilePath()).parent_path();
  return (dir / std::string(S::kSerializedGraphFileName)).string();
}

bool hasSerializedGraph(const Report& report) {
  std::error_code ec;
  return std::filesystem::is_regular_file(serializedGraphPath(report), ec);
}

} // namespace pva
