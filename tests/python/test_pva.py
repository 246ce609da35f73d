"""pva on the samples' reports: the client computations of shared/api/libpva.md §7, checked
against Python's sqlite3 over the same file where SQL can say it."""
import shutil
import sqlite3

import numpy as np
import pytest

import pva
from conftest import DATA


def sql(report, query):
    with sqlite3.connect(report.profilePath) as db:
        return db.execute(query).fetchone()[0]


def test_identity_and_target(mlp):
    assert mlp.version.major == 1 and not mlp.version.isUnstableFormat
    assert mlp.poplarVersion.string.startswith("0.1.")
    assert mlp.engineOptions["autoReport.all"] == "true"
    assert mlp.instrumentationSettings.compute == pva.InstrumentationSettings.ComputeInstrumentationLevel.Tile
    t = mlp.compilation.target
    assert (t.numTiles, t.tilesPerIpu, t.bytesPerTile, t.bytesPerIPU) == (1472, 1472, 638976, 940572672)
    assert t.clockFrequency == pytest.approx(1.33e9)
    assert t.type == pva.Target.Type.IpuModel and t.type.name == "IpuModel"
    assert t.architecture == pva.IPU.Architecture.Ipu2
    assert mlp.compilation.graph.numComputeSets == sql(mlp, "SELECT count(*) FROM compute_sets")


def test_memory_totals_and_peak_liveness(mlp):
    tiles = mlp.compilation.tiles
    assert sum(t.memory.total.excludingGaps for t in tiles) == sql(mlp, "SELECT sum(excluding_gaps) FROM tile_memory")
    assert max(t.memory.total.includingGaps for t in tiles) == sql(mlp, "SELECT max(including_gaps) FROM tile_memory")
    always = sum(t.memory.alwaysLiveBytes for t in tiles)
    assert always == sum(v.size for v in mlp.compilation.alwaysLiveVariables)
    steps = mlp.compilation.livenessProgramSteps
    peak = max(steps, key=lambda s: s.notAlwaysLiveMemory.bytes)
    assert peak.notAlwaysLiveMemory.bytes == sql(mlp, "SELECT max(not_always_live_bytes) FROM liveness_steps")
    assert peak.program.name
    assert {v.name for v in peak.notAlwaysLiveMemory.variables}
    t0 = max(s.notAlwaysLiveMemoryForTile(0).bytes for s in steps)
    assert tiles[0].memory.alwaysLiveBytes + t0 == tiles[0].memory.total.excludingGaps
    cat = tiles[0].memory.category
    assert cat.vertexCode.total == cat["vertexCode"].total > 0
    assert cat.vertexCode.nonInterleaved.nonOverlapped == cat.vertexCode.total
    assert sum(t.memory.category.vertexCode.total for t in mlp.compilation.ipus[0].tiles) > 0


def test_compute_sets_vertices_and_variables(mlp):
    names = [cs.name for cs in mlp.compilation.computeSets]
    assert any("MatMul" in n for n in names)
    types = {v.type.name for cs in mlp.compilation.computeSets for v in cs.vertices}
    # Matmuls run as PopLibs runs them: 1x1 convolutions' partials vertices.
    assert any(n.startswith("poplin::ConvPartial1x1Out<float,float,") for n in types)
    assert not any(n.startswith("poplin::MatMulPartial") for n in types)
    assert not any(n.startswith("popops::Cast") for n in types)
    cs = mlp.compilation.computeSets[0]
    counts = cs.vertices[0].countByTile
    assert isinstance(counts, np.ndarray) and counts.dtype == np.uint64 and len(counts) == 1472
    assert counts.sum() == cs.vertices[0].count
    lowered = mlp.compilation.loweredVariables
    assert sum(b.bytes for b in lowered.allBriefVars) == sql(mlp, "SELECT sum(bytes) FROM lowered_variables")
    forTile = lowered.forTile(0)
    assert any(v.hasUnloweredVar and v.unloweredVar.name for v in forTile)


def test_cycles_runs_and_compute_sets(mlp):
    ex = mlp.execution
    assert [r.name for r in ex.runs] == ["train0", "train1"]
    assert sum(s.ipus[0].cycles for s in ex.steps) == ex.totalCycles.total == sql(mlp, "SELECT sum(cycles) FROM runs")
    run0 = ex.runs[0]
    per_tile = np.zeros(1472, dtype=np.uint64)
    for s in run0.steps:
        per_tile += s.cyclesByTile
    totals = run0.tileCycleTotals
    kinds = sum(totals.byTile(k) for k in pva.TileCycleTotals.Kind.__members__.values())
    assert np.array_equal(per_tile, kinds)
    matmul = next(cs for s in ex.steps for cs in s.computeSets if "MatMul" in cs.name)
    assert np.array_equal(matmul.cyclesByTile, matmul.estimatedCyclesByTile)
    step = ex.steps[-1]
    ipu = step.ipus[0]
    assert ipu.activeCycles.cyclesTo.max >= ipu.activeCycles.cyclesFrom.min
    assert 0 <= ipu.tileBalance <= ipu.activeTileBalance <= 1
    assert len(ex.steps) == sql(mlp, "SELECT count(*) FROM steps")
    with pytest.raises(IndexError):
        ex.steps[len(ex.steps)]


