# The payload of an executable file (poplar::Executable::serialize): one unpacked Cap'n Proto
# message after the file's header (engine/src/executable/ExecutableFile.cpp, docs/engine.md).
# The writer and the reader (both in the engine) use the code generated from this one file.
#
# Version rule (docs/engine.md, "Executables"): the header's format version names this schema.
# A field added at the end of a struct, whose default (zero, empty) means what files without it
# meant, keeps the format version: an older Tessera ignores it, a newer one reads the default.
# Any other change (a field removed, retyped, renumbered or given a new meaning) bumps the format
# version, and a reader refuses every format version but its own.
#
# Enumerations (element types, program kinds, cycle rules, ...) are stored as the engine's own
# enum values in UInt8 fields, not as Cap'n Proto enums, so the C++ enums stay their one
# definition; the reader checks each against its range. Indices into the lists of the message
# (variables, compute sets, programs, debug contexts, vertex types, tiles) are UInt32 and are
# checked too: a message that Cap'n Proto accepts is not yet a graph the runtime may trust.
@0xb9c5350b9f4e972a;

$import "/capnp/c++.capnp".namespace("tessera::profiler::capnp::exe");

struct Executable {
  name @0 :Text;                        # the debug context's path: names the report directory
  options @1 :List(Option);             # engine options given to compileGraph (never applied)
  vertexTypes @2 :List(VertexType);     # indexed by Vertex.type
  codeletObjects @3 :List(CodeletObject);
  debugContexts @4 :List(DebugContext); # parents before children
  graph @5 :Graph;
}

struct Option { name @0 :Text; value @1 :Text; }

# Found again by name and codelet source in the loading process.
struct VertexType { name @0 :Text; codeletSource @1 :Text; }

# The compiled object (.gp) of a codelet file, keyed by its codelet source.
struct CodeletObject { source @0 :Text; bytes @1 :Data; }

struct DebugContext {
  parent @0 :UInt32;                    # 0: none; otherwise the parent's index + 1
  name @1 :Text;
  file @2 :Text;                        # file, function and line all empty: no location
  function @3 :Text;
  line @4 :UInt32;
  layer @5 :Text;
  opType @6 :Text;
}

# Every member of poplar::Target::Params.
struct Target {
  type @0 :UInt8;                       # poplar::TargetType
  arch @1 :Text;
  numIpus @2 :UInt32;
  tilesPerIpu @3 :UInt32;
  numWorkerContexts @4 :UInt32;
  bytesPerTile @5 :UInt64;
  tileClockFrequency @6 :Float64;
  exchangeBytesPerCycle @7 :UInt32;
  memcpyBytesPerCycle @8 :UInt32;
  instructionBytes @9 :UInt32;
  ipuLinkBytesPerCycle @10 :Float64;
  hostLinkBytesPerCycle @11 :Float64;
  tilesPerSuperTile @12 :UInt32;
  supportsSuperTileSendReceive @13 :Bool;
  minIpuSyncDelay @14 :UInt32;
  maxIpuSyncDelay @15 :UInt32;
  globalSyncCycles @16 :UInt32;
  interleavedMemoryElementIndex @17 :UInt32;
  memoryElementOffsets @18 :List(UInt64);
  dataPathWidth @19 :UInt32;
  replicationFactor @20 :UInt32;
}

struct ByteRun { offset @0 :UInt64; bytes @1 :UInt64; }    # bytes of one replica's arena
struct VarRegion { variable @0 :UInt32; begin @1 :UInt64; end @2 :UInt64; }
struct TileInterval { begin @0 :UInt64; end @1 :UInt64; tile @2 :UInt32; }

struct Transfer {
  type @0 :UInt8;                       # poplar::Type::Id
  numElements @1 :UInt64;
  runs @2 :List(ByteRun);
  regions @3 :List(VarRegion);
}

struct Variable {
  name @0 :Text;
  type @1 :UInt8;
  shape @2 :List(UInt64);
  numElements @3 :UInt64;
  isConstant @4 :Bool;
  arenaOffset @5 :UInt64;
  mapping @6 :List(TileInterval);       # sorted, covering every element
  initial @7 :Data;                     # empty, one replica's bytes, or every replica's
  debug @8 :UInt32;
}

struct Edge { runs @0 :List(ByteRun); numElements @1 :UInt64; regions @2 :List(VarRegion); }
struct Field { edges @0 :List(Edge); state @1 :Data; }

struct Vertex {
  type @0 :UInt32;                      # index into Executable.vertexTypes
  tile @1 :UInt32;
  estimatedCycles @2 :UInt64;
  cycleRule @3 :UInt8;                  # tessera::profiler::schema::CycleRule
  hasEstimatedFlops @4 :Bool;
  estimatedFlops @5 :UInt64;
  fields @6 :List(Field);               # indexed like the vertex type's fields
}

struct ComputeSet { name @0 :Text; debug @1 :UInt32; vertices @2 :List(Vertex); }

struct CopyRun { src @0 :UInt64; dst @1 :UInt64; bytes @2 :UInt64; }

struct Collective {
  kind @0 :UInt8;                       # CollectiveKind
  op @1 :UInt8;                         # CollectiveOp
  groupType @2 :UInt8;                  # GroupType
  groupSize @3 :UInt32;
  opName @4 :Text;
  root @5 :UInt32;                      # Broadcast
  copyTo @6 :List(UInt32);              # Copy
}

struct PrintFormat {
  summariseThreshold @0 :UInt32;
  edgeItems @1 :UInt32;
  maxLineWidth @2 :UInt32;
  digits @3 :UInt32;
  floatFormat @4 :UInt8;
  separator @5 :UInt8;
  openBracket @6 :UInt8;
  closeBracket @7 :UInt8;
}

# One node of the lowered program tree; which members matter depends on its kind.
struct Program {
  kind @0 :UInt8;                       # LoweredProgram::Kind
  name @1 :Text;
  debug @2 :UInt32;
  children @3 :List(UInt32);            # indices of earlier programs
  computeSet @4 :UInt32;
  copies @5 :List(CopyRun);
  srcRegions @6 :List(VarRegion);
  dstRegions @7 :List(VarRegion);
  transfer @8 :Transfer;
  result @9 :Transfer;
  collective @10 :Collective;
  stream @11 :UInt32;
  remoteBuffer @12 :UInt32;
  scalarType @13 :UInt8;
  scalarOffset @14 :UInt64;
  scalarVariable @15 :UInt32;
  hasScalar @16 :Bool;
  count @17 :UInt64;
  caseValues @18 :List(Int32);
  boundsChecked @19 :Bool;
  syncType @20 :UInt8;
  text @21 :Text;
  printShape @22 :List(UInt64);
  printFormat @23 :PrintFormat;
}

struct Stream { handle @0 :Text; type @1 :UInt8; numElements @2 :UInt64; hostToDevice @3 :Bool; }
struct RemoteBuffer { handle @0 :Text; type @1 :UInt8; numElements @2 :UInt64; repeats @3 :UInt64; }
struct HostHandle { handle @0 :Text; isWrite @1 :Bool; transfer @2 :Transfer; }

struct Graph {
  target @0 :Target;                    # the whole device
  replicaTarget @1 :Target;             # one replica
  replicationFactor @2 :UInt32;
  arenaBytes @3 :UInt64;                # one replica's memory
  variables @4 :List(Variable);
  computeSets @5 :List(ComputeSet);
  programs @6 :List(Program);
  entryPoints @7 :List(UInt32);
  streams @8 :List(Stream);
  remoteBuffers @9 :List(RemoteBuffer);
  hostHandles @10 :List(HostHandle);
}
