"""Smoke test of ``python -m benchmarks.protocol_picture_bench``: a tiny run prints every figure."""

from __future__ import annotations

from benchmarks.protocol_picture_bench import main


def test_protocol_picture_benchmark_prints_every_figure(capsys) -> None:
    assert main(["--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for figure in ("ms per picture from the log", "drawing only", "bytes per picture"):
        assert figure in out, figure
