"""Real poprun jobs on this host: PopRun's command line and failures, PopDist's figures, gcl
collectives across instances byte for byte against one process, a hostfile of two "hosts" that
are both this machine. Each job is small (a 7-element graph) so 4 instances fit on 2 cores."""
import os
import re
import subprocess
import sys

import pytest

BIN = os.environ.get("TESSERA_BIN_DIR", "build/bin")
POPRUN = os.path.join(BIN, "poprun")
PROBE = os.environ.get("TESSERA_PROBE", os.path.join(BIN, "collectives_probe"))
TIMEOUT = 240


def run(args, **kw):
    env = dict(os.environ, **kw.pop("env", {}))
    return subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, env=env, **kw)


def results_of(stdout):
    """{(result name, global replica): hex bytes} from the probe's lines, prefixed or not."""
    out = {}
    # mpirun forwards output in pieces: a long line may arrive split, each piece with its
    # instance's prefix. Join the pieces of each instance back into lines first.
    lines, last = [], {}
    for raw in stdout.splitlines():
        m = re.match(r"\[1,(\d+)\]<stdout>:(.*)$", raw)
        who, text = (m.group(1), m.group(2)) if m else (None, raw)
        if text.startswith(("result ", "popdist ")) or who not in last:
            last[who] = len(lines)
            lines.append(text)
        else:
            lines[last[who]] += text
    for line in lines:
        m = re.search(r"result (\S+) replica (\d+) ([0-9a-f]+)$", line)
        if m:
            key = (m.group(1), int(m.group(2)))
            assert key not in out, "two instances printed " + str(key)
            out[key] = m.group(3)
    return out


@pytest.fixture(scope="module")
def one_process():
    """The probe's results with 4 and 2 replicas in one process, the reference."""
    ref = {}
    for replicas in (2, 4):
        r = run([PROBE, str(replicas)])
        assert r.returncode == 0, r.stderr
        ref[replicas] = results_of(r.stdout)
        assert len(ref[replicas]) > 10 * replicas
    return ref


def test_help_lists_the_options():
    r = run([POPRUN, "--help"])
    assert r.returncode == 0
    for option in ("--num-replicas", "--num-instances", "--ipus-per-replica", "--host",
                   "--numa-aware", "--mpi-global-args", "--mpi-local-args",
                   "--instance-mpi-local-args", "--print-topology", "--only-output-from",
                   "--vipu-server-host"):
        assert option in r.stdout, option


@pytest.mark.parametrize("instances,replicas", [(1, 4), (2, 4), (4, 4), (2, 2)])
def test_collectives_across_instances_match_one_process(one_process, instances, replicas,
                                                        tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    r = run([POPRUN, "--num-instances", str(instances), "--num-replicas", str(replicas),
             "--vipu-server-host", "ignored", PROBE], env={"TESSERA_PROBE_OUT": str(out)})
    assert r.returncode == 0, r.stdout + r.stderr
    got = results_of("".join(f.read_text() for f in sorted(out.glob("results_*.txt"))))
    assert len(list(out.glob("results_*.txt"))) == instances
    assert got == one_process[replicas]
    # Each line came from the instance that holds the replica, with mpirun's prefix.
    local = replicas // instances
    for line in r.stdout.splitlines():
        m = re.match(r"\[1,(\d+)\]<stdout>:result \S+ replica (\d+) ", line)
        if m:
            assert int(m.group(2)) // local == int(m.group(1))


def test_popdist_figures():
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "4", PROBE])
    assert r.returncode == 0, r.stderr
    lines = sorted(l for l in r.stdout.splitlines() if "popdist instance" in l)
    # Instance i holds replicas 2i, 2i+1 on the aligned pair of simulated IPUs i (device 16 + i
    # on the default 16-IPU machine: ids 0-15 are the single IPUs).
    assert lines == [
        "[1,0]<stdout>:popdist instance 0 of 2, replicas 2 local of 4 total, offset 0, "
        "ipus per replica 1, device 16",
        "[1,1]<stdout>:popdist instance 1 of 2, replicas 2 local of 4 total, offset 2, "
        "ipus per replica 1, device 17",
    ]


