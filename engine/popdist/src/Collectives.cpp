#include "MpiBackend.hpp"

#include <climits>
#include <popdist/collectives.hpp>
#include <popdist/context.hpp>

namespace popdist::collectives {

void broadcast(void* data, std::size_t numElements, const poplar::Type& type, int rootRank,
               const std::string& name) {
  const std::string what =
      "popdist::collectives::broadcast" + (name.empty() ? "" : "('" + name + "')");
  if (rootRank < 0 || unsigned(rootRank) >= getNumInstances())
    throw popdist_error(what + ": root instance " + std::to_string(rootRank) +
                        " is not one of the job's " + std::to_string(getNumInstances()));
  if (getNumInstances() == 1) return;
  detail::ensureBackend();
  const std::size_t bytes = numElements * type.size();
  if (bytes > std::size_t(INT_MAX))
    throw popdist_error(what + ": " + std::to_string(bytes) + " bytes is over MPI's 2 GiB limit");
  detail::check(MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, rootRank, MPI_COMM_WORLD),
                "MPI_Bcast");
}

void synchronize() {
  if (getNumInstances() == 1) return;
  detail::ensureBackend();
  detail::check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

namespace sequential {
void broadcast(void* data, std::size_t numElements, const poplar::Type& type) {
  collectives::broadcast(data, numElements, type, 0, "");
}
} // namespace sequential

} // namespace popdist::collectives
