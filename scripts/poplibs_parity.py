#!/usr/bin/python3
"""PopLibs parity: PopLibs' public declarations as data, and a check that Tessera has them.

Two commands share one reading of C++ headers (libclang, python3-clang-14), so the list and
the check can never disagree about what a "declaration" or a "signature" is:

  extract  PopLibs' public headers (a fetched graphcore/poplibs, include/) -> the data file.
           Run by hand when the reference changes; the data file is committed.
  check    Tessera's public headers against the data file and the allowlist of declarations
           known to be missing. Fails when a present declaration disappears, or when a missing
           one appears without the allowlist being updated (--update-allowlist rewrites it).

What is compared (see docs/compatibility.md, "Parity with PopLibs"):
  header     the file exists at the same path under Tessera's include directories;
  name       every class, struct, enum, enumerator, typedef/alias, variable, public data member,
             function and macro, by qualified name, reachable from that header (declared in it
             or in a header it includes);
  signature  every public function, method and constructor: some Tessera overload with the same
             qualified name, reachable from the header, accepts every call the PopLibs one does
             (same return type, same parameter types by canonical spelling, at least the same
             defaults; an overload set may stand in for default arguments).
"""

import argparse
import os
import re
import sys
import tempfile
from collections import defaultdict

try:
    import clang.cindex as ci
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("poplibs_parity: python3-clang-14 is missing (scripts/setup.sh installs it)")

LIBCLANG = "/usr/lib/llvm-14/lib/libclang-14.so.1"

# The PopLibs libraries the parity covers (gcl ships separately from PopLibs).
LIBRARIES = ["popops", "poplin", "popnn", "poputil", "poprand", "popsparse", "popfloat"]

# Namespaces that hold implementation detail even inside public headers.
PRIVATE_NAMESPACES = {"detail", "internal", ""}

K = ci.CursorKind
FUNCTION_KINDS = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR, K.CONVERSION_FUNCTION}
NAME_KINDS = {
    K.CLASS_DECL: "class", K.STRUCT_DECL: "struct", K.CLASS_TEMPLATE: "class",
    K.UNION_DECL: "union", K.ENUM_DECL: "enum", K.ENUM_CONSTANT_DECL: "enumerator",
    K.TYPEDEF_DECL: "typedef", K.TYPE_ALIAS_DECL: "typedef", K.TYPE_ALIAS_TEMPLATE_DECL: "typedef",
    K.VAR_DECL: "variable", K.FIELD_DECL: "member",
}


def _init_libclang():
    if not ci.Config.loaded and os.path.exists(LIBCLANG):
        ci.Config.set_library_file(LIBCLANG)


def library_headers(include_dir):
    """Public headers of the covered libraries under include_dir, as relative paths."""
    found = []
    for lib in LIBRARIES:
        root = os.path.join(include_dir, lib)
        for dirpath, _, files in os.walk(root):
            for f in files:
                if f.endswith(".hpp"):
                    found.append(os.path.relpath(os.path.join(dirpath, f), include_dir))
    return sorted(found)


def _qualified(cursor):
    parts = []
    c = cursor
    while c is not None and c.kind != K.TRANSLATION_UNIT:
        parts.append(c.spelling)
        c = c.semantic_parent
    return "::".join(reversed(parts))


def _is_private(cursor):
    c = cursor
    while c is not None and c.kind != K.TRANSLATION_UNIT:
        if c.kind == K.NAMESPACE and c.spelling in PRIVATE_NAMESPACES:
            return True
        if c.access_specifier in (ci.AccessSpecifier.PRIVATE, ci.AccessSpecifier.PROTECTED):
            return True
        c = c.semantic_parent
    return False


def _type_text(t, cursor):
    """Canonical spelling; a type clang could not resolve is kept as written, marked."""
    canon = " ".join(t.get_canonical().spelling.split())
    if _recovered_int(canon):
        # clang recovers from an unknown type by using int: if int is not written, it was one.
        written = " ".join(tok.spelling for tok in cursor.get_tokens())
        if not re.search(r"\b(int|unsigned|signed)\b", written):
            return "<unresolved>"
    return _drop_top_level_const(canon)


def _recovered_int(canon):
    """Whether a canonical spelling is what clang makes of a type it could not resolve: int
    itself, maybe const, a reference or a pointer. An int inside a resolved type (a typedef of
    std::function<void(unsigned int)>) is not one."""
    return re.fullmatch(r"(const )?int( ?[&*]+)?", canon) is not None


