// popc: Tessera's codelet compiler, named and used as the Poplar SDK's.
//
//   popc [-I dir] [-D name[=value]] [-O0|-O1|-O2|-O3|-Os] [-g] [--pch-dir dir]
//   [--no-execution-counts] [--list-counts file] [-o out.gp] inputs...
//
// Finds the vertex classes of each C++ source with libclang, writes their registration, and
// compiles source and registration for the host with clang-14; links them, with the parts of
// any .gp inputs (GpParts.hpp), into one shared object, the .gp file Graph::addCodelets loads.
// Assembly inputs (.S) are IPU code: accepted only when nothing of them is left for the host.
// Exit status: 0 done, 1 the source does not compile, 2 bad usage or unreadable input, 3 a
// vertex class Tessera cannot use, 4 no host compiler.
#include "ExecutionCounting.hpp"
#include "GpParts.hpp"
#include "Precompiled.hpp"
#include "RegistrationWriter.hpp"
#include "Scanner.hpp"
#include "codelets/GpFile.hpp"
#include "codelets/Hash.hpp"
#include "codelets/Subprocess.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace poplar::detail::codelets;
using namespace popc;

namespace {

constexpr const char* kUsage =
    "usage: popc [-I dir] [-D name[=value]] [-U name] [-O0|-O1|-O2|-O3|-Os] [-g] [-W...]\n"
    "            [-f...] [-std=...] [-X arg] [--target ipu1,ipu2,ipu21] [-S] [-v]\n"
    "            [--pch-dir dir] [--no-execution-counts] [--list-counts file]\n"
    "            [-o out.gp] codelets.cpp... [partial.gp...] [kernels.S...]\n"
    "       popc --version | --list-targets | --help\n"
    "Compiles Poplar codelet sources (vertex classes) into a .gp file for Graph::addCodelets,\n"
    "linked with the .gp files given (each made by this popc). IPU assembly (.S) cannot run\n"
    "on the host: a .S is accepted only if nothing is left of it without __IPU__ defined.\n"
    "The .gp counts the instructions each compute() executes, which costs vertices without a\n"
    "cycle estimate (docs/profiling.md); --no-execution-counts builds it without (such vertices\n"
    "get the field-size estimate), --list-counts writes each counted block and its instructions.\n"
    "--pch-dir keeps a precompiled poplar/Vertex.hpp in dir for later runs (Graph::addCodelets\n"
    "uses its codelet cache's pch/ folder).\n"
    "Tessera compiles codelets for the host: --target (also -target=, --target=) is checked\n"
    "and recorded, not used; -S writes the host's assembly; -X passes a compiler flag (-f, -W,\n"
    "-D, -U, -I, -O, -g, -std) on to the host compiler and ignores IPU code generation flags.\n"
    "Environment: TESSERA_CODELET_CXX names the host C++ compiler (default clang++-14).\n";

/// The IPU architectures popc knows, as the SDK's `popc --list-targets` prints them.
constexpr const char* kTargets = "ipu1,ipu2,ipu21";

int fail(int code, const std::string& message) {
  std::cerr << "popc: " << message << "\n";
  return code;
}

fs::path selfDir() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).parent_path();
}

/// Tessera's headers and libpoplar: next to an installed popc, else in the build tree.
fs::path tesseraIncludeDir() {
  const fs::path installed = selfDir() / TESSERA_BIN_TO_INCLUDE;
  if (fs::exists(installed / "poplar" / "Vertex.hpp")) return installed.lexically_normal();
  return TESSERA_BUILD_INCLUDE_DIR;
}
fs::path tesseraLibDir() {
  const fs::path installed = selfDir() / TESSERA_BIN_TO_LIB;
  if (fs::exists(installed / "libpoplar.so")) return installed.lexically_normal();
  return TESSERA_BUILD_LIB_DIR;
}

