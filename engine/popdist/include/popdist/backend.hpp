// PopDist's backend: what moves data between the instances of a job. Tessera's only backend is
// Open MPI (MPI_COMM_WORLD of the processes mpirun started for poprun). Initializing it also
// lets the engine's gcl collectives span the replicas of every instance.
#pragma once

#include <string>

namespace popdist {

/// Selects the default (Open MPI) backend. Tessera has no other: a no-op kept for the SDK's API.
void registerDefaultBackend();
/// Only the default backend exists: any other path is a popdist_error naming it.
void registerBackend(const std::string& filePathBackend);
/// Initializes MPI (once; later calls do nothing) and connects the engine's collectives to it.
void initializeBackend();
bool isBackendInitialized();
/// Finalizes MPI (done at exit when the program does not call it).
void finalizeBackend();
/// initializeBackend() when running under poprun with more than one instance; else nothing.
void init();

} // namespace popdist
