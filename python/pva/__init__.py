"""pva: read Tessera's profile reports (profile.pop, debug.cbor) and host traces (.pvti).

    import pva
    report = pva.openReport("reports/mlp/profile.pop", "reports/mlp/debug.cbor")
    total = sum(t.memory.total.excludingGaps for t in report.compilation.tiles)
    cycles = sum(s.ipus[0].cycles for s in report.execution.steps)

Errors raise pva.Exception subclasses (FileNotFoundError, InvalidReportError,
UnsupportedVersionError, DebugInfoMismatchError, InvalidArgumentError, CancelledError) naming
the file.
"""
from .pva_core import *  # noqa: F401,F403  (the classes live in pva.pva_core)
