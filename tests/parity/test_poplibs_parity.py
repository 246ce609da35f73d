#!/usr/bin/python3
"""scripts/poplibs_parity.py on planted trees: it must catch what it exists to catch."""
import os
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]
REFERENCE = """#pragma once
namespace popops {
struct Params { unsigned size; };
enum class Mode { A, B };
int scale(const Params &p, float factor = 1.0f);
void fill(Params &p, unsigned value);
}
#define POPOPS_MACRO(x) (x)
"""


def write(root, text):
    os.makedirs(os.path.join(root, "popops"), exist_ok=True)
    with open(os.path.join(root, "popops", "Planted.hpp"), "w") as f:
        f.write(text)


def run(*args):
    r = subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def check(work, tessera_text, allowlist=""):
    tessera = os.path.join(work, "tessera")
    os.makedirs(tessera, exist_ok=True)
    if tessera_text is not None:
        write(tessera, tessera_text)
    allow = os.path.join(work, "allow.txt")
    with open(allow, "w") as f:
        f.write(allowlist)
    return run("check", "--data", os.path.join(work, "data.tsv"), "--allowlist", allow,
               "--include", tessera)


failures = []


def expect(label, result, code, fragment):
    rc, out = result
    if rc != code or fragment not in out:
        failures.append("%s: exit %d (wanted %d), output lacks %r:\n%s" % (label, rc, code, fragment, out))


with tempfile.TemporaryDirectory() as work:
    ref = os.path.join(work, "poplibs")
    write(ref, REFERENCE)
    rc, out = run("extract", ref, "--poplar-include", ref, "-o", os.path.join(work, "data.tsv"))
    if rc != 0:
        sys.exit("extract failed:\n" + out)

    expect("identical", check(work, REFERENCE), 0, "OK, 0 known-missing")
    # An overload set accepts every call the default argument allows: compatible.
    overloads = REFERENCE.replace("int scale(const Params &p, float factor = 1.0f);",
                                  "int scale(const Params &p);\nint scale(const Params &p, float f);")
    expect("overloads for defaults", check(work, overloads), 0, "OK")
    # Dropping the default breaks scale(p): a signature disappears.
    no_default = REFERENCE.replace("float factor = 1.0f", "float factor")
    expect("lost default", check(work, no_default), 1, "MISSING (not in allow.txt): signature popops/Planted.hpp: popops::scale")
    removed = REFERENCE.replace("void fill(Params &p, unsigned value);\n", "")
    expect("removed function", check(work, removed), 1, "name popops/Planted.hpp: popops::fill")
    retyped = REFERENCE.replace("unsigned value", "int value")
    expect("changed parameter type", check(work, retyped), 1, "popops::fill(popops::Params &, unsigned int)")
    no_macro = REFERENCE.replace("#define POPOPS_MACRO(x) (x)\n", "")
    expect("removed macro", check(work, no_macro), 1, "name popops/Planted.hpp: POPOPS_MACRO")
    # Allowlisted as missing yet present: the allowlist must shrink.
    expect("stale allowlist", check(work, REFERENCE, "name popops/Planted.hpp: popops::Mode\n"), 1,
           "NOW PRESENT")
    # Missing and allowlisted: passes, and the count says so.
    expect("allowlisted", check(work, removed,
                                "name popops/Planted.hpp: popops::fill\n"
                                "signature popops/Planted.hpp: popops::fill(popops::Params &, unsigned int) -> void\n"),
           0, "OK, 2 known-missing")
    os.remove(os.path.join(work, "tessera", "popops", "Planted.hpp"))
    expect("missing header", check(work, None, ""), 1, "header popops/Planted.hpp")

# PopLibs names types from headers it does not include (popnn/Recurrent.hpp returns
# poplin::MatMulParams pairs): a fully qualified one is kept as written and must match Tessera's
# declaration of it; an int inside a typedef (std::function<void(unsigned)>) is not clang's
# recovery from an unknown type.
UNINCLUDED = """#pragma once
#include <functional>
#include <vector>
namespace other { struct Declared; }
namespace popops {
using Callback = std::function<void(unsigned)>;
void each(const Callback &cb);
std::vector<other::Thing> things();
}
"""
TESSERA_UNINCLUDED = UNINCLUDED.replace("namespace other { struct Declared; }",
                                        "namespace other { struct Declared; struct Thing {}; }")
with tempfile.TemporaryDirectory() as work:
    ref = os.path.join(work, "poplibs")
    write(ref, UNINCLUDED)
    rc, out = run("extract", ref, "--poplar-include", ref, "-o", os.path.join(work, "data.tsv"))
    if rc != 0:
        sys.exit("extract failed:\n" + out)
    with open(os.path.join(work, "data.tsv")) as f:
        data = f.read()
    if "<unresolved>" in data or "std::vector<other::Thing>" not in data:
        failures.append("unincluded types: extracted as\n" + data)
    expect("unincluded type as written", check(work, TESSERA_UNINCLUDED), 0, "OK, 0 known-missing")
    other_return = TESSERA_UNINCLUDED.replace("std::vector<other::Thing> things();",
                                              "std::vector<int> things();")
    expect("unincluded type changed", check(work, other_return), 1, "popops::things() -> std::vector<other::Thing>")

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print("poplibs_parity checker: all planted cases caught")
