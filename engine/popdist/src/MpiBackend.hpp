// The Open MPI backend: MPI's lifetime in this process and the transport the engine's
// collectives use between instances. Private to libpopdist.
#pragma once

#include <mpi.h>
#include <string>

namespace popdist::detail {

/// MPI initialized (once, thread level SERIALIZED: the engine's replica threads take turns) and
/// the engine's transport installed. Throws popdist_error when MPI cannot start.
void ensureBackend();
/// Throws popdist_error naming `call` when an MPI call failed.
void check(int rc, const char* call);
/// "Open MPI v4.1.4": the library MPI reports.
std::string mpiVersion();

} // namespace popdist::detail