def test_streams_and_program_tree(mlp):
    Type = pva.Program.Type
    mids = [s for s in mlp.execution.runs[0].steps if s.program.type == Type.StreamCopyMid]
    assert len(mids) == 16 * 4
    assert sum(i.dataOut for s in mids for i in s.ipus) == 16 * (32 * 4 + 4)
    programs = mlp.compilation.programs
    top = next(p for p in programs if p.type == Type.OnEveryTileSwitch)
    loop = top.children[0]
    assert type(loop).__name__ == "RepeatProgram" and loop.repeatCount == 16
    assert len({p for p in programs}) == len(programs)  # hashable, distinct
    assert programs[3] == mlp.compilation.programs[3]
    assert Type.OnTileExecute.name == "OnTileExecute" and "DoExchange" in Type.__members__


def test_python_visitor(mlp):
    class Counter(pva.ProgramVisitor):
        def __init__(self):
            super().__init__()
            self.compute = 0
            self.bytes = 0

        def visitOnTileExecute(self, program):
            self.compute += 1
            assert program.computeset.name

        def visitDoExchange(self, program):
            self.bytes += program.dataBytes

    v = Counter()
    for p in mlp.compilation.programs:
        p.accept(v)
    assert v.compute == sum(1 for p in mlp.compilation.programs if p.type == pva.Program.Type.OnTileExecute)
    assert v.bytes > 0


def test_operations_and_debug_contexts(mlp):
    ops = pva.OperationAnalysis(mlp).operations
    matmul = next(op for op in ops if op.type == "MatMul")
    ctx = matmul.debugContext
    import json
    assert json.loads(ctx.layer)["layer"] == "poplibs"
    assert json.loads(ctx.json)["opType"] == "MatMul"
    assert any(p.layerName == "user" for p in ctx.parents)
    assert matmul.programs() and matmul.firstStepIndex <= matmul.lastStepIndex


def test_two_ipus(pipeline):
    assert pipeline.compilation.target.numIPUs == 2 and len(pipeline.compilation.ipus) == 2
    assert any(p.type == pva.Program.Type.GlobalExchange for p in pipeline.compilation.programs)
    for s in pipeline.compilation.livenessProgramSteps:
        assert s.notAlwaysLiveMemoryForIpu(0).bytes + s.notAlwaysLiveMemoryForIpu(1).bytes == s.notAlwaysLiveBytes


def test_step_ipus_is_a_sequence(pipeline):
    step = next(s for s in pipeline.execution.steps if len(s.ipus) == 2)
    ipus = step.ipus
    assert [i.ipu for i in ipus] == [0, 1] == [i.ipu for i in list(ipus)]
    assert ipus[-1].cycles == ipus[1].cycles and ipus[-2].dataIn == ipus[0].dataIn
    assert [i.ipu for i in reversed(ipus)] == [1, 0]
    assert ipus.__getitem__(1).cycles == ipus[1].cycles
    for bad in (2, -3):
        with pytest.raises(IndexError):
            ipus[bad]
    with pytest.raises(TypeError):
        ipus["0"]
    assert "2 IPUs" in repr(ipus) and "cycles" in repr(ipus[0])


def test_steps_and_ipus_outlive_the_report(mlp_dir):
    report = pva.openReport(str(mlp_dir / "profile.pop"))
    expected = [s.ipus[0].cycles for s in report.execution.steps]
    it = iter(report.execution.steps)
    first = next(it)
    ipus = report.execution.steps[7].ipus
    del report
    import gc
    gc.collect()
    assert first.ipus[0].cycles == expected[0] and ipus[0].cycles == expected[7]
    assert [s.ipus[0].cycles for s in it] == expected[1:]
    with pytest.raises(StopIteration):
        next(it)


