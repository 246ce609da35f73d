"""pva.summarize and pva.analyseExecution: the analysis layer as Python sees it, checked against
Python's own sqlite3 module reading the same profile.pop (an oracle that shares no code with
libpva)."""
import sqlite3

import pva


def raw(mlp_dir, sql):
    with sqlite3.connect(f"file:{mlp_dir / 'profile.pop'}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchone()[0]


def test_summary_matches_sql(mlp, mlp_dir):
    s = pva.summarize(mlp)
    m, x = s.memory, s.execution
    assert m.includingGapsBytes == raw(mlp_dir, "SELECT sum(including_gaps) FROM tile_memory")
    assert m.excludingGapsBytes == raw(mlp_dir, "SELECT sum(excluding_gaps) FROM tile_memory")
    assert m.alwaysLiveBytes == raw(mlp_dir, "SELECT sum(always_live_bytes) FROM tile_memory")
    assert m.largestTileIncludingGaps.bytes == raw(mlp_dir, "SELECT max(including_gaps) FROM tile_memory")
    assert m.peakLiveness.known
    assert m.peakLiveness.notAlwaysLiveBytes == raw(mlp_dir, "SELECT max(not_always_live_bytes) FROM liveness_steps")
    assert m.peakLiveness.bytes == m.alwaysLiveBytes + m.peakLiveness.notAlwaysLiveBytes
    assert sum(c.total for c in m.categories) == m.allocatedBytes == sum(r.total for r in m.regions)
    assert m.allocatedBytes > m.excludingGapsBytes  # shared bytes count once per variable
    assert m.scope.describe() == "all replicas"
    assert x.totalCycles == raw(mlp_dir, "SELECT sum(cycles) FROM runs")
    assert [r.name for r in x.runs] == [raw(mlp_dir, f"SELECT name FROM runs WHERE id = {i}") for i in range(len(x.runs))]
    assert x.scope.describe() == "all runs, one replica"
    assert s.graph.vertices == mlp.compilation.graph.numVertices
    Kind = pva.TileCycleTotals.Kind
    kinds = x.tileCycles.asDict()
    assert set(kinds) == {"compute", "internalExchange", "globalExchange", "streamCopy", "sync"}
    assert x.tileCycles.total == sum(kinds.values()) > 0
    share = x.tileCycles.shareOfTileCycles(Kind.Compute)
    assert 0 < share < 1
    # The share of tile cycles and the share of the run time are different figures.
    assert abs(x.tileAverageShareOfTotal(Kind.Compute) - share) > 0.01
    # Compute excluding idle threads: beside the kinds, from the report's own row, never more.
    assert x.hasComputeExcludingIdleThreads
    assert raw(mlp_dir, "SELECT count(*) FROM run_tile_cycles WHERE kind = 'computeExcludingIdleThreads'") == len(x.runs)
    totals = mlp.execution.tileCycleTotals
    assert totals.hasComputeExcludingIdleThreads
    assert totals.totalComputeExcludingIdleThreads() == x.computeExcludingIdleThreads
    assert int(totals.computeExcludingIdleThreadsByTile().sum()) == x.computeExcludingIdleThreads
    assert 0 < x.tileAverageComputeExcludingIdleThreads() < x.tileAverageCycles(Kind.Compute)
    assert abs(x.tileAverageComputeExcludingIdleThreadsShareOfTotal()
               - x.tileAverageComputeExcludingIdleThreads() / x.totalCycles) < 1e-12


def test_execution_analysis_matches_steps(mlp, mlp_dir):
    e = pva.analyseExecution(mlp)
    programs = mlp.compilation.programs
    assert len(e.allRuns.programs) == len(programs)
    assert e.allRuns.steps == raw(mlp_dir, "SELECT count(*) FROM steps")
    assert sum(p.executions for p in e.allRuns.programs) == e.allRuns.steps
    assert sum(p.cycles for p in e.allRuns.programs) == e.allRuns.cycles == pva.summarize(mlp).execution.totalCycles
    assert len(e.runs) == 2 and sum(r.cycles for r in e.runs) == e.allRuns.cycles
    # One run, one length: the per-IPU timelines' longest, the runs' stored cycles.
    assert [r.lengthCycles for r in e.runs] == [r.cycles for r in pva.summarize(mlp).execution.runs]
    assert e.allRuns.lengthCycles == pva.summarize(mlp).execution.totalCycles
    assert all(r.lengthCycles == max(r.cyclesByIpu) for r in e.runs)
    # Per program against the steps read through the object model.
    slowest = [0] * len(programs)
    for step in mlp.execution.steps:
        slowest[step.program._id] += max(ipu.cycles for ipu in step.ipus)
    assert [p.cycles for p in e.allRuns.programs] == slowest
    assert all(0 <= p.parallelEfficiency <= p.tileBalance + 1e-6 <= 1 + 1e-6 for p in e.allRuns.programs)
    streamed = sum(t.streamCopyInBytes + t.streamCopyOutBytes for t in e.allRuns.ipus)
    assert streamed > 0  # the MLP streams batches in


def test_peak_live_bytes():
    assert pva.peakLiveBytes([]) == 0
    assert pva.peakLiveBytes([pva.LiveRange(0, 10, 5), pva.LiveRange(10, 20, 7)]) == 7
    assert pva.peakLiveBytes([pva.LiveRange(0, 10, 5), pva.LiveRange(9, 20, 7)]) == 12


def test_operation_live_bytes_never_exceed_the_peak(mlp):
    peak = pva.summarize(mlp).memory.peakLiveness.notAlwaysLiveBytes
    vertices = 0
    for op in pva.OperationAnalysis(mlp).operations:
        f = pva.operationFigures(op)
        assert f.peakNotAlwaysLiveBytes == pva.peakNotAlwaysLiveBytes(op.vars) <= peak
        vertices += f.vertices
    assert vertices > 0


def test_a_stretch_of_steps_and_an_operations_cycles(mlp):
    e = pva.analyseExecution(mlp)
    first_run = pva.analyseSteps(mlp, 0, e.runs[0].steps)
    assert first_run.cycles == e.runs[0].cycles
    assert first_run.scope.describe() == e.runs[0].scope.describe()
    analysis = pva.OperationAnalysis(mlp)
    ops, owner = analysis.operations, analysis.operationOfProgram
    assert len(owner) == len(mlp.compilation.programs)
    # operationOfProgram is the grouping operations() hold.
    for i, op in enumerate(ops):
        assert all(owner[p._id] == i for p in op.programs())
    matmul = [op for op in ops if op.name == "fwd/layer1/matmul/MatMul"]
    x = pva.operationExecution(matmul, e.allRuns)
    assert x.cycles == sum(e.allRuns.programs[p._id].cycles for p in matmul[0].programs()) > 0
    # Over the first run's steps read here: those whose program the operation owns.
    mine = {p._id for p in matmul[0].programs()}
    cycles = sum(max(ipu.cycles for ipu in step.ipus) for step in mlp.execution.runs[0].steps if step.program._id in mine)
    assert pva.operationExecution(matmul, first_run).cycles == cycles


def test_flop_estimates_of_compute_sets_and_operations(mlp, mlp_dir, tmp_path):
    assert mlp.hasFlopEstimates  # the samples turn profiler.includeFlopEstimates on
    for cs in mlp.compilation.computeSets:
        assert cs.estimatedFlops == raw(mlp_dir, f"SELECT estimated_flops FROM compute_sets WHERE id = {cs.id}")
    figures = [pva.operationFigures(op) for op in pva.OperationAnalysis(mlp).operations]
    assert all(f.estimatedFlops is not None for f in figures)
    assert sum(f.estimatedFlops for f in figures) > 0
    # A report written before FLOP estimates (format 1.0): None, not 0.
    old = tmp_path / "profile.pop"
    old.write_bytes((mlp_dir / "profile.pop").read_bytes())
    with sqlite3.connect(old) as db:
        db.executescript("ALTER TABLE compute_sets DROP COLUMN estimated_flops;"
                         "ALTER TABLE compute_sets DROP COLUMN vertices_without_flop_estimate;"
                         "DELETE FROM meta WHERE key = 'flop_estimates';"
                         "UPDATE meta SET value = '1.0.0' WHERE key = 'format_version';")
    report = pva.openReport(str(old))
    assert not report.hasFlopEstimates
    assert all(cs.estimatedFlops is None for cs in report.compilation.computeSets)


def test_operation_tile_figures_with_flops_per_tile(mlp, mlp_dir, tmp_path):
    assert mlp.hasFlopEstimatesByTile  # format 1.4 with profiler.includeFlopEstimates
    tiles = mlp.compilation.target.tilesPerReplica
    for cs in mlp.compilation.computeSets:
        by_tile = cs.estimatedFlopsByTile
        assert len(by_tile) == tiles
        assert int(by_tile.sum()) == raw(mlp_dir, f"SELECT estimated_flops FROM compute_sets WHERE id = {cs.id}")
    spread = 0
    for op in pva.OperationAnalysis(mlp).operations:
        t = pva.operationTileFigures(mlp, op)
        f = pva.operationFigures(op)
        assert len(t.codeBytes) == len(t.vertices) == len(t.estimatedCycles) == len(t.cycles) == tiles
        assert int(t.codeBytes.sum()) == f.codeBytes
        assert int(t.vertices.sum()) == f.vertices
        assert t.estimatedFlops is not None and len(t.estimatedFlops) == tiles
        assert int(t.estimatedFlops.sum()) == f.estimatedFlops
        spread += int((t.estimatedFlops > 0).sum()) > 1
        assert t.profiled and t.scope.describe() == "all runs, one replica"
    assert spread > 0
    # A report of format 1.3 stored FLOPs per compute set only: None per tile, never zeros.
    old = tmp_path / "profile.pop"
    old.write_bytes((mlp_dir / "profile.pop").read_bytes())
    (tmp_path / "debug.cbor").write_bytes((mlp_dir / "debug.cbor").read_bytes())
    with sqlite3.connect(old) as db:
        db.executescript("ALTER TABLE compute_sets DROP COLUMN estimated_flops_by_tile;"
                         "UPDATE meta SET value = '1.3.0' WHERE key = 'format_version';")
    report = pva.openReport(str(old), str(tmp_path / "debug.cbor"))
    assert report.hasFlopEstimates and not report.hasFlopEstimatesByTile
    assert all(cs.estimatedFlopsByTile is None for cs in report.compilation.computeSets)
    op = pva.OperationAnalysis(report).operations[0]
    assert pva.operationTileFigures(report, op).estimatedFlops is None


def test_stream_copy_cycles_by_destination(mlp, mlp_dir):
    e = pva.analyseExecution(mlp)
    programs = mlp.compilation.programs
    with sqlite3.connect(f"file:{mlp_dir / 'profile.pop'}?mode=ro", uri=True) as db:
        stored = dict(db.execute("SELECT id, IFNULL(stream_destination, 'none') FROM programs").fetchall())
    assert [p.streamCopyDestination for p in programs] == [stored[p._id] for p in programs]
    assert {p.streamCopyDestination for p in programs if p.type.name.startswith("StreamCopy")} <= {"host", "remoteBuffer"}
    by = {}
    for step in mlp.execution.steps:
        d = step.program.streamCopyDestination
        if d != "none":
            by[d] = by.get(d, 0) + max(ipu.cycles for ipu in step.ipus)
    sc = e.allRuns.streamCopyCycles
    assert (sc.host, sc.remoteBuffer, sc.mixed, sc.unknown) == (by.get("host", 0), by.get("remoteBuffer", 0), 0, 0)
    assert sc.host > 0 and sc.total == sc.host + sc.remoteBuffer
    assert sum(r.streamCopyCycles.total for r in e.runs) == sc.total
    # The summary's stored figures (format 1.7) are the same, run by run, without the pass.
    x = pva.summarize(mlp).execution
    assert x.hasStreamCopyCycles
    assert (x.streamCopyCycles.host, x.streamCopyCycles.remoteBuffer) == (sc.host, sc.remoteBuffer)
    s = pva.summarizeStreamCopies(mlp)
    assert s.stored
    assert [r.total for r in s.runs] == [r.streamCopyCycles.total for r in e.runs]
    assert [r.streamCopyCycles.host for r in x.runs] == [r.streamCopyCycles.host for r in e.runs]
    assert s.allRuns.total == sc.total


def cycle_rules_report(tmp_path_factory, device):
    """tessera-cycle-rules-report: one codelet loop twice, one instance with a declared estimate
    (setPerfEstimate, 50 cycles); the report of one run on `device` ("model" or "ipu")."""
    from conftest import BIN, run
    d = tmp_path_factory.mktemp("rules-" + device)
    run([BIN / "tessera-cycle-rules-report", "--device", device, "--reports", d])
    path = next(d.rglob("profile.pop"))
    return pva.openReport(str(path)), path


def rule_cycles_sql(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return dict(db.execute("SELECT rule, sum(cycles) FROM run_vertex_cycle_rules GROUP BY rule"))


def test_vertex_cycles_by_rule_on_an_ipu_model(tmp_path_factory):
    report, path = cycle_rules_report(tmp_path_factory, "model")
    v = pva.summarize(report).vertexCycles
    assert v.hasRules and v.hasCycles
    assert v.scope.describe() == "all runs, one replica"
    assert v.policy == pva.vertexCyclePolicy(report.compilation.target)
    assert [r.rule for r in v.rules] == ["executed", "setPerfEstimate"]
    executed, declared = v.rules
    assert declared.label == pva.vertexCycleRuleLabel("setPerfEstimate")
    assert (executed.vertices, declared.vertices) == (1, 1)
    assert executed.shareOfVertices == declared.shareOfVertices == 0.5
    assert declared.cycles == 50  # one worker's declared estimate, one execution
    assert {"executed": executed.cycles, "setPerfEstimate": declared.cycles} == rule_cycles_sql(path)
    assert v.cycles == executed.cycles + declared.cycles
    assert abs(declared.shareOfVertexCycles - 50 / v.cycles) < 1e-12
    assert abs(executed.shareOfVertexCycles + declared.shareOfVertexCycles - 1) < 1e-12
    assert executed.cycles > declared.cycles  # the estimate promised far too little


def test_vertex_cycles_by_rule_on_simulated_hardware(tmp_path_factory):
    model, _ = cycle_rules_report(tmp_path_factory, "model")
    ipu, path = cycle_rules_report(tmp_path_factory, "ipu")
    v = pva.summarize(ipu).vertexCycles
    assert [(r.rule, r.vertices, r.shareOfVertexCycles) for r in v.rules] == [("executed", 2, 1.0)]
    # The declared estimate is ignored: both instances cost what the IPU Model measured for one.
    assert v.cycles == 2 * pva.summarize(model).vertexCycles.rules[0].cycles
    assert rule_cycles_sql(path) == {"executed": v.cycles}
