#include "Bind.hpp"

namespace pvapy {
namespace {

/// Lets Python subclasses of pva.ProgramVisitor override any visit method.
class PyProgramVisitor : public pva::ProgramVisitor {
public:
#define PVA_PY_VISIT(TYPE)                                                                         \
  void visit##TYPE(const pva::TYPE##Program& p) override {                                         \
    PYBIND11_OVERRIDE(void, pva::ProgramVisitor, visit##TYPE, p);                                  \
  }
  PVA_PY_VISIT(Sequence)
  PVA_PY_VISIT(Repeat)
  PVA_PY_VISIT(RepeatWhileTrue)
  PVA_PY_VISIT(RepeatWhileFalse)
  PVA_PY_VISIT(If)
  PVA_PY_VISIT(Switch)
  PVA_PY_VISIT(Call)
  PVA_PY_VISIT(OnEveryTileSwitch)
  PVA_PY_VISIT(OnTileExecute)
  PVA_PY_VISIT(DoExchange)
  PVA_PY_VISIT(GlobalExchange)
  PVA_PY_VISIT(StreamCopyBegin)
  PVA_PY_VISIT(StreamCopyMid)
  PVA_PY_VISIT(StreamCopyEnd)
  PVA_PY_VISIT(Sync)
  PVA_PY_VISIT(WriteUndef)
  PVA_PY_VISIT(Block)
  PVA_PY_VISIT(Abort)
#undef PVA_PY_VISIT
};

} // namespace

void bindPrograms(py::module_& m) {
  py::class_<pva::ProgramVariable> var(m, "ProgramVariable",
                                       "A variable a program reads or writes.");
  py::enum_<pva::ProgramVariable::Access>(var, "Access")
      .value("Read", pva::ProgramVariable::Access::Read)
      .value("Write", pva::ProgramVariable::Access::Write)
      .value("ReadWrite", pva::ProgramVariable::Access::ReadWrite);
  var.def_property_readonly("_id", &pva::ProgramVariable::_id)
      .def_property_readonly("name", &pva::ProgramVariable::name)
      .def_property_readonly("bytes", &pva::ProgramVariable::bytes)
      .def_property_readonly("alwaysLive", &pva::ProgramVariable::alwaysLive)
      .def_property_readonly("access", &pva::ProgramVariable::access);

  py::class_<pva::ProgramVisitor, PyProgramVisitor>(
      m, "ProgramVisitor",
      "Subclass and override visit<Type> methods; call program.accept(visitor).")
      .def(py::init<>())
#define PVA_PY_DEF_VISIT(TYPE) .def("visit" #TYPE, &pva::ProgramVisitor::visit##TYPE)
          PVA_PY_DEF_VISIT(Sequence) PVA_PY_DEF_VISIT(Repeat) PVA_PY_DEF_VISIT(RepeatWhileTrue)
              PVA_PY_DEF_VISIT(RepeatWhileFalse) PVA_PY_DEF_VISIT(If) PVA_PY_DEF_VISIT(Switch)
                  PVA_PY_DEF_VISIT(Call) PVA_PY_DEF_VISIT(OnEveryTileSwitch)
                      PVA_PY_DEF_VISIT(OnTileExecute) PVA_PY_DEF_VISIT(DoExchange)
                          PVA_PY_DEF_VISIT(GlobalExchange) PVA_PY_DEF_VISIT(StreamCopyBegin)
                              PVA_PY_DEF_VISIT(StreamCopyMid) PVA_PY_DEF_VISIT(StreamCopyEnd)
                                  PVA_PY_DEF_VISIT(Sync) PVA_PY_DEF_VISIT(WriteUndef)
                                      PVA_PY_DEF_VISIT(Block) PVA_PY_DEF_VISIT(Abort);
#undef PVA_PY_DEF_VISIT

  py::class_<pva::Program, std::shared_ptr<pva::Program>> program(
      m, "Program", "A program of the compiled control program.");
  py::enum_<pva::Program::Type> type(program, "Type");
  for (std::size_t i = 0; i < pva::Program::numTypes; ++i) {
    const auto t = static_cast<pva::Program::Type>(i);
    type.value(pva::Program::typeName(t).c_str(), t);
  }
  program.def_property_readonly("_id", &pva::Program::_id)
      .def_property_readonly("name", &pva::Program::name)
      .def_property_readonly("type", &pva::Program::type)
      .def_property_readonly("children",
                             [](const pva::Program& p) { return mutablePrograms(p.children()); })
      .def_property_readonly("vars", &pva::Program::vars)
      .def_property_readonly("controlCodeByTile",
                             [](const pva::Program& p) { return toNumpy(p.controlCodeByTile()); })
      .def_property_readonly(
          "estimatedCyclesByTile",
          [](const pva::Program& p) { return toNumpy(p.estimatedCyclesByTile()); })
      .def_property_readonly("codeBytesByTile",
                             [](const pva::Program& p) { return toNumpy(p.codeBytesByTile()); })
      .def_property_readonly("dataBytes", &pva::Program::dataBytes)
      .def_property_readonly("syncType", &pva::Program::syncType)
      .def_property_readonly(
          "streamCopyDestination",
          [](const pva::Program& p) {
            return pva::Program::streamCopyDestinationName(p.streamCopyDestination());
          },
          "'host', 'remoteBuffer', 'mixed' or 'unknown' (report before format 1.3) for stream "
          "copies; 'none' otherwise")
      .def_property_readonly("isStep", &pva::Program::isStep)
      .def_property_readonly("debugContext",
                             [](const pva::Program& p) { return mutableContext(p.debugContext()); })
      .def("accept", &pva::Program::accept, py::arg("visitor"),
           "Calls the visitor's visit<Type> for this program.")
      .def("__eq__", [](const pva::Program& a, const pva::Program& b) { return a == b; })
      .def("__hash__", [](const pva::Program& p) { return py::hash(py::int_(p._id())); })
      .def("__repr__", [](const pva::Program& p) {
        return "<pva." + pva::Program::typeName(p.type()) + "Program " + std::to_string(p._id()) +
               " '" + p.name() + "'>";
      });

#define PVA_PY_PROGRAM(TYPE)                                                                       \
  py::class_<pva::TYPE##Program, pva::Program, std::shared_ptr<pva::TYPE##Program>>(m, #TYPE       \
                                                                                    "Program")
  PVA_PY_PROGRAM(Sequence);
  PVA_PY_PROGRAM(Repeat).def_property_readonly("repeatCount", &pva::RepeatProgram::repeatCount);
  PVA_PY_PROGRAM(RepeatWhileTrue);
  PVA_PY_PROGRAM(RepeatWhileFalse);
  PVA_PY_PROGRAM(If);
  PVA_PY_PROGRAM(Switch);
  PVA_PY_PROGRAM(Call);
  PVA_PY_PROGRAM(OnEveryTileSwitch);
  PVA_PY_PROGRAM(OnTileExecute)
      .def_property_readonly("computeset", &pva::OnTileExecuteProgram::computeset);
  PVA_PY_PROGRAM(DoExchange);
  PVA_PY_PROGRAM(GlobalExchange);
  PVA_PY_PROGRAM(StreamCopyBegin);
  PVA_PY_PROGRAM(StreamCopyMid);
  PVA_PY_PROGRAM(StreamCopyEnd);
  PVA_PY_PROGRAM(Sync);
  PVA_PY_PROGRAM(WriteUndef);
  PVA_PY_PROGRAM(Block);
  PVA_PY_PROGRAM(Abort);
#undef PVA_PY_PROGRAM
}

} // namespace pvapy