def _written_qualified(tokens):
    """The written spelling of a type, when it names only qualified names and builtins (so it
    reads the same wherever it is written, as a canonical spelling does), else None. PopLibs'
    headers use names from headers they do not include (popnn/Recurrent.hpp returns
    poplin::MatMulParams): the type, fully qualified as written, is still what it declares."""
    builtins = {"const", "unsigned", "signed", "int", "long", "short", "char", "bool", "float",
                "double", "void", "size_t"}
    out = ""
    for i, tok in enumerate(tokens):
        ident = re.fullmatch(r"[A-Za-z_]\w*", tok) is not None
        if ident and tok not in builtins:
            qualified = (i > 0 and tokens[i - 1] == "::") or (i + 1 < len(tokens) and tokens[i + 1] == "::")
            if not qualified:
                return None
        if out and ((ident and re.search(r"\w$", out)) or tok in ("&", "&&", "*")):
            out += " "  # as clang spells types: "const T &", "T *"
        out += tok
        if tok == ",":
            out += " "
    return out or None


def _drop_top_level_const(spelling):
    """A parameter's top-level const is not part of a function's signature (f(const float) and
    f(float) are one function), so it is not compared."""
    if spelling.endswith(("*const", "* const")):
        return spelling[: spelling.rfind("const")].rstrip()
    if spelling.startswith("const ") and not spelling.endswith(("&", "*")):
        return spelling[len("const "):]
    return spelling


def _return_text(cursor):
    canon = " ".join(cursor.result_type.get_canonical().spelling.split())
    if _recovered_int(canon):
        written = []
        for tok in cursor.get_tokens():
            if tok.spelling == cursor.spelling:
                break
            written.append(tok.spelling)
        if not re.search(r"\b(int|unsigned|signed|auto)\b", " ".join(written)):
            return _written_qualified(written) or "<unresolved>"
    return canon


def _function_record(cursor):
    params = []
    defaults = 0
    for p in cursor.get_arguments() if cursor.kind != K.FUNCTION_TEMPLATE else []:
        params.append(_type_text(p.type, p))
        if any(tok.spelling == "=" for tok in p.get_tokens()):
            defaults += 1
    if cursor.kind == K.FUNCTION_TEMPLATE:
        # get_arguments() is empty for templates; the parameters are the PARM_DECL children.
        for p in cursor.get_children():
            if p.kind == K.PARM_DECL:
                params.append(_type_text(p.type, p))
                if any(tok.spelling == "=" for tok in p.get_tokens()):
                    defaults += 1
    ret = "" if cursor.kind == K.CONSTRUCTOR else _return_text(cursor)
    const = " const" if cursor.is_const_method() else ""
    return ret, params, defaults, const


