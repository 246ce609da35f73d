#!/usr/bin/python3
"""poprun: launch a program as the instances of a distributed Poplar job (docs/distributed.md).

    poprun [options] program [program args]

Each instance is one process started by Open MPI's mpirun and told its place in the job through
POPDIST_* environment variables, which PopDist (libpopdist, `import popdist`) reads. Output lines
carry mpirun's "[1,<instance>]<stdout>:" prefix. poprun exits 0 when every instance exits 0;
otherwise with the failing instance's exit status (128 + N for a signal N) after naming it, and
the other instances are stopped. Usage errors exit 2, a missing mpirun 127.

This one file is both the launcher and, run by mpirun with --poprun-instance, the small wrapper
around each instance that sets its environment, filters its output and reports how it ended.
"""
import argparse
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

VERSION = "Tessera PopRun 1.0 (over Open MPI)"
# Accepted for command lines written for Graphcore's PopRun; there is no V-IPU server or IPU
# partition to manage on a simulated machine, so they have no effect.
NO_EFFECT_OPTIONS = [
    "--vipu-server-host", "--vipu-server-port", "--vipu-server-timeout", "--vipu-partition",
    "--vipu-partition-attempts", "--vipu-cluster", "--vipu-allocation",
    "--update-partition", "--reset-partition", "--remove-partition", "--executable-cache-path",
    "--offline-mode",
]
EXIT_USAGE, EXIT_NO_MPIRUN = 2, 127
FORWARDED_PREFIXES = ("POPLAR_", "PVTI_", "TESSERA_", "POPLIBS_", "GCL_")


def fail(message, code=EXIT_USAGE):
    sys.stderr.write("poprun: error: " + message + "\n")
    sys.exit(code)


def yes(value, option):
    v = str(value).lower()
    if v in ("1", "yes", "true", "on"):
        return True
    if v in ("0", "no", "false", "off"):
        return False
    fail("%s '%s': expected yes or no" % (option, value))


