"""libpvti: instrument host code with trace events that PopVision-style tools read.

    import libpvti as pvti
    channel = pvti.createTraceChannel("MyApp")
    with pvti.Tracepoint(channel, "load data"):
        ...
    pvti.Tracepoint.event(channel, "epoch 1 done")

Nothing is recorded unless PVTI_OPTIONS='{"enable":"true"}' is set in the environment.
"""
import functools
import json as _json

from .libpvti_core import (  # noqa: F401
    Graph,
    HeatmapDouble,
    HeatmapInt64,
    Series,
    TraceChannel,
    checkTraceChannel,
    closeTrace,
    createTraceChannel,
    disableTraceChannel,
    enableTraceChannel,
    getCurrentTraceFilename,
    listTraceChannel,
    setThreadName,
    traceDrivers,
    traceFramework,
    tracePoplar,
)
from . import libpvti_core as _core


class Tracepoint:
    """A duration event: a context manager, or explicit begin()/end() and instant event()."""

    def __init__(self, channel, label, metadata=None):
        self.channel = channel
        self.label = label
        self.metadata = metadata

    def __enter__(self):
        if self.metadata is None:
            _core._begin(self.channel, self.label)
        else:
            _core._beginWithMetadata(self.channel, self.label, _metadata_text(self.metadata))
        return self

    def __exit__(self, *exc):
        _core._end(self.channel, self.label)
        return False

    @staticmethod
    def begin(channel, label):
        _core._begin(channel, label)

    @staticmethod
    def end(channel, label):
        _core._end(channel, label)

    @staticmethod
    def event(channel, label, metadata=None):
        if metadata is None:
            _core._event(channel, label)
        else:
            _core._eventWithMetadata(channel, label, _metadata_text(metadata))


def _metadata_text(metadata):
    return metadata if isinstance(metadata, str) else _json.dumps(metadata)


def instrument_fn(channel):
    """Decorator factory: every call of the decorated function is a span named after it."""

    def decorate(fn):
        label = getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn)))

        @functools.wraps(fn)
        def traced(*args, **kwargs):
            with Tracepoint(channel, label):
                return fn(*args, **kwargs)

        return traced

    return decorate


def instrument(obj, methods, channel):
    """Traces every call of the named methods of an existing object (patched in place)."""
    for name in methods:
        method = getattr(obj, name)
        label = f"{type(obj).__name__}.{name}"

        def traced(*args, _method=method, _label=label, **kwargs):
            with Tracepoint(channel, _label):
                return _method(*args, **kwargs)

        if name.startswith("__") and name.endswith("__"):
            # Special methods are looked up on the type: give this object a subclass of its own.
            cls = type(obj)
            patched = type(cls.__name__, (cls,), {name: lambda self, *a, _t=traced, **k: _t(*a, **k)})
            obj.__class__ = patched
        else:
            setattr(obj, name, traced)
    return obj
