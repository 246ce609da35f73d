#include "Precompiled.hpp"

#include "codelets/Hash.hpp"
#include "codelets/Subprocess.hpp"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace popc {
namespace {

/// Size and modification time: clang validates a precompiled header's inputs by these, so they
/// are part of its name (a reinstalled header gives a new one rather than a rejected one).
std::string statFacts(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

} // namespace

std::string precompiledVertexHeader(const std::string& dir, const std::string& compiler,
                                    const std::vector<std::string>& flags,
                                    const std::string& includeDir, bool rebuild) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) return "";
  poplar::detail::codelets::Hasher key;
  key.add(std::string(TESSERA_VERSION)).add(std::string(TESSERA_CODELET_ABI_HASH));
  const std::string realCompiler = fs::canonical(compiler, ec).string();
  key.add(realCompiler).add(statFacts(realCompiler));
  for (const auto& f : flags)
    key.add(f);
  for (const char* h : {"Vertex.hpp", "VertexIntrospector.hpp", "Type.hpp", "HalfFloat.hpp"}) {
    const std::string path = includeDir + "/poplar/" + h;
    key.add(path).add(statFacts(path));
  }
  const std::string pch = dir + "/vertex-" + key.hex() + ".pch";
  if (!rebuild && fs::is_regular_file(pch, ec)) return pch;

  // Built under a private name and renamed: concurrent popc runs never read half a file.
  const std::string partial = pch + ".tmp" + std::to_string(getpid());
  std::vector<std::string> cmd = {compiler};
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.insert(cmd.end(), {"-x", "c++-header", includeDir + "/poplar/Vertex.hpp", "-o", partial,
                         "-MD", "-MF", partial + ".d"});
  const poplar::detail::codelets::ProcessResult r = poplar::detail::codelets::runProcess(cmd);
  // The .d file first: a published .pch always has its inputs beside it.
  if (r.started && r.exitCode == 0) fs::rename(partial + ".d", pch + ".d", ec);
  if (!r.started || r.exitCode != 0 || ec || (fs::rename(partial, pch, ec), ec)) {
    fs::remove(partial, ec);
    fs::remove(partial + ".d", ec);
    return "";
  }
  return pch;
}

std::vector<std::string> precompiledHeaderInputs(const std::string& pch) {
  // "target: a b \\\n c ...": every word after the colon is an input (no spaces in these paths).
  std::ifstream in(pch + ".d");
  std::vector<std::string> inputs;
  std::string word;
  bool afterColon = false;
  while (in >> word) {
    if (!afterColon) {
      afterColon = !word.empty() && word.back() == ':';
      continue;
    }
    if (word != "\\") inputs.push_back(word);
  }
  return inputs;
}

bool mentionsPrecompiledHeader(const std::string& output) {
  for (const char* s : {"precompiled header", "PCH file", "AST file", ".pch"})
    if (output.find(s) != std::string::npos) return true;
  return false;
}

} // namespace popc