/// The host compiler's path, or "" if there is none.
std::string findCompiler() {
  const char* env = std::getenv("TESSERA_CODELET_CXX");
  const std::string name = env && *env ? env : "clang++-14";
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

/// Drops the "In file included from <generated wrapper>" lines: the user's file is the news.
std::string withoutWrapperLines(const std::string& output, const std::string& tmpDir) {
  std::istringstream in(output);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind("In file included from " + tmpDir, 0) != 0) out += line + "\n";
  return out;
}

/// "" if every architecture in a --target list is one popc knows, else the first that is not.
/// The list is comma-separated, as Makefiles pass it, or a JSON list (PopLibs' CMake).
std::string unknownTarget(std::string list) {
  for (char& c : list)
    if (c == '[' || c == ']' || c == '"' || c == '\'' || c == ' ') c = ',';
  std::istringstream names(list);
  std::string name;
  const std::string known = std::string(",") + kTargets + ",cpu,";
  while (std::getline(names, name, ','))
    if (!name.empty() && known.find("," + name + ",") == std::string::npos) return name;
  return "";
}

/// `popc --version`: the SDK's two lines, "POPLAR version X.Y.Z (build)" and the compiler's.
/// Build scripts take the first line's third field as the Poplar version (`cut -d ' ' -f3`).
int printVersion() {
  std::cout << "POPLAR version " << TESSERA_POPLAR_SDK_VERSION << " (tessera-" << TESSERA_VERSION
            << ")\n";
  const std::string compiler = findCompiler();
  if (!compiler.empty()) {
    const ProcessResult r = runProcess({compiler, "--version"});
    if (r.started && r.exitCode == 0) std::cout << r.output.substr(0, r.output.find('\n')) << "\n";
  }
  return 0;
}

/// A flag given with -X: the host compiler gets those that mean the same on the host.
bool isHostFlag(const std::string& f) {
  for (const char* p : {"-f", "-W", "-D", "-U", "-I", "-O", "-g", "-std="})
    if (f.rfind(p, 0) == 0) return true;
  return false;
}

