#include "Bind.hpp"

namespace pvapy {

void bindErrors(py::module_& m) {
  auto base = py::register_exception<pva::Exception>(m, "Exception", PyExc_RuntimeError);
  py::register_exception<pva::FileNotFoundError>(m, "FileNotFoundError", base.ptr());
  py::register_exception<pva::InvalidReportError>(m, "InvalidReportError", base.ptr());
  py::register_exception<pva::UnsupportedVersionError>(m, "UnsupportedVersionError", base.ptr());
  py::register_exception<pva::DebugInfoMismatchError>(m, "DebugInfoMismatchError", base.ptr());
  py::register_exception<pva::InvalidArgumentError>(m, "InvalidArgumentError", base.ptr());
  py::register_exception<pva::CancelledError>(m, "CancelledError", base.ptr());
}

} // namespace pvapy
