// popc: Tessera's codelet compiler, named and used as the Poplar SDK's.
//
//   popc [-I dir] [-D name[=value]] [-O0|-O1|-O2|-O3|-Os] [-g] [--pch-dir dir]
//   [--no-execution-counts] [--list-counts file] [-o out.gp] codelets.cpp...
//
// Finds the vertex classes of each source with libclang, writes their registration, and
// compiles source and registration for the host with clang-14 into one shared object, the
// .gp file Graph::addCodelets loads. Exit status: 0 done, 1 the source does not compile,
// 2 bad usage or unreadable input, 3 a vertex class Tessera cannot use, 4 no host compiler.
#include "ExecutionCounting.hpp"
#include "Precompiled.hpp"
#include "RegistrationWriter.hpp"
#include "Scanner.hpp"
#include "codelets/GpFile.hpp"
#include "codelets/Subprocess.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tessera::codelets;
using namespace popc;

namespace {

constexpr const char* kUsage =
    "usage: popc [-I dir] [-D name[=value]] [-U name] [-O0|-O1|-O2|-O3|-Os] [-g] [-W...]\n"
    "            [-f...] [-std=...] [-X arg] [--target ipu1,ipu2,ipu21] [-S] [-v]\n"
    "            [--pch-dir dir] [--no-execution-counts] [--list-counts file]\n"
    "            [-o out.gp] codelets.cpp...\n"
    "       popc --version | --list-targets | --help\n"
    "Compiles Poplar codelet sources (vertex classes) into a .gp file for Graph::addCodelets.\n"
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
  for (const auto& input : inputs) {
    const std::string ext = fs::path(input).extension().string();
    if (ext == ".S" || ext == ".s")
      return fail(2, "'" + input +
                         "' is IPU assembly, which cannot run on the host: Tessera compiles only "
                         "C++ codelets (docs/compatibility.md)");
    if (ext == ".gp")
      return fail(2, "'" + input +
                         "' is a compiled .gp: Tessera's popc does not link .gp files together; "
                         "compile the sources into one .gp instead");
  }
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

  std::vector<std::string> wrappers;
  for (unsigned part = 0; part < inputs.size(); ++part) {
    const fs::path source = fs::absolute(inputs[part]).lexically_normal();
    if (!fs::is_regular_file(source, ec))
      return fail(2, "cannot read codelet source '" + inputs[part] + "'");
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
    for (const auto& v : scan.vertices)
      meta.vertices.push_back(v.vertexName);
    meta.contentDeps.insert(meta.contentDeps.end(), scan.contentDeps.begin(),
                            scan.contentDeps.end());
    meta.statDeps.insert(meta.statDeps.end(), scan.statDeps.begin(), scan.statDeps.end());
    const fs::path wrapper = tmp / ("codelets" + std::to_string(part) + ".cpp");
    std::ofstream(wrapper) << registrationSource(source.string(), scan.vertices, part,
                                                 static_cast<unsigned>(inputs.size()),
                                                 counting && !assembly);
    wrappers.push_back(wrapper.string());
  }
  if (assembly) {
    // -S: the assembly of what runs, the host's (the SDK's popc writes the IPU's), with the
    // registration, which makes the compiler emit every vertex's compute().
    if (wrappers.size() != 1) return fail(2, "-S takes one codelet source");
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

  // Compile next to the output and rename: a reader never sees a half-written .gp.
  const fs::path out = fs::absolute(output);
  const fs::path partial = out.string() + ".tmp" + std::to_string(getpid());
  // Without counting: sources to the shared object in one step. With counting: each source to
  // optimised IR, the counting added to the IR's blocks, and the IR to the shared object.
  std::vector<std::string> linkInputs = wrappers;
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
  auto compileCommand = [&] {
    std::vector<std::string> cmd = {compiler, "-shared"};
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
    cmd.insert(cmd.end(), linkInputs.begin(), linkInputs.end());
    cmd.insert(cmd.end(), {"-o", partial.string(), "-L" + tesseraLibDir().string(), "-lpoplar"});
    if (!halfRuntime.empty()) cmd.push_back(halfRuntime);
    return cmd;
  };
  ProcessResult r;
  if (counting) {
    linkInputs.clear();
    std::vector<CountedBlock> blocks;
    for (const auto& wrapper : wrappers) {
      const std::string ir = wrapper + ".ll", counted = wrapper + ".counted.ll";
      r = run(irCommand(wrapper, ir));
      if (r.started && r.exitCode != 0 && !pch.empty() && mentionsPrecompiledHeader(r.output)) {
        pch.clear();
        r = run(irCommand(wrapper, ir));
      }
      if (!r.started) return fail(4, r.output + " (install Debian's clang-14 package)");
      if (r.exitCode != 0) {
        std::cerr << withoutWrapperLines(r.output, tmp.string());
        return fail(1, "compiling the codelets failed (" + compiler + ")");
      }
      std::cerr << withoutWrapperLines(r.output, tmp.string());
      std::ifstream in(ir);
      std::stringstream text;
      text << in.rdbuf();
      std::ofstream(counted) << instrumentIr(text.str(), blocks);
      linkInputs.push_back(counted);
    }
    if (!listCounts.empty()) {
      std::ofstream list(listCounts);
      list
          << "# popc execution counts: function<TAB>block<TAB>instructions counted per execution\n";
      for (const auto& b : blocks)
        list << b.function << "\t" << b.block << "\t" << b.instructions << "\n";
      if (!list) return fail(2, "cannot write '" + listCounts + "'");
    }
    r = run(compileCommand());
  } else {
    r = run(compileCommand());
    if (r.started && r.exitCode != 0 && !pch.empty() && mentionsPrecompiledHeader(r.output)) {
      pch.clear(); // the scan accepted it, the compiler did not: compile without it
      r = run(compileCommand());
    }
  }
  if (!r.started) return fail(4, r.output + " (install Debian's clang-14 package)");
  std::cerr << withoutWrapperLines(r.output, tmp.string());
  if (r.exitCode != 0) {
    fs::remove(partial, ec);
    return fail(1, "compiling the codelets failed (" + compiler + ")");
  }
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
