"""The supervisor of many webhook workers (bot/cluster/supervisor.py, issue 19 item 6): a worker
stopped on purpose (SIGTERM, exit status 0) is started again to keep the count, logged at INFO;
a crash is an ERROR; a SIGTERM to the whole group starts nothing again. No real processes: the
workers are stand-ins whose exit statuses the test chooses."""

from __future__ import annotations

import logging
import os
import signal

import pytest

from bot.cluster import supervisor


class FakeWorker:
    """A worker process that exits with the next of ``FakeWorker.exits`` once polled."""

    exits: list[int | None] = []
    started: list[FakeWorker] = []

    def __init__(self, *args, **kwargs) -> None:
        self.pid = 1000 + len(self.started)
        self.code = self.exits.pop(0) if self.exits else None
        self.started.append(self)

    def poll(self) -> int | None:
        return self.code

    def send_signal(self, signum: int) -> None:
        self.code = -signum

    def wait(self, timeout: float | None = None) -> int | None:
        return self.code

    def kill(self) -> None:
        self.code = -9


@pytest.fixture
def run(monkeypatch):
    """``run(exits, ticks) -> workers started``: one supervised worker whose successive
    processes exit with ``exits`` (None: keeps running); SIGTERM after ``ticks`` loop turns."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    clock = {"now": 0.0}

    def supervise(exits: list[int | None], ticks: int) -> list:
        FakeWorker.exits, FakeWorker.started = list(exits), []
        turns = {"n": 0}

        def sleep(seconds: float) -> None:
            clock["now"] += 10.0  # past every restart pause
            turns["n"] += 1
            if turns["n"] >= ticks:
                os.kill(os.getpid(), signal.SIGTERM)  # the supervisor's own handler runs

        monkeypatch.setattr(supervisor.subprocess, "Popen", FakeWorker)
        monkeypatch.setattr(supervisor.time, "sleep", sleep)
        monkeypatch.setattr(supervisor.time, "monotonic", lambda: clock["now"])
        assert supervisor.supervise(1) == 0
        return FakeWorker.started

    yield supervise
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def test_a_worker_stopped_by_sigterm_is_started_again_at_info(run, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="bot"):
        started = run([0, None], ticks=4)
    assert len(started) == 2  # kept: WEB_CONCURRENCY workers run
    lines = [r for r in caplog.records if "worker 0 (pid 1000)" in r.getMessage()]
    assert [r.levelno for r in lines] == [logging.INFO], [r.getMessage() for r in lines]
    assert "stopped (exit status 0)" in lines[0].getMessage()


def test_a_crashed_worker_is_an_error(run, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="bot"):
        started = run([-9, None], ticks=4)
    assert len(started) == 2
    assert any(r.levelno == logging.ERROR and "exited with -9" in r.getMessage()
               for r in caplog.records)
