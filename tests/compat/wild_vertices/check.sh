# The drawings are Graphviz graphs of the two vertices, the compute set and the variables.
set -euo pipefail
run=$(dirname "$1")/run
head -1 "$run/vertexgraph.dot" | grep -qx "digraph vertexGraph {"
head -1 "$run/computegraph.dot" | grep -qx "digraph computeGraph {"
for name in '"Axpb @0"' '"RowStencil @1"' '"grid"' '"smooth"' '"x"' '"y"'; do
  grep -q "label=$name" "$run/vertexgraph.dot" || { echo "vertexgraph.dot lacks $name" >&2; exit 1; }
done
grep -q 'label="stencil (2 vertices)"' "$run/computegraph.dot"
echo "graph drawings: $(grep -c -- '->' "$run/vertexgraph.dot") vertex edges, $(grep -c -- '->' "$run/computegraph.dot") compute set edges"
