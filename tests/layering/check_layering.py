#!/usr/bin/python3
"""Fails when a part of Tessera includes what the architecture forbids (docs/architecture.md,
shared DESIGN "Folders and what each owns"):

  viewer  -> profiler, engine, or sqlite3.h   (the viewer reads through libpva only)
  libpva  -> engine                            (the reader never depends on the writer's engine)
  profiler-> libpva                            (the schema and writers sit below the reader)
  libpvti -> libpva, engine                    (trace instrumentation sits below both)

and, inside libpva, that its layers only look down (docs/architecture.md, "Inside libpva"):

  storage (files, SQL)  <  model, trace (the object model)  <  analysis  <  compare

A file of libpva/src/<layer>/ must not include a source file of a higher layer, nor a public
<pva/...> header that belongs to one (LIBPVA_PUBLIC_LAYER says which layer each header is); and
only storage/ speaks SQL (LIBPVA_SQL_HEADERS).

Inside the engine (engine/src/<folder>/, docs/architecture.md "Inside the engine"):

  runtime -> models, profile, report, <profiler/...>  (it runs vertex code and hands raw counts on;
                                                       it knows no cost model and no report format)
  only report/ includes the report writer (ENGINE_REPORT_WRITER): one folder writes report rows

and that each folder's code lives in its folder's namespace: a file of engine/src/<folder>/ opens
only poplar::detail::<folder> (or a namespace inside it), poplar, poplar::program, anonymous
namespaces, or a namespace ENGINE_NAMESPACE_EXCEPTIONS names for that file with its reason.

It reads every #include line of the C/C++ files under each part's folder and decides which part
an included file belongs to, by its include path (<poplar/..>, <pva/..>, ...) or, for a quoted
relative include, by where the file it names is. Usage:

  check_layering.py ROOT          check the source tree at ROOT; exit 1 and list violations
"""
import os
import re
import sys

# Include prefixes (the first path component of <...> includes) owned by each part.
OWNER_BY_PREFIX = {
    "poplar": "engine", "poputil": "engine", "popops": "engine", "poplin": "engine", "popnn": "engine",
    "poprand": "engine", "popsparse": "engine", "gcl": "engine", "popfloat": "engine",
    "profiler": "profiler", "tessera": "profiler",  # <tessera/internal/Sqlite.hpp>: profiler/internal
    "pva": "libpva",
    "pvti": "libpvti",
}
# Single headers that are a part of their own for these rules.
OWNER_BY_HEADER = {"sqlite3.h": "sqlite"}

# part -> parts (or headers) it must not include.
FORBIDDEN = {
    "viewer": {"profiler", "engine", "sqlite"},
    "libpva": {"engine"},
    "profiler": {"libpva"},
    "libpvti": {"libpva", "engine"},
}

# libpva's inner layers, lowest first; a layer may include its own and lower ones only.
LIBPVA_LAYERS = {"storage": 0, "model": 1, "trace": 1, "analysis": 2, "compare": 3}
# The layer of each public header; headers of plain types (errors, ids, counts, the serialized
# graph's records) are layer 0, usable everywhere. A header not listed is refused by the check,
# so a new one has to be placed.
LIBPVA_PUBLIC_LAYER = {
    "Exception.hpp": 0, "Fwd.hpp": 0, "OptionalCount.hpp": 0, "SerializedGraph.hpp": 0,
    "Application.hpp": 0,  # framework.json / app.json beside a report, read in storage

    "Report.hpp": 1, "Compilation.hpp": 1, "Debug.hpp": 1, "Execution.hpp": 1, "Program.hpp": 1,
    "Trace.hpp": 1, "TraceAlignment.hpp": 1, "Job.hpp": 1,  # Job.hpp: a job's instances (model) and summarizeJob's figures
    "Analysis.hpp": 2, "Insights.hpp": 2, "OperationTiles.hpp": 2, "StepCycleKind.hpp": 2,
    "ProgramTotals.hpp": 2, "Blocks.hpp": 2,
    "Compare.hpp": 3, "pva.hpp": 3,
}
LAYER_NAMES = {0: "storage", 1: "model", 2: "analysis", 3: "compare"}
# The SQL of libpva (SQLite and its wrapper) belongs to storage/ alone.
LIBPVA_SQL_HEADERS = {"sqlite3.h", "tessera/internal/Sqlite.hpp"}

# engine/src/<folder> -> folders of engine/src (and include prefixes) it must not include.
ENGINE_FORBIDDEN = {"runtime": {"models", "profile", "report", "<profiler"}}
# The headers that write report rows; only engine/src/report/ includes them.
ENGINE_REPORT_WRITER = {"profiler/ReportWriter.hpp", "profiler/Blob.hpp"}

