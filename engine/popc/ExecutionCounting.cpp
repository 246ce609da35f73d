#include "ExecutionCounting.hpp"

#include "codelets/GpFile.hpp"

#include <cctype>
#include <sstream>

namespace popc {
namespace {

constexpr const char* kCountFunction = "tessera_count_block";
constexpr const char* kCounter = "tessera_executed_instructions_tls";

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// An instruction line of a function body: two spaces, then the instruction (continuations of
/// multi-line instructions such as switch tables and landingpad clauses are indented further).
bool isInstructionLine(const std::string& line) {
  return line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ';
}

/// "label:" or "label:   ; preds = ..." at column 0; returns the label, or "".
std::string labelOf(const std::string& line) {
  if (line.empty() || line[0] == ' ' || line[0] == ';' || line[0] == '}') return "";
  std::size_t end;
  if (line[0] == '"') {
    end = line.find('"', 1);
    if (end == std::string::npos || end + 1 >= line.size() || line[end + 1] != ':') return "";
    return line.substr(1, end - 1);
  }
  end = line.find(':');
  if (end == std::string::npos || end == 0) return "";
  for (std::size_t i = 0; i < end; ++i) {
    const char c = line[i];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '$' ||
          c == '-'))
      return "";
  }
  return line.substr(0, end);
}

/// The function's IR name in a "define ... @name(...) ... {" line.
std::string functionName(const std::string& define) {
  const std::size_t at = define.find(" @");
  if (at == std::string::npos) return "";
  std::size_t begin = at + 2, end;
  if (begin < define.size() && define[begin] == '"') {
    end = define.find('"', begin + 1);
    return end == std::string::npos ? "" : define.substr(begin + 1, end - begin - 1);
  }
  end = define.find('(', begin);
  return end == std::string::npos ? "" : define.substr(begin, end - begin);
}

/// Phis and landingpads stay first in their block: the counting call goes after them.
bool mustStayFirst(const std::string& line) {
  return line.find(" = phi ") != std::string::npos ||
         line.find(" = landingpad ") != std::string::npos;
}

} // namespace

std::vector<std::string> countingIrFlags() {
  return {"-fno-vectorize", "-fno-slp-vectorize", "-fno-unroll-loops", "-fno-discard-value-names"};
}

std::string countingSupportSource(unsigned part) {
  std::ostringstream os;
  os << "// Execution counting (popc, docs/profiling.md): instructions executed by this thread.\n"
     << "extern \"C\" {\n"
     << (part == 0 ? "" : "extern ")
     << "__attribute__((visibility(\"hidden\"))) __thread std::uint64_t " << kCounter
     << (part == 0 ? " = 0" : "") << ";\n"
     << "static __attribute__((used, always_inline)) inline void " << kCountFunction
     << "(std::uint64_t n) { " << kCounter << " += n; }\n"
     << "}\n";
  if (part == 0)
    os << "extern \"C\" __attribute__((visibility(\"default\"))) std::uint64_t* "
       << tessera::codelets::kExecutedInstructionsSymbol << "() { return &" << kCounter << "; }\n";
  os << "\n";
  return os.str();
}

bool countsAsInstruction(const std::string& line) {
  if (line.find(" = phi ") != std::string::npos) return false;
  for (const char* free : {"@llvm.dbg.", "@llvm.lifetime.", "@llvm.assume(",
                           "@llvm.experimental.noalias.scope.decl(", "@llvm.pseudoprobe("})
    if (line.find(free) != std::string::npos) return false;
  return true;
}

std::string instrumentIr(const std::string& ir, std::vector<CountedBlock>& blocks) {
  std::istringstream in(ir);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);

  std::ostringstream out;
  bool inFunction = false, skip = false;
  std::string function;
  // The current block's lines, held until it ends so that its count is known at the insertion.
  std::vector<std::string> block;
  std::string label;
  auto flush = [&] {
    if (block.empty()) return;
    std::uint64_t count = 0;
    std::size_t insertAt = block.size();
    for (std::size_t i = 0; i < block.size(); ++i) {
      if (!isInstructionLine(block[i])) continue;
      if (countsAsInstruction(block[i])) ++count;
      if (insertAt == block.size() && !mustStayFirst(block[i])) insertAt = i;
    }
    for (std::size_t i = 0; i < block.size(); ++i) {
      if (i == insertAt && !skip && count)
        out << "  call void @" << kCountFunction << "(i64 " << count << ")\n";
      out << block[i] << "\n";
    }
    if (!skip && count) blocks.push_back({function, label, count});
    block.clear();
  };
  for (const std::string& line : lines) {
    if (!inFunction) {
      out << line << "\n";
      if (startsWith(line, "define ") && !line.empty() && line.back() == '{') {
        inFunction = true;
        function = functionName(line);
        skip = startsWith(function, kCountFunction) ||
               function == tessera::codelets::kExecutedInstructionsSymbol;
        label = "entry";
      }
      continue;
    }
    if (line == "}") {
      flush();
      out << line << "\n";
      inFunction = false;
      continue;
    }
    const std::string l = labelOf(line);
    if (!l.empty()) {
      flush();
      label = l;
    }
    block.push_back(line);
  }
  return out.str();
}

} // namespace popc
