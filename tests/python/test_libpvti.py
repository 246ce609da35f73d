"""libpvti from Python: what a script records reads back through pva.openTrace."""
import pva
from conftest import trace_of

SCRIPT = r"""
import libpvti as pvti
ch = pvti.createTraceChannel("MyApp")
with pvti.Tracepoint(ch, "outer"):
    with pvti.Tracepoint(ch, "inner", {"batch": 3}):
        pass
pvti.Tracepoint.begin(ch, "manual")
pvti.Tracepoint.event(ch, "epoch 1 done")
pvti.Tracepoint.end(ch, "manual")

@pvti.instrument_fn(ch)
def train_step(x):
    return x + 1
assert train_step(1) == 2

class Loader:
    def __len__(self): return 3
    def load(self): return "data"
loader = pvti.instrument(Loader(), ["__len__", "load"], ch)
assert len(loader) == 3 and loader.load() == "data"

g = pvti.Graph("Loss", "")
s = g.addSeries("training")
for v in (3.0, 2.0, 1.5):
    s.add(v)
h = pvti.HeatmapDouble("weights", [-1.0, 0.0, 1.0], "")
h.add([-2.0, -0.5, 0.5, 0.25, 3.0])
off = pvti.createTraceChannel("Quiet")
pvti.disableTraceChannel(off)
assert not pvti.checkTraceChannel(off)
with pvti.Tracepoint(off, "dropped"):
    pass
assert ["MyApp", True] in pvti.listTraceChannel()
assert pvti.getCurrentTraceFilename().endswith(".pvti")
pvti.closeTrace()
"""


def all_events(thread):
    def walk(events):
        for e in events:
            yield e
            yield from walk(e.children())
    return list(walk(thread.events))


def test_recorded_events_read_back(tmp_path):
    path = trace_of(SCRIPT, tmp_path)
    assert path is not None
    trace = pva.openTrace(str(path))
    threads = [t for p in trace.processes for t in p.threads]
    events = [e for t in threads for e in all_events(t)]
    labels = [e.label for e in events]
    for expected in ("outer", "inner", "manual", "train_step", "Loader.__len__", "Loader.load"):
        assert expected in labels
    assert "dropped" not in labels
    outer = next(e for e in events if e.label == "outer")
    assert [c.label for c in outer.children()] == ["inner"]
    assert outer.channel == "MyApp"
    inner = outer.children()[0]
    assert '"batch"' in inner.metadata
    assert inner.duration <= outer.duration
    instants = [i.label for t in threads for i in t.instantEvents]
    assert "epoch 1 done" in instants
    process = trace.processes[0]
    series = process.graphs[0].series[0]
    assert [x.value for x in series.samples] == [3.0, 2.0, 1.5]
    heatmap = process.heatmaps[0]
    assert list(heatmap.samples[0].bins) == [1, 1, 2, 1]
    assert '"traceEvents"' in trace.exportChromeTrace()


def test_no_options_no_file(tmp_path):
    assert trace_of("import libpvti as pvti\nc = pvti.createTraceChannel('x')\nwith pvti.Tracepoint(c, 'a'): pass\n",
                    tmp_path, options={"enable": False, "directory": str(tmp_path)}) is None


def test_open_trace_reports_progress_and_can_be_stopped(tmp_path):
    path = str(trace_of(SCRIPT, tmp_path))
    seen = []
    trace = pva.openTrace(path, progress=lambda fraction: seen.append(fraction) or True)
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen)
    assert len(trace.processes[0].threads) == len(pva.openTrace(path).processes[0].threads)
    try:
        pva.openTrace(path, lambda fraction: False)
    except pva.CancelledError as e:
        assert path in str(e) and "cancelled" in str(e)
    else:
        raise AssertionError("a progress callback returning False must stop the load")