# The namespaces every file of engine/src/<folder>/ may open besides poplar::detail::<folder>:
# the public API's (the classes the SDK's headers declare there).
ENGINE_PUBLIC_NAMESPACES = {"poplar", "poplar::program"}
# (file under engine/src, namespace) -> why that file opens a namespace not its folder's. An
# entry whose file exists but no longer opens the namespace is reported, so the list only shrinks.
ENGINE_NAMESPACE_EXCEPTIONS = {
    ("graph/GraphState.hpp", "poplar::detail"):
        "defines GraphState, which <poplar/GraphElements.hpp> declares in poplar::detail, and "
        "vertexRegistryGeneration beside the registry functions <poplar/Vertex.hpp> declares there",
    ("graph/TensorData.hpp", "poplar::detail"):
        "defines TensorData, which <poplar/Tensor.hpp> declares in poplar::detail",
    ("graph/ProgramNode.hpp", "poplar::detail"):
        "defines ProgramNode, which <poplar/Program.hpp> declares in poplar::detail",
    ("graph/VertexRegistry.cpp", "poplar::detail"):
        "defines the vertex registry functions <poplar/Vertex.hpp> declares in poplar::detail",
    ("graph/Quarter.cpp", "poplar::detail"):
        "defines the quarter helpers <poplar/Quarter.hpp> declares in poplar::detail",
    ("executable/ExecutableState.hpp", "poplar::core"):
        "defines core::Executable, which <poplar/Executable.hpp> declares as the SDK does",
}

SOURCE_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".inl")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def part_of_path(root, path):
    """The part a file of the tree belongs to: its top folder (None outside the parts)."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    top = rel.split(os.sep, 1)[0]
    return top if top in FORBIDDEN or top == "engine" else None


def included_part(root, including_file, kind, name):
    if name in OWNER_BY_HEADER:
        return OWNER_BY_HEADER[name]
    if kind == '"':
        # A quoted include is found next to the including file first: judge it by where it is.
        candidate = os.path.join(os.path.dirname(including_file), name)
        if os.path.exists(candidate):
            return part_of_path(root, candidate)
    first = name.split("/", 1)[0]
    return OWNER_BY_PREFIX.get(first) if "/" in name else None


def violations(root):
    found = []
    for part, forbidden in sorted(FORBIDDEN.items()):
        for path, number, kind, name in includes_under(os.path.join(root, part)):
            owner = included_part(root, path, kind, name)
            if owner in forbidden and owner != part:
                close = ">" if kind == "<" else '"'
                found.append(f"{os.path.relpath(path, root)}:{number}: {part} includes {kind}{name}{close} "
                             f"({owner}), which {part} must not depend on")
    return found


def libpva_layer_of_source(root, path):
    """(layer name, rank) of a file under libpva/src/<layer>/, else None."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(os.path.join(root, "libpva", "src")))
    parts = rel.split(os.sep)
    if len(parts) < 2 or parts[0] not in LIBPVA_LAYERS:
        return None
    return parts[0], LIBPVA_LAYERS[parts[0]]


def libpva_layer_violations(root):
    found = []
    for path, number, kind, name in includes_under(os.path.join(root, "libpva", "src")):
        mine = libpva_layer_of_source(root, path)
        if mine is None:
            continue
        theirs = None
        if kind == '"':
            candidate = os.path.join(os.path.dirname(path), name)
            if os.path.exists(candidate):
                theirs = libpva_layer_of_source(root, candidate)
        elif name.startswith("pva/"):
            header = name[len("pva/"):]
            if header not in LIBPVA_PUBLIC_LAYER:
                found.append(f"{os.path.relpath(path, root)}:{number}: includes <{name}>, "
                             "a public header with no layer in LIBPVA_PUBLIC_LAYER")
                continue
            rank = LIBPVA_PUBLIC_LAYER[header]
            theirs = (LAYER_NAMES[rank], rank)
        if theirs and theirs[1] > mine[1]:
            close = ">" if kind == "<" else '"'
            found.append(f"{os.path.relpath(path, root)}:{number}: libpva {mine[0]} includes "
                         f"{kind}{name}{close} ({theirs[0]}), a higher layer")
    return found


def libpva_sql_violations(root):
    """SQL headers included by a layer of libpva other than storage/."""
    found = []
    src = os.path.join(root, "libpva", "src")
    for path, number, kind, name in includes_under(src):
        mine = libpva_layer_of_source(root, path)
        if mine and mine[0] != "storage" and name in LIBPVA_SQL_HEADERS:
            close = ">" if kind == "<" else '"'
            found.append(f"{os.path.relpath(path, root)}:{number}: libpva {mine[0]} includes "
                         f"{kind}{name}{close} (SQL), which only storage/ may")
    return found


def source_files(base):
    """Every C/C++ file under base, in a stable order; build trees inside a part are skipped."""
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("build"))
        for filename in sorted(filenames):
            if filename.endswith(SOURCE_EXTENSIONS):
                yield os.path.join(dirpath, filename)


def includes_under(base):
    """(file, line number, '<' or '"', included name) of every #include under base."""
    for path in source_files(base):
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    yield path, number, m.group(1), m.group(2)


