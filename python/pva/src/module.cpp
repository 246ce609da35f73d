#include "Bind.hpp"

PYBIND11_MODULE(pva_core, m) {
  m.doc() =
      "Tessera's libpva: read profile reports (profile.pop, debug.cbor) and host traces (.pvti).";
  pvapy::bindErrors(m);
  pvapy::bindPrograms(m); // before the classes whose properties return programs
  pvapy::bindCompilation(m);
  pvapy::bindExecution(m);
  pvapy::bindDebug(m);
  pvapy::bindReport(m);
  pvapy::bindAnalysis(m);
  pvapy::bindInsights(m);
  pvapy::bindCompare(m);
  pvapy::bindTrace(m);
  pvapy::bindJob(m);
}
