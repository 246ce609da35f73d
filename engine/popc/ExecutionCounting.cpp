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

/// The counting support itself is never counted, or its own block would call it forever. Its
/// IR name is not always the C name: at -O0 clang emits the static function under its
/// internal-linkage mangling ("_ZL19tessera_count_blockm") with an alias of the C name, so the
/// name is matched anywhere in the symbol.
bool isCountingSupport(const std::string& function) {
  return function.find(kCountFunction) != std::string::npos ||
         function == poplar::detail::codelets::kExecutedInstructionsSymbol;
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

std::string countingSupportSource() {
  std::ostringstream os;
  os << "// Execution counting (popc, docs/profiling.md): instructions executed by this thread.\n"
     << "extern \"C\" {\n"
     << "extern __attribute__((visibility(\"hidden\"))) __thread std::uint64_t " << kCounter
     << ";\n"
     << "static __attribute__((used, always_inline)) inline void " << kCountFunction
     << "(std::uint64_t n) { " << kCounter << " += n; }\n"
     << "}\n\n";
  return os.str();
}

std::string countingEntrySource() {
  std::ostringstream os;
  os << "extern \"C\" __attribute__((visibility(\"hidden\"))) __thread std::uint64_t " << kCounter
     << " = 0;\n"
     << "extern \"C\" __attribute__((visibility(\"default\"))) std::uint64_t* "
     << poplar::detail::codelets::kExecutedInstructionsSymbol << "() { return &" << kCounter
     << "; }\n\n";
  return os.str();
}

namespace {

/// "%name" of "  %name = opcode ...", or "".
std::string resultOf(const std::string& line) {
  const std::size_t begin = line.find_first_not_of(' ');
  if (begin == std::string::npos || line[begin] != '%') return "";
  const std::size_t eq = line.find(" = ", begin);
  return eq == std::string::npos ? "" : line.substr(begin, eq - begin);
}

/// The opcode of an instruction line ("add" of "%i = add nuw i64 %x, 1", "br" of "br ...").
std::string opcodeOf(const std::string& line) {
  std::size_t begin = line.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  if (line[begin] == '%') {
    const std::size_t eq = line.find(" = ", begin);
    if (eq == std::string::npos) return "";
    begin = eq + 3;
  }
  const std::size_t end = line.find(' ', begin);
  return line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// The %values an instruction line reads (after its "=").
std::vector<std::string> operandsOf(const std::string& line) {
  std::vector<std::string> out;
  const std::size_t eq = line.find(" = ");
  std::size_t i = eq == std::string::npos ? 0 : eq + 3;
  while ((i = line.find('%', i)) != std::string::npos) {
    std::size_t end = i + 1;
    while (end < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '.' ||
            line[end] == '_' || line[end] == '$' || line[end] == '-'))
      ++end;
    out.push_back(line.substr(i, end - i));
    i = end;
  }
  return out;
}

/// Whether the line's operands include an integer constant (", 1" or ", 4294967295").
bool hasConstantOperand(const std::string& line) {
  const std::size_t comma = line.rfind(", ");
  if (comma == std::string::npos) return false;
  const std::string last = line.substr(comma + 2);
  return !last.empty() && (std::isdigit(static_cast<unsigned char>(last[0])) || last[0] == '-');
}

/// A counted loop's control in a block that branches back to itself: the compare deciding the
/// branch and the integer adds, subtracts and masks of constants feeding it (the induction
/// step). The IPU's code runs such a loop on one `brnzdec` (decrement, branch if not zero) or a
/// zero-overhead `rpt`, its loads stepping their own pointers, so the branch alone is counted.
std::vector<bool> loopControl(const std::vector<std::string>& block, const std::string& label) {
  std::vector<bool> control(block.size(), false);
  std::size_t br = block.size();
  for (std::size_t i = block.size(); i-- > 0;)
    if (isInstructionLine(block[i])) {
      br = i;
      break;
    }
  if (br == block.size() || opcodeOf(block[br]) != "br" ||
      block[br].find("br i1 ") == std::string::npos)
    return control;
  const std::string self = "label %" + label, quotedSelf = "label %\"" + label + "\"";
  auto targets = [&](const std::string& t) {
    const std::size_t at = block[br].find(t);
    return at != std::string::npos &&
           (at + t.size() == block[br].size() || block[br][at + t.size()] == ',');
  };
  if (!targets(self) && !targets(quotedSelf)) return control;
  // The compare deciding the branch, and whether it tests a counter: one of its operands an
  // add, subtract or mask of a constant in this block. A loop testing anything else (a value
  // loaded each time round, as `for (volatile int i...)` does) compares and branches as written.
  const std::vector<std::string> condition = operandsOf(block[br]);
  if (condition.empty()) return control;
  auto definition = [&](const std::string& value) -> std::size_t {
    for (std::size_t i = 0; i < br; ++i)
      if (isInstructionLine(block[i]) && resultOf(block[i]) == value) return i;
    return block.size();
  };
  auto isStep = [&](std::size_t i) {
    if (i == block.size()) return false;
    const std::string op = opcodeOf(block[i]);
    return (op == "add" || op == "sub" || op == "and") && hasConstantOperand(block[i]);
  };
  const std::size_t compare = definition(condition.front());
  if (compare == block.size() || opcodeOf(block[compare]) != "icmp") return control;
  std::vector<std::size_t> steps;
  for (const std::string& o : operandsOf(block[compare]))
    if (isStep(definition(o))) steps.push_back(definition(o));
  if (steps.empty()) return control;
  control[compare] = true;
  while (!steps.empty()) {
    const std::size_t i = steps.back();
    steps.pop_back();
    if (control[i]) continue;
    control[i] = true;
    for (const std::string& o : operandsOf(block[i]))
      if (isStep(definition(o))) steps.push_back(definition(o));
  }
  return control;
}

} // namespace

bool countsAsInstruction(const std::string& line) {
  if (line.find(" = phi ") != std::string::npos) return false;
  for (const char* free : {"@llvm.dbg.", "@llvm.lifetime.", "@llvm.assume(",
                           "@llvm.experimental.noalias.scope.decl(", "@llvm.pseudoprobe("})
    if (line.find(free) != std::string::npos) return false;
  // Address arithmetic is part of the IPU's loads and stores (base + offset, post-incrementing
  // pointers); its registers and pointers are 32 bits, so the host's widening and narrowing of
  // indices and pointer casts have no instruction.
  for (const char* free : {"getelementptr", "zext", "sext", "trunc", "bitcast", "ptrtoint",
                           "inttoptr", "addrspacecast", "freeze"})
    if (opcodeOf(line) == free) return false;
  return true;
}

std::uint64_t countBlock(const std::vector<std::string>& block, const std::string& label) {
  const std::vector<bool> control = loopControl(block, label);
  std::uint64_t count = 0;
  for (std::size_t i = 0; i < block.size(); ++i)
    if (isInstructionLine(block[i]) && !control[i] && countsAsInstruction(block[i])) ++count;
  return count;
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
    const std::uint64_t count = countBlock(block, label);
    std::size_t insertAt = block.size();
    for (std::size_t i = 0; i < block.size(); ++i)
      if (isInstructionLine(block[i]) && !mustStayFirst(block[i])) {
        insertAt = i;
        break;
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
        skip = isCountingSupport(function);
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
