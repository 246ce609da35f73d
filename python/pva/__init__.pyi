# Type stubs for pva (Tessera's libpva): what editors complete and type checkers check.
from enum import Enum
from typing import Callable, Dict, Iterator, List, overload

import numpy as np
import numpy.typing as npt

# Every per-tile array (the ...ByTile properties, TileCycleTotals.byTile) has exactly
# report.compilation.target.tilesPerReplica entries, index t for tile t of a replica, zeros
# included (numTiles without replication): never shorter, never empty.
TileArray = npt.NDArray[np.uint64]

class Exception(RuntimeError): ...
class FileNotFoundError(Exception): ...
class InvalidReportError(Exception): ...
class UnsupportedVersionError(Exception): ...
class DebugInfoMismatchError(Exception): ...
class InvalidArgumentError(Exception): ...
class CancelledError(Exception): ...

class PoplarVersion:
    string: str
    major: int
    minor: int
    point: int
    packageHash: str

class ProfileReportVersion:
    major: int
    minor: int
    point: int
    isUnstableFormat: bool

class InstrumentationSettings:
    class ComputeInstrumentationLevel(Enum):
        Off = 0; Vertex = 1; Tile = 2; Ipu = 3; Device = 4; Unknown = 5
    class ExternalExchangeInstrumentationLevel(Enum):
        Off = 0; Tile = 1; Unknown = 2
    compute: ComputeInstrumentationLevel
    externalExchange: ExternalExchangeInstrumentationLevel

class Target:
    class Type(Enum):
        Ipu = 0; IpuModel = 1; Cpu = 2; Unknown = 3
    type: Type
    architecture: IPU.Architecture
    numIPUs: int
    tilesPerIpu: int
    numTiles: int
    bytesPerTile: int
    bytesPerIPU: int
    totalMemory: int
    clockFrequency: float
    numReplicas: int
    ipusPerReplica: int
    tilesPerReplica: int
    memoryPerReplica: int
    numWorkerContexts: int
    interleavedMemoryStart: int
    memoryElementOffsets: List[int]

class Graph:
    numVertices: int
    numComputeSets: int
    numVariables: int
    numEdges: int

class MemoryTotal:
    includingGaps: int
    excludingGaps: int

class OverlapBytes:
    nonOverlapped: int
    overlapped: int
    total: int

class CategoryMemory:
    nonInterleaved: OverlapBytes
    interleaved: OverlapBytes
    overflowed: OverlapBytes
    total: int

class MemoryCategories:
    variable: CategoryMemory
    constant: CategoryMemory
    message: CategoryMemory
    vertexCode: CategoryMemory
    vertexInstanceState: CategoryMemory
    vertexFieldData: CategoryMemory
    vectorListDescriptor: CategoryMemory
    copyDescriptor: CategoryMemory
    controlCode: CategoryMemory
    controlId: CategoryMemory
    internalExchangeCode: CategoryMemory
    hostExchangeCode: CategoryMemory
    globalExchangeCode: CategoryMemory
    stack: CategoryMemory
    instrumentationResults: CategoryMemory
    def __getitem__(self, name: str) -> CategoryMemory: ...
    @staticmethod
    def names() -> List[str]: ...

class VertexType:
    name: str
    size: int
    codeBytes: int
    isSupervisor: bool

class TileVertexType:
    type: VertexType
    codeBytes: int
    count: int

class TileMemory:
    total: MemoryTotal
    overflowed: MemoryTotal
    alwaysLiveBytes: int
    notAlwaysLiveBytes: int
    category: MemoryCategories
    vertices: List[TileVertexType]

class Tile:
    number: int
    ipu: int
    memory: TileMemory

class IPU:
    class Architecture(Enum):
        Ipu1 = 0; Ipu2 = 1; Ipu21 = 2; Unknown = 3
    id: int
    tiles: List[Tile]

class VertexCycleRule:
    rule: str  # getCycleEstimate, setPerfEstimate, registerPerfEstimator, executed or fieldSizes
    count: int

class ComputeSetVertices:
    type: VertexType
    count: int
    countByTile: TileArray
    cycleRules: List[VertexCycleRule]

