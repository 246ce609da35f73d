// The process-wide registry of vertex types. Types are grouped by codelet source (a file name
// for TESSERA_VERTEX lines, a library name such as "popops", or the key of a codelet file that
// Graph::addCodelets compiled); two sources may each define a vertex of the same name, and a
// graph uses the one from the source it added.
#include <atomic>
#include <map>
#include <mutex>
#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp>
#include <set>

namespace poplar::detail {
namespace {

struct Registry {
  std::mutex mutex;
  /// name -> (source -> type)
  std::map<std::string, std::map<std::string, std::unique_ptr<VertexTypeDescriptor>>> types;
  std::set<std::string> sources;
  std::atomic<std::uint64_t> generation{0};
};

Registry& registry() {
  static Registry r; // constructed on first use: registrations run during static initialisation
  return r;
}

} // namespace

std::string codeletSourceName(const char* fileOrName) {
  std::string s = fileOrName ? fileOrName : "";
  const auto slash = s.find_last_of("/\\");
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

void registerVertexType(VertexTypeDescriptor d) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (std::size_t i = 0; i < d.fields.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (d.fields[i].name == d.fields[j].name)
        throw poplar_error("vertex type '" + d.name + "' lists field '" + d.fields[i].name +
                           "' twice");
  auto& bySource = r.types[d.name];
  if (bySource.count(d.codeletSource))
    throw poplar_error("vertex type '" + d.name + "' is registered twice in '" + d.codeletSource +
                       "'");
  r.sources.insert(d.codeletSource);
  auto source = d.codeletSource;
  bySource.emplace(std::move(source), std::make_unique<VertexTypeDescriptor>(std::move(d)));
  r.generation.fetch_add(1, std::memory_order_release);
}

std::uint64_t vertexRegistryGeneration() {
  return registry().generation.load(std::memory_order_acquire);
}

std::vector<const VertexTypeDescriptor*> findVertexTypes(const std::string& name) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<const VertexTypeDescriptor*> found;
  auto it = r.types.find(name);
  if (it != r.types.end())
    for (const auto& [source, type] : it->second)
      found.push_back(type.get());
  return found;
}

bool isCodeletSourceRegistered(const std::string& source) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.sources.count(codeletSourceName(source.c_str())) != 0;
}

} // namespace poplar::detail
