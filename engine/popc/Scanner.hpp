// Finds the vertex classes of a codelet file with libclang (a real C++ front end): classes and
// explicit template instantiations derived from poplar::Vertex, SupervisorVertex or
// MultiVertex, with their fields, and the files the source includes.
#pragma once

#include <string>
#include <vector>

namespace popc {

struct ScannedField {
  std::string name;
  std::string declaringClass; ///< C++ spelling of the class that declares it (may be a base)
  bool isPublic = true; ///< private and protected fields are bound without naming them publicly
};

struct ScannedVertex {
  std::string vertexName; ///< the name addVertex uses: "ns::Sum", "Scale<float>"
  std::string cppType;    ///< a C++ spelling of the class, usable in generated code
  std::vector<ScannedField> fields;
  /// A default constructor declared and never defined in the file: popc accepts it (the IPU never
  /// constructs a vertex), so Tessera builds such a vertex without calling it.
  bool constructorUndefined = false;
};

struct ScanResult {
  std::vector<ScannedVertex> vertices;
  std::vector<std::string> contentDeps;  ///< the source and the non-system headers it includes
  std::vector<std::string> statDeps;     ///< system headers
  std::vector<std::string> errors;       ///< compiler diagnostics "file:line:col: error: ..."
  std::vector<std::string> vertexErrors; ///< vertex classes Tessera cannot use (field types ...)
};

/// Parses `source` with the compiler arguments `args` (-I, -D, -std ...).
ScanResult scanCodelets(const std::string& source, const std::vector<std::string>& args);

} // namespace popc