def parse_headers(include_dirs, headers, extra_dirs=(), preinclude=()):
    """One translation unit including every header; returns (decls, reach, errors).

    decls: list of (header, kind, qualified name, signature fields or None);
    reach: header -> set of headers it makes visible (itself and what it includes)."""
    _init_libclang()
    roots = [os.path.realpath(d) for d in include_dirs]

    def rel(path):
        real = os.path.realpath(path)
        for r in roots:
            if real.startswith(r + os.sep):
                return os.path.relpath(real, r)
        return None

    source = "".join('#include <%s>\n' % h for h in list(preinclude) + list(headers))
    args = ["-x", "c++", "-std=c++17", "-fsyntax-only", "-ferror-limit=0"]
    for d in list(include_dirs) + list(extra_dirs):
        args += ["-I", d]
    index = ci.Index.create()
    tu = index.parse("parity.cpp", args=args, unsaved_files=[("parity.cpp", source)],
                     options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
                     | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    # Kept as text: a Diagnostic outlives its translation unit badly (libclang frees it).
    errors = ["%s:%s: %s" % (d.location.file, d.location.line, d.spelling)
              for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]

    edges = defaultdict(set)
    for inc in tu.get_includes():
        src = rel(inc.source.name) if inc.source else None
        dst = rel(inc.include.name)
        if src and dst:
            edges[src].add(dst)
    reach = {}
    for h in headers:
        seen, todo = {h}, [h]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        reach[h] = seen

    decls = []
    wanted = set(LIBRARIES)

    def visit(cursor):
        for c in cursor.get_children():
            loc = c.location.file
            header = rel(loc.name) if loc else None
            if header is None or header.split(os.sep)[0] not in wanted:
                continue
            if c.kind == K.MACRO_DEFINITION:
                name = c.spelling
                toks = [t.spelling for t in c.get_tokens()]
                if len(toks) > 1 and not name.endswith(("_hpp", "_HPP", "_H", "_h")):
                    decls.append((header, "macro", name, None))
                continue
            if c.kind == K.NAMESPACE:
                if c.spelling not in PRIVATE_NAMESPACES:
                    visit(c)
                continue
            if c.kind in (K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                visit(c)
                continue
            if _is_private(c) or not c.spelling:
                continue
            if c.kind in FUNCTION_KINDS:
                if c.kind == K.CONSTRUCTOR and (c.is_copy_constructor() or c.is_move_constructor()):
                    continue
                decls.append((header, "function", _qualified(c), _function_record(c)))
            elif c.kind in NAME_KINDS:
                decls.append((header, NAME_KINDS[c.kind], _qualified(c), None))
                if c.kind in (K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.ENUM_DECL, K.UNION_DECL):
                    visit(c)

    visit(tu.cursor)
    return decls, reach, errors


def signature_key(name, sig):
    ret, params, _, const = sig
    return "%s(%s)%s -> %s" % (name, ", ".join(params), const, ret or "ctor")


# ---------------------------------------------------------------------------------------------
# The data file: one declaration a line, tab-separated.
#   header <path>
#   name <path> <kind> <qualified name>
#   signature <path> <qualified name> <return> <defaults> <const> <param>...

def write_data(path, headers, decls, source_note):
    lines = ["# PopLibs public declarations, extracted by scripts/poplibs_parity.py extract",
             "# from " + source_note,
             "# header<TAB>path | name<TAB>path<TAB>kind<TAB>qualified name |",
             "# signature<TAB>path<TAB>qualified name<TAB>return<TAB>defaults<TAB>const<TAB>param..."]
    rows = set()
    for h in headers:
        rows.add(("header", h))
    for header, kind, name, sig in decls:
        rows.add(("name", header, kind, name))
        if sig is not None:
            ret, params, defaults, const = sig
            rows.add(("signature", header, name, ret, str(defaults), const.strip()) + tuple(params))
    order = {"header": 0, "name": 1, "signature": 2}
    for r in sorted(rows, key=lambda r: (order[r[0]],) + r[1:]):
        lines.append("\t".join(r))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def read_data(path):
    headers, names, sigs = [], {}, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            row = line.split("\t")
            if row[0] == "header" and len(row) == 2:
                headers.append(row[1])
            elif row[0] == "name" and len(row) == 4:
                names.setdefault((row[1], row[3]), row[2])
            elif row[0] == "signature" and len(row) >= 6:
                const = " const" if row[5] else ""
                sigs.append((row[1], row[2], (row[3], row[6:], int(row[4]), const)))
            else:
                sys.exit("%s:%d: malformed line (expected header/name/signature rows)" % (path, n))
    return headers, names, sigs


def compatible(pop_sig, candidates):
    """Every call the PopLibs declaration accepts, some Tessera overload accepts."""
    ret, params, defaults, const = pop_sig
    for arity in range(len(params) - defaults, len(params) + 1):
        ok = False
        for tret, tparams, tdefaults, tconst in candidates:
            if tret != ret or tconst != const:
                continue
            if len(tparams) - tdefaults <= arity <= len(tparams) and tparams[:arity] == params[:arity]:
                ok = True
                break
        if not ok:
            return False
    return True


def check(args):
    headers, names, sigs = read_data(args.data)
    present_headers = [h for h in headers if any(os.path.exists(os.path.join(d, h)) for d in args.include)]
    decls, reach, errors = parse_headers(args.include, present_headers)
    if errors:
        for d in errors[:10]:
            print("error parsing Tessera's headers: %s" % d, file=sys.stderr)
        sys.exit("poplibs_parity: Tessera's public headers do not parse (%d errors)" % len(errors))

    have_names = defaultdict(set)      # name -> headers declaring it
    have_funcs = defaultdict(list)     # name -> [(header, sig)]
    for header, kind, name, sig in decls:
        have_names[name].add(header)
        if sig is not None:
            have_funcs[name].append((header, sig))

    missing = set()
    per_lib = defaultdict(lambda: [0, 0, 0, 0, 0, 0])  # headers, of; names, of; sigs, of
    lib = lambda h: h.split("/")[0]
    present = set(present_headers)
    for h in headers:
        per_lib[lib(h)][1] += 1
        if h in present:
            per_lib[lib(h)][0] += 1
        else:
            missing.add("header " + h)
    for (h, name), kind in sorted(names.items()):
        per_lib[lib(h)][3] += 1
        visible = reach.get(h, set())
        if any(x in visible for x in have_names.get(name, ())):
            per_lib[lib(h)][2] += 1
        else:
            missing.add("name %s: %s" % (h, name))
    for h, name, sig in sigs:
        per_lib[lib(h)][5] += 1
        visible = reach.get(h, set())
        cands = [s for x, s in have_funcs.get(name, ()) if x in visible]
        if compatible(sig, cands):
            per_lib[lib(h)][4] += 1
        else:
            missing.add("signature %s: %s" % (h, signature_key(name, sig)))

    total = [sum(v[i] for v in per_lib.values()) for i in range(6)]
    print("%-10s %9s %11s %13s" % ("library", "headers", "names", "signatures"))
    for l in LIBRARIES + ["total"]:
        v = total if l == "total" else per_lib[l]
        print("%-10s %4d/%-4d %5d/%-5d %6d/%-6d" % (l, v[0], v[1], v[2], v[3], v[4], v[5]))

    allowed = set()
    if os.path.exists(args.allowlist):
        with open(args.allowlist) as f:
            allowed = {l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")}
    if args.update_allowlist:
        with open(args.allowlist, "w") as f:
            f.write("# PopLibs declarations Tessera does not have yet (scripts/poplibs_parity.py check\n"
                    "# --update-allowlist writes it). It only shrinks: remove a line when the\n"
                    "# declaration lands; the parity test fails until it matches.\n")
            for m in sorted(missing):
                f.write(m + "\n")
        print("allowlist %s rewritten: %d entries" % (args.allowlist, len(missing)))
        return 0
    appeared = sorted(allowed - missing)
    disappeared = sorted(missing - allowed)
    for a in appeared:
        print("NOW PRESENT (remove from %s): %s" % (os.path.basename(args.allowlist), a))
    for d in disappeared:
        print("MISSING (not in %s): %s" % (os.path.basename(args.allowlist), d))
    if appeared or disappeared:
        print("poplibs_parity: %d declarations disappeared, %d appeared without the allowlist being "
              "updated (rerun with --update-allowlist after checking)" % (len(disappeared), len(appeared)))
        return 1
    print("poplibs_parity: OK, %d known-missing declarations" % len(missing))
    return 0


def extract(args):
    headers = library_headers(args.poplibs_include)
    if not headers:
        sys.exit("poplibs_parity: no PopLibs headers under %s (expected %s/...)" %
                 (args.poplibs_include, "|".join(LIBRARIES)))
    with tempfile.TemporaryDirectory() as shim:
        # Headers PopLibs includes that neither it nor Tessera's Poplar provides: empty stand-ins,
        # so the parse goes on; types they would define show up as <unresolved>.
        for missing in ("gccs/CompilerFeatures.hpp", "poplar/TypeTraits.hpp", "poplar/Quarter.hpp"):
            if not any(os.path.exists(os.path.join(d, missing)) for d in args.poplar_include):
                p = os.path.join(shim, missing)
                os.makedirs(os.path.dirname(p), exist_ok=True)
                with open(p, "w") as f:
                    f.write("#pragma once\n#define GC_DEPRECATED\n#define GC_NO_DISCARD\n")
        # One translation unit per header: clang's recovery from an error in one header (a
        # Poplar type Tessera lacks) must not spoil the declarations of the next.
        decls, errors = set(), []
        for h in headers:
            # Poplar's headers include each other more widely than Tessera's (PopLibs' headers
            # use poplar::Graph having included only Tensor.hpp): Graph.hpp first stands in.
            found, _, errs = parse_headers([args.poplibs_include], [h], list(args.poplar_include) + [shim],
                                           preinclude=["poplar/Graph.hpp"])
            decls.update((d[0], d[1], d[2], None if d[3] is None else
                          (d[3][0], tuple(d[3][1]), d[3][2], d[3][3])) for d in found)
            errors += errs
        decls = [(a, b, c, None if d is None else (d[0], list(d[1]), d[2], d[3])) for a, b, c, d in decls]
    print("parsed %d headers: %d declarations, %d parse errors (unresolved types are marked)" %
          (len(headers), len(decls), len(errors)))
    write_data(args.output, headers, decls, args.source_note)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("extract", help="PopLibs headers -> data file")
    e.add_argument("poplibs_include", help="graphcore/poplibs include/ directory")
    e.add_argument("--poplar-include", action="append", required=True,
                   help="Poplar headers to parse against (Tessera's engine/include)")
    e.add_argument("--source-note", default="graphcore/poplibs", help="where the headers came from")
    e.add_argument("-o", "--output", required=True)
    c = sub.add_parser("check", help="Tessera's headers against the data file")
    c.add_argument("--data", required=True)
    c.add_argument("--allowlist", required=True)
    c.add_argument("--include", action="append", required=True, help="Tessera include directories")
    c.add_argument("--update-allowlist", action="store_true")
    args = ap.parse_args()
    for p in getattr(args, "include", []) + [getattr(args, "poplibs_include", ".")]:
        if not os.path.isdir(p):
            sys.exit("poplibs_parity: include directory %s does not exist" % p)
    if args.command == "check" and not os.path.isfile(args.data):
        sys.exit("poplibs_parity: data file %s does not exist" % args.data)
    return extract(args) if args.command == "extract" else check(args)


if __name__ == "__main__":
    sys.exit(main())