def test_damaged_step_data_raises(pipeline, tmp_path):
    path = tmp_path / "damaged.pop"
    shutil.copy(pipeline.profilePath, path)
    with sqlite3.connect(path) as db:
        step, blob = db.execute("SELECT id, ipus FROM steps ORDER BY length(ipus) DESC, id").fetchone()
        db.execute("UPDATE steps SET ipus = ? WHERE id = ?", (blob[:-1], step))        # the last entry cut
        db.execute("UPDATE steps SET ipus = ? WHERE id = ?", (b"\xff" * 10, step + 1))  # not a message
    report = pva.openReport(str(path))
    cut = report.execution.steps[step].ipus
    assert len(cut) == 2 and cut[0].ipu == 0
    with pytest.raises(pva.InvalidReportError, match=f"corrupted step {step}"):
        cut[len(cut) - 1]
    with pytest.raises(pva.InvalidReportError, match=f"corrupted step {step + 1}"):
        report.execution.steps[step + 1].ipus
    with pytest.raises(pva.InvalidReportError):
        sum(s.ipus[0].cycles for s in report.execution.steps)


def test_compare(mlp, pipeline):
    same = pva.compare(mlp, mlp)
    assert same.cycles.total.delta == 0 and same.memory.peakLiveness.relative == 0
    diff = pva.compare(mlp, pipeline)
    assert diff.memory.totalIncludingGaps.base != diff.memory.totalIncludingGaps.current
    assert {n.name for n in diff.cycles.runs} == {"train0", "train1", "pipeline"}


def test_compare_targets_variables_runs_operations(mlp, pipeline):
    s = pva.summarize(mlp)
    same = pva.compare(mlp, mlp)
    assert same.target.same() and same.target.differences == []
    assert same.programsInCommon.related and same.programsInCommon.share == 1.0
    assert same.variables.alwaysLiveTotal.base == s.memory.alwaysLiveBytes
    assert same.variables.atPeakTotal.current == s.memory.peakLiveness.notAlwaysLiveBytes
    assert same.memory.allocated.base == s.memory.allocatedBytes
    assert [r.match for r in same.cycles.matchedRuns] == [pva.RunComparison.Match.ByName] * 2
    assert same.cycles.runsTotal.base == s.execution.totalCycles
    # Stream-copy cycles by destination: the analysis' all-runs split of each report.
    sc = pva.analyseExecution(mlp).allRuns.streamCopyCycles
    assert [n.name for n in same.cycles.streamCopies] == ["host", "remoteBuffer", "mixed", "unknown"]
    assert [n.value.base for n in same.cycles.streamCopies] == [sc.host, sc.remoteBuffer, sc.mixed, sc.unknown]
    assert same.cycles.streamCopiesTotal.current == sc.total > 0
    # Operations carry the figures of operationFigures and operationCycles.
    assert same.operations.compared
    e = pva.analyseExecution(mlp)
    op = next(o for o in pva.OperationAnalysis(mlp).operations if o.name == "fwd/layer1/matmul/MatMul")
    row = next(o for o in same.operations.operations if o.name == op.name)
    assert row.cycles.base == pva.operationCycles(op, e.allRuns) > 0
    assert row.codeBytes.current == pva.operationFigures(op).codeBytes
    diff = pva.compare(mlp, pipeline)  # another program on two IPUs, opened without debug.cbor
    assert diff.target.differences == ["IPUs"] and not diff.target.same()
    assert not diff.programsInCommon.related
    assert diff.programsInCommon.share < pva.ProgramsInCommon.relatedShare
    first, second = diff.cycles.matchedRuns
    assert (first.match, first.baseName, first.currentName) == (pva.RunComparison.Match.ByPosition, "train0", "pipeline")
    assert second.match == pva.RunComparison.Match.OnlyInBase and not second.inCurrent()
    assert pva.RunComparison.matchName(first.match) == "position"
    assert not diff.operations.compared


def test_compare_parts_are_compares_rows(mlp):
    whole = pva.compare(mlp, mlp)
    ops = pva.compareOperations(mlp, mlp)
    assert [(o.name, o.cycles.base) for o in ops.operations] == [(o.name, o.cycles.base) for o in whole.operations.operations]
    analysed = pva.OperationAnalysis(mlp).operations
    assert all(analysed[o.baseIndex].name == analysed[o.currentIndex].name for o in ops.operations)
    programs = pva.compareProgramCycles(mlp, mlp)
    assert [(p.name, p.value.current) for p in programs] == [(p.name, p.value.current) for p in whole.cycles.programs]


@pytest.mark.parametrize("name,error", [
    ("empty.pop", pva.InvalidReportError), ("random.pop", pva.InvalidReportError),
    ("plain_sqlite.pop", pva.InvalidReportError), ("newer_major.pop", pva.UnsupportedVersionError),
    ("cut.pop", pva.InvalidReportError),
])
def test_bad_files(name, error):
    path = str(DATA / name)
    with pytest.raises(error) as e:
        pva.openReport(path)
    assert path in str(e.value)
    assert isinstance(e.value, pva.Exception) and isinstance(e.value, RuntimeError)


