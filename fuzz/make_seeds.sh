#!/usr/bin/env bash
# Regenerates the seed corpora of fuzz/corpus/ from tessera-fuzz-seeds (a 4-tile report and a
# small trace), shrunk to 512-byte SQLite pages so that mutations touch few pages, plus the
# blobs and event blocks inside them for the in-memory decoder targets.
# The serialized-graph seeds are the samples' graphs cut down to a few KB (seeds/cut_graph.py),
# from the reports a normal build's samples wrote.
#   fuzz/make_seeds.sh BUILD_DIR [SAMPLES_BUILD_DIR]
#     BUILD_DIR: a build with -DTESSERA_BUILD_FUZZ=ON; SAMPLES_BUILD_DIR: a build with
#     -DTESSERA_BUILD_SAMPLES=ON whose samples have run (default: build/ beside this script's tree)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$1/bin"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
PVTI_OPTIONS="{\"enable\":\"true\",\"directory\":\"$tmp/trace\"}" "$bin/tessera-fuzz-seeds" "$tmp/report"
shrink() { sqlite3 "$1" "PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM;" > /dev/null; }
c="$here/corpus"
mkdir -p "$c/valid" "$c/fuzz_report" "$c/fuzz_report_debug" "$c/fuzz_cbor" "$c/fuzz_trace" "$c/fuzz_blobs" "$c/fuzz_event_block"
cp "$tmp/report/profile.pop" "$c/valid/profile.pop" && shrink "$c/valid/profile.pop"
cp "$tmp/report/debug.cbor" "$c/valid/debug.cbor"
cp "$c/valid/profile.pop" "$c/fuzz_report/seed-remote-sum.pop"
cp "$c/valid/debug.cbor" "$c/fuzz_report_debug/seed-remote-sum.cbor"
cp "$c/valid/debug.cbor" "$c/fuzz_cbor/seed-remote-sum.cbor"
trace="$(ls "$tmp"/trace/*.pvti | head -1)"
cp "$trace" "$c/fuzz_trace/seed-small.pvti" && shrink "$c/fuzz_trace/seed-small.pvti"
# Blobs: one selector byte (fuzz_blobs.cpp: 0 TileValues, 1 StepIpus, 2 in-place StepIpus reader).
n=0
for q in "SELECT hex(cycles_by_tile) FROM steps WHERE cycles_by_tile IS NOT NULL LIMIT 2" \
         "SELECT hex(bytes_by_tile) FROM liveness_steps LIMIT 2"; do
  for h in $(sqlite3 "$c/valid/profile.pop" "$q"); do
    { printf '\x00'; echo -n "$h" | xxd -r -p; } > "$c/fuzz_blobs/seed-tilevalues-$n"; n=$((n + 1))
  done
done
for h in $(sqlite3 "$c/valid/profile.pop" "SELECT hex(ipus) FROM steps LIMIT 3"); do
  { printf '\x01'; echo -n "$h" | xxd -r -p; } > "$c/fuzz_blobs/seed-stepipus-$n"
  { printf '\x02'; echo -n "$h" | xxd -r -p; } > "$c/fuzz_blobs/seed-stepipus-inplace-$n"; n=$((n + 1))
done
# Event blocks: 8 bytes of first_ns (little-endian), then the records.
sqlite3 "$c/fuzz_trace/seed-small.pvti" "SELECT first_ns, hex(records) FROM event_blocks" | while IFS='|' read -r first h; do
  python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<q', $first) + bytes.fromhex('$h'))" \
    > "$c/fuzz_event_block/seed-block-$first"
done
# Serialized graphs: compute sets, vertices per compute set and intervals per variable kept.
samples="${2:-$here/../build}/samples"
mkdir -p "$c/fuzz_serialized_graph"
cut() { python3 "$here/seeds/cut_graph.py" "$here/../profiler/schema/profile.capnp" "$samples/$1/reports/$1/serialized_graph.capnp" \
          "$c/fuzz_serialized_graph/$2" "${@:3}"; }
cut pipeline seed-pipeline-2cs.capnp 2 2 2
cut pipeline seed-pipeline-6cs.capnp 6 3 3
cut mlp seed-mlp-4cs.capnp 4 2 2
# The analysis target starts from the same report (its corpus also holds every finding).
mkdir -p "$c/fuzz_analysis" "$c/fuzz_gp"
cp "$c/valid/profile.pop" "$c/fuzz_analysis/seed-remote-sum.pop"
# A .gp: a one-vertex codelet compiled by the normal build's popc (the sanitizer build's would
# do as well), as Graph::addCodelets loads it.
cat > "$tmp/sum.cpp" <<'CODELET'
#include <poplar/Vertex.hpp>
class Sum : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;
  bool compute() {
    float s = 0;
    for (float x : in) s += x;
    *out = s;
    return true;
  }
};
CODELET
"${2:-$here/../build}/bin/popc" -O2 -o "$c/fuzz_gp/seed-sum.gp" "$tmp/sum.cpp"
echo "make_seeds.sh: seeds written under $c"
