// What kind of file Graph::addCodelets is given. Auto decides by the file's extension
// (.cpp .cc .cxx .C: C++ source; .gp .o: an object made by popc; .c: C; .S .s: assembly).
#pragma once

namespace poplar {

enum class CodeletFileType {
  PreprocessedAsmSource,
  AsmSource,
  PreprocessedCSource,
  CSource,
  PreprocessedCppSource,
  CppSource,
  IrSource,
  Object,
  Auto
};

} // namespace poplar