class ComputeSet:
    id: int
    name: str
    numVertices: int
    vertices: List[ComputeSetVertices]
    estimatedCyclesByTile: TileArray
    # None: the report has no FLOP estimates (Report.hasFlopEstimates is False)
    estimatedFlops: int | None
    verticesWithoutFlopEstimate: int | None
    # None: no FLOP estimates per tile (Report.hasFlopEstimatesByTile is False); they add up to estimatedFlops
    estimatedFlopsByTile: TileArray | None
    debugContext: DebugContext | None

class Variable:
    _id: int
    name: str
    size: int
    bytes: int
    alwaysLive: bool
    category: str
    elementType: str
    shape: str
    liveFrom: int
    liveTo: int
    debugContext: DebugContext | None

class NotAlwaysLiveMemory:
    bytes: int
    variables: List[Variable]

class ProgramStep:
    index: int
    program: Program
    notAlwaysLiveMemory: NotAlwaysLiveMemory
    notAlwaysLiveBytes: int
    def notAlwaysLiveMemoryForTile(self, tile: int) -> NotAlwaysLiveMemory: ...
    def notAlwaysLiveMemoryForIpu(self, ipu: int) -> NotAlwaysLiveMemory: ...

class LivenessInterval:
    start: int
    end: int

class EquivalenceClass:
    id: int
    steps: List[LivenessInterval]

class BriefVar:
    id: int
    bytes: int
    tileId: int
    equivalenceClass: EquivalenceClass

class LoweredVariable:
    _id: int
    name: str
    bytes: int
    tile: int
    offset: int
    alignment: int
    category: str
    alwaysLive: bool
    hasUnloweredVar: bool
    unloweredVar: Variable

class LoweredVariables:
    allBriefVars: List[BriefVar]
    def forTile(self, tile: int) -> List[LoweredVariable]: ...

class ProgramVariable:
    class Access(Enum):
        Read = 0; Write = 1; ReadWrite = 2
    _id: int
    name: str
    bytes: int
    alwaysLive: bool
    access: Access

class Program:
    class Type(Enum):
        Sequence = 0; Repeat = 1; RepeatWhileTrue = 2; RepeatWhileFalse = 3; If = 4; Switch = 5; Call = 6
        OnEveryTileSwitch = 7; OnTileExecute = 8; DoExchange = 9; GlobalExchange = 10; StreamCopyBegin = 11
        StreamCopyMid = 12; StreamCopyEnd = 13; Sync = 14; WriteUndef = 15; Block = 16; Abort = 17
    _id: int
    name: str
    type: Type
    children: List[Program]
    vars: List[ProgramVariable]
    controlCodeByTile: TileArray
    estimatedCyclesByTile: TileArray
    codeBytesByTile: TileArray
    dataBytes: int
    syncType: str
    streamCopyDestination: str  # 'host', 'remoteBuffer', 'mixed', 'unknown' (before format 1.3), 'none'
    isStep: bool
    debugContext: DebugContext | None
    def accept(self, visitor: ProgramVisitor) -> None: ...
    def __hash__(self) -> int: ...

class SequenceProgram(Program): ...
class RepeatProgram(Program):
    repeatCount: int
class RepeatWhileTrueProgram(Program): ...
class RepeatWhileFalseProgram(Program): ...
class IfProgram(Program): ...
class SwitchProgram(Program): ...
class CallProgram(Program): ...
class OnEveryTileSwitchProgram(Program): ...
class OnTileExecuteProgram(Program):
    computeset: ComputeSet
class DoExchangeProgram(Program): ...
class GlobalExchangeProgram(Program): ...
class StreamCopyBeginProgram(Program): ...
class StreamCopyMidProgram(Program): ...
class StreamCopyEndProgram(Program): ...
class SyncProgram(Program): ...
class WriteUndefProgram(Program): ...
class BlockProgram(Program): ...
class AbortProgram(Program): ...

