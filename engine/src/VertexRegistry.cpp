#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp>

#include <map>
#include <mutex>
#include <set>

namespace poplar::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<VertexTypeDescriptor>> types;
  std::set<std::string> sources;
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
        throw poplar_error("vertex type '" + d.name + "' lists field '" + d.fields[i].name + "' twice");
  if (r.types.count(d.name))
    throw poplar_error("vertex type '" + d.name + "' is registered twice (in '" +
                       r.types[d.name]->codeletSource + "' and '" + d.codeletSource + "')");
  r.sources.insert(d.codeletSource);
  auto name = d.name;
  r.types.emplace(std::move(name), std::make_unique<VertexTypeDescriptor>(std::move(d)));
}

const VertexTypeDescriptor* findVertexType(const std::string& name) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.types.find(name);
  return it == r.types.end() ? nullptr : it->second.get();
}

bool isCodeletSourceRegistered(const std::string& source) {
  auto& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.sources.count(codeletSourceName(source.c_str())) != 0;
}

} // namespace poplar::detail
