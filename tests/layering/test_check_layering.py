#!/usr/bin/python3
"""Tests check_layering.py on fixture trees: the bad tree must fail with exactly its planted
violations (one per forbidden rule, including a relative include and an indented #  include, and
libpva's SQL outside storage/, the engine's inner rules: what the runtime may know, which folder
writes report rows, which namespaces a folder's files open),
the good tree (the allowed directions, a commented-out include) must pass, and a tree missing a
part must be refused rather than pass by checking nothing."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layering.py")


def run(root):
    p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines()


def main():
    failures = []
    rc, lines = run(os.path.join(HERE, "fixtures", "bad"))
    expected = {
        "viewer/src/Bad.cpp:4: viewer includes <poplar/Graph.hpp> (engine)",
        "viewer/src/Bad.cpp:5: viewer includes <sqlite3.h> (sqlite)",
        "viewer/src/Bad.cpp:6: viewer includes <profiler/Schema.hpp> (profiler)",
        'viewer/src/Bad.cpp:7: viewer includes "../../engine/src/Model.hpp" (engine)',
        "libpva/src/Bad.cpp:2: libpva includes <popops/ElementWise.hpp> (engine)",
        'profiler/src/Bad.cpp:2: profiler includes "pva/Report.hpp" (libpva)',
        "libpvti/src/Bad.hpp:2: libpvti includes <pva/Trace.hpp> (libpva)",
        "libpvti/src/Bad.hpp:3: libpvti includes <poplar/Engine.hpp> (engine)",
        # libpva's inner layers: storage < model, trace < analysis < compare
        'libpva/src/storage/Rows.cpp:2: libpva storage includes "../model/Lazy.hpp" (model)',
        "libpva/src/storage/Rows.cpp:3: libpva storage includes <pva/Analysis.hpp> (analysis)",
        "libpva/src/model/Lazy.hpp:2: libpva model includes <pva/pva.hpp> (compare)",
        'libpva/src/model/Lazy.hpp:3: libpva model includes "../analysis/Sums.hpp" (analysis)',
        'libpva/src/analysis/Sums.hpp:2: libpva analysis includes "../compare/Match.hpp" (compare)',
        "libpva/src/analysis/Sums.hpp:3: includes <pva/Unplaced.hpp>",
        # only libpva's storage/ speaks SQL
        "libpva/src/trace/Loader.cpp:2: libpva trace includes <tessera/internal/Sqlite.hpp> (SQL)",
        "libpva/src/trace/Loader.cpp:3: libpva trace includes <sqlite3.h> (SQL)",
        # the engine's inner rules: the runtime hands raw counts on; report/ writes every row
        'engine/src/runtime/Run.cpp:2: engine runtime includes "models/Cost.hpp" (models)',
        'engine/src/runtime/Run.cpp:3: engine runtime includes "../report/Rows.hpp" (report)',
        "engine/src/runtime/Run.cpp:4: engine runtime includes <profiler/SchemaEnums.hpp> (a report format)",
        "engine/src/profile/Recorder.cpp:2: engine profile includes <profiler/ReportWriter.hpp> (the report writer)",
        # each engine folder in its namespace (nested openings add up; aliases, strings do not)
        "engine/src/compiler/Lower.cpp:4: engine compiler opens namespace poplar::detail",
        "engine/src/compiler/Lower.cpp:12: engine compiler opens namespace poplar::detail::runtime",
    }
    got = {line.split(", which")[0].split(", a ")[0] for line in lines}
    if rc != 1:
        failures.append(f"bad tree: exit status {rc}, expected 1")
    if got != expected:
        failures.append("bad tree: violations differ\n  got:\n    " + "\n    ".join(sorted(got)) +
                        "\n  expected:\n    " + "\n    ".join(sorted(expected)))

    rc, lines = run(os.path.join(HERE, "fixtures", "good"))
    if rc != 0:
        failures.append(f"good tree: exit status {rc}, output {lines}")

    with tempfile.TemporaryDirectory() as empty:
        rc, _ = run(empty)
        if rc != 2:
            failures.append(f"empty tree: exit status {rc}, expected 2 (refused)")

    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
