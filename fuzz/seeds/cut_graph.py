#!/usr/bin/env python3
"""Cuts a sample's serialized_graph.capnp (megabytes) down to a seed for fuzz_serialized_graph
(a few KB): the first compute sets with a few vertices each, at most two edges per field and two
regions per edge, and only the variables those regions name (renumbered, a few intervals each).
The result is still a valid graph, so the fuzzer starts from every structure the engine writes.
Uses the capnp tool's JSON conversion; the schema is profiler/schema/profile.capnp.

  cut_graph.py SCHEMA GRAPH OUT COMPUTE_SETS VERTICES INTERVALS
"""
import json
import subprocess
import sys


def convert(schema, direction, data):
    done = subprocess.run(["capnp", "convert", direction, schema, "SerializedGraph"], input=data,
                          capture_output=True, check=True)
    return done.stdout


def main():
    schema, graph, out = sys.argv[1:4]
    compute_sets, vertices, intervals = (int(a) for a in sys.argv[4:7])
    with open(graph, "rb") as f:
        g = json.loads(convert(schema, "binary:json", f.read()))
    renumbered = {}  # old variable index -> new

    def region(r):
        old = r.get("variable", 0)
        renumbered.setdefault(old, len(renumbered))
        return dict(r, variable=renumbered[old])

    cut_sets = []
    for cs in g.get("computeSets", [])[:compute_sets]:
        kept = []
        for v in cs.get("vertices", [])[:vertices]:
            fields = [{"name": f.get("name", ""),
                       "edges": [{"regions": [region(r) for r in e.get("regions", [])[:2]]}
                                 for e in f.get("edges", [])[:2]]}
                      for f in v.get("fields", [])]
            kept.append(dict(v, fields=fields))
        cut_sets.append({"name": cs.get("name", ""), "vertices": kept})
    variables = [None] * len(renumbered)
    for old, new in renumbered.items():
        v = dict(g["variables"][old])
        v["mapping"] = v.get("mapping", [])[:intervals]
        variables[new] = v
    cut = {"numIpus": g["numIpus"], "tilesPerIpu": g["tilesPerIpu"], "variables": variables,
           "computeSets": cut_sets}
    with open(out, "wb") as f:
        f.write(convert(schema, "json:binary", json.dumps(cut).encode()))


if __name__ == "__main__":
    main()
