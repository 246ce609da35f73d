// Errors thrown by the engine. Every message names the object and the problem.
#pragma once

#include <poplar/ProfileValue.hpp>
#include <stdexcept>
#include <string>

namespace poplar {

/// Base of every error the engine reports.
struct poplar_error : std::runtime_error {
  explicit poplar_error(const std::string& what) : std::runtime_error(what) {}
};

#define TESSERA_POPLAR_ERROR(name)                                                                 \
  struct name : poplar_error {                                                                     \
    explicit name(const std::string& what) : poplar_error(what) {}                                 \
  }

TESSERA_POPLAR_ERROR(graph_connection_error);  ///< vertex fields and tensor connections
TESSERA_POPLAR_ERROR(invalid_tile_mapping);    ///< unmapped or out-of-range tile mappings
TESSERA_POPLAR_ERROR(unknown_vertex_type);     ///< addVertex with a type no codelet provides
TESSERA_POPLAR_ERROR(unknown_field);           ///< a field name the vertex type does not have
TESSERA_POPLAR_ERROR(type_error);              ///< element type mismatch
TESSERA_POPLAR_ERROR(index_error);             ///< out-of-range index, slice or shape mismatch
TESSERA_POPLAR_ERROR(invalid_option);          ///< unknown option or bad option value
TESSERA_POPLAR_ERROR(missing_perf_estimate);   ///< vertex without any cycle estimate
TESSERA_POPLAR_ERROR(no_size_specified);       ///< Vector field without setFieldSize
TESSERA_POPLAR_ERROR(stream_connection_error); ///< stream unknown, unconnected or misused
TESSERA_POPLAR_ERROR(tensor_io_state_error);   ///< host read/write handles misused
TESSERA_POPLAR_ERROR(invalid_machine_model);   ///< bad target or device description
TESSERA_POPLAR_ERROR(runtime_error);           ///< engine used in the wrong state
TESSERA_POPLAR_ERROR(graph_program_compilation_error); ///< program refers to invalid objects
TESSERA_POPLAR_ERROR(floating_point_exception);        ///< debug.floatPointOpException tripped
TESSERA_POPLAR_ERROR(profiling_error);                 ///< a report file could not be written

// The rest of Poplar's family, so that code catching them compiles. Tessera throws
// profiling_disabled (a profile asked of an engine that keeps none) and the ones above.
TESSERA_POPLAR_ERROR(graph_object_creation_error);
TESSERA_POPLAR_ERROR(graph_object_load_error);
TESSERA_POPLAR_ERROR(no_environment);
TESSERA_POPLAR_ERROR(control_program_error);
TESSERA_POPLAR_ERROR(graph_cycle_error);
TESSERA_POPLAR_ERROR(graph_recursion_error);
TESSERA_POPLAR_ERROR(graph_replication_error);
TESSERA_POPLAR_ERROR(profiling_disabled);
TESSERA_POPLAR_ERROR(missing_profile_data);
TESSERA_POPLAR_ERROR(missing_graph_profile);
TESSERA_POPLAR_ERROR(tensor_creation_error);
TESSERA_POPLAR_ERROR(tensor_metadata_error);
TESSERA_POPLAR_ERROR(overflow_error);
TESSERA_POPLAR_ERROR(memory_elem_constraints_error);
TESSERA_POPLAR_ERROR(stream_memory_allocation_error);
TESSERA_POPLAR_ERROR(link_error);
TESSERA_POPLAR_ERROR(symbol_error);
TESSERA_POPLAR_ERROR(file_load_error);
TESSERA_POPLAR_ERROR(parse_error);

TESSERA_POPLAR_ERROR(codelet_file_error); ///< codelet file missing, unreadable or not a codelet
TESSERA_POPLAR_ERROR(codelet_compilation_error); ///< a codelet source did not compile

#undef TESSERA_POPLAR_ERROR

/// The running program failed (a vertex, an index out of bounds). A runtime_error, as in Poplar.
struct application_runtime_error : runtime_error {
  explicit application_runtime_error(const std::string& what) : runtime_error(what) {}
};
/// Errors of the system under the program (hardware, driver); Tessera's simulation has none.
struct system_runtime_error : runtime_error {
  explicit system_runtime_error(const std::string& what) : runtime_error(what) {}
};
struct recoverable_runtime_error : system_runtime_error {
  explicit recoverable_runtime_error(const std::string& what) : system_runtime_error(what) {}
};
struct unrecoverable_runtime_error : system_runtime_error {
  explicit unrecoverable_runtime_error(const std::string& what) : system_runtime_error(what) {}
};
struct unknown_runtime_error : system_runtime_error {
  explicit unknown_runtime_error(const std::string& what) : system_runtime_error(what) {}
};

/// The graph does not fit in tile memory. profilePath names the report written before the
/// error (empty without one); graphProfile is the older SDKs' form of it (an empty map: read the
/// report with libpva, or print it with printGraphSummary(out, profilePath, options)).
struct graph_memory_allocation_error : poplar_error {
  explicit graph_memory_allocation_error(const std::string& what, std::string path = "")
      : poplar_error(what), profilePath(std::move(path)) {}
  std::string profilePath;
  ProfileValue graphProfile;
};

/// A vertex class in a codelet file has a field Tessera cannot connect (names class and field).
struct unsupported_vertex_field : codelet_compilation_error {
  explicit unsupported_vertex_field(const std::string& what) : codelet_compilation_error(what) {}
};
/// No host C++ compiler for codelet sources (Debian package clang-14).
struct missing_host_compiler : codelet_compilation_error {
  explicit missing_host_compiler(const std::string& what) : codelet_compilation_error(what) {}
};

} // namespace poplar