def parse(argv):
    p = argparse.ArgumentParser(
        prog="poprun", usage="poprun [options] program [program args]",
        description="Launch a program as the instances of a distributed Poplar job, with Open "
                    "MPI's mpirun. Each instance reads its place in the job with PopDist.",
        epilog="V-IPU and partition options (%s) are accepted and have no effect: the IPUs are "
               "simulated. See docs/distributed.md." % ", ".join(NO_EFFECT_OPTIONS))
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.add_argument("--num-replicas", type=int, default=1, metavar="N",
                   help="the total number of replicas (default 1)")
    p.add_argument("--num-instances", type=int, default=1, metavar="N",
                   help="the number of instances; the replicas are divided evenly among them "
                        "(default 1)")
    p.add_argument("--ipus-per-replica", type=int, default=1, metavar="N",
                   help="the number of IPUs per replica (default 1)")
    p.add_argument("--num-ilds", type=int, default=1, metavar="N",
                   help="the IPU-Link domains (IPU-PODs joined by GW-Links) the replicas are "
                        "spread over, consecutive instances sharing one; collectives between "
                        "them are costed over the GW-Links (default 1)")
    p.add_argument("-H", "--host", metavar="HOSTS",
                   help="comma-separated hosts to start instances on, divided evenly "
                        "(default: this host); remote hosts are reached with ssh by mpirun")
    p.add_argument("--host-file", "--hostfile", dest="host_file", metavar="FILE",
                   help="a file naming one host per line (mutually exclusive with --host)")
    p.add_argument("--numa-aware", default="no", metavar="yes|no",
                   help="bind instances to NUMA nodes round-robin (mpirun --map-by numa "
                        "--bind-to numa; default no)")
    p.add_argument("--mpi-global-args", default="", metavar="ARGS",
                   help="options passed to mpirun once, before every instance")
    p.add_argument("--mpi-local-args", default="", metavar="ARGS",
                   help="options passed to mpirun for every instance")
    p.add_argument("--instance-mpi-local-args", action="append", default=[],
                   metavar="I:ARGS", help="options passed to mpirun for instance I only "
                                          "(repeatable)")
    p.add_argument("--print-topology", default="no", metavar="yes|no",
                   help="print which host and replicas each instance has before starting")
    p.add_argument("--only-output-from", "--only-output-from-instance", dest="only_output_from",
                   metavar="I[,J...]",
                   help="show only these instances' output (careful: it hides the others' "
                        "errors, except poprun's own report of a failed instance)")
    p.add_argument("--mpirun", default=os.environ.get("POPRUN_MPIRUN", "mpirun"), metavar="PATH",
                   help="the mpirun to use (default: mpirun on PATH, or $POPRUN_MPIRUN)")
    p.add_argument("-v", "--verbose", action="store_true", help="print the mpirun command line")
    for option in NO_EFFECT_OPTIONS:
        p.add_argument(option, metavar="ARG", help=argparse.SUPPRESS)
    p.add_argument("program", nargs=argparse.REMAINDER, help="the program and its arguments")
    args = p.parse_args(argv)
    if args.version:
        print(VERSION)
        sys.exit(0)
    if not args.program:
        fail("no program given (poprun [options] program [program args]; try --help)")
    if args.program[0] == "--":
        args.program = args.program[1:]
    for name in ("num_replicas", "num_instances", "ipus_per_replica", "num_ilds"):
        if getattr(args, name) < 1:
            fail("--%s %d: must be at least 1" % (name.replace("_", "-"), getattr(args, name)))
    if args.num_replicas % args.num_instances != 0:
        fail("--num-replicas %d is not divisible by --num-instances %d: every instance runs the "
             "same number of replicas" % (args.num_replicas, args.num_instances))
    if args.num_instances % args.num_ilds != 0:
        fail("--num-instances %d is not divisible by --num-ilds %d: every IPU-Link domain holds "
             "the same number of instances" % (args.num_instances, args.num_ilds))
    args.numa_aware = yes(args.numa_aware, "--numa-aware")
    args.print_topology = yes(args.print_topology, "--print-topology")
    args.hosts = hosts_of(args)
    if args.num_instances % len(args.hosts) != 0:
        fail("%d instances cannot be divided evenly over %d hosts (%s)" %
             (args.num_instances, len(args.hosts), ",".join(args.hosts)))
    args.only = None
    if args.only_output_from is not None:
        try:
            args.only = {int(i) for i in args.only_output_from.split(",") if i.strip()}
        except ValueError:
            fail("--only-output-from '%s': expected instance numbers like 0 or 0,2" %
                 args.only_output_from)
        bad = [i for i in args.only if i < 0 or i >= args.num_instances]
        if bad:
            fail("--only-output-from: instance %d is not one of the %d instances" %
                 (bad[0], args.num_instances))
    args.instance_local = {}
    for item in args.instance_mpi_local_args:
        index, sep, rest = item.partition(":")
        if not sep or not index.strip().isdigit() or int(index) >= args.num_instances:
            fail("--instance-mpi-local-args '%s': expected I:ARGS with I an instance below %d" %
                 (item, args.num_instances))
        args.instance_local.setdefault(int(index), []).extend(shlex.split(rest))
    return args


def hosts_of(args):
    if args.host and args.host_file:
        fail("--host and --host-file are mutually exclusive")
    if args.host_file:
        try:
            with open(args.host_file) as f:
                hosts = [line.split("#")[0].split()[0] for line in f
                         if line.split("#")[0].strip()]
        except OSError as e:
            fail("--host-file '%s': %s" % (args.host_file, e.strerror))
        if not hosts:
            fail("--host-file '%s' names no host" % args.host_file)
        return hosts
    if args.host:
        hosts = [h.strip() for h in args.host.split(",")]
        if any(not h for h in hosts):
            fail("--host '%s': an empty host name" % args.host)
        return hosts
    return ["localhost"]


