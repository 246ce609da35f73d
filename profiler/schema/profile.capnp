# Cap'n Proto messages stored as packed blobs in profile.pop, and the serialized graph file.
# Compiled once into tessera::profiler; the writer and libpva use the same generated code.
@0xb101b79c1bd4d1b6;

$import "/capnp/c++.capnp".namespace("tessera::profiler::capnp");

# A value per tile (or per IPU, or per memory element): cycles, bytes, counts.
struct TileValues {
  values @0 :List(UInt64);
}

# One IPU's part of an execution step.
struct StepIpu {
  ipu @0 :UInt32;
  cycles @1 :UInt64;             # cycles the step took on this IPU
  activeTiles @2 :UInt32;        # tiles with non-zero cycles
  activeFromMin @3 :UInt64;      # absolute cycle counters over active tiles
  activeFromMax @4 :UInt64;
  activeToMin @5 :UInt64;
  activeToMax @6 :UInt64;
  allFromMin @7 :UInt64;         # the same over all tiles of the IPU
  allFromMax @8 :UInt64;
  allToMin @9 :UInt64;
  allToMax @10 :UInt64;
  dataIn @11 :UInt64;            # bytes into the IPU (stream copies, global exchange)
  dataOut @12 :UInt64;           # bytes out of the IPU
  tileBalance @13 :Float32;      # mean / max cycles over all tiles of the IPU
  activeTileBalance @14 :Float32; # mean / max cycles over the active tiles
}

struct StepIpus {
  ipus @0 :List(StepIpu);        # only the IPUs that took part in the step
}

# autoReport.outputSerializedGraph: the graph as built by the program.
struct SerializedGraph {
  struct Interval { begin @0 :UInt64; end @1 :UInt64; tile @2 :UInt32; }
  struct Variable {
    name @0 :Text;
    elementType @1 :Text;
    shape @2 :List(UInt64);
    isConstant @3 :Bool;
    mapping @4 :List(Interval);
  }
  struct Region { variable @0 :UInt32; begin @1 :UInt64; end @2 :UInt64; }
  struct Edge { regions @0 :List(Region); }
  struct Field { name @0 :Text; edges @1 :List(Edge); }
  struct Vertex { type @0 :Text; tile @1 :UInt32; fields @2 :List(Field); }
  struct ComputeSet { name @0 :Text; vertices @1 :List(Vertex); }
  numIpus @0 :UInt32;
  tilesPerIpu @1 :UInt32;
  variables @2 :List(Variable);
  computeSets @3 :List(ComputeSet);
}