class ProgramVisitor:
    """Subclass, call super().__init__(), override the visit methods you need."""
    def __init__(self) -> None: ...
    def visitSequence(self, program: SequenceProgram) -> None: ...
    def visitRepeat(self, program: RepeatProgram) -> None: ...
    def visitRepeatWhileTrue(self, program: RepeatWhileTrueProgram) -> None: ...
    def visitRepeatWhileFalse(self, program: RepeatWhileFalseProgram) -> None: ...
    def visitIf(self, program: IfProgram) -> None: ...
    def visitSwitch(self, program: SwitchProgram) -> None: ...
    def visitCall(self, program: CallProgram) -> None: ...
    def visitOnEveryTileSwitch(self, program: OnEveryTileSwitchProgram) -> None: ...
    def visitOnTileExecute(self, program: OnTileExecuteProgram) -> None: ...
    def visitDoExchange(self, program: DoExchangeProgram) -> None: ...
    def visitGlobalExchange(self, program: GlobalExchangeProgram) -> None: ...
    def visitStreamCopyBegin(self, program: StreamCopyBeginProgram) -> None: ...
    def visitStreamCopyMid(self, program: StreamCopyMidProgram) -> None: ...
    def visitStreamCopyEnd(self, program: StreamCopyEndProgram) -> None: ...
    def visitSync(self, program: SyncProgram) -> None: ...
    def visitWriteUndef(self, program: WriteUndefProgram) -> None: ...
    def visitBlock(self, program: BlockProgram) -> None: ...
    def visitAbort(self, program: AbortProgram) -> None: ...

class CompilationReport:
    target: Target
    graph: Graph
    tiles: List[Tile]
    ipus: List[IPU]
    programs: List[Program]
    entryPoints: List[Program]
    computeSets: List[ComputeSet]
    variables: List[Variable]
    livenessProgramSteps: List[ProgramStep]
    alwaysLiveVariables: List[Variable]
    loweredVariables: LoweredVariables
    def tile(self, number: int) -> Tile: ...
    def alwaysLiveVariablesForTile(self, tile: int) -> List[Variable]: ...

class CycleRange:
    min: int
    max: int

class CycleInterval:
    cyclesFrom: CycleRange
    cyclesTo: CycleRange

class IpuExecution:
    ipu: int
    cycles: int
    activeCycles: CycleInterval
    allCycles: CycleInterval
    activeTiles: int
    dataIn: int
    dataOut: int
    tileBalance: float
    activeTileBalance: float

class IpuExecutions:
    """The IPUs that took part in a step; entries are decoded as they are read."""
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> IpuExecution: ...
    def __iter__(self) -> Iterator[IpuExecution]: ...

class ComputeSetExecution:
    name: str
    cyclesByTile: TileArray
    estimatedCyclesByTile: TileArray

class ExecutionStep:
    index: int
    run: int
    program: Program
    ipus: IpuExecutions
    cyclesByTile: TileArray
    computeSets: List[ComputeSetExecution]

class ExecutionStepIterator:
    def __iter__(self) -> ExecutionStepIterator: ...
    def __next__(self) -> ExecutionStep: ...

class ExecutionSteps:
    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> ExecutionStep: ...
    def __iter__(self) -> ExecutionStepIterator: ...
    def ipuColumns(self, ipu: int = 0) -> npt.NDArray[np.void]:
        """Fields index, run, activeTiles, cycles, dataIn, dataOut, tileBalance, activeTileBalance,
        activeFromMin, activeFromMax, activeToMin, activeToMax, allFromMin, allFromMax, allToMin,
        allToMax."""
        ...

class TileCycleTotals:
    class Kind(Enum):
        Compute = 0; InternalExchange = 1; GlobalExchange = 2; StreamCopy = 3; Sync = 4
    def byTile(self, kind: Kind) -> TileArray: ...
    @overload
    def total(self, kind: Kind) -> int: ...
    @overload
    def total(self) -> int: ...
    hasComputeExcludingIdleThreads: bool
    def computeExcludingIdleThreadsByTile(self) -> TileArray: ...
    def totalComputeExcludingIdleThreads(self) -> int: ...

class MicrosecondInterval:
    start: int
    end: int

class Run:
    index: int
    name: str
    programIndex: int
    steps: ExecutionSteps
    microseconds: MicrosecondInterval
    cycles: int
    tileCycleTotals: TileCycleTotals

class TotalCycles:
    total: int

class Block:
    program: Program
    tile: int
    cyclesFrom: int
    cyclesTo: int
    isCommon: bool
    isStreamCopy: bool
    isBlockFlush: bool
    isOverflow: bool
    run: int

