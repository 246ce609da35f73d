// The per-user cache of compiled codelets. A lookup key (K1) covers what is known before
// compiling: Tessera's version, popc, the compiler choice, the flags, the source's path and
// bytes. <K1>.deps lists the files the last compile read; the entry <K2>.gp is named by K1 plus
// those files' bytes (system headers: size and time), so an edited header gives a new entry,
// never a stale hit. Entries are written to a private name and renamed: concurrent processes
// share the cache safely and a reader never sees half a file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace poplar::detail::codelets {

class CodeletCache {
public:
  /// Creates the directory if needed; throws poplar::codelet_file_error if it cannot.
  explicit CodeletCache(std::string directory);
  const std::string& directory() const { return dir_; }

  /// The entry a previous compile made for this lookup key, if its dependencies are unchanged.
  std::optional<std::string> find(const std::string& lookupKey) const;
  /// A private path to compile into (then publish it).
  std::string temporaryPath(const std::string& lookupKey) const;
  /// Moves a freshly built .gp (with its dependency list) into place; returns its entry path.
  std::string publish(const std::string& lookupKey, const std::string& builtPath,
                      const std::vector<std::string>& contentDeps,
                      const std::vector<std::string>& statDeps) const;

private:
  std::string dir_;
};

} // namespace poplar::detail::codelets
