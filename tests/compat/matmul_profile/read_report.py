"""Reads the matmul report with the pva module, as a PopVision libpva script does."""
import sys

import pva

report = pva.openReport(sys.argv[1] + "/profile.pop", sys.argv[1] + "/debug.cbor")
tiles = report.compilation.target.numTiles
memory = sum(tile.memory.total.includingGaps for tile in report.compilation.tiles)
steps = sum(1 for _ in report.execution.steps)
assert tiles == 64, tiles
assert memory > 0 and steps > 0, (memory, steps)
print(f"python: {tiles} tiles, {memory} bytes, {steps} steps")