class ExecutionReport:
    runs: List[Run]
    steps: ExecutionSteps
    totalCycles: TotalCycles
    tileCycleTotals: TileCycleTotals
    def blocks(self, tile: int) -> List[Block]: ...

class SourceLocation:
    fileName: str
    functionName: str
    lineNumber: int

class DebugContext:
    id: int
    name: str
    path: str
    json: str
    layer: str
    layerName: str
    opType: str
    location: SourceLocation
    parents: List[DebugContext]

class Operation:
    name: str
    type: str
    debugContext: DebugContext
    replacedDebugContext: List[DebugContext]
    vars: List[Variable]
    # Indices into compilation.livenessProgramSteps, both included; None when none of the
    # operation's programs is a step of the schedule (a variable's context, a loop).
    firstStepIndex: int | None
    lastStepIndex: int | None
    estimatedCycles: int
    variableBytes: int
    def programs(self) -> List[Program]: ...

class OperationAnalysis:
    operations: List[Operation]
    operationOfProgram: List[int]
    def __init__(self, report: Report) -> None: ...

class Report:
    compilation: CompilationReport
    execution: ExecutionReport
    poplarVersion: PoplarVersion
    version: ProfileReportVersion
    instrumentationSettings: InstrumentationSettings
    timestamp: str
    timestampMicroseconds: int
    engineOptions: Dict[str, str]
    outOfMemory: bool
    hasFlopEstimates: bool
    hasFlopEstimatesByTile: bool
    profilePath: str
    debugPath: str
    hasDebugInfo: bool
    jobPlacement: JobPlacement
    def listPrintLength(self, newLength: int) -> None: ...

class JobPlacement:
    instanceIndex: int
    numInstances: int
    replicaOffset: int
    totalReplicas: int

class JobInstance:
    index: int
    directory: str
    report: Report
    traces: List[str]

class Job:
    directory: str
    instances: List[JobInstance]
    totalReplicas: int

class InstanceSummary:
    index: int
    replicaOffset: int
    replicas: int
    profiled: bool
    totalCycles: int
    collectiveCycles: float
    collectiveShare: float
    memoryBytes: int

class JobSummary:
    numInstances: int
    totalReplicas: int
    instances: List[InstanceSummary]
    slowestInstance: int
    fastestInstance: int
    maxCycles: int
    minCycles: int
    meanCycles: float
    spread: float
    slowdown: float

def openJob(directory: str) -> Job: ...
def isJobDirectory(path: str) -> bool: ...
def summarizeJob(job: Job) -> JobSummary: ...

class JobInstanceFiles:
    index: int
    directory: str
    profile: str
    debug: str
    traces: List[str]

def listJobInstances(directory: str) -> List[JobInstanceFiles]: ...

class JobPairing:
    baseInstances: int
    currentInstances: int
    def paired(self) -> int: ...
    def sameShape(self) -> bool: ...
    def mismatch(self) -> str: ...

def pairJobInstances(baseInstances: int, currentInstances: int) -> JobPairing: ...
def pairJobs(base: Job, current: Job) -> JobPairing: ...

@overload
def openReport(profileFilename: str) -> Report: ...
@overload
def openReport(profileFilename: str, debugInfoFilename: str) -> Report: ...
def supportedFormatVersion() -> ProfileReportVersion: ...

class ComparedValue:
    base: int
    current: int
    delta: int
    relative: float

class NamedComparison:
    name: str
    inBase: bool
    inCurrent: bool
    value: ComparedValue

class MemoryComparison:
    totalIncludingGaps: ComparedValue
    totalExcludingGaps: ComparedValue
    maxTileIncludingGaps: ComparedValue
    maxTileBase: int
    maxTileCurrent: int
    alwaysLive: ComparedValue
    peakLiveness: ComparedValue
    peakStepBase: int
    peakStepCurrent: int
    categories: List[NamedComparison]
    tilesIncludingGaps: List[ComparedValue]
    allocated: ComparedValue

class TargetComparison:
    base: Target
    current: Target
    ipus: ComparedValue
    tilesPerIpu: ComparedValue
    bytesPerTile: ComparedValue
    replicas: ComparedValue
    clockHz: ComparedValue
    sameType: bool
    sameArchitecture: bool
    differences: List[str]
    def same(self) -> bool: ...

