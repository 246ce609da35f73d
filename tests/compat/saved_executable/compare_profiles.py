"""Compares two profiles with the pva module: the run from a loaded executable must show what
the run compiled in one process showed (memory, variables, programs, steps and cycles)."""
import sys

import pva


def context(obj):
    """What debug.cbor says about the object: its debug context's path, layer, op and source line."""
    dc = obj.debugContext
    if dc is None:
        return None
    return (dc.path, dc.layer, dc.opType, dc.location.fileName, dc.location.lineNumber)


def facts(directory):
    r = pva.openReport(directory + "/profile.pop", directory + "/debug.cbor")
    c = r.compilation
    return {
        "tiles": c.target.numTiles,
        "memory by tile": [t.memory.total.includingGaps for t in c.tiles],
        "variables": sorted((v.name, v.bytes, v.shape, v.elementType, context(v)) for v in c.variables),
        "programs": [(p.name, p.type, list(p.estimatedCyclesByTile), context(p)) for p in c.programs],
        "compute sets": [(cs.name, cs.numVertices, context(cs)) for cs in c.computeSets],
        "runs": [(run.name, run.cycles) for run in r.execution.runs],
        "steps": [(s.program.name, [i.cycles for i in s.ipus]) for s in r.execution.steps],
    }


base, loaded = facts(sys.argv[1]), facts(sys.argv[2])
for key in base:
    if base[key] != loaded[key]:
        sys.exit(f"compare_profiles: '{key}' differs:\n  compiled here: {base[key]}\n  loaded:        {loaded[key]}")
steps = len(base["steps"])
cycles = sum(c for _, c in base["runs"])
assert steps > 0 and cycles > 0, (steps, cycles)
print(f"profiles match: {base['tiles']} tiles, {len(base['variables'])} variables, {steps} steps, {cycles} cycles")
