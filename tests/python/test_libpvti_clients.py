"""The client usages of shared/api/libpvti.md §6, recorded from Python and read back with pva."""
import re
import statistics
from pathlib import Path

import pva
from conftest import trace_of

TRAINING = r"""
import libpvti as pvti
app = pvti.createTraceChannel("MNIST Application")
instant = pvti.createTraceChannel("Instant Events")
loss = pvti.Graph("Loss", "")
train_loss, val_loss = loss.addSeries("Training Loss"), loss.addSeries("Validation Loss")
accuracy = pvti.Graph("Accuracy", "%")
acc_train = accuracy.addSeries("Training")
conv1 = pvti.HeatmapDouble("conv1.weight", [x / 1.0 for x in range(-16, 17)], "2^x")

class Dataset:
    def __len__(self): return 4
    def __getitem__(self, i): return i * 2
data = pvti.instrument(Dataset(), ["__len__", "__getitem__"], app)

pvti.Tracepoint.begin(app, "train_replica")
for epoch in range(3):
    pvti.Tracepoint.event(instant, f"Epoch {epoch} begin")
    with pvti.Tracepoint(app, f"Epoch:{epoch}"):
        with pvti.Tracepoint(app, "Training"):
            total = sum(data[i] for i in range(len(data)))
            train_loss.add(1.0 / (epoch + 1))
            acc_train.add(50.0 + epoch)
            conv1.add([-20.0, -3.0, 0.5, 7.0, 40.0])
        with pvti.Tracepoint(app, "Evaluation"):
            val_loss.add(1.5 / (epoch + 1))
pvti.Tracepoint.end(app, "train_replica")
print(pvti.getCurrentTraceFilename())
"""


def walk(events):
    for e in events:
        yield e
        yield from walk(e.children())


def test_training_script_reads_back(tmp_path):
    path = trace_of(TRAINING, tmp_path)
    # §6.10 the file name: <Www>_<Mmm>_<DD>_<HH:MM:SS>_<YYYY>_<TZ>_<pid>.pvti
    assert re.match(r"^[A-Z][a-z]{2}_[A-Z][a-z]{2}_.+_\d{4}_[A-Z]+_\d+\.pvti$", path.name), path.name
    trace = pva.openTrace(str(path))
    thread = trace.processes[0].threads[0]
    events = list(walk(thread.events))
    # §6.16 one long span over the loop, §6.1-2 one span per epoch with its phases nested
    replica = [e for e in thread.events if e.label == "train_replica"]
    assert len(replica) == 1
    epochs = [e for e in events if e.label.startswith("Epoch")]
    assert [e.label for e in replica[0].children()] == ["Epoch:0", "Epoch:1", "Epoch:2"]
    for e in epochs:
        assert [c.label for c in e.children()] == ["Training", "Evaluation"]
    # §6.3 read-back statistics
    durations = [e.duration for e in epochs]
    assert len(durations) == 3 and min(durations) >= 0 and statistics.mean(durations) <= replica[0].duration
    # §6.6 instant events on their own channel
    instants = [i for i in thread.instantEvents if i.channel == "Instant Events"]
    assert [i.label for i in instants] == ["Epoch 0 begin", "Epoch 1 begin", "Epoch 2 begin"]
    # §6.14 instrumented special methods: 3 epochs x (1 len + 4 getitem)
    assert sum(e.label == "Dataset.__getitem__" for e in events) == 12
    assert sum(e.label == "Dataset.__len__" for e in events) == 3
    # §6.4-5 graphs, units, series
    graphs = {g.name: g for g in trace.processes[0].graphs}
    assert graphs["Accuracy"].unit == "%"
    assert [s.name for s in graphs["Loss"].series] == ["Training Loss", "Validation Loss"]
    assert [x.value for x in graphs["Loss"].series[1].samples] == [1.5, 0.75, 0.5]
    # §6.7 heatmap: 33 edges, 34 bins, values below/above the outer edges in the outer bins
    heatmap = trace.processes[0].heatmaps[0]
    assert heatmap.name == "conv1.weight" and heatmap.unit == "2^x" and len(heatmap.binEdges) == 33
    bins = list(heatmap.samples[0].bins)
    assert len(bins) == 34 and sum(bins) == 5 and bins[0] == 1 and bins[-1] == 1


def test_default_directory_and_channel_filter(tmp_path):
    # §6.8 without "directory" the file lands in the working directory; §6.12 "channels" keeps
    # only the named channels.
    script = TRAINING.replace('import libpvti as pvti', f'import os; os.chdir({str(tmp_path)!r})\nimport libpvti as pvti')
    path = trace_of(script, tmp_path, options={"enable": True, "channels": ["Instant Events"]})
    assert path is not None and path.parent == Path(tmp_path)
    thread = pva.openTrace(str(path)).processes[0].threads[0]
    assert not list(walk(thread.events))
    assert len(thread.instantEvents) == 3


def test_unset_options_write_nothing(tmp_path):
    # §6.9 with tracing off the script still runs and writes no file
    script = TRAINING.replace('import libpvti as pvti', f'import os; os.chdir({str(tmp_path)!r})\nimport libpvti as pvti')
    assert trace_of(script, tmp_path, options="unset") is None
    assert trace_of(script, tmp_path, options={"enable": "false"}) is None