class VariableComparison:
    alwaysLive: List[NamedComparison]
    alwaysLiveTotal: ComparedValue
    atPeak: List[NamedComparison]
    atPeakTotal: ComparedValue

class RunComparison:
    class Match(Enum):
        ByName = ...
        ByPosition = ...
        OnlyInBase = ...
        OnlyInCurrent = ...
    match: RunComparison.Match
    baseName: str
    currentName: str
    baseIndex: int
    currentIndex: int
    cycles: ComparedValue
    steps: ComparedValue
    def inBase(self) -> bool: ...
    def inCurrent(self) -> bool: ...
    @staticmethod
    def matchName(m: RunComparison.Match) -> str: ...

class ProgramsInCommon:
    namesBase: int
    namesCurrent: int
    namesInCommon: int
    share: float
    related: bool
    relatedShare: float

class OperationComparison:
    name: str
    inBase: bool
    inCurrent: bool
    cycles: ComparedValue
    estimatedCycles: ComparedValue
    alwaysLiveBytes: ComparedValue
    peakNotAlwaysLiveBytes: ComparedValue
    codeBytes: ComparedValue
    baseIndex: int
    currentIndex: int

class OperationsComparison:
    compared: bool
    operations: List[OperationComparison]
    total: OperationComparison

class LivenessComparison:
    base: List[int]
    current: List[int]

class CycleComparison:
    total: ComparedValue
    runs: List[NamedComparison]
    computeSets: List[NamedComparison]
    programs: List[NamedComparison]
    kinds: List[NamedComparison]
    matchedRuns: List[RunComparison]
    runsTotal: ComparedValue
    computeSetsTotal: ComparedValue
    programsTotal: ComparedValue
    kindsTotal: ComparedValue
    streamCopies: List[NamedComparison]
    streamCopiesTotal: ComparedValue

class ReportComparison:
    memory: MemoryComparison
    liveness: LivenessComparison
    cycles: CycleComparison
    hasExecution: bool
    target: TargetComparison
    variables: VariableComparison
    operations: OperationsComparison
    programsInCommon: ProgramsInCommon

def compare(base: Report, current: Report) -> ReportComparison: ...
def compareOperations(base: Report, current: Report) -> OperationsComparison: ...
def compareProgramCycles(base: Report, current: Report) -> List[NamedComparison]: ...

class Event:
    label: str
    channel: str
    timestamp: int
    duration: int
    finished: bool
    depth: int
    metadata: str
    def children(self) -> List[Event]: ...

class InstantEvent:
    class Kind(Enum):
        Instant = 0; UnmatchedEnd = 1; MismatchedEnd = 2
    label: str
    channel: str
    timestamp: int
    kind: Kind
    metadata: str

class Thread:
    tid: int
    name: str
    events: List[Event]
    instantEvents: List[InstantEvent]

class SeriesSample:
    timestamp: int
    value: float

class TraceSeries:
    name: str
    samples: List[SeriesSample]

class TraceGraph:
    name: str
    unit: str
    series: List[TraceSeries]

class HeatmapSample:
    timestamp: int
    bins: List[int]

class TraceHeatmap:
    name: str
    unit: str
    binEdges: List[float]
    samples: List[HeatmapSample]

class Process:
    pid: int
    name: str
    threads: List[Thread]
    graphs: List[TraceGraph]
    heatmaps: List[TraceHeatmap]
    def thread(self, tid: int) -> Thread: ...

class Trace:
    processes: List[Process]
    path: str
    def process(self, pid: int) -> Process: ...
    def exportChromeTrace(self) -> str: ...

@overload
def openTrace(path: str) -> Trace: ...
@overload
def openTrace(path: str, progress: Callable[[float], bool]) -> Trace: ...

# --- the analysis layer (pva/Analysis.hpp): figures derived once, shown by every front end ---

class Scope:
    class Runs(Enum):
        NotApplicable = 0
        OneRun = 1
        AllRuns = 2
    class Replicas(Enum):
        OneReplica = 0
        AllReplicas = 1
    runs: Scope.Runs
    replicas: Scope.Replicas
    runName: str
    def describe(self) -> str: ...

