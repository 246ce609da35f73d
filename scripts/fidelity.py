#!/usr/bin/python3
"""Regenerates the table of docs/fidelity.md: every published Poplar figure Tessera is compared
with, Tessera's figure and the error.

Usage: scripts/fidelity.py [BUILD_DIR]   (default: build)

Runs the [fidelity] tests of engine_profiling_tests with TESSERA_FIDELITY_OUT set; each test
appends "program<TAB>figure<TAB>tessera<TAB>published" lines, which become the rows of the table
between the two markers in docs/fidelity.md. The rest of the page is left as it is.
"""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = "<!-- fidelity-table: begin (scripts/fidelity.py writes this part) -->"
END = "<!-- fidelity-table: end -->"


def figures(build: pathlib.Path):
    binary = next(build.rglob("engine_profiling_tests"), None)
    if binary is None:
        sys.exit(f"{build}: no engine_profiling_tests (build it: cmake --build {build} --target engine_profiling_tests)")
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "figures.tsv"
        env = dict(os.environ, TESSERA_FIDELITY_OUT=str(out))
        subprocess.run([str(binary), "[fidelity]"], env=env, check=True, stdout=subprocess.DEVNULL)
        return [line.split("\t") for line in out.read_text().splitlines() if line]


def number(x: float) -> str:
    return f"{x:,.1f}" if x != int(x) else f"{int(x):,}"


def table(rows) -> str:
    lines = ["| program | figure | Poplar (published) | Tessera | error |", "|---|---|---:|---:|---:|"]
    for program, figure, ours, published in rows:
        ours, published = float(ours), float(published)
        error = 100 * (ours - published) / published
        lines.append(f"| {program} | {figure} | {number(published)} | {number(ours)} | {error:+.1f} % |")
    return "\n".join(lines)


def main():
    build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build")
    page = ROOT / "docs" / "fidelity.md"
    text = page.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{page}: the table markers are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    page.write_text(head + BEGIN + "\n" + table(figures(build)) + "\n" + END + tail)
    print(f"wrote {page}")


if __name__ == "__main__":
    main()
