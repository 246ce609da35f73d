#!/usr/bin/env python3
"""Compiles public Poplar user code against Tessera's headers and lists what fails (issue 33).

Run by hand: it needs the repositories (git directories, bare or not, such as the mirrors the
project's `fetch` brings to /work/.mirror/<owner>+<name>/repo, or plain checkouts).

    scripts/poplar-survey.py [--prefix DIR | --source-headers] [--std c++17] REPO...

Every C++ translation unit (.cpp, .cc, .cxx) of each repository's newest commit that includes a
Poplar SDK header (<poplar/...>, <popops/...>, <poplin/...>, <popnn/...>, <poprand/...>,
<poputil/...>, <gcl/...>, <pva/...>, <pvti/...>) is compiled with `g++ -fsyntax-only` against the
installed headers of --prefix (default: the prefix of `popc` on PATH, as after sourcing
enable.sh) or, with --source-headers, against this tree's headers. Codelet files (those that
include <poplar/Vertex.hpp> and no host header) are compiled as popc compiles them: clang++-14,
C++17, __POPC__ defined. The repository's own include directories (every directory of a header
file in it, and their parents) are on the include path, so that its own headers are found.

Each unit is reported as `ok`, `fails` (with the first error) or `needs` (it includes a header
outside the Poplar SDK and the standard library that the repository does not have: Boost,
TensorFlow, PopART...); the last line counts them. Exit status 0 unless the script itself fails.
"""
import argparse
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
    parser.add_argument("repos", nargs="+", help="git directories or checkouts")
    parser.add_argument("--prefix", help="Tessera installation (default: where popc is)")
    parser.add_argument("--source-headers", action="store_true",
                        help="use this tree's headers instead of an installation")
    parser.add_argument("--std", default="c++17", help="language standard of host units")
    parser.add_argument("--cxx", default="g++", help="compiler of host units (default g++)")
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

    counts = {"ok": 0, "fails": 0, "needs": 0}
    for repo in args.repos:
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
                    if missing:
                        counts["needs"] += 1
                        print(f"needs  {name}: {', '.join(missing[:3])}")
                        continue
                    error = compile_unit(path, sdk_dirs + sorted(dirs) + [root], args.std,
                                         codelet, args.cxx)
                    missing_header = re.search(r"fatal error: ([^:]+): No such file", error or "")
                    if missing_header and not missing_header.group(1).startswith(SDK_PREFIXES):
                        counts["needs"] += 1
                        print(f"needs  {name}: {missing_header.group(1)} (through a header)")
                    elif error is None:
                        counts["ok"] += 1
                        print(f"ok     {name}")
                    else:
                        counts["fails"] += 1
                        print(f"fails  {name}: {error.replace(tree + '/', '')}")
    total = sum(counts.values())
    print(f"{total} units: {counts['ok']} compile, {counts['fails']} fail, "
          f"{counts['needs']} need something outside the Poplar SDK")


if __name__ == "__main__":
    sys.exit(main())