class GraphCounts:
    vertices: int
    computeSets: int
    variables: int
    edges: int
    programs: int
    programSteps: int
    livenessSteps: int

class TileBytes:
    tile: int
    ipu: int
    bytes: int

class AllocatedBytes:
    name: str
    nonOverlapped: int
    overlapped: int
    @property
    def total(self) -> int: ...
    @property
    def regionBytes(self) -> List[int]: ...

class PeakLiveness:
    known: bool
    bytes: int
    notAlwaysLiveBytes: int
    step: int
    program: str

class MemorySummary:
    scope: Scope
    numTiles: int
    tilesUsed: int
    tilesOutOfMemory: int
    capacityBytes: int
    includingGapsBytes: int
    excludingGapsBytes: int
    allocatedBytes: int
    overflowedBytes: int
    largestTileIncludingGaps: TileBytes
    largestTileExcludingGaps: TileBytes
    alwaysLiveBytes: int
    peakLiveness: PeakLiveness
    categories: List[AllocatedBytes]
    regions: List[AllocatedBytes]
    binStartBytes: int
    binWidthBytes: int
    tilesPerBin: List[int]

class CycleKinds:
    def of(self, kind: TileCycleTotals.Kind) -> int: ...
    def shareOfTileCycles(self, kind: TileCycleTotals.Kind) -> float: ...
    @property
    def total(self) -> int: ...
    @staticmethod
    def label(kind: TileCycleTotals.Kind) -> str: ...
    def asDict(self) -> Dict[str, int]: ...

class RunSummary:
    scope: Scope
    index: int
    name: str
    steps: int
    cycles: int
    hostMicroseconds: int
    tileCycles: CycleKinds
    streamCopyCycles: StreamCopyCycles

class ExecutionSummary:
    scope: Scope
    profiled: bool
    steps: int
    totalCycles: int
    tileCycles: CycleKinds
    runs: List[RunSummary]
    tilesPerReplica: int
    hasComputeExcludingIdleThreads: bool
    computeExcludingIdleThreads: int
    hasStreamCopyCycles: bool
    streamCopyCycles: StreamCopyCycles
    def tileAverageCycles(self, kind: TileCycleTotals.Kind) -> float: ...
    def tileAverageShareOfTotal(self, kind: TileCycleTotals.Kind) -> float: ...
    def tileAverageComputeExcludingIdleThreads(self) -> float: ...
    def tileAverageComputeExcludingIdleThreadsShareOfTotal(self) -> float: ...

class VertexCycleRuleFigures:
    rule: str
    label: str
    vertices: int
    shareOfVertices: float  # in [0, 1]
    cycles: int  # vertex cycles, all runs, summed over one replica's tiles
    shareOfVertexCycles: float  # in [0, 1]

class VertexCycleSummary:
    scope: Scope
    policy: str
    hasRules: bool
    hasCycles: bool
    vertices: int
    cycles: int
    rules: List[VertexCycleRuleFigures]

class ReportSummary:
    target: Target
    graph: GraphCounts
    memory: MemorySummary
    execution: ExecutionSummary
    vertexCycleRules: List[VertexCycleRule]
    vertexCycles: VertexCycleSummary

class ProgramFigures:
    cycles: int
    executions: int
    firstStep: int
    tileBalance: float
    parallelEfficiency: float

class IpuTraffic:
    ipu: int
    streamCopyInBytes: int
    streamCopyOutBytes: int
    globalExchangeInBytes: int
    globalExchangeOutBytes: int

class StreamCopyCycles:
    host: int
    remoteBuffer: int
    mixed: int
    unknown: int
    total: int

class StreamCopySummary:
    runs: List[StreamCopyCycles]
    allRuns: StreamCopyCycles
    stored: bool

class SpanFigures:
    scope: Scope
    steps: int
    cycles: int
    lengthCycles: int
    cyclesByIpu: List[int]
    tileBalance: float
    parallelEfficiency: float
    programs: List[ProgramFigures]
    computeSets: List[ProgramFigures]
    ipus: List[IpuTraffic]
    streamCopyCycles: StreamCopyCycles
    tileCyclesByIpu: List[CycleKinds]

class ExecutionAnalysis:
    runs: List[SpanFigures]
    allRuns: SpanFigures

