#include "CodeletLoader.hpp"

#include "CodeletCache.hpp"
#include "GpFile.hpp"
#include "Hash.hpp"
#include "Locations.hpp"
#include "Subprocess.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace poplar::detail::codelets {
namespace {

std::recursive_mutex& loaderMutex() {
  static std::recursive_mutex m;
  return m;
}
/// dlopen handle -> the codelet source key its vertices were registered under. A .gp is
/// registered once per process; dlopen hands back the same handle when it is added again.
std::map<void*, std::string>& loadedObjects() {
  static std::map<void*, std::string> m;
  return m;
}

std::vector<std::string> splitFlags(const std::string& flags) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  bool any = false;
  for (char c : flags) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      any = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += c;
    }
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

/// As Poplar: the path as given (absolute, or relative to the working directory), then in the
/// executable's directory. Throws naming every path tried.
std::string resolve(const std::string& path) {
  std::vector<std::string> tried;
  std::error_code ec;
  const fs::path given(path);
  tried.push_back(fs::absolute(given, ec).lexically_normal().string());
  if (fs::is_regular_file(given, ec)) return fs::canonical(given, ec).string();
  if (given.is_relative()) {
    const fs::path besideExe = fs::path(executableDirectory()) / given;
    tried.push_back(besideExe.lexically_normal().string());
    if (fs::is_regular_file(besideExe, ec)) return fs::canonical(besideExe, ec).string();
  }
  std::string list;
  for (const auto& t : tried)
    list += (list.empty() ? "" : ", ") + t;
  throw poplar::codelet_file_error("addCodelets(\"" + path + "\"): codelet file not found; tried " +
                                   list +
                                   " (a library's vertices are added by its addCodelets(graph))");
}

poplar::CodeletFileType typeOf(const std::string& path, poplar::CodeletFileType type) {
  using T = poplar::CodeletFileType;
  if (type != T::Auto) return type;
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".gp" || ext == ".o") return T::Object;
  if (ext == ".c") return T::CSource;
  if (ext == ".S") return T::AsmSource;
  if (ext == ".s") return T::PreprocessedAsmSource;
  if (ext == ".ll" || ext == ".bc") return T::IrSource;
  return T::CppSource; // .cpp .cc .cxx .C and anything else: C++, as the IPU Model compiles it
}

struct Loaded {
  std::string key; ///< empty: not loaded, see why
  std::string why;
};

/// Codelet source keys this process has registered. A cache entry's key is named by its
/// content, so a second copy of it (another cache directory, a rebuilt entry) has the same
/// vertices: they are registered once.
std::set<std::string>& registeredKeys() {
  static std::set<std::string> s;
  return s;
}

/// The .gp each registered key was loaded from: an executable embeds it (serialize).
std::map<std::string, std::string>& objectPaths() {
  static std::map<std::string, std::string> m;
  return m;
}

/// Codelet source (as vertex types name it) -> the execution counter of its .gp.
std::map<std::string, ExecutedInstructionsFn>& executionCounters() {
  static std::map<std::string, ExecutedInstructionsFn> m;
  return m;
}

/// Validates and loads a .gp; never throws for a bad file (the cache rebuilds those).
Loaded tryLoad(const std::string& gp, const std::string& keyBase) {
  if (registeredKeys().count(keyBase)) return {keyBase, ""};
  std::string why;
  const auto meta = readTrailer(gp, why);
  if (!meta) return {"", why};
  if (meta->tesseraVersion != TESSERA_VERSION || meta->abi != kCodeletAbi)
    return {"", "it was made by Tessera " + meta->tesseraVersion + " (codelet ABI " +
                    std::to_string(meta->abi) + "); this is Tessera " + TESSERA_VERSION + " (ABI " +
                    std::to_string(kCodeletAbi) + ")"};
  // Same version, other build: its registration code may not match this poplar/Vertex.hpp.
  if (meta->abiHash != TESSERA_CODELET_ABI_HASH)
    return {"", "it was compiled against another build's poplar/Vertex.hpp (codelet ABI hash " +
                    meta->abiHash + ", this build's is " + TESSERA_CODELET_ABI_HASH + ")"};
  void* handle = dlopen(gp.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* e = dlerror();
    return {"", std::string("the loader rejects it: ") + (e ? e : "unknown error")};
  }
  auto& loaded = loadedObjects();
  if (auto it = loaded.find(handle); it != loaded.end()) {
    dlclose(handle); // keep one reference: the first load's
    return {it->second, ""};
  }
  using RegisterFn = void (*)(const char*);
  auto* registerFn = reinterpret_cast<RegisterFn>(dlsym(handle, kRegisterSymbol));
  if (!registerFn) {
    dlclose(handle);
    return {"", std::string("it has no ") + kRegisterSymbol + " entry point"};
  }
  registerFn(keyBase.c_str());
  if (auto* counter =
          reinterpret_cast<ExecutedInstructionsFn>(dlsym(handle, kExecutedInstructionsSymbol)))
    executionCounters()[poplar::detail::codeletSourceName(keyBase.c_str())] = counter;
  loaded.emplace(handle, keyBase);
  registeredKeys().insert(keyBase);
  objectPaths().emplace(keyBase, gp);
  return {keyBase, ""};
}