def engine_violations(root):
    """The engine's inner rules: what the runtime must not know, who writes report rows."""
    found = []
    src = os.path.join(root, "engine", "src")
    for path, number, kind, name in includes_under(src):
        rel = os.path.relpath(path, src).split(os.sep)
        folder = rel[0] if len(rel) > 1 else None
        close = ">" if kind == "<" else '"'
        shown = f"{os.path.relpath(path, root)}:{number}: engine {folder} includes {kind}{name}{close}"
        # A quoted include names a folder of engine/src ("models/CycleModel.hpp") or a file
        # beside the includer; judged by the folder it lands in.
        target = None
        if kind == '"':
            for base in (os.path.dirname(path), src):
                candidate = os.path.realpath(os.path.join(base, name))
                if os.path.exists(candidate):
                    inner = os.path.relpath(candidate, os.path.realpath(src)).split(os.sep)
                    target = inner[0] if len(inner) > 1 and inner[0] != ".." else None
                    break
        forbidden = ENGINE_FORBIDDEN.get(folder, set())
        if target and target != folder and target in forbidden:
            found.append(f"{shown} ({target}), which {folder} must not depend on")
        elif kind == "<" and name.split("/", 1)[0] == "profiler" and "<profiler" in forbidden:
            found.append(f"{shown} (a report format), which {folder} must not depend on")
        if kind == "<" and name in ENGINE_REPORT_WRITER and folder != "report":
            found.append(f"{shown} (the report writer), which only report/ may")
    return found


def strip_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked
    (newlines kept, so offsets still give line numbers). A character literal is one character
    or one escape, so digit separators (1'000'000) are left alone."""
    token = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|//[^\n]*|/\*(?:.|\n)*?\*/|'
                       r'"(?:\\.|[^"\\\n])*"|\'(?:\\[^\'\n]{1,10}|[^\'\\\n])\'|^[ \t]*#[^\n]*(?:\\\n[^\n]*)*',
                       re.M)
    return token.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


NAMESPACE_OR_BRACE = re.compile(r"\bnamespace\b\s*([A-Za-z_][\w:]*)?\s*(\{|=)|[{}]")


def opened_namespaces(text):
    """(line number, full name) of every named namespace a file opens; anonymous ones and
    namespace aliases are not openings of a named namespace."""
    code = strip_code(text)
    stack, found = [], []
    for m in NAMESPACE_OR_BRACE.finditer(code):
        token = m.group(0)
        if token == "}":
            if stack:
                stack.pop()
        elif token == "{":
            stack.append(None)
        elif m.group(2) == "=":
            continue  # namespace fs = std::filesystem;
        elif m.group(1):
            outer = [n for n in stack if n]
            full = "::".join(outer + [m.group(1)])
            stack.append(m.group(1))
            found.append((code.count("\n", 0, m.start()) + 1, full))
        else:
            stack.append(None)  # namespace { ... }: anonymous
    return found


def engine_namespace_violations(root):
    """Files of engine/src/<folder>/ that open a namespace other than their folder's."""
    found = []
    src = os.path.join(root, "engine", "src")
    seen = set()
    for path in source_files(src):
        rel = os.path.relpath(path, src).replace(os.sep, "/")
        if "/" not in rel:
            continue
        folder = rel.split("/", 1)[0]
        own = f"poplar::detail::{folder}"
        with open(path, encoding="utf-8", errors="replace") as f:
            opened = opened_namespaces(f.read())
        for number, name in opened:
            if (name in ENGINE_PUBLIC_NAMESPACES or name == own or name.startswith(own + "::")):
                continue
            if (rel, name) in ENGINE_NAMESPACE_EXCEPTIONS:
                seen.add((rel, name))
                continue
            found.append(f"engine/src/{rel}:{number}: engine {folder} opens namespace {name}, "
                         f"which is not {own} (nor poplar, poplar::program or an exception)")
    for (rel, name) in sorted(ENGINE_NAMESPACE_EXCEPTIONS):
        if os.path.exists(os.path.join(src, rel)) and (rel, name) not in seen:
            found.append(f"engine/src/{rel}: no longer opens namespace {name}: "
                         "drop its entry from ENGINE_NAMESPACE_EXCEPTIONS")
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    missing = [p for p in FORBIDDEN if not os.path.isdir(os.path.join(root, p))]
    if missing:
        # A renamed part must not silently shrink the check to nothing.
        print(f"check_layering: {root} has no folder {', '.join(missing)}; update FORBIDDEN", file=sys.stderr)
        return 2
    found = (violations(root) + libpva_layer_violations(root) + libpva_sql_violations(root) +
             engine_violations(root) + engine_namespace_violations(root))
    for v in found:
        print(v)
    if found:
        print(f"check_layering: {len(found)} violation(s)", file=sys.stderr)
        return 1
    print("check_layering: no forbidden includes, every engine folder in its namespace")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