def test_python_popdist_reads_the_job():
    # One write per instance: mpirun prefixes each chunk it forwards, and print() of several
    # values may reach it in pieces.
    code = ("import sys, popdist, popdist.poplar; sys.stdout.write(' '.join(map(str, ["
            "popdist.isPopdistEnvSet(), "
            "popdist.getInstanceIndex(), popdist.getNumInstances(), popdist.getNumLocalReplicas(),"
            " popdist.getNumTotalReplicas(), popdist.getReplicaIndexOffset(), "
            "popdist.getDeviceId(), popdist.poplar.getNumLocalReplicas()])) + '\\n'); "
            "sys.stdout.flush()")
    # 2 local replicas of 2 IPUs: the aligned groups of 4 of the 16-IPU machine, ids 24 and 25
    # (after 16 single IPUs and 8 pairs).
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "4", "--ipus-per-replica", "2",
             sys.executable, "-c", code])
    assert r.returncode == 0, r.stderr
    # A chunk forwarded mid-line still carries its prefix: drop every prefix, then read lines.
    text = re.sub(r"\[1,\d+\]<std(out|err)>:", "", r.stdout)
    assert sorted(l for l in text.splitlines() if l.strip()) == [
        "True 0 2 2 4 0 24 2", "True 1 2 2 4 2 25 2"]
    r = run([sys.executable, "-c", code])
    assert r.stdout.split() == ["False", "0", "1", "1", "1", "0", "0", "1"], r.stderr


def test_hostfile_with_two_hosts_that_are_this_machine(one_process, tmp_path):
    hostfile = tmp_path / "hosts"
    hostfile.write_text("localhost\n127.0.0.1\n")
    out = tmp_path / "out"
    out.mkdir()
    r = run([POPRUN, "--host-file", str(hostfile), "--num-instances", "2", "--num-replicas", "4",
             "--print-topology", "yes", PROBE], env={"TESSERA_PROBE_OUT": str(out)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"\| 1 +\| 127\.0\.0\.1 +\| 2-3 ", r.stdout)
    assert results_of("".join(f.read_text() for f in sorted(out.glob("results_*.txt")))) == \
        one_process[4]


def test_killed_instance_fails_the_job_and_names_it():
    script = 'if [ "$POPDIST_INSTANCE_INDEX" = 1 ]; then kill -9 $$; fi; sleep 60'
    r = run([POPRUN, "--num-instances", "3", "--num-replicas", "3", "sh", "-c", script])
    assert r.returncode == 128 + 9
    assert re.search(r"poprun: the job failed: instance 1 \(pid \d+ on \S+\) was killed by "
                     r"signal 9 \(SIGKILL\); instances 0, 2 were stopped", r.stderr), r.stderr


def test_failing_instance_status_is_the_jobs():
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "2", "sh", "-c",
             'exit $((POPDIST_INSTANCE_INDEX * 3))'])
    assert r.returncode == 3
    assert "instance 1" in r.stderr and "exited with status 3" in r.stderr


def test_usage_errors():
    r = run([POPRUN, "--num-replicas", "3", "--num-instances", "2", "true"])
    assert r.returncode == 2
    assert "--num-replicas 3 is not divisible by --num-instances 2" in r.stderr
    r = run([POPRUN, "--mpirun", "/nonexistent/mpirun", "true"])
    assert r.returncode == 127 and "mpirun ('/nonexistent/mpirun') was not found" in r.stderr
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "2", "--only-output-from", "5",
             "true"])
    assert r.returncode == 2 and "instance 5 is not one of the 2 instances" in r.stderr
    r = run([POPRUN, "--instance-mpi-local-args", "x", "true"])
    assert r.returncode == 2 and "--instance-mpi-local-args 'x'" in r.stderr
    r = run([POPRUN])
    assert r.returncode == 2 and "no program given" in r.stderr


def test_only_output_from_and_mpi_args():
    r = run([POPRUN, "--num-instances", "4", "--num-replicas", "4", "--only-output-from", "2",
             "--mpi-global-args=--report-bindings", "--mpi-local-args=-x TESSERA_PROBE_X=7",
             "--instance-mpi-local-args", "2:-x TESSERA_PROBE_Y=9", "--numa-aware", "yes",
             "sh", "-c", 'echo "i=$POPDIST_INSTANCE_INDEX x=$TESSERA_PROBE_X y=$TESSERA_PROBE_Y"'])
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[1,2]<stdout>:i=2 x=7 y=9"


# ---- reports of every instance, read as one job ------------------------------------------

PVA = os.path.join(BIN, "pva")


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """A job of 2 instances x 2 replicas with profiles and traces; instance 1 is the slowest."""
    root = tmp_path_factory.mktemp("job")
    folder = root / "job"
    env = {"POPLAR_ENGINE_OPTIONS": '{"autoReport.all":"true","autoReport.directory":"%s"}'
                                    % folder,
           "PVTI_OPTIONS": '{"enable":"true","directory":"%s"}' % folder,
           "TESSERA_PROBE_SLOW_INSTANCE": "1"}
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "4", PROBE], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return folder


