#!/usr/bin/python3
"""bench_poprun_profile_cost: the cost of profiling a distributed job. The same poprun job of
tessera-cnn (data-parallel over instances) with every instance writing its profile.pop,
debug.cbor and .pvti trace, against the same job without reports, in one run.

    bench/poprun_profile_cost.py [--bin build/bin] [--instances 2] [--replicas 4] [--reps 3]
                                 [--steps 8] [--tiles 64]

Runs alternate (without, with, without, ...) after a warm-up of each, so that a change of the
machine's load falls on both; the medians of the wall times of the whole job (poprun start to
exit: launch, compile, runs, reports) are compared. Both jobs must train identically (their
training.csv files are compared), so the reports cost time and nothing else.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def job(args, out, profile):
    cmd = [os.path.join(args.bin, "poprun"), "--num-instances", str(args.instances),
           "--num-replicas", str(args.replicas), os.path.join(args.bin, "tessera-cnn"),
           "--steps", str(args.steps), "--steps-per-run", str(max(1, args.steps // 2)),
           "--batch", "4", "--tiles", str(args.tiles), "--out", out]
    env = dict(os.environ)
    if profile:
        cmd += ["--reports", os.path.join(out, "reports")]
        env["PVTI_OPTIONS"] = '{"enable":"true","directory":"%s"}' % os.path.join(out, "reports")
    else:
        cmd += ["--no-reports"]
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit("bench_poprun_profile_cost: the job failed:\n" + r.stdout + r.stderr)
    with open(os.path.join(out, "training.csv")) as f:
        return elapsed, f.read()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default="build/bin")
    p.add_argument("--instances", type=int, default=2)
    p.add_argument("--replicas", type=int, default=4)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--tiles", type=int, default=64)
    args = p.parse_args()
    times = {False: [], True: []}
    training = {}
    with tempfile.TemporaryDirectory(prefix="profile-cost-") as tmp:
        for rep in range(args.reps + 1):  # the first of each is a warm-up
            for profile in (False, True):
                out = os.path.join(tmp, "%s-%d" % ("with" if profile else "without", rep))
                elapsed, csv = job(args, out, profile)
                training.setdefault(profile, csv)
                if rep:
                    times[profile].append(elapsed)
        if training[False] != training[True]:
            sys.exit("bench_poprun_profile_cost: the job trained differently with reports")
        reports = os.path.join(tmp, "with-1", "reports")
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(reports)
                   for f in fs)
    med = {k: sorted(v)[len(v) // 2] for k, v in times.items()}
    print("poprun job: tessera-cnn, %d instances, %d replicas, %d steps, %d tiles; medians of %d"
          % (args.instances, args.replicas, args.steps, args.tiles, args.reps))
    print("  without reports %8.2f s" % med[False])
    print("  with reports    %8.2f s   (%.1f MiB of reports, every instance)" %
          (med[True], size / 2**20))
    print("  ratio           %8.2fx" % (med[True] / med[False]))


if __name__ == "__main__":
    main()
