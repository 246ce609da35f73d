# The JSON profiles are valid JSON and agree with the report libpva reads: the same tiles, the
# same memory, the same runs and cycles.
set -euo pipefail
run=$(dirname "$1")/run
cd "$run"
grep -q "^Memory Usage:" "$1"
grep -q "^Execution:" "$1"
# ProfileValue indexed by v[0], v[i] (int, unsigned, size_t), v["key"] and compared with a literal.
grep -qx "first profiled run: profiled" "$1"
grep -qx "run cycles agree whatever the index type: 1" "$1"
grep -qx "OnTileExecute steps have cycles: 1" "$1"
grep -qx "an index past the end throws poplar_error" "$1"
/usr/bin/python3 - <<'PY'
import json, pva
g = json.load(open("graph.json"))
e = json.load(open("execution.json"))
r = pva.openReport(g["profilePath"])
assert g["target"]["numTiles"] == r.compilation.target.numTiles, g["target"]
total = sum(t.memory.total.excludingGaps for t in r.compilation.tiles)
assert sum(g["memory"]["byTile"]["total"]) == total, (sum(g["memory"]["byTile"]["total"]), total)
runs = list(r.execution.runs)
assert [x["name"] for x in e["runs"]] == [x.name for x in runs], e["runs"]
assert e["simulation"]["cycles"] == sum(x.cycles for x in runs)
print("JSON profiles agree with the report: %d tiles, %d bytes, %d runs, %d cycles"
      % (g["target"]["numTiles"], total, len(runs), e["simulation"]["cycles"]))
PY
