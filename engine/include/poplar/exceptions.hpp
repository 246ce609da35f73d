// Errors thrown by the engine. Every message names the object and the problem.
#pragma once

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
TESSERA_POPLAR_ERROR(application_runtime_error); ///< the running program failed (vertex, bounds)
TESSERA_POPLAR_ERROR(floating_point_exception);  ///< debug.floatPointOpException tripped
TESSERA_POPLAR_ERROR(graph_memory_allocation_error); ///< the graph does not fit in tile memory
TESSERA_POPLAR_ERROR(profiling_error);               ///< a report file could not be written

TESSERA_POPLAR_ERROR(codelet_file_error); ///< codelet file missing, unreadable or not a codelet
TESSERA_POPLAR_ERROR(codelet_compilation_error); ///< a codelet source did not compile

#undef TESSERA_POPLAR_ERROR

/// A vertex class in a codelet file has a field Tessera cannot connect (names class and field).
struct unsupported_vertex_field : codelet_compilation_error {
  explicit unsupported_vertex_field(const std::string& what) : codelet_compilation_error(what) {}
};
/// No host C++ compiler for codelet sources (Debian package clang-14).
struct missing_host_compiler : codelet_compilation_error {
  explicit missing_host_compiler(const std::string& what) : codelet_compilation_error(what) {}
};

} // namespace poplar
