#include "MpiBackend.hpp"

#include "runtime/Instances.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <popdist/backend.hpp>
#include <popdist/context.hpp>
#include <string>
#include <vector>

namespace popdist::detail {
namespace {

std::mutex mutex;
bool initializedHere = false; // this library called MPI_Init_thread (so it finalizes)

/// MPI_Allgather counts are ints: larger buffers go through in slices.
constexpr std::size_t kSlice = std::size_t(1) << 30;

class MpiTransport : public poplar::detail::runtime::InstanceTransport {
public:
  void allGather(const void* local, std::size_t bytes, void* all) override {
    int size = 1;
    check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    if (bytes <= kSlice) {
      check(MPI_Allgather(local, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes),
                          MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Allgather");
      return;
    }
    std::vector<unsigned char> slice(kSlice * std::size_t(size));
    for (std::size_t at = 0; at < bytes; at += kSlice) {
      const std::size_t n = std::min(kSlice, bytes - at);
      check(MPI_Allgather(static_cast<const unsigned char*>(local) + at, static_cast<int>(n),
                          MPI_BYTE, slice.data(), static_cast<int>(n), MPI_BYTE, MPI_COMM_WORLD),
            "MPI_Allgather");
      for (int i = 0; i < size; ++i)
        std::memcpy(static_cast<unsigned char*>(all) + std::size_t(i) * bytes + at,
                    slice.data() + std::size_t(i) * n, n);
    }
  }
  void allToAll(const void* send, const std::vector<std::size_t>& sendBytes, void* recv,
                const std::vector<std::size_t>& recvBytes) override {
    std::vector<int> sendCounts, sendAt, recvCounts, recvAt;
    counts(sendBytes, sendCounts, sendAt);
    counts(recvBytes, recvCounts, recvAt);
    check(MPI_Alltoallv(send, sendCounts.data(), sendAt.data(), MPI_BYTE, recv, recvCounts.data(),
                        recvAt.data(), MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
  }
  void allGather(const void* local, const std::vector<std::size_t>& bytes, void* all) override {
    int rank = 0;
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    std::vector<int> recvCounts, recvAt;
    counts(bytes, recvCounts, recvAt);
    check(MPI_Allgatherv(local, recvCounts[std::size_t(rank)], MPI_BYTE, all, recvCounts.data(),
                         recvAt.data(), MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Allgatherv");
  }
  std::string name() const override { return mpiVersion(); }

private:
  /// MPI's counts and displacements of the v-collectives are ints (the engine calls them only
  /// for buffers below 1 GiB).
  static void counts(const std::vector<std::size_t>& bytes, std::vector<int>& n,
                     std::vector<int>& at) {
    std::size_t total = 0;
    for (std::size_t b : bytes) {
      if (total + b > std::size_t(std::numeric_limits<int>::max()))
        throw popdist_error("popdist: a collective's buffer of " + std::to_string(total + b) +
                            " bytes is too large for MPI's "
                            "int counts");
      n.push_back(static_cast<int>(b));
      at.push_back(static_cast<int>(total));
      total += b;
    }
  }
};

void finalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

} // namespace

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw popdist_error(std::string("popdist: ") + call + " failed: " + std::string(text, length));
}

std::string mpiVersion() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string v(text, length);
  return v.substr(0, v.find(','));
}

void ensureBackend() {
  std::lock_guard<std::mutex> lock(mutex);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    throw popdist_error("popdist: the backend was finalized (popdist::finalizeBackend) and MPI "
                        "cannot start again in this process");
  if (!initialized) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    if (provided < MPI_THREAD_SERIALIZED)
      throw popdist_error("popdist: MPI provides thread level " + std::to_string(provided) +
                          "; the engine's replica threads need MPI_THREAD_SERIALIZED");
    initializedHere = true;
    std::atexit(finalizeAtExit);
  }
  // Errors come back as codes, turned into popdist_error naming the call.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (unsigned(size) != getNumInstances())
    throw popdist_error("popdist: MPI_COMM_WORLD has " + std::to_string(size) +
                        " processes but POPDIST_NUM_INSTANCES says " +
                        std::to_string(getNumInstances()) +
                        " instances: start the job with poprun, not mpirun");
  if (!poplar::detail::runtime::instanceTransport())
    poplar::detail::runtime::setInstanceTransport(std::make_shared<MpiTransport>());
}

} // namespace popdist::detail

namespace popdist {

void registerDefaultBackend() {}

void registerBackend(const std::string& filePathBackend) {
  throw popdist_error("popdist::registerBackend('" + filePathBackend +
                      "'): Tessera has only the default Open MPI backend "
                      "(popdist::registerDefaultBackend)");
}

void initializeBackend() {
  detail::ensureBackend();
}

bool isBackendInitialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized && poplar::detail::runtime::instanceTransport();
}

void finalizeBackend() {
  poplar::detail::runtime::setInstanceTransport(nullptr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) detail::check(MPI_Finalize(), "MPI_Finalize");
}

void init() {
  if (isPopdistEnvSet() && getNumInstances() > 1) initializeBackend();
}

} // namespace popdist