def test_missing_and_mismatched(mlp_dir, pipeline):
    with pytest.raises(pva.FileNotFoundError, match="no such file"):
        pva.openReport("/no/such/profile.pop")
    with pytest.raises(pva.DebugInfoMismatchError, match="another report"):
        pva.openReport(pipeline.profilePath, str(mlp_dir / "debug.cbor"))
    with pytest.raises(pva.InvalidArgumentError):
        pva.OperationAnalysis(pipeline)


def test_step_objects_outlive_their_iterator_and_stay_distinct(pipeline):
    """Step, IPU-list and IPU-entry objects own their values (made without pybind11's instance
    registry, issue 38): kept after their iterator is gone, each still reads its own figures,
    equal to a fresh read, and two reads of one step are distinct objects."""
    report = pipeline
    steps = report.execution.steps
    expected = [(s.index, s.run, [(i.ipu, i.cycles, i.dataIn) for i in s.ipus]) for s in steps]
    kept = []
    it = iter(report.execution.steps)
    for step in it:
        kept.append((step, step.ipus, [step.ipus[k] for k in range(len(step.ipus))]))
    del it
    got = [(s.index, s.run, [(i.ipu, i.cycles, i.dataIn) for i in entries]) for s, _l, entries in kept]
    assert got == expected
    assert [len(l) for _s, l, _e in kept] == [len(e[2]) for e in expected]
    first = report.execution.steps[0]
    again = report.execution.steps[0]
    assert first is not again and first.index == again.index
    assert first.ipus is not first.ipus and first.ipus[0].cycles == again.ipus[0].cycles


def test_ipu_columns_match_the_step_objects(pipeline, mlp):
    """steps.ipuColumns(ipu): one structured numpy array with what each step's IpuExecution says,
    zeros where that IPU took no part; for a run's steps as for all steps."""
    for report in (pipeline, mlp):
        for ipu in range(report.compilation.target.numIPUs):
            steps = report.execution.steps
            cols = steps.ipuColumns(ipu)
            assert cols.shape == (len(steps),)
            for row, step in zip(cols, steps):
                mine = [i for i in step.ipus if i.ipu == ipu]
                assert row["index"] == step.index and row["run"] == step.run
                if not mine:
                    assert row["cycles"] == 0 and row["activeTiles"] == 0
                    continue
                e = mine[0]
                assert (row["cycles"], row["activeTiles"], row["dataIn"], row["dataOut"]) == (
                    e.cycles, e.activeTiles, e.dataIn, e.dataOut)
                assert row["tileBalance"] == np.float32(e.tileBalance)
                assert row["activeTileBalance"] == np.float32(e.activeTileBalance)
                a, w = e.activeCycles, e.allCycles
                assert (row["activeFromMin"], row["activeFromMax"], row["activeToMin"], row["activeToMax"]) == (
                    a.cyclesFrom.min, a.cyclesFrom.max, a.cyclesTo.min, a.cyclesTo.max)
                assert (row["allFromMin"], row["allFromMax"], row["allToMin"], row["allToMax"]) == (
                    w.cyclesFrom.min, w.cyclesFrom.max, w.cyclesTo.min, w.cyclesTo.max)
    ex = mlp.execution
    assert int(ex.steps.ipuColumns()["cycles"].sum()) == ex.totalCycles.total
    run1 = ex.runs[1].steps.ipuColumns()
    assert list(run1["index"]) == [s.index for s in ex.runs[1].steps] and set(run1["run"]) == {1}
    # Each IPU gets its own figures, not a copy of the first IPU's.
    cols0, cols1 = pipeline.execution.steps.ipuColumns(0), pipeline.execution.steps.ipuColumns(1)
    assert (cols0["cycles"] != cols1["cycles"]).any()


def test_job_instances_and_pairing(mlp_dir, tmp_path):
    """A job folder's files without opening a report, and two jobs paired instance by instance."""
    job = tmp_path / "job"
    job.mkdir()
    for i in range(2):
        (job / ("instance_%d" % i)).symlink_to(mlp_dir, target_is_directory=True)
    files = pva.listJobInstances(str(job))
    assert [f.index for f in files] == [0, 1]
    assert files[1].profile == str(job / "instance_1" / "profile.pop")
    assert files[1].debug == str(job / "instance_1" / "debug.cbor")
    with pytest.raises(pva.FileNotFoundError, match="not a job folder"):
        pva.listJobInstances(str(mlp_dir))
    same = pva.pairJobInstances(2, 2)
    assert same.paired() == 2 and same.sameShape() and same.mismatch() == ""
    uneven = pva.pairJobInstances(3, 1)
    assert uneven.paired() == 1 and not uneven.sameShape()
    assert uneven.mismatch() == ("the base job has 3 instances and the current job 1 instance: "
                                 "instance 0 is compared, instances 1-2 of the base job have no "
                                 "counterpart")
    with pytest.raises(pva.InvalidArgumentError):
        pva.pairJobInstances(0, 1)
