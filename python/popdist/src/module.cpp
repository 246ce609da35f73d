// popdist_core: PopDist's job shape and backend from libpopdist (the same figures C++ programs
// read); the package's __init__.py re-exports them under the SDK's names.
#include <popdist/backend.hpp>
#include <popdist/context.hpp>
#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(popdist_core, m) {
  m.doc() = "PopDist: this instance's place in a poprun job";
  py::register_exception<popdist::popdist_error>(m, "PopdistError", PyExc_RuntimeError);
  m.def("isPopdistEnvSet", &popdist::isPopdistEnvSet);
  m.def("getInstanceIndex", &popdist::getInstanceIndex);
  m.def("getLocalInstanceIndex", &popdist::getLocalInstanceIndex);
  m.def("getNumInstances", &popdist::getNumInstances);
  m.def("getNumTotalReplicas", &popdist::getNumTotalReplicas);
  m.def("getNumLocalReplicas", &popdist::getNumLocalReplicas);
  m.def("getReplicaIndexOffset", &popdist::getReplicaIndexOffset);
  m.def("getNumIpusPerReplica", &popdist::getNumIpusPerReplica);
  m.def("checkNumIpusPerReplica", &popdist::checkNumIpusPerReplica, py::arg("ipusPerReplica"));
  m.def("getDeviceId", &popdist::getDeviceId, py::arg("ipusPerReplica") = 0);
  m.def("init", &popdist::init);
  m.def("initializeBackend", &popdist::initializeBackend);
  m.def("isBackendInitialized", &popdist::isBackendInitialized);
  m.def("finalizeBackend", &popdist::finalizeBackend);
}
