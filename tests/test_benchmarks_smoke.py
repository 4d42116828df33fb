"""Smoke test of ``python -m benchmarks``: a tiny run prints every figure (no thresholds)."""

from __future__ import annotations

import pytest

from benchmarks import main


def test_full_stack_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--players", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2/2 finished" in out
    for figure in ("updates/s", "p50", "p99", "per game = group", "private",
                   "callback answers", "in any 60 s of game time", "mean of the per-game max",
                   "the Telegram limit is 20 per group per minute", "bare aiogram",
                   "our stack's overhead", "peak RSS", "per-game state",
                   "the bot's own CPU", "× bare routing's", "group commit"):
        assert figure in out, figure
    assert "problems" not in out, out


def test_engine_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--engine", "--games", "3", "--players", "5"]) == 0
    out = capsys.readouterr().out
    for figure in ("commands/s", "µs per apply", "p99", "engine.replay", "peak RSS"):
        assert figure in out, figure


def test_paced_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--players", "5", "--pace", "real", "--compress", "400",
                 "--duration", "120", "--stagger", "0.1"]) == 0
    out = capsys.readouterr().out
    for figure in ("2 opened", "feed_update p50", "of one core", "event → visible",
                   "busiest game minute", "beyond the limits", "per running game"):
        assert figure in out, figure
    assert "problems" not in out, out
