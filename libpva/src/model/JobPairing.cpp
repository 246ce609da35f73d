// pairJobInstances: which instances of two jobs are compared with which (instance i with i).
#include <pva/Exception.hpp>
#include <pva/Job.hpp>

namespace pva {

namespace {

/// "instance 2" or "instances 2-3".
std::string instances(unsigned first, unsigned last) {
  return first == last ? "instance " + std::to_string(first)
                       : "instances " + std::to_string(first) + "-" + std::to_string(last);
}

std::string count(unsigned n) {
  return std::to_string(n) + (n == 1 ? " instance" : " instances");
}

} // namespace

std::string JobPairing::mismatch() const {
  if (sameShape()) return {};
  const bool currentLarger = currentInstances > baseInstances;
  const unsigned larger = currentLarger ? currentInstances : baseInstances;
  return "the base job has " + count(baseInstances) + " and the current job " +
         count(currentInstances) + ": " +
         (paired() == 1 ? "instance 0 is" : instances(0, paired() - 1) + " are") + " compared, " +
         instances(paired(), larger - 1) + " of the " + (currentLarger ? "current" : "base") +
         " job " + (larger - paired() == 1 ? "has" : "have") + " no counterpart";
}

JobPairing pairJobInstances(unsigned baseInstances, unsigned currentInstances) {
  if (baseInstances == 0 || currentInstances == 0)
    throw InvalidArgumentError("pairJobInstances: a job has at least one instance (base " +
                               std::to_string(baseInstances) + ", current " +
                               std::to_string(currentInstances) + ")");
  JobPairing p;
  p.baseInstances = baseInstances;
  p.currentInstances = currentInstances;
  return p;
}

JobPairing pairJobs(const Job& base, const Job& current) {
  return pairJobInstances(static_cast<unsigned>(base.instances().size()),
                          static_cast<unsigned>(current.instances().size()));
}

} // namespace pva
