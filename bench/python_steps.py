#!/usr/bin/python3
"""bench_python_steps: iterating execution steps from Python through pva, summing
ipus[0].cycles, against Python's sqlite3 fetching the same rows of the same file in the same run.

    PYTHONPATH=build/python bench/python_steps.py [--steps N] [--reps R] [--bin build/bin]

The report (one IPU, N steps) is written by build/bin/bench_pva_reader. sqlite3 cannot decode the
packed per-IPU blob, so its loop does the least a script could: fetch each row and touch the blob
(len). Goals (issue 38): iterating step objects and the numpy view (steps.ipuColumns(), one
structured array decoded in C++) each take at most 1.2x as long.
"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

import pva


def best(reps, fn):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2], result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "steps.pop")
        subprocess.run([os.path.join(args.bin, "bench_pva_reader"), "--steps", str(args.steps), "--ipus", "1",
                        "--reps", "1", "--file", path, "--keep"], check=True, stdout=subprocess.DEVNULL)

        def with_pva():
            report = pva.openReport(path)
            return sum(step.ipus[0].cycles for step in report.execution.steps)

        def with_columns():
            report = pva.openReport(path)
            return int(report.execution.steps.ipuColumns(0)["cycles"].sum())

        def with_sqlite():
            db = sqlite3.connect(path)
            n = 0
            for _id, _run, _program, ipus in db.execute("SELECT id, run, program, ipus FROM steps ORDER BY id"):
                n += len(ipus)
            db.close()
            return n

        t_pva, total = best(args.reps, with_pva)
        t_sql, _ = best(args.reps, with_sqlite)
        t_cols, total_cols = best(args.reps, with_columns)
        if total_cols != total:
            print(f"ipuColumns sum {total_cols} differs from the step loop's {total}", file=sys.stderr)
            return 1
    print(f"{args.steps:,} steps: pva {t_pva:.3f} s ({args.steps / t_pva / 1e6:.2f} M steps/s), "
          f"sqlite3 {t_sql:.3f} s; ratio {t_pva / t_sql:.2f}x (goal <= 1.2x); sum of cycles {total:,}")
    print(f"{args.steps:,} steps: pva ipuColumns (numpy) {t_cols:.3f} s ({args.steps / t_cols / 1e6:.2f} M steps/s); "
          f"ratio to sqlite3 {t_cols / t_sql:.2f}x (goal <= 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
