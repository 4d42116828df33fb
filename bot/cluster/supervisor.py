"""``WEB_CONCURRENCY=N``: ``python -m bot`` starts N webhook workers and watches them.

Stdlib only (the parent never imports aiogram). Each worker is ``python -m bot`` again with
``MAFIA_WORKER_INDEX=i``; they share ``WEB_PORT`` through ``SO_REUSEPORT``. A worker that exits
unexpectedly is started again, after 2 s, doubling up to 60 s while it keeps failing within a
minute of its start (its shards meanwhile served by the others, and back to it by the rendezvous
hash); one stopped on purpose (status 0 after SIGTERM: an operator's ``kill``) is started again
after 2 s, logged at INFO. A worker that exits with status 2 — a configuration error, e.g.
settings that differ from the other workers' (bot/cluster/agreement.py) — stops them all: the
supervisor exits 2 too.
SIGTERM or SIGINT is passed on to every worker, which hands its shards over and stops; the
parent waits for them (then kills what is left after 30 s). On Linux a worker also gets SIGTERM
when the supervisor itself dies (``PR_SET_PDEATHSIG``), so a killed supervisor leaves no
workers behind holding the shards.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from types import FrameType

logger = logging.getLogger("bot")
RESTART_PAUSE = 2.0  #: seconds before a crashed worker is started again (doubling)
RESTART_PAUSE_MAX = 60.0
HEALTHY_AFTER = 60.0  #: a worker that ran this long starts its next crash from the short pause
STOP_WAIT = 30.0  #: seconds the workers get to hand their shards over on shutdown
CONFIG_ERROR = 2  #: a worker's exit status for settings it cannot run with
#: exit statuses of a worker stopped on purpose (SIGTERM or SIGINT, handled or not): logged at INFO
#: and started again without a growing pause, so that ``WEB_CONCURRENCY`` workers keep running
CLEAN_EXITS = (0, -signal.SIGTERM, -signal.SIGINT)


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def supervise(count: int) -> int:
    """Run ``count`` workers until a signal; returns the exit status (0, or 2 when a worker
    found the settings wrong)."""
    stopping = False
    status = 0

    def start(index: int) -> subprocess.Popen:
        env = dict(os.environ, MAFIA_WORKER_INDEX=str(index))
        return subprocess.Popen([sys.executable, "-m", "bot"], env=env,
                                preexec_fn=_die_with_parent)

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    workers = [start(i) for i in range(count)]
    started = [time.monotonic()] * count
    pauses = [RESTART_PAUSE] * count
    due: dict[int, float] = {}  # index -> when it is started again
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    logger.info("started %d webhook workers (pids %s)", count, [p.pid for p in workers])
    while not stopping:
        time.sleep(0.5)
        now = time.monotonic()
        for index, proc in enumerate(workers):
            if stopping:  # a SIGTERM to the whole group (systemd, Ctrl-C) stops the workers too
                break
            if index in due:
                if now >= due[index]:
                    del due[index]
                    workers[index], started[index] = start(index), now
                continue
            code = proc.poll()
            if code is None:
                continue
            if code == CONFIG_ERROR:
                logger.error("worker %d cannot run with these settings (exit status 2); "
                             "stopping every worker", index)
                stopping, status = True, CONFIG_ERROR
                break
            if code in CLEAN_EXITS:  # stopped on purpose (its shards were handed over)
                logger.info("worker %d (pid %s) stopped (exit status %s); starting it again in "
                            "%.0f s to keep %d workers", index, proc.pid, code, RESTART_PAUSE,
                            count)
                due[index] = now + RESTART_PAUSE
                continue
            if now - started[index] >= HEALTHY_AFTER:
                pauses[index] = RESTART_PAUSE
            logger.error("worker %d (pid %s) exited with %s; starting it again in %.0f s",
                         index, proc.pid, code, pauses[index])
            due[index] = now + pauses[index]
            pauses[index] = min(pauses[index] * 2, RESTART_PAUSE_MAX)
    for proc in workers:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    for proc in workers:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
    return status