def test_each_instance_writes_its_own_reports(job):
    for i in (0, 1):
        assert (job / ("instance_%d" % i) / "profile.pop").is_file()
        assert (job / ("instance_%d" % i) / "debug.cbor").is_file()
        assert list((job / ("instance_%d" % i)).glob("*.pvti")), "no trace for instance %d" % i


def test_pva_summary_reads_the_job(job):
    import json
    r = run([PVA, "summary", str(job), "--json"])
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["job"]["numInstances"] == 2 and j["job"]["totalReplicas"] == 4
    assert [(i["index"], i["replicaOffset"], i["replicas"]) for i in j["instances"]] == [
        (0, 0, 2), (1, 2, 2)]
    assert j["job"]["slowestInstance"] == 1
    assert j["job"]["slowdown"] > 0.01
    assert all(i["collectiveCycles"] > 0 and i["traces"] for i in j["instances"])
    text = run([PVA, "summary", str(job)])
    assert text.returncode == 0 and "2 instances, 4 replicas" in text.stdout
    assert "slowest instance 1" in text.stdout


def test_ci_gate_fails_when_one_instance_is_slower(job):
    r = run([PVA, "summary", str(job), "--max-instance-slowdown", "1%"])
    assert r.returncode == 1
    assert "instance 1 is" in r.stderr and "--max-instance-slowdown" in r.stderr
    r = run([PVA, "summary", str(job), "--max-instance-slowdown", "10000%"])
    assert r.returncode == 0, r.stderr
    r = run([PVA, "summary", str(job / "instance_0"), "--max-instance-slowdown", "1%"])
    assert r.returncode == 2 and "needs a job folder" in r.stderr


