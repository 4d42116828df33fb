"""``WEB_CONCURRENCY=N``: ``python -m bot`` starts N webhook workers and watches them.

Stdlib only (the parent never imports aiogram). Each worker is ``python -m bot`` again with
``MAFIA_WORKER_INDEX=i``; they share ``WEB_PORT`` through ``SO_REUSEPORT``. A worker that exits
unexpectedly is started again after a pause (its shards have meanwhile moved to the others, and
come back to it by the rendezvous hash). SIGTERM or SIGINT is passed on to every worker, which
hands its shards over and stops; the parent waits for them (then kills what is left after 30 s).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time

logger = logging.getLogger("bot")
RESTART_PAUSE = 2.0  #: seconds before a crashed worker is started again
STOP_WAIT = 30.0  #: seconds the workers get to hand their shards over on shutdown


def supervise(count: int) -> int:
    """Run ``count`` workers until a signal; returns the exit status (0)."""
    stopping = False

    def start(index: int) -> subprocess.Popen:
        env = dict(os.environ, MAFIA_WORKER_INDEX=str(index))
        return subprocess.Popen([sys.executable, "-m", "bot"], env=env)

    def on_signal(signum, _frame) -> None:
        nonlocal stopping
        stopping = True
        for proc in workers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)

    workers = [start(i) for i in range(count)]
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    logger.info("started %d webhook workers (pids %s)", count, [p.pid for p in workers])
    while not stopping:
        time.sleep(0.5)
        for index, proc in enumerate(workers):
            code = proc.poll()
            if code is not None and not stopping:
                logger.error("worker %d (pid %s) exited with %s; starting it again in %.0f s",
                             index, proc.pid, code, RESTART_PAUSE)
                time.sleep(RESTART_PAUSE)
                if not stopping:
                    workers[index] = start(index)
    deadline = time.monotonic() + STOP_WAIT
    for proc in workers:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0
