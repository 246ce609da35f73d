#!/usr/bin/env python3
"""Compiles public Poplar user code against Tessera's headers and lists what fails (issue 33).

Run by hand: it needs the repositories (git directories, bare or not, such as the mirrors the
project's `fetch` brings to /work/.mirror/<owner>+<name>/repo, or plain checkouts).

    scripts/poplar-survey.py [--prefix DIR | --source-headers] [--std c++17] [-j N] [REPO...]

With no REPO, it surveys the repositories of docs/compatibility.md ("Survey of public code"),
listed in SURVEYED below, from --mirrors (default /work/.mirror, where `fetch` puts them as
<owner>+<name>/repo); those not there are named and skipped.

Every C++ translation unit (.cpp, .cc, .cxx) of each repository's newest commit that includes a
Poplar SDK header (<poplar/...>, <popops/...>, <poplin/...>, <popnn/...>, <poprand/...>,
<poputil/...>, <gcl/...>, <pva/...>, <pvti/...>) is compiled with `g++ -fsyntax-only` against the
installed headers of --prefix (default: the prefix of `popc` on PATH, as after sourcing
enable.sh) or, with --source-headers, against this tree's headers. Codelet files (those that
include <poplar/Vertex.hpp> and no host header) are compiled as popc compiles them: clang++-14,
C++17, __POPC__ defined. The repository's own include directories (every directory of a header
file in it, and their parents) are on the include path, so that its own headers are found.
Files under a hidden directory (.ipynb_checkpoints/, .github/) are editors' copies, not units.

Each unit is reported as `ok`, `fails` (with the first error) or `needs` (it includes a header
outside the Poplar SDK and the standard library that the repository does not have: Boost,
TensorFlow, PopART...); the last line counts them. Exit status 0 unless the script itself fails.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

SDK_PREFIXES = ("poplar/", "popops/", "poplin/", "popnn/", "poprand/", "poputil/", "gcl/",
                "pva/", "pvti/", "popsparse/", "popfloat/", "poplibs_support/", "print.h",
                "ipudef.h", "ipu_builtins.h", "ipu_memory_intrinsics", "ipu_vector_math",
                "ipuvectormath", "ipu_intrinsics", "arch/gc_tile_defines.h", "StackSizeDefs.hpp")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
SOURCE_EXTS = (".cpp", ".cc", ".cxx")
# The repositories surveyed, in the order docs/compatibility.md reports them: C++ host programs,
# codelets and PopLibs users that need nothing outside the Poplar SDK (no PopART, PopTorch or
# TensorFlow custom operations).
SURVEYED = (
    "UoB-HPC/ipu-hpc-cookbook", "UoB-HPC/structured-grids-stencils-on-ipu",
    "thorbenlouw/lbm-graphcore", "markp-gc/poplar_explorer", "paolosyloslabini/popSparta",
    "esa-tu-darmstadt/graphene", "graphcore-research/tessellate-ipu", "joeaortiz/gbp-poplar",
    "JuliaIPU/IPUToolkit.jl",
    # Added by the second survey (2026-11-29).
    "simehaa/IPU", "TszwangKo/FYP_IPU_DEVITO", "Yoeori/thesis", "corwinjoy/xpu-benchmark",
    "graphcore/hpc-cookbook", "Nmjfry/gaussian_splat_ipu", "Zulkhuu/radfoam-ipu",
    "markp-gc/ipu_ray_lib", "graphcore-research/sparsity-benchmarks",
    # Added by the third survey (2026-11-30, issue 34): programs that call PopLibs beyond
    # element-wise operations (matmuls, losses, sorts, top-k, reductions, QR factorisation).
    "graphcore/examples", "kouteisang/Poplar_API", "kouteisang/PaperID13Alenex25",
    "JoeMad21/FireHose",
)
# A header the compiler could not find: GCC's wording, then clang's.
MISSING_HEADER_RE = re.compile(
    r"fatal error: (?:([^:\s]+): No such file|'([^']+)' file not found)")
HEADER_EXTS = (".hpp", ".h", ".hh", ".hxx", ".inc")


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True,
                          capture_output=True).stdout


def export_tree(repo, dest):
    """The newest commit of `repo` (a git directory or a work tree) written out to `dest`."""
    gitdir = repo
    for candidate in (os.path.join(repo, ".git"), repo):
        if os.path.isdir(candidate) and os.path.exists(os.path.join(candidate, "HEAD")):
            gitdir = candidate
            break
    else:
        raise SystemExit(f"poplar-survey: {repo} is not a git repository")
    # Only sources and headers: a mirror may lack its largest files (images, data).
    listing = git(gitdir, "ls-tree", "-r", "-z", "HEAD").decode(errors="replace")
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob" or not path.endswith(SOURCE_EXTS + HEADER_EXTS):
            continue
        if any(part.startswith(".") for part in path.split("/")[:-1]):
            continue
        try:
            data = git(gitdir, "cat-file", "blob", sha)
        except subprocess.CalledProcessError:
            continue
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)


def standard_header(name):
    """True for names the C++ and C standard libraries and POSIX provide."""
    return "/" not in name and "." not in name or name.endswith(".h") and "/" not in name \
        or name.startswith(("sys/", "bits/"))


def classify(path):
    text = open(path, errors="replace").read()
    includes = INCLUDE_RE.findall(text)
    sdk = [i for i in includes if i.startswith(SDK_PREFIXES)]
    codelet = "poplar/Vertex.hpp" in includes and not any(
        i.startswith(("poplar/Engine", "poplar/Graph", "poplar/Device", "poplar/IPUModel"))
        for i in includes)
    return includes, sdk, codelet


def compile_unit(path, include_dirs, std, codelet, cxx):
    if codelet:
        cmd = ["clang++-14", "-std=c++17", "-fsyntax-only", "-D__POPC__", "-w"]
    else:
        cmd = [cxx, f"-std={std}", "-fsyntax-only", "-w"]
    for d in include_dirs:
        cmd += ["-I", d]
    result = subprocess.run(cmd + [path], capture_output=True, text=True)
    if result.returncode == 0:
        return None
    for line in result.stderr.splitlines():
        if "error" in line:
            return line.strip()
    return result.stderr.strip().splitlines()[0] if result.stderr.strip() else "failed"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repos", nargs="*",
                        help="git directories or checkouts (default: SURVEYED from --mirrors)")
    parser.add_argument("--mirrors", default="/work/.mirror",
                        help="where <owner>+<name>/repo mirrors are (with no REPO)")
    parser.add_argument("--prefix", help="Tessera installation (default: where popc is)")
    parser.add_argument("--source-headers", action="store_true",
                        help="use this tree's headers instead of an installation")
    parser.add_argument("--std", default="c++17", help="language standard of host units")
    parser.add_argument("--cxx", default="g++", help="compiler of host units (default g++)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="compilations at a time (default 1)")
    args = parser.parse_args()

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args.source_headers:
        sdk_dirs = [os.path.join(here, d) for d in (
            "engine/include", "engine/poplibs/include", "libpva/include", "libpvti/include",
            "profiler/include")]
        sdk_dirs = [d for d in sdk_dirs if os.path.isdir(d)]
    else:
        prefix = args.prefix
        if not prefix:
            popc = shutil.which("popc")
            if not popc:
                raise SystemExit("poplar-survey: no --prefix and no popc on PATH "
                                 "(source <prefix>/enable.sh, or pass --source-headers)")
            prefix = os.path.dirname(os.path.dirname(os.path.realpath(popc)))
        sdk_dirs = [os.path.join(prefix, "include")]

    repos = args.repos
    if not repos:
        repos = []
        for name in SURVEYED:
            path = os.path.join(args.mirrors, name.replace("/", "+"), "repo")
            if os.path.isdir(path):
                repos.append(path)
            else:
                print(f"absent {name}: no {path} (fetch it first)")
    counts = {"ok": 0, "fails": 0, "needs": 0}
    for repo in repos:
        with tempfile.TemporaryDirectory() as tree:
            export_tree(repo, tree)
            headers, dirs = set(), set()
            for root, _, files in os.walk(tree):
                for f in files:
                    if f.endswith(HEADER_EXTS):
                        rel = os.path.relpath(os.path.join(root, f), tree)
                        headers.add(rel)
                        # The header's directory and its parents: a repository includes its
                        # headers by paths from any of them ("libgraphene/util/Runtime.hpp").
                        d = root
                        while os.path.relpath(d, tree) != os.pardir and d not in dirs:
                            dirs.add(d)
                            if d == tree:
                                break
                            d = os.path.dirname(d)
            # The units first, then their compilations (-j at a time, reported in order).
            units = []
            for root, _, files in sorted(os.walk(tree)):
                for f in sorted(files):
                    if not f.endswith(SOURCE_EXTS):
                        continue
                    path = os.path.join(root, f)
                    includes, sdk, codelet = classify(path)
                    if not sdk:
                        continue
                    label = repo.rstrip("/").removesuffix("/.git").removesuffix("/repo")
                    name = f"{os.path.basename(label)}:{os.path.relpath(path, tree)}"
                    missing = [i for i in includes
                               if not i.startswith(SDK_PREFIXES) and not standard_header(i)
                               and not any(h.endswith(i) for h in headers)
                               and not os.path.exists(os.path.join(root, i))]
                    units.append((name, path, root, codelet, missing))

            def survey(unit):
                name, path, root, codelet, missing = unit
                if missing:
                    return "needs", f"{name}: {', '.join(missing[:3])}"
                error = compile_unit(path, sdk_dirs + sorted(dirs) + [root], args.std, codelet,
                                     args.cxx)
                missing_header = MISSING_HEADER_RE.search(error or "")
                missing_name = missing_header and (missing_header.group(1)
                                                   or missing_header.group(2))
                if missing_name and not missing_name.startswith(SDK_PREFIXES):
                    return "needs", f"{name}: {missing_name} (through a header)"
                if error is None:
                    return "ok", name
                return "fails", f"{name}: {error.replace(tree + '/', '')}"

            with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
                for verdict, line in pool.map(survey, units):
                    counts[verdict] += 1
                    print(f"{verdict:6} {line}", flush=True)
    total = sum(counts.values())
    print(f"{total} units: {counts['ok']} compile, {counts['fails']} fail, "
          f"{counts['needs']} need something outside the Poplar SDK")


if __name__ == "__main__":
    sys.exit(main())
