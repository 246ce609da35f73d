"""pva.insights: the same figures as `pva insights --json` (one number for one figure in every
front end), and the shapes and limits a script relies on."""
import json

import pytest

import pva
from conftest import BIN, run


def test_insights_match_the_cli(mlp, mlp_dir):
    ins = pva.insights(mlp)
    cli = json.loads(run([BIN / "pva", "insights", mlp_dir, "--json"]).stdout)
    assert ins.fits is cli["fit"]["fits"] is True
    assert ins.headroomBytes == cli["fit"]["headroomBytes"] > 0
    assert ins.tilesOutOfMemory == cli["fit"]["tilesOutOfMemory"] == 0
    assert [t.tile for t in ins.worstTiles] == [t["tile"] for t in cli["worstTiles"]]
    assert [b.tiles for b in ins.usage] == [b["tiles"] for b in cli["usage"]]
    assert ins.model.total == cli["model"]["total"]
    assert ins.model.step == cli["model"]["step"]
    assert [s.savingBytes for s in ins.suggestions] == [s["saving"] for s in cli["suggestions"]]
    assert [s.kindName for s in ins.suggestions] == [s["kind"] for s in cli["suggestions"]]
    assert [x.name for x in ins.largestExchanges] == [x["name"] for x in cli["largestExchanges"]]


def test_insights_agree_with_the_summary(mlp):
    ins = pva.insights(mlp)
    summary = pva.summarize(mlp)
    assert ins.model.alwaysLiveBytes == summary.memory.alwaysLiveBytes
    assert ins.model.notAlwaysLiveBytes == summary.memory.peakLiveness.notAlwaysLiveBytes
    assert ins.worstTiles[0].includingGapsBytes == summary.memory.largestTileIncludingGaps.bytes
    assert ins.headroomBytes == ins.bytesPerTile - ins.worstTiles[0].includingGapsBytes
    assert sum(b.tiles for b in ins.usage) == mlp.compilation.target.numTiles
    assert ins.usage[-1].toFraction == float("inf")
    for s in ins.suggestions:
        assert s.unit == "bytes" and s.scope and s.title


def test_insights_options_limit_the_lists(mlp):
    options = pva.InsightsOptions()
    options.worstTiles = 2
    options.topItems = 1
    options.suggestions = 1
    ins = pva.insights(mlp, options)
    assert len(ins.worstTiles) == 2
    assert len(ins.largestExchanges) <= 1 and len(ins.largestVertexCode) <= 1
    assert len(ins.suggestions) <= 1
    with pytest.raises(TypeError):
        pva.insights("not a report")
