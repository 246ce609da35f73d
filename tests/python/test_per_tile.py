"""Per-tile arrays in Python hold one entry per tile of a replica (clients index them by tile,
numpy adds them elementwise), and operations without steps give None, not a number. Lengths and
values are checked against Python's sqlite3 over the same file."""
import sqlite3

import numpy as np
import pytest

import pva
from conftest import DATA  # noqa: F401  (conftest's fixtures: mlp, pipeline)


def rows(report, query):
    with sqlite3.connect(report.profilePath) as db:
        return db.execute(query).fetchall()


def tiles_per_replica(report):
    (from_target,), = rows(report, "SELECT num_ipus / num_replicas * tiles_per_ipu FROM target")
    (memory_rows,), = rows(report, "SELECT count(*) FROM tile_memory")
    assert from_target == memory_rows
    return from_target


@pytest.mark.parametrize("sample", ["mlp", "pipeline"])
def test_every_per_tile_array_has_every_tile(sample, request):
    report = request.getfixturevalue(sample)
    n = tiles_per_replica(report)
    assert report.compilation.target.tilesPerReplica == n
    null_code = {i for (i,) in rows(report, "SELECT id FROM programs WHERE code_bytes_by_tile IS NULL")}
    null_estimate = {i for (i,) in rows(report, "SELECT id FROM programs WHERE estimated_cycles_by_tile IS NULL")}
    assert null_code and null_estimate  # the cases that came back empty are in these reports
    for p in report.compilation.programs:
        for array in (p.controlCodeByTile, p.codeBytesByTile, p.estimatedCyclesByTile):
            assert isinstance(array, np.ndarray) and array.dtype == np.uint64 and array.shape == (n,), p.name
        if p._id in null_code:
            assert not p.codeBytesByTile.any(), p.name
        if p._id in null_estimate:
            assert not p.estimatedCyclesByTile.any(), p.name
    for cs in report.compilation.computeSets:
        assert cs.estimatedCyclesByTile.shape == (n,)
        for v in cs.vertices:
            assert v.countByTile.shape == (n,) and int(v.countByTile.sum()) == v.count
    for step in report.execution.steps:
        assert step.cyclesByTile.shape == (n,)
        for cs in step.computeSets:
            assert cs.cyclesByTile.shape == (n,) and cs.estimatedCyclesByTile.shape == (n,)
    for kind in pva.TileCycleTotals.Kind.__members__.values():
        assert report.execution.tileCycleTotals.byTile(kind).shape == (n,)
        for run in report.execution.runs:
            assert run.tileCycleTotals.byTile(kind).shape == (n,)


def test_popliner_style_sum_over_programs(mlp):
    """What PopLiner does: add every exchange's codeBytesByTile into an array of the target's tiles."""
    n = mlp.compilation.target.tilesPerReplica
    total = np.zeros(n, dtype=np.uint64)
    for p in mlp.compilation.programs:
        if p.type == pva.Program.Type.DoExchange:
            total += p.codeBytesByTile  # a shorter array would raise here
    stored = rows(mlp, "SELECT code_bytes_by_tile FROM programs WHERE type = 'DoExchange' AND code_bytes_by_tile IS NOT NULL")
    assert stored and int(total.sum()) > 0


def test_mlp_softmax_copy_has_zero_code_bytes_on_every_tile(mlp):
    n = tiles_per_replica(mlp)
    ids = rows(mlp, "SELECT id FROM programs WHERE name = 'fwd/softmax/SOFTMAX_STABLE/copy' "
                    "AND type = 'DoExchange' AND code_bytes_by_tile IS NULL")
    assert len(ids) == 1
    copy = next(p for p in mlp.compilation.programs if p._id == ids[0][0])
    assert copy.type == pva.Program.Type.DoExchange
    assert copy.codeBytesByTile.shape == (n,) and not copy.codeBytesByTile.any()
    assert copy.codeBytesByTile[n - 1] == 0


def test_operations_without_steps_give_none(mlp):
    # The steps each program executes: its own and those of the programs inside it.
    steps_of = {}
    for step, program in rows(mlp, "WITH RECURSIVE under(top, id) AS ("
                                   " SELECT id, id FROM programs"
                                   " UNION SELECT under.top, c.child FROM under JOIN program_children c ON c.parent = under.id)"
                                   " SELECT s.id, under.top FROM under JOIN liveness_steps s ON s.program = under.id"
                                   " ORDER BY s.id"):
        steps_of.setdefault(program, []).append(step)
    (num_steps,), = rows(mlp, "SELECT count(*) FROM liveness_steps")
    with_steps = without = loops_with_steps = 0
    for op in pva.OperationAnalysis(mlp).operations:
        mine = sorted(s for p in op.programs() for s in steps_of.get(p._id, []))
        if mine:
            with_steps += 1
            assert (op.firstStepIndex, op.lastStepIndex) == (mine[0], mine[-1]), op.name
            assert 0 <= op.firstStepIndex <= op.lastStepIndex < num_steps
            if any(p.type == pva.Program.Type.Repeat for p in op.programs()):
                loops_with_steps += 1
        else:
            without += 1
            assert op.firstStepIndex is None and op.lastStepIndex is None, op.name
            # None cannot be taken for a step: indexing or a range with it fails.
            with pytest.raises(TypeError):
                range(op.firstStepIndex, 1)
    assert with_steps and without and loops_with_steps
