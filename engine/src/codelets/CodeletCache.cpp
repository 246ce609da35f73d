#include "CodeletCache.hpp"

#include "Hash.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <poplar/exceptions.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace poplar::detail::codelets {
namespace {

struct Deps {
  std::vector<std::string> content, stat;
};

std::optional<Deps> readDeps(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  Deps d;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("content ", 0) == 0)
      d.content.push_back(line.substr(8));
    else if (line.rfind("stat ", 0) == 0)
      d.stat.push_back(line.substr(5));
  }
  return d;
}

/// K2: the lookup key plus the current state of every dependency; nullopt if one is gone.
std::optional<std::string> entryKey(const std::string& lookupKey, const Deps& d) {
  Hasher h;
  h.add(lookupKey);
  for (const auto& path : d.content) {
    h.add(path);
    if (!h.addFile(path)) return std::nullopt;
  }
  for (const auto& path : d.stat) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    const long long facts[3] = {static_cast<long long>(st.st_size),
                                static_cast<long long>(st.st_mtim.tv_sec),
                                static_cast<long long>(st.st_mtim.tv_nsec)};
    h.add(path).add(facts, sizeof facts);
  }
  return h.hex();
}

/// Writes `text` to `path` atomically (private name, then rename).
void writeAtomically(const std::string& path, const std::string& text) {
  static std::atomic<unsigned> counter{0};
  const std::string tmp =
      path + ".tmp" + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp);
    out << text;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
}

} // namespace

CodeletCache::CodeletCache(std::string directory) : dir_(std::move(directory)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw poplar::codelet_file_error("cannot create the codelet cache directory '" + dir_ + "' (" +
                                     ec.message() +
                                     "); set TESSERA_CODELET_CACHE to a writable directory");
}

std::optional<std::string> CodeletCache::find(const std::string& lookupKey) const {
  const auto deps = readDeps(dir_ + "/" + lookupKey + ".deps");
  if (!deps) return std::nullopt;
  const auto key = entryKey(lookupKey, *deps);
  if (!key) return std::nullopt;
  const std::string entry = dir_ + "/" + *key + ".gp";
  std::error_code ec;
  if (!fs::is_regular_file(entry, ec)) return std::nullopt;
  return entry;
}

std::string CodeletCache::temporaryPath(const std::string& lookupKey) const {
  static std::atomic<unsigned> counter{0};
  return dir_ + "/building-" + lookupKey + "-" + std::to_string(getpid()) + "-" +
         std::to_string(counter++) + ".gp";
}

std::string CodeletCache::publish(const std::string& lookupKey, const std::string& builtPath,
                                  const std::vector<std::string>& contentDeps,
                                  const std::vector<std::string>& statDeps) const {
  const Deps d{contentDeps, statDeps};
  const auto key = entryKey(lookupKey, d);
  std::error_code ec;
  if (!key) { // a dependency vanished while compiling: use the result once, cache nothing
    return builtPath;
  }
  const std::string entry = dir_ + "/" + *key + ".gp";
  fs::rename(builtPath, entry, ec);
  if (ec) {
    fs::remove(builtPath, ec);
    throw poplar::codelet_file_error("cannot write the codelet cache entry '" + entry + "'");
  }
  std::string text;
  for (const auto& p : contentDeps)
    text += "content " + p + "\n";
  for (const auto& p : statDeps)
    text += "stat " + p + "\n";
  writeAtomically(dir_ + "/" + lookupKey + ".deps", text);
  return entry;
}

} // namespace poplar::detail::codelets
