// A compiled graph and its programs, ready to run: what poplar::compileGraph returns and an
// Engine is built from. It can be saved to a stream and loaded in another process.
#pragma once

#include <iosfwd>
#include <memory>

namespace poplar {

namespace core {
class Executable;
} // namespace core

class Engine;

/// Everything an Engine needs to run the programs it was compiled from. Move-only.
class Executable {
public:
  Executable();
  ~Executable();
  Executable(Executable&& other) noexcept;
  Executable& operator=(Executable&& other) noexcept;

  /// Writes the executable to a stream: the compiled graph (variables, tile mapping, vertices
  /// with their fields and initial values, programs, streams, debug information) and the codelet
  /// objects its vertices come from. Tessera's format is versioned and checksummed; it is not
  /// interchangeable with the Poplar SDK's.
  void serialize(std::ostream& out) const;

  /// Loads an executable written by serialize(). A stream that is empty, truncated, corrupted,
  /// not an executable, or written by another version of Tessera throws poplar_error naming
  /// the problem. checkPackageHash = false accepts an executable from another Tessera release
  /// of the same format version.
  static Executable deserialize(std::istream& in, bool checkPackageHash = true);
  static Executable deserialize(std::unique_ptr<std::istream> in, bool checkPackageHash = true);

  explicit Executable(std::unique_ptr<core::Executable> impl);
  const core::Executable& getImpl() const { return *impl; }

private:
  std::unique_ptr<core::Executable> impl;
  friend class Engine;
};

} // namespace poplar