def test_pva_compare_two_jobs(job):
    r = run([PVA, "compare", str(job), str(job)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "== instance 0 ==" in r.stdout and "== instance 1 ==" in r.stdout
    r = run([PVA, "compare", str(job), str(job / "instance_0")])
    assert r.returncode == 2 and "is not one" in r.stderr


def test_python_reads_the_job(job):
    code = ("import pva, sys; j = pva.openJob(sys.argv[1]); s = pva.summarizeJob(j); "
            "p = j.instances[1].report.jobPlacement; "
            "print(len(j.instances), j.totalReplicas, s.slowestInstance, p.instanceIndex, "
            "p.numInstances, p.replicaOffset, p.totalReplicas, len(j.instances[0].traces), "
            "pva.isJobDirectory(sys.argv[1]))")
    r = run([sys.executable, "-c", code, str(job)])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2", "4", "1", "1", "2", "2", "4", "1", "True"]


def test_a_job_folder_missing_an_instance_is_refused(job, tmp_path):
    import shutil
    broken = tmp_path / "broken"
    shutil.copytree(job / "instance_0", broken / "instance_0")
    r = run([PVA, "summary", str(broken)])
    assert r.returncode == 2
    assert "instance 0 of 2" in r.stderr and "job folder of 1 instances" in r.stderr


def test_a_folder_of_swapped_instances_is_refused_by_python_and_pva(job, tmp_path):
    import shutil
    swapped = tmp_path / "swapped"
    shutil.copytree(job / "instance_1", swapped / "instance_0")
    shutil.copytree(job / "instance_0", swapped / "instance_1")
    code = ("import pva, sys\n"
            "try:\n    pva.validateJob(sys.argv[1])\nexcept Exception as e:\n    print(e)\n"
            "print(len(pva.validateJob(sys.argv[2])))")
    r = run([sys.executable, "-c", code, str(swapped), str(job)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert str(swapped / "instance_0") in lines[0]
    assert "it is the report of instance 1, not of instance 0" in lines[0]
    assert lines[1] == "2"
    r = run([PVA, "summary", str(swapped)])
    assert r.returncode == 2 and "it is the report of instance 1, not of instance 0" in r.stderr


# ---- the CNN sample, data-parallel over instances -----------------------------------------

CNN = os.path.join(BIN, "tessera-cnn")
CNN_ARGS = ["--steps", "8", "--steps-per-run", "4", "--batch", "4", "--tiles", "64", "--no-reports"]


def test_cnn_under_poprun_trains_as_one_process(tmp_path):
    one = run([CNN, "--replicas", "4", "--out", str(tmp_path / "one")] + CNN_ARGS)
    assert one.returncode == 0, one.stderr
    two = run([POPRUN, "--num-instances", "2", "--num-replicas", "4", CNN, "--out",
               str(tmp_path / "two")] + CNN_ARGS)
    assert two.returncode == 0, two.stdout + two.stderr
    # The per-run losses and accuracies, written with every digit, are identical.
    assert (tmp_path / "two" / "training.csv").read_text() == \
        (tmp_path / "one" / "training.csv").read_text()
    runs_one = [l for l in one.stdout.splitlines() if l.strip().startswith("run ")]
    runs_two = [l.split(":", 1)[1] for l in two.stdout.splitlines()
                if l.startswith("[1,0]<stdout>:") and l.split(":", 1)[1].strip().startswith("run ")]
    assert runs_one and runs_two == runs_one


# ---- the collectives' cost in a job's profiles --------------------------------------------

def job_summary(tmp_path, name, extra_env, poprun_args=()):
    """pva summary --json of a 2-instance x 2-replica probe job with profiles."""
    import json
    folder = tmp_path / name
    env = dict({"POPLAR_ENGINE_OPTIONS": '{"autoReport.all":"true","autoReport.directory":"%s"}'
                                         % folder}, **extra_env)
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "4"] + list(poprun_args) +
            [PROBE], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    s = run([PVA, "summary", str(folder), "--json"])
    assert s.returncode == 0, s.stderr
    return json.loads(s.stdout)


def collective_cycles(summary):
    return [i["collectiveCycles"] for i in summary["instances"]]


def test_collective_cost_grows_with_the_bytes_and_is_zero_without_collectives(tmp_path):
    small = job_summary(tmp_path, "small", {"TESSERA_PROBE_ELEMENTS": "7"})
    big = job_summary(tmp_path, "big", {"TESSERA_PROBE_ELEMENTS": "3000"})
    none = job_summary(tmp_path, "none", {"TESSERA_PROBE_NO_COLLECTIVES": "1"})
    # Every tile of a replica's IPU spends a global exchange: the tile average is the ring's
    # cost, at least one external sync (378 cycles) per collective, and that share of the run's
    # cycles. The probe acquires simulated hardware, where the host's preparation of each stream
    # copy dominates the run (docs/fidelity.md), so the share is small but never rounds to 0.
    assert all(c > 378 for c in collective_cycles(small)), collective_cycles(small)
    for i in small["instances"]:
        assert i["collectiveShare"] == pytest.approx(i["collectiveCycles"] / i["totalCycles"])
        assert i["collectiveShare"] > 0.001, i
    # Both instances model the same ring over the job's 4 replicas.
    assert collective_cycles(small)[0] == collective_cycles(small)[1]
    # 3000 elements a replica move ~430 x the bytes of 7: the ring's link time shows.
    for s, b in zip(collective_cycles(small), collective_cycles(big)):
        assert b > s + 1000, (s, b)
    assert collective_cycles(none) == [0, 0]
    assert all(i["collectiveShare"] == 0 for i in none["instances"])
    text = run([PVA, "summary", str(tmp_path / "small")])
    assert text.returncode == 0
    row = [l for l in text.stdout.splitlines() if l.strip().startswith("0 ")][0]
    assert not re.search(r"\s0 \(0\.0%\)", row), row


def test_collectives_between_ipu_link_domains_cross_the_gw_links(tmp_path):
    one = job_summary(tmp_path, "one", {"TESSERA_PROBE_ELEMENTS": "3000"})
    two = job_summary(tmp_path, "two", {"TESSERA_PROBE_ELEMENTS": "3000"}, ["--num-ilds", "2"])
    # A GW-Link (100 Gbit/s) is slower than an IPU-Link: the same bytes cost more.
    for a, b in zip(collective_cycles(one), collective_cycles(two)):
        assert b > a, (a, b)
    r = run([POPRUN, "--num-instances", "2", "--num-replicas", "4", "--num-ilds", "3", "true"])
    assert r.returncode == 2 and "not divisible by --num-ilds 3" in r.stderr


def test_python_reads_the_collective_cost(tmp_path):
    job_summary(tmp_path, "py", {})
    code = ("import pva, sys; s = pva.summarizeJob(pva.openJob(sys.argv[1])); "
            "print(' '.join('%.1f %.4f' % (i.collectiveCycles, i.collectiveShare) "
            "for i in s.instances))")
    r = run([sys.executable, "-c", code, str(tmp_path / "py")])
    assert r.returncode == 0, r.stderr
    values = [float(v) for v in r.stdout.split()]
    assert len(values) == 4 and values[0] > 378 and 0 < values[1] < 1 and values[0] == values[2]
