"""Smoke test of ``python -m benchmarks``: a tiny run prints every figure (no thresholds)."""

from __future__ import annotations

import asyncio
import os

import pytest

from benchmarks import main
from benchmarks.stack import run_stack


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


def test_a_seed_replays_the_same_games() -> None:
    """The same ``--seed`` deals the same roles and seats (``GameService.seed_for``), so the
    seeded players play the same games and before/after figures compare like with like; the
    deal itself stays random outside the benchmark."""
    def play(seed: int) -> tuple:
        run = asyncio.run(run_stack(2, 5, seed))
        assert not run.failures, run.failures
        return (sorted(run.winners.items()), [dict(t.calls) for t in run.tables],
                [dict(t.methods) for t in run.tables])

    first = play(4)
    assert play(4) == first
    assert play(5) != first  # another seed, other games (a check that the seed is used)


def test_engine_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--engine", "--games", "3", "--players", "5"]) == 0
    out = capsys.readouterr().out
    for figure in ("commands/s", "µs per apply", "p99", "engine.replay", "peak RSS"):
        assert figure in out, figure


@pytest.mark.parametrize("preset", ["party", "club", "online", "forum"])
def test_every_preset_is_played_and_its_messages_reported(
        preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--preset``: the simulated players play that preset through its own buttons; the report
    gives the calls by kind and by method and each group's busiest minute (no thresholds)."""
    assert main(["--preset", preset, "--games", "1", "--seed", "2", "--no-bare"]) == 0
    out = capsys.readouterr().out
    assert f"1 concurrent {preset} games" in out and "1/1 finished" in out
    for figure in ("calls by kind", "group sends", "group edits", "callback answers",
                   "calls by method", "answerCallbackQuery", "busiest 60 s per group",
                   "calls per minute of game time per group"):
        assert figure in out, figure
    assert "problems" not in out, out


def test_paced_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--players", "5", "--pace", "real", "--compress", "400",
                 "--duration", "120", "--stagger", "0.1"]) == 0
    out = capsys.readouterr().out
    for figure in ("2 opened", "feed_update p50", "of one core", "event → visible",
                   "busiest game minute", "beyond the limits", "per running game"):
        assert figure in out, figure
    assert "problems" not in out, out


@pytest.mark.skipif(not (os.environ.get("TEST_DATABASE_URL") and os.environ.get("TEST_REDIS_URL")),
                    reason="TEST_DATABASE_URL and TEST_REDIS_URL are needed")
def test_workers_benchmark_loses_and_doubles_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``--workers 2``: two real worker processes behind the stand-in Bot API (issue 12); no
    kill here (a kill may lose a prompt, and the players then wait for its phase's timer: a
    minute), the real runs kill one."""
    assert main(["--workers", "2", "--games", "2", "--kill-after", "0"]) == 0
    out = capsys.readouterr().out
    assert "2/2 finished" in out
    assert "lost commands         0 " in out and "duplicated commands   0 " in out, out
    # issue 19: no 429 from the stand-in (it enforces Telegram's limits), no group message
    # sent twice, no shard moved (nobody died)
    assert "429 Too Many Requests 0 (0 in private chats" in out, out
    assert "duplicate group msgs  0 " in out and "shards moved          0 (0 from" in out, out
    for figure in ("updates/s handled by all workers", "webhook answer        p50",
                   "update-to-answer      p50", "p99", "takeover", "busiest group minute",
                   "busiest bot second", "w0", "w1", "received  handled   CPU s"):
        assert figure in out, figure
    assert "problems" not in out, out


def test_calls_benchmark_prints_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.calls_bench import main as calls_main

    assert calls_main(["--calls", "3"]) == 0
    out = capsys.readouterr().out
    for kind in ("sendMessage with 12 buttons", "editMessageText with 12 buttons",
                 "answerCallbackQuery"):
        assert kind in out and "µs of CPU per call" in out, kind


def test_profile_covers_the_measured_run(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--profile FILE``: a cProfile of the games (the bot's handlers are in it)."""
    import pstats

    path = tmp_path / "run.prof"
    assert main(["--games", "1", "--players", "5", "--seed", "3", "--no-bare",
                 "--profile", str(path)]) == 0
    functions = set(pstats.Stats(str(path)).get_stats_profile().func_profiles)  # by name
    assert "feed_update" in functions and "_run_lane" in functions


def test_tournament_seating_benchmark_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.tournament_seating import main as seating_main

    assert seating_main(["--players", "10,12", "--games", "2"]) == 0
    out = capsys.readouterr().out
    for figure in ("seat spread", "pair spread", "pair stdev", "sit-out run", "draw s", "(best"):
        assert figure in out, figure
    assert len([line for line in out.splitlines() if line.strip().startswith(("10 ", "12 "))]) == 2
