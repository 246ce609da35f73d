#!/usr/bin/python3
"""Runs a program that writes a report and compares every row of its profile.pop with a golden
dump (scripts/report_rows.py: host times left out, blobs by hash). It keeps the engine's report
content fixed while the code that writes it moves (issue 39): a change that alters a row fails
here, and one that means to alter it regenerates the golden with --update.

  run_golden.py REPORT_ROWS_PY GOLDEN PROGRAM [ARGS...]   the program writes into ./report
  run_golden.py --update REPORT_ROWS_PY GOLDEN PROGRAM [ARGS...]
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main(argv):
    update = len(argv) > 1 and argv[1] == "--update"
    args = argv[2:] if update else argv[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    report_rows, golden, program = args[0], args[1], [os.path.abspath(args[2])] + args[3:]
    work = tempfile.mkdtemp(prefix="report-rows-")
    try:
        env = dict(os.environ)
        # Lightweight profiling on, so the blocks rows are part of what is compared.
        env["POPLAR_ENGINE_OPTIONS"] = ('{"profiler.blocks.filter":".*",'
                                        '"debug.instrumentExternalExchange":"true"}')
        env.pop("TESSERA_CODELET_CACHE", None)
        run = subprocess.run(program, cwd=work, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{program[0]} failed ({run.returncode}):\n{run.stdout}{run.stderr}")
            return 1
        dump = os.path.join(work, "rows.txt")
        subprocess.run([sys.executable, report_rows, "dump", os.path.join(work, "report", "profile.pop"), dump],
                       check=True)
        if update:
            shutil.copyfile(dump, golden)
            print(f"run_golden: wrote {golden}")
            return 0
        with open(dump) as f:
            got = f.read().splitlines()
        with open(golden) as f:
            want = f.read().splitlines()
        if got == want:
            print(f"run_golden: every row as in {os.path.basename(golden)} ({len(got)} lines)")
            return 0
        import difflib
        print("\n".join(list(difflib.unified_diff(want, got, "golden", "now", lineterm="", n=1))[:80]))
        print(f"run_golden: the report's rows differ from {golden}; if that is meant, rerun with --update")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