class OperationFigures:
    codeBytes: int
    vertices: int
    computeSets: int
    exchangeBytes: int
    alwaysLiveBytes: int
    peakNotAlwaysLiveBytes: int
    # None: the report has no FLOP estimates
    estimatedFlops: int | None
    verticesWithoutFlopEstimate: int

class OperationTileFigures:
    scope: Scope
    codeBytes: TileArray
    vertices: TileArray
    estimatedCycles: TileArray
    cycles: TileArray
    # None: the report has no FLOP estimates per tile (Report.hasFlopEstimatesByTile is False)
    estimatedFlops: TileArray | None
    executedSteps: int
    profiled: bool

class OperationExecution:
    cycles: int
    steps: int

class LiveRange:
    def __init__(self, from_: int, to: int, bytes: int) -> None: ...
    from_: int
    to: int
    bytes: int

class InsightsOptions:
    worstTiles: int
    topItems: int
    suggestions: int
    def __init__(self) -> None: ...

class NamedBytes:
    name: str
    bytes: int

class LivenessSplit:
    stepKnown: bool
    step: int
    alwaysLiveBytes: int
    notAlwaysLiveBytes: int
    total: int

class TileInsight:
    tile: int
    ipu: int
    includingGapsBytes: int
    excludingGapsBytes: int
    overBytes: int
    freeBytes: int
    atModelPeak: LivenessSplit
    atTilePeak: LivenessSplit
    categories: List[NamedBytes]

class IpuInsight:
    ipu: int
    capacityBytes: int
    includingGapsBytes: int
    tilesOutOfMemory: int
    fullestTile: TileBytes
    atModelPeak: LivenessSplit
    atIpuPeak: LivenessSplit

class UsageBin:
    fromFraction: float
    toFraction: float
    tiles: int

class VertexTypeInsight:
    name: str
    instances: int
    stateBytesEach: int
    stateBytes: int
    codeBytesEach: int
    tiles: int
    codeBytes: int

class ExchangeInsight:
    program: int
    name: str
    type: str
    dataBytes: int
    codeBytes: int
    maxTileCodeBytes: int
    maxTile: int
    computeSets: List[str]

class Suggestion:
    class Kind:
        FloatToHalf: "Suggestion.Kind"
        SpreadVariable: "Suggestion.Kind"
        ExchangeCode: "Suggestion.Kind"
    kind: "Suggestion.Kind"
    kindName: str
    title: str
    detail: str
    scope: str
    savingBytes: int
    unit: str
    wouldFit: bool
    tilesOver: int
    tilesThatWouldFit: int
    subjects: List[NamedBytes]

class Insights:
    scope: Scope
    fits: bool
    bytesPerTile: int
    tilesOutOfMemory: int
    worstOverBytes: int
    totalOverBytes: int
    headroomBytes: int
    worstTiles: List[TileInsight]
    usage: List[UsageBin]
    model: LivenessSplit
    peakProgram: str
    ipus: List[IpuInsight]
    largestVertexState: List[VertexTypeInsight]
    largestVertexCode: List[VertexTypeInsight]
    largestExchanges: List[ExchangeInsight]
    suggestions: List[Suggestion]

def insights(report: Report, options: InsightsOptions = ...) -> Insights: ...

def summarize(report: Report) -> ReportSummary: ...
def vertexCyclePolicy(target: Target) -> str: ...
def vertexCycleRuleLabel(rule: str) -> str: ...
def summarizeMemory(report: Report, ipu: IPU) -> MemorySummary: ...
def analyseExecution(report: Report) -> ExecutionAnalysis: ...
def summarizeStreamCopies(report: Report) -> StreamCopySummary: ...
def analyseSteps(report: Report, firstStep: int, count: int) -> SpanFigures: ...
def operationExecution(operations: List[Operation], span: SpanFigures) -> OperationExecution: ...
def operationFigures(operation: Operation) -> OperationFigures: ...
def operationTileFigures(report: Report, operation: Operation) -> OperationTileFigures: ...
def operationCycles(operation: Operation, span: SpanFigures) -> int: ...
def peakLiveBytes(ranges: List[LiveRange]) -> int: ...
def peakNotAlwaysLiveBytes(variables: List[Variable]) -> int: ...
