"""Smoke test of ``python -m benchmarks.noir_board_bench``: a tiny run prints every figure."""

from __future__ import annotations

from benchmarks.noir_board_bench import main


def test_noir_board_benchmark_prints_every_figure(capsys) -> None:
    assert main(["--games", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    for figure in ("ms to draw one board", "bytes per picture", "per turn", "per game"):
        assert figure in out, figure