/// The first line of assembly text that holds code, or "" if none does: blank lines, comments
/// ("//", "/* */" on one line, "#" at a line's start: line markers and preprocessor leftovers)
/// do not count.
std::string firstCodeLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    for (std::size_t open; (open = line.find("/*")) != std::string::npos;) {
      const std::size_t close = line.find("*/", open + 2);
      line.erase(open, close == std::string::npos ? std::string::npos : close + 2 - open);
    }
    line = line.substr(0, line.find("//"));
    const std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos || line[begin] == '#') continue;
    return line.substr(begin, line.find_last_not_of(" \t\r") + 1 - begin);
  }
  return "";
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> userFlags, inputs;
  std::string output, pchDir, listCounts;
  bool counting = true, assembly = false, verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const std::string& flag) -> std::string {
      if (a.size() > flag.size()) return a.substr(flag.size());
      if (i + 1 >= argc) return "";
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--version") {
      return printVersion();
    } else if (a == "--list-targets") {
      std::cout << kTargets << "\n";
      return 0;
    } else if (a == "--target" || a == "-target" || a.rfind("--target=", 0) == 0 ||
               a.rfind("-target=", 0) == 0) {
      // The IPU architectures to build for: checked, then unused (Tessera builds for the host).
      const std::size_t eq = a.find('=');
      const std::string list = eq != std::string::npos ? a.substr(eq + 1)
                               : i + 1 < argc          ? argv[++i]
                                                       : "";
      if (list.empty()) return fail(2, a + " needs a target list (" + kTargets + ")");
      const std::string bad = unknownTarget(list);
      if (!bad.empty())
        return fail(2, "unknown target '" + bad + "' in " + a + " (known: " + kTargets + ", cpu)");
    } else if (a.rfind("-X", 0) == 0) {
      const std::string flag = value("-X");
      if (flag.empty()) return fail(2, "-X needs a compiler flag\n" + std::string(kUsage));
      if (isHostFlag(flag))
        userFlags.push_back(flag);
      else
        std::cerr << "popc: warning: -X " << flag
                  << " ignored: an IPU code generation flag (Tessera compiles codelets for the "
                     "host)\n";
    } else if (a == "-S") {
      assembly = true;
    } else if (a == "-v") {
      verbose = true;
    } else if (a == "--pch-dir") {
      if (i + 1 >= argc) return fail(2, "--pch-dir needs a directory\n" + std::string(kUsage));
      pchDir = argv[++i];
    } else if (a == "--no-execution-counts") {
      counting = false;
    } else if (a == "--list-counts") {
      if (i + 1 >= argc) return fail(2, "--list-counts needs a file name\n" + std::string(kUsage));
      listCounts = argv[++i];
    } else if (a.rfind("-o", 0) == 0) {
      output = value("-o");
    } else if (a.rfind("-I", 0) == 0) {
      const std::string dir = value("-I");
      if (dir.empty()) return fail(2, "-I needs a directory\n" + std::string(kUsage));
      userFlags.push_back("-I" + fs::absolute(dir).string());
    } else if (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0) {
      const std::string flag = a.substr(0, 2), v = value(flag);
      if (v.empty()) return fail(2, flag + " needs a macro name\n" + std::string(kUsage));
      userFlags.push_back(flag + v);
    } else if (a.rfind("-O", 0) == 0 || a == "-g" || a.rfind("-W", 0) == 0 ||
               a.rfind("-f", 0) == 0 || a.rfind("-std=", 0) == 0) {
      userFlags.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      return fail(2, "unknown option '" + a + "'\n" + kUsage);
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) return fail(2, std::string("no codelet source given\n") + kUsage);
  // C++ sources are compiled, .gp files linked in, assembly checked (it is IPU code).
  std::vector<std::string> sources, gpInputs, asmInputs;
  for (const auto& input : inputs) {
    const std::string ext = fs::path(input).extension().string();
    (ext == ".S" || ext == ".s" ? asmInputs : ext == ".gp" ? gpInputs : sources).push_back(input);
  }
  if (assembly && (sources.size() != 1 || !gpInputs.empty() || !asmInputs.empty()))
    return fail(2, "-S takes one codelet source");
  if (output.empty()) output = fs::path(inputs[0]).stem().string() + (assembly ? ".s" : ".gp");

  const std::string compiler = findCompiler();
  if (compiler.empty())
    return fail(4,
                "no host C++ compiler for codelets: install Debian's clang-14 package "
                "(apt-get install clang-14) or set TESSERA_CODELET_CXX to a clang++ of version 14");

  const fs::path include = tesseraIncludeDir();
  // The scan and the compile see the same flags (-O2 and -fPIC define macros too), so that one
  // precompiled header serves both.
  std::vector<std::string> common = {"-std=c++17", "-D__POPC__", "-Wno-ignored-attributes",
                                     "-O2",        "-fPIC",      "-I" + include.string()};
  common.insert(common.end(), userFlags.begin(), userFlags.end());
  auto run = [&](const std::vector<std::string>& cmd) {
    if (verbose) {
      for (const auto& part : cmd)
        std::cerr << part << (&part == &cmd.back() ? "\n" : " ");
    }
    return runProcess(cmd);
  };

  // IPU assembly. PopLibs' .S files hold their code under #ifdef __IPU__, which the host
  // never defines: preprocessed for the host, nothing is left, and the file adds nothing (as a
  // .S built for the SDK's "cpu" target does). Anything left is IPU code the host cannot run.
  for (const auto& input : asmInputs) {
    std::error_code readable;
    if (!fs::is_regular_file(input, readable)) return fail(2, "cannot read '" + input + "'");
    std::string text;
    if (fs::path(input).extension() == ".S") {
      std::vector<std::string> cmd = {
          compiler, "-E", "-P", "-x", "assembler-with-cpp", "-I" + include.string()};
      for (const auto& f : userFlags)
        if (f.rfind("-D", 0) == 0 || f.rfind("-U", 0) == 0 || f.rfind("-I", 0) == 0)
          cmd.push_back(f);
      cmd.push_back(input);
      const ProcessResult r = run(cmd);
      if (!r.started) return fail(4, r.output + " (install Debian's clang-14 package)");
      if (r.exitCode != 0) {
        std::cerr << r.output;
        return fail(1, "preprocessing '" + input + "' failed (" + compiler + ")");
      }
      text = r.output;
    } else {
      std::ifstream in(input);
      std::stringstream all;
      all << in.rdbuf();
      text = all.str();
    }
    const std::string code = firstCodeLine(text);
    if (!code.empty())
      return fail(2, "'" + input + "' is IPU assembly ('" + code +
                         "'), which cannot run on the host: Tessera runs codelets on the host, "
                         "so every vertex needs a C++ version (put the assembly under #ifdef "
                         "__IPU__, as PopLibs does, and give the vertex a C++ compute(); "
                         "docs/compatibility.md)");
    if (verbose)
      std::cerr << "popc: '" << input << "' holds no code for the host (its IPU code is under "
                << "__IPU__): nothing to add\n";
  }

  std::string pch =
      pchDir.empty() ? ""
                     : precompiledVertexHeader(pchDir, compiler, common, include.string(), false);
  auto withPch = [&](std::vector<std::string> args) {
    if (!pch.empty()) args.insert(args.end(), {"-include-pch", pch});
    return args;
  };
  std::vector<std::string> scanArgs = {"-x", "c++"};
  scanArgs.insert(scanArgs.end(), common.begin(), common.end());
  // The scan skips function bodies, so it sees members used only in them as unused: with the
  // user's -Werror (-Wall) such warnings would stop it. Warnings are the compile's to report.
  scanArgs.push_back("-w");
  auto scanWithPch = [&](const std::string& source) {
    ScanResult scan = scanCodelets(source, withPch(scanArgs));
    std::string all;
    for (const auto& e : scan.errors)
      all += e + "\n";
    if (pch.empty() || !mentionsPrecompiledHeader(all)) return scan;
    // Stale or damaged: build it again once, and do without it if that does not help.
    pch = precompiledVertexHeader(pchDir, compiler, common, include.string(), true);
    scan = scanCodelets(source, withPch(scanArgs));
    all.clear();
    for (const auto& e : scan.errors)
      all += e + "\n";
    if (pch.empty() || !mentionsPrecompiledHeader(all)) return scan;
    pch.clear();
    return scanCodelets(source, scanArgs);
  };

  GpMetadata meta;
  meta.tesseraVersion = TESSERA_VERSION;
  meta.abi = kCodeletAbi;
  meta.abiHash = TESSERA_CODELET_ABI_HASH;
  std::error_code ec;
  // The generated wrappers live in a private temporary directory, removed on the way out.
  const char* tmpEnv = std::getenv("TMPDIR");
  std::string tmpPattern = std::string(tmpEnv && *tmpEnv ? tmpEnv : "/tmp") + "/popc-XXXXXX";
  if (!mkdtemp(tmpPattern.data()))
    return fail(2, "cannot create a temporary directory in " + tmpPattern);
  const fs::path tmp = tmpPattern;
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code e;
      fs::remove_all(p, e);
    }
  } cleanup{tmp};

  // Each source is a part: its own registration function, named by a hash of what it is built
  // from, so that parts compiled by separate popc runs never clash when .gp files are linked.
  std::vector<std::string> wrappers, partIds;
  std::vector<GpPart> parts;
  for (unsigned part = 0; part < sources.size(); ++part) {
    const fs::path source = fs::absolute(sources[part]).lexically_normal();
    if (!fs::is_regular_file(source, ec))
      return fail(2, "cannot read codelet source '" + sources[part] + "'");
    const ScanResult scan = scanWithPch(source.string());
    if (!scan.errors.empty()) {
      for (const auto& e : scan.errors)
        std::cerr << e << "\n";
      return fail(1, "'" + source.string() + "' does not compile (" +
                         std::to_string(scan.errors.size()) + " error(s))");
    }
    if (!scan.vertexErrors.empty()) {
      for (const auto& e : scan.vertexErrors)
        std::cerr << e << "\n";
      return 3;
    }
    meta.sources.push_back(source.string());
    meta.contentDeps.insert(meta.contentDeps.end(), scan.contentDeps.begin(),
                            scan.contentDeps.end());
    meta.statDeps.insert(meta.statDeps.end(), scan.statDeps.begin(), scan.statDeps.end());
    Hasher id;
    id.add(source.string()).add(TESSERA_CODELET_ABI_HASH).add(counting ? "counted" : "plain");
    id.addFile(source.string());
    for (const auto& f : userFlags)
      id.add(f);
    GpPart p;
    p.id = id.hex();
    p.counted = counting;
    p.source = source.string();
    for (const auto& v : scan.vertices)
      p.vertices.push_back(v.vertexName);
    const fs::path wrapper = tmp / ("codelets" + std::to_string(part) + ".cpp");
    std::ofstream(wrapper) << registrationSource(source.string(), scan.vertices, p.id,
                                                 counting && !assembly);
    wrappers.push_back(wrapper.string());
    parts.push_back(std::move(p));
  }
  if (assembly) {
    // -S: the assembly of what runs, the host's (the SDK's popc writes the IPU's), with the
    // registration, which makes the compiler emit every vertex's compute().
    std::vector<std::string> cmd = {compiler, "-S"};
    cmd.insert(cmd.end(), common.begin(), common.end());
    cmd = withPch(cmd);
    cmd.insert(cmd.end(), {wrappers[0], "-o", fs::absolute(output).string()});
    const ProcessResult r = run(cmd);
    if (!r.started) return fail(4, r.output + " (install Debian's clang-14 package)");
    std::cerr << withoutWrapperLines(r.output, tmp.string());
    return r.exitCode == 0 ? 0 : fail(1, "compiling the codelets failed (" + compiler + ")");
  }
  // The headers inside the precompiled header are invisible to the scan: they are dependencies
  // all the same (Tessera's own by content, system headers by size and time, as the scan sorts
  // them).
  if (!pch.empty())
    for (const auto& input : precompiledHeaderInputs(pch)) {
      const std::string path = fs::weakly_canonical(input, ec).string();
      (path.rfind(include.string(), 0) == 0 ? meta.contentDeps : meta.statDeps).push_back(path);
    }
  meta.statDeps.push_back(fs::canonical(compiler, ec).string());

  // Without counting: each source to an object. With counting: each source to optimised IR,
  // the counting added to the IR's blocks, and the IR to an object.
  auto irCommand = [&](const std::string& wrapper, const std::string& ir) {
    std::vector<std::string> cmd = {compiler, "-S", "-emit-llvm"};
    // Without -g: the counting adds calls that have no source location, which LLVM's verifier
    // rejects in a function with debug information (it would drop it with a warning per call).
    for (const auto& f : common)
      if (f != "-g") cmd.push_back(f);
    const auto flags = countingIrFlags();
    cmd.insert(cmd.end(), flags.begin(), flags.end());
    cmd = withPch(cmd);
    cmd.insert(cmd.end(), {wrapper, "-o", ir});
    return cmd;
  };
  auto objectCommand = [&](const std::string& in, const std::string& object) {
    std::vector<std::string> cmd = {compiler, "-c"};
    if (counting) {
      // IR in: only the code generation flags apply. The counts are fixed in the IR already, so
      // the optimiser may vectorise and unroll again here: the counters become per-loop sums.
      for (const auto& f : common)
        if (f.rfind("-O", 0) == 0 || f.rfind("-f", 0) == 0 || f == "-g" || f.rfind("-W", 0) == 0)
          cmd.push_back(f);
    } else {
      cmd.insert(cmd.end(), common.begin(), common.end());
      cmd = withPch(cmd);
    }
    cmd.insert(cmd.end(), {in, "-o", object});
    return cmd;
  };
  auto compilerFailed = [&](const ProcessResult& r) {
    if (!r.started) return fail(4, r.output + " (install Debian's clang-14 package)");
    std::cerr << withoutWrapperLines(r.output, tmp.string());
    return fail(1, "compiling the codelets failed (" + compiler + ")");
  };
  std::vector<CountedBlock> blocks;
  for (std::size_t part = 0; part < wrappers.size(); ++part) {
    const std::string& wrapper = wrappers[part];
    const std::string object = wrapper + ".o";
    ProcessResult r;
    if (counting) {
      const std::string ir = wrapper + ".ll", counted = wrapper + ".counted.ll";
      r = run(irCommand(wrapper, ir));
      if (r.started && r.exitCode != 0 && !pch.empty() && mentionsPrecompiledHeader(r.output)) {
        pch.clear();
        r = run(irCommand(wrapper, ir));
      }
      if (!r.started || r.exitCode != 0) return compilerFailed(r);
      std::cerr << withoutWrapperLines(r.output, tmp.string());
      std::ofstream(counted) << instrumentIr(readAll(ir), blocks);
      r = run(objectCommand(counted, object));
    } else {
      r = run(objectCommand(wrapper, object));
      if (r.started && r.exitCode != 0 && !pch.empty() && mentionsPrecompiledHeader(r.output)) {
        pch.clear(); // the scan accepted it, the compiler did not: compile without it
        r = run(objectCommand(wrapper, object));
      }
    }
    if (!r.started || r.exitCode != 0) return compilerFailed(r);
    std::cerr << withoutWrapperLines(r.output, tmp.string());
    parts[part].object = readAll(object);
  }
  if (!listCounts.empty()) {
    std::ofstream list(listCounts);
    list << "# popc execution counts: function<TAB>block<TAB>instructions counted per execution\n";
    for (const auto& b : blocks)
      list << b.function << "\t" << b.block << "\t" << b.instructions << "\n";
    if (!list) return fail(2, "cannot write '" + listCounts + "'");
  }

  // The parts of the .gp inputs, as this popc wrote them (a part already here is not repeated:
  // PopLibs links one source's partial .gp per IPU target, which on the host are the same).
  for (const auto& input : gpInputs) {
    std::string why;
    const auto gp = readTrailer(input, why);
    if (!gp) return fail(2, "cannot link '" + input + "': " + why);
    if (gp->abiHash != TESSERA_CODELET_ABI_HASH)
      return fail(2, "cannot link '" + input + "': it was compiled against another " +
                         "poplar/Vertex.hpp (Tessera " + gp->tesseraVersion +
                         "); compile it again with this popc");
    const std::string image = readAll(input);
    const auto section =
        elfSection(std::string_view(image).substr(0, gp->objectSize), kPartsSection, why);
    if (!section)
      return fail(2, "cannot link '" + input + "': " + why +
                         " (a .gp made by a popc older than Tessera 0.1's linking holds no "
                         "linkable parts; compile it again)");
    auto found = parseParts(*section, why);
    if (!found) return fail(2, "cannot link '" + input + "': " + why);
    for (auto& p : *found) {
      const bool seen =
          std::any_of(parts.begin(), parts.end(), [&](const GpPart& q) { return q.id == p.id; });
      if (!seen) parts.push_back(std::move(p));
    }
    meta.sources.insert(meta.sources.end(), gp->sources.begin(), gp->sources.end());
    meta.contentDeps.insert(meta.contentDeps.end(), gp->contentDeps.begin(), gp->contentDeps.end());
    meta.statDeps.insert(meta.statDeps.end(), gp->statDeps.begin(), gp->statDeps.end());
  }
  // One vertex name, one definition, as the SDK's linker requires (a second __runCodelet_ symbol
  // would be a duplicate definition); and one way of counting for the whole .gp.
  std::map<std::string, std::string> vertexSource;
  for (const auto& p : parts)
    for (const auto& v : p.vertices) {
      const auto [it, added] = vertexSource.emplace(v, p.source);
      if (!added)
        return fail(2, "vertex '" + v + "' is defined twice: in " + it->second + " and in " +
                           p.source + " (each vertex may be linked into a .gp once)");
      meta.vertices.push_back(v);
    }
  const bool countedGp = !parts.empty() && parts.front().counted;
  for (const auto& p : parts)
    if (p.counted != countedGp)
      return fail(2, "cannot link parts built with execution counts (" +
                         (countedGp ? parts.front().source : p.source) +
                         ") with parts built with --no-execution-counts (" +
                         (countedGp ? p.source : parts.front().source) +
                         "): build them the same way");
  std::set<std::string> uniqueSources(meta.sources.begin(), meta.sources.end());
  meta.sources.assign(uniqueSources.begin(), uniqueSources.end());

  // The entry points, and the parts themselves in a section the loader never maps, so that this
  // .gp can be linked again.
  std::vector<std::string> linkInputs, ids;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const fs::path object = tmp / ("part" + std::to_string(i) + ".o");
    std::ofstream(object, std::ios::binary) << parts[i].object;
    linkInputs.push_back(object.string());
    ids.push_back(parts[i].id);
  }
  const fs::path entry = tmp / "entry.cpp", blob = tmp / "parts.bin", partsAsm = tmp / "parts.s";
  std::ofstream(entry) << entrySource(ids, countedGp);
  std::ofstream(blob, std::ios::binary) << formatParts(parts);
  std::ofstream(partsAsm) << partsAssembly(blob.string());
  for (const fs::path& in : {entry, partsAsm}) {
    const std::string object = in.string() + ".o";
    const ProcessResult r = run({compiler, "-c", "-O2", "-fPIC", in.string(), "-o", object});
    if (!r.started || r.exitCode != 0) return compilerFailed(r);
    linkInputs.push_back(object);
  }

  // half vectors (__fp16) convert through compiler-rt's __gnu_h2f_ieee and __gnu_f2h_ieee on
  // x86, which libgcc lacks: the .gp takes them from clang's builtins archive, else it would not
  // load (undefined symbols). Debian's libclang-rt-14-dev has it (scripts/setup.sh).
  std::string halfRuntime;
  {
    const ProcessResult rt =
        runProcess({compiler, "--rtlib=compiler-rt", "--print-libgcc-file-name"});
    const std::string path = rt.output.substr(0, rt.output.find('\n'));
    if (rt.started && rt.exitCode == 0 && fs::is_regular_file(path, ec)) halfRuntime = path;
  }
  // Link next to the output and rename: a reader never sees a half-written .gp.
  const fs::path out = fs::absolute(output);
  const fs::path partial = out.string() + ".tmp" + std::to_string(getpid());
  std::vector<std::string> link = {compiler, "-shared"};
  link.insert(link.end(), linkInputs.begin(), linkInputs.end());
  link.insert(link.end(), {"-o", partial.string(), "-L" + tesseraLibDir().string(), "-lpoplar"});
  if (!halfRuntime.empty()) link.push_back(halfRuntime);
  const ProcessResult r = run(link);
  if (!r.started || r.exitCode != 0) {
    fs::remove(partial, ec);
    return compilerFailed(r);
  }
  std::cerr << withoutWrapperLines(r.output, tmp.string());
  std::string error;
  if (!appendTrailer(partial.string(), meta, error)) {
    fs::remove(partial, ec);
    return fail(2, error);
  }
  fs::rename(partial, out, ec);
  if (ec) {
    fs::remove(partial, ec);
    return fail(2, "cannot write '" + out.string() + "'");
  }
  return 0;
}