def topology(args):
    local = args.num_replicas // args.num_instances
    per_host = args.num_instances // len(args.hosts)
    rows = []
    for i in range(args.num_instances):
        first = i * local
        rows.append((str(i), args.hosts[i // per_host], "%d-%d" % (first, first + local - 1)
                     if local > 1 else str(first), str(local * args.ipus_per_replica)))
    head = ("instance", "host", "replicas", "IPUs")
    widths = [max(len(r[c]) for r in rows + [head]) for c in range(4)]
    line = lambda r: "| " + " | ".join(r[c].ljust(widths[c]) for c in range(4)) + " |"
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    return "\n".join([rule, line(head), rule] + [line(r) for r in rows] + [rule])


def mpirun_command(args, mpirun, status_dir):
    per_host = args.num_instances // len(args.hosts)
    # Every host gets exactly its instances' slots, filled in order: instance i is MPI rank i,
    # on host i // per_host. Several "hosts" that are one machine add up their slots.
    slots = {}
    for h in args.hosts:
        slots[h] = slots.get(h, 0) + per_host
    cmd = [mpirun, "--tag-output", "--host", ",".join("%s:%d" % kv for kv in slots.items()),
           "--map-by", "numa" if args.numa_aware else "slot",
           "--bind-to", "numa:overload-allowed" if args.numa_aware else "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")  # mpirun refuses root without it (CI runs as root)
    # Poplar's, libpvti's and Tessera's settings reach instances on other hosts too (mpirun
    # forwards only what -x names; local instances inherit everything anyway).
    for name in sorted(os.environ):
        if name.startswith(FORWARDED_PREFIXES):
            cmd += ["-x", name]
    cmd += shlex.split(args.mpi_global_args)
    local = args.num_replicas // args.num_instances
    me = os.path.realpath(__file__)
    for i in range(args.num_instances):
        if i:
            cmd.append(":")
        cmd += ["-np", "1"] + shlex.split(args.mpi_local_args) + args.instance_local.get(i, [])
        env = {
            "POPDIST_NUM_TOTAL_REPLICAS": args.num_replicas,
            "POPDIST_NUM_INSTANCES": args.num_instances,
            "POPDIST_NUM_LOCAL_REPLICAS": local,
            "POPDIST_REPLICA_INDEX_OFFSET": i * local,
            "POPDIST_NUM_IPUS_PER_REPLICA": args.ipus_per_replica,
            "POPDIST_INSTANCE_INDEX": i,
            # Tessera's cost model reads the domains (runtime/Instances.hpp); on Graphcore's
            # systems the V-IPU partition carries them.
            "TESSERA_NUM_ILDS": args.num_ilds,
        }
        cmd += [sys.executable, me, "--poprun-instance", str(i), "--status-dir", status_dir]
        if args.only is not None and i not in args.only:
            cmd.append("--quiet")
        for k, v in env.items():
            cmd += ["--env", "%s=%s" % (k, v)]
        cmd += ["--"] + args.program
    return cmd


def describe_signal(number):
    try:
        return "signal %d (%s)" % (number, signal.Signals(number).name)
    except ValueError:
        return "signal %d" % number


def read_statuses(status_dir):
    """Per instance: (kind, value, host, pid, time, stopped) as the wrappers wrote them."""
    out = {}
    for name in os.listdir(status_dir):
        if not name.endswith(".status"):
            continue
        try:
            with open(os.path.join(status_dir, name)) as f:
                kind, value, host, pid, when, stopped = f.read().split()
            out[int(name.split(".")[0])] = (kind, int(value), host, int(pid), float(when),
                                            stopped == "1")
        except (OSError, ValueError):
            continue
    return out


def launch(argv):
    args = parse(argv)
    mpirun = shutil.which(args.mpirun)
    if not mpirun:
        fail("mpirun ('%s') was not found: install Open MPI (Debian: apt-get install openmpi-bin) "
             "or name it with --mpirun PATH" % args.mpirun, EXIT_NO_MPIRUN)
    program = shutil.which(args.program[0]) if "/" not in args.program[0] else args.program[0]
    if not program or not os.access(program, os.X_OK):
        fail("program '%s' was not found or is not executable" % args.program[0])
    if args.print_topology:
        print(topology(args), flush=True)
    status_dir = tempfile.mkdtemp(prefix="poprun-")
    try:
        cmd = mpirun_command(args, mpirun, status_dir)
        if args.verbose:
            sys.stderr.write("poprun: " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        env = dict(os.environ)
        env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")  # works in containers
        proc = subprocess.Popen(cmd, env=env)
        # Ctrl-C or a kill of poprun stops the job through mpirun.
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, lambda n, f: proc.send_signal(n))
        rc = proc.wait()
        return report(args, rc, read_statuses(status_dir))
    finally:
        shutil.rmtree(status_dir, ignore_errors=True)


def report(args, rc, statuses):
    failed = {i: s for i, s in statuses.items() if not (s[0] == "exit" and s[1] == 0)}
    culprits = {i: s for i, s in failed.items() if not s[5]} or failed
    if not failed and rc == 0:
        return 0
    if culprits:
        # The first to fail on its own; the others were stopped because of it.
        i, (kind, value, host, pid, _, _) = min(culprits.items(), key=lambda kv: kv[1][4])
        how = ("was killed by " + describe_signal(value)) if kind == "signal" else \
            "exited with status %d" % value
        stopped = sorted(j for j in range(args.num_instances) if j != i and
                         (j not in statuses or statuses[j][5] or j in failed))
        sys.stderr.write("poprun: the job failed: instance %d (pid %d on %s) %s%s\n" % (
            i, pid, host, how, "; instances %s were stopped" % ", ".join(map(str, stopped))
            if stopped else ""))
        return 128 + value if kind == "signal" else value
    missing = [i for i in range(args.num_instances) if i not in statuses]
    sys.stderr.write("poprun: the job failed: mpirun exited with status %d%s\n" % (
        rc, " before instances %s started (is every host reachable with ssh? see the mpirun "
            "messages above)" % ", ".join(map(str, missing)) if missing else ""))
    return rc if rc > 0 else 1


# ---- the wrapper mpirun starts for each instance -------------------------------------------

def instance(argv):
    w = argparse.ArgumentParser(prog="poprun --poprun-instance")
    w.add_argument("--poprun-instance", type=int, required=True)
    w.add_argument("--status-dir", required=True)
    w.add_argument("--quiet", action="store_true")
    w.add_argument("--env", action="append", default=[])
    w.add_argument("program", nargs=argparse.REMAINDER)
    a = w.parse_args(argv)
    program = a.program[1:] if a.program and a.program[0] == "--" else a.program
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    devnull = subprocess.DEVNULL if a.quiet else None
    stopped = {"by_poprun": False}
    try:
        child = subprocess.Popen(program, env=env, stdout=devnull, stderr=devnull)
    except OSError as e:
        sys.stderr.write("poprun: instance %d could not start '%s': %s\n" %
                         (a.poprun_instance, program[0], e.strerror))
        write_status(a, "exit", 127, os.getpid(), False)
        return 127

    def forward(number, frame):
        # mpirun stops the surviving instances this way when one of them failed.
        stopped["by_poprun"] = True
        try:
            child.send_signal(number)
        except ProcessLookupError:
            pass
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, forward)
    while True:
        try:
            rc = child.wait()
            break
        except InterruptedError:
            continue
    if rc < 0:
        write_status(a, "signal", -rc, child.pid, stopped["by_poprun"])
        if not stopped["by_poprun"]:
            sys.stderr.write("poprun: instance %d (pid %d on %s) was killed by %s\n" % (
                a.poprun_instance, child.pid, socket.gethostname(), describe_signal(-rc)))
        return 128 - rc
    write_status(a, "exit", rc, child.pid, stopped["by_poprun"])
    return rc


def write_status(a, kind, value, pid, stopped):
    # The launching host reads these after mpirun returns (on other hosts the directory does
    # not exist, and the message on stderr, which mpirun forwards, is the report).
    try:
        path = os.path.join(a.status_dir, "%d.status" % a.poprun_instance)
        with open(path + ".tmp", "w") as f:
            f.write("%s %d %s %d %.6f %d\n" % (kind, value, socket.gethostname(), pid, time.time(),
                                               1 if stopped else 0))
        os.replace(path + ".tmp", path)
    except OSError:
        pass


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--poprun-instance":
        sys.exit(instance(sys.argv[1:]))
    sys.exit(launch(sys.argv[1:]))
