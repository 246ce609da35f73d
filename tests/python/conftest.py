"""Fixtures of the Python tests: real reports and traces made by the sample programs.

CTest runs these with PYTHONPATH pointing at build/python and TESSERA_BIN_DIR at build/bin.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(os.environ.get("TESSERA_BIN_DIR", Path(__file__).resolve().parents[2] / "build" / "bin"))
DATA = Path(__file__).resolve().parents[1] / "data"


def run(args, env=None):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env)
    assert result.returncode == 0, f"{args[0]} failed:\n{result.stderr}"
    return result


@pytest.fixture(scope="session")
def mlp_dir(tmp_path_factory):
    """The MLP sample: 2 runs of 16 training steps, every report file."""
    d = tmp_path_factory.mktemp("mlp")
    run([BIN / "tessera-mlp", "--steps", "32", "--steps-per-run", "16", "--out", d, "--reports", d])
    return d


@pytest.fixture(scope="session")
def mlp(mlp_dir):
    import pva
    return pva.openReport(str(mlp_dir / "profile.pop"), str(mlp_dir / "debug.cbor"))


@pytest.fixture(scope="session")
def pipeline(tmp_path_factory):
    import pva
    d = tmp_path_factory.mktemp("pipeline")
    run([BIN / "tessera-pipeline", "--micro-batches", "4", "--reports", d])
    return pva.openReport(str(d / "profile.pop"))


def trace_of(script, tmp_path, options=None):
    """Runs a Python snippet with tracing on (PVTI_OPTIONS is read once per process) and returns
    the path of the .pvti it wrote, or None. options="unset" runs it without PVTI_OPTIONS."""
    env = dict(os.environ)
    env.pop("PVTI_OPTIONS", None)
    if options != "unset":
        env["PVTI_OPTIONS"] = json.dumps(options if options is not None else {"enable": True, "directory": str(tmp_path)})
    subprocess.run([sys.executable, "-c", script], check=True, env=env)
    files = list(Path(tmp_path).glob("*.pvti"))
    return files[0] if files else None