std::string statFacts(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "missing";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

/// Runs popc; throws the poplar_error subclass its exit status stands for.
void compile(const std::string& given, const std::string& source,
             const std::vector<std::string>& flags, const std::string& out,
             std::ostream* compileOutput) {
  const std::string popc = popcPath();
  // The precompiled poplar/Vertex.hpp lives with the cache: built by the first compile, it
  // makes every later first compile about as fast as the compiler alone on the file.
  std::vector<std::string> argv = {popc, "--pch-dir", cacheDirectory() + "/pch"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-o", out, source});
  const ProcessResult r = runProcess(argv);
  if (compileOutput) *compileOutput << r.output;
  if (!r.started)
    throw poplar::codelet_file_error("addCodelets(\"" + given +
                                     "\"): cannot run Tessera's codelet compiler: " + r.output);
  if (r.exitCode == 0) return;
  std::error_code ec;
  fs::remove(out, ec);
  std::string output = r.output;
  while (!output.empty() && output.back() == '\n')
    output.pop_back();
  const std::string head = "addCodelets(\"" + given + "\"): ";
  switch (r.exitCode) {
  case 3:
    throw poplar::unsupported_vertex_field(head + "a vertex class in '" + source +
                                           "' cannot be used:\n" + output);
  case 4:
    throw poplar::missing_host_compiler(head + output);
  default:
    throw poplar::codelet_compilation_error(head + "'" + source + "' does not compile:\n" + output);
  }
}

std::string loadCpp(const std::string& given, const std::string& source,
                    const std::string& compileFlags, std::ostream* compileOutput) {
  const std::vector<std::string> flags = splitFlags(compileFlags);
  const char* cxx = std::getenv("TESSERA_CODELET_CXX");
  Hasher k1;
  k1.add(std::string("tessera-codelets"))
      .add(std::string(TESSERA_VERSION))
      .add(std::to_string(kCodeletAbi));
  k1.add(std::string(TESSERA_CODELET_ABI_HASH));
  k1.add(popcPath()).add(statFacts(popcPath())).add(std::string(cxx ? cxx : ""));
  for (const auto& f : flags)
    k1.add(f);
  k1.add(source);
  if (!k1.addFile(source))
    throw poplar::codelet_file_error("addCodelets(\"" + given + "\"): cannot read '" + source +
                                     "'");
  const std::string lookupKey = k1.hex();
  const std::string name = fs::path(source).filename().string();

  CodeletCache cache(cacheDirectory());
  if (const auto entry = cache.find(lookupKey)) {
    const Loaded l = tryLoad(*entry, name + "#" + fs::path(*entry).stem().string());
    if (!l.key.empty()) return l.key;
    // A damaged or foreign entry is not trusted: compile again and replace it.
  }
  const std::string built = cache.temporaryPath(lookupKey);
  compile(given, source, flags, built, compileOutput);
  std::string why;
  const auto meta = readTrailer(built, why);
  if (!meta) {
    std::error_code ec;
    fs::remove(built, ec);
    throw poplar::codelet_compilation_error("addCodelets(\"" + given +
                                            "\"): popc wrote an unusable '" + built + "': " + why);
  }
  const std::string entry = cache.publish(lookupKey, built, meta->contentDeps, meta->statDeps);
  const Loaded l = tryLoad(entry, name + "#" + fs::path(entry).stem().string());
  if (l.key.empty())
    throw poplar::codelet_compilation_error("addCodelets(\"" + given +
                                            "\"): the compiled codelet '" + entry +
                                            "' cannot be loaded: " + l.why);
  return l.key;
}

} // namespace

ExecutedInstructionsFn executedInstructionsCounter(const std::string& source) {
  std::lock_guard<std::recursive_mutex> lock(loaderMutex());
  const auto& m = executionCounters();
  const auto it = m.find(source);
  return it == m.end() ? nullptr : it->second;
}

std::string cacheDirectory() {
  if (const char* d = std::getenv("TESSERA_CODELET_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/tessera/codelets";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/tessera/codelets";
  return "/tmp/tessera-codelets-" + std::to_string(getuid());
}

std::string loadCodeletFile(const std::string& path, poplar::CodeletFileType type,
                            const std::string& compileFlags, std::ostream* compileOutput) {
  using T = poplar::CodeletFileType;
  std::lock_guard<std::recursive_mutex> lock(loaderMutex());
  const std::string resolved = resolve(path);
  switch (typeOf(resolved, type)) {
  case T::Object: {
    Hasher h;
    h.add(resolved);
    const Loaded l = tryLoad(resolved, fs::path(resolved).filename().string() + "#" + h.hex());
    if (l.key.empty())
      throw poplar::codelet_file_error("addCodelets(\"" + path + "\"): '" + resolved +
                                       "' is not a codelet object Tessera can load: " + l.why +
                                       "; build it again with popc");
    return l.key;
  }
  case T::CppSource:
  case T::PreprocessedCppSource:
    return loadCpp(path, resolved, compileFlags, compileOutput);
  case T::AsmSource:
  case T::PreprocessedAsmSource:
    throw poplar::codelet_file_error(
        "addCodelets(\"" + path + "\"): '" + resolved +
        "' is IPU assembly, which runs only on IPU hardware; Tessera runs "
        "vertices on the host from their C++ codelets");
  default:
    throw poplar::codelet_file_error(
        "addCodelets(\"" + path + "\"): '" + resolved +
        "' is not C++ (vertex classes are C++); give a .cpp codelet or a .gp "
        "made by popc");
  }
}

std::string loadCodeletStream(std::istream& in, poplar::CodeletFileType type,
                              const std::string& compileFlags, std::ostream* compileOutput) {
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  const bool isObject = type == poplar::CodeletFileType::Object ||
                        (type == poplar::CodeletFileType::Auto && text.rfind("\x7f"
                                                                             "ELF",
                                                                             0) == 0);
  Hasher h;
  h.add(text);
  std::lock_guard<std::recursive_mutex> lock(loaderMutex());
  // The stream's bytes become a file in the cache, named by their hash, then load as a file.
  const std::string dir = cacheDirectory() + "/streams";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string path = dir + "/codelets-" + h.hex() + (isObject ? ".gp" : ".cpp");
  if (!fs::is_regular_file(path, ec)) {
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    std::ofstream(tmp, std::ios::binary) << text;
    fs::rename(tmp, path, ec);
    if (ec)
      throw poplar::codelet_file_error("addCodelets(stream): cannot write '" + path + "' (" +
                                       ec.message() + ")");
  }
  return loadCodeletFile(
      path, isObject ? poplar::CodeletFileType::Object : poplar::CodeletFileType::CppSource,
      compileFlags, compileOutput);
}

std::optional<std::string> codeletObjectPath(const std::string& key) {
  std::lock_guard<std::recursive_mutex> lock(loaderMutex());
  const auto it = objectPaths().find(key);
  if (it == objectPaths().end()) return std::nullopt;
  return it->second;
}

std::string loadEmbeddedCodeletObject(const std::string& bytes, const std::string& key) {
  std::lock_guard<std::recursive_mutex> lock(loaderMutex());
  if (registeredKeys().count(key)) return key;
  // The object is checked in memory first (its trailer and content hash, and that this build
  // made it): a damaged or foreign one is refused without writing anything to the user's cache.
  {
    std::string why;
    const auto meta = parseGpImage(bytes, why);
    if (!meta)
      throw poplar::codelet_file_error("the codelet object for '" + displaySourceName(key) +
                                       "' in the executable cannot be loaded: " + why);
    if (meta->tesseraVersion != TESSERA_VERSION || meta->abi != kCodeletAbi ||
        meta->abiHash != TESSERA_CODELET_ABI_HASH)
      throw poplar::codelet_file_error("the codelet object for '" + displaySourceName(key) +
                                       "' in the executable was made by another Tessera build (" +
                                       meta->tesseraVersion + ", codelet ABI hash " +
                                       meta->abiHash + "; this is " + TESSERA_VERSION + ", " +
                                       TESSERA_CODELET_ABI_HASH + ")");
  }
  Hasher h;
  h.add(bytes);
  // Named by content, so every executable embedding the same object shares one file.
  const std::string dir = cacheDirectory() + "/executables";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string path = dir + "/" + h.hex() + ".gp";
  const bool existed = fs::is_regular_file(path, ec) && fs::file_size(path, ec) == bytes.size();
  if (!existed) {
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out)
        throw poplar::codelet_file_error("cannot write the codelet object for '" +
                                         displaySourceName(key) + "' to '" + tmp + "'");
    }
    fs::rename(tmp, path, ec);
    if (ec)
      throw poplar::codelet_file_error("cannot write the codelet object for '" +
                                       displaySourceName(key) + "' to '" + path + "' (" +
                                       ec.message() + ")");
  }
  const Loaded l = tryLoad(path, key);
  if (l.key.empty()) {
    // Nothing that cannot be loaded stays in the cache: every refused file would add one.
    if (!existed) fs::remove(path, ec);
    throw poplar::codelet_file_error("the codelet object for '" + displaySourceName(key) +
                                     "' in the executable cannot be loaded: " + l.why);
  }
  return l.key;
}

std::string displaySourceName(const std::string& key) {
  return key.substr(0, key.find('#'));
}

} // namespace poplar::detail::codelets
