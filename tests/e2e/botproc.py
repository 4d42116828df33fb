"""The bot under test as a separate OS process (``python -m bot``) talking HTTP to FakeBotAPI.

    proc = BotProcess(api, database_url="sqlite+aiosqlite:////tmp/x/e2e.db", workdir=tmp_path)
    await proc.start()      # spawns the process, waits until it long-polls getUpdates
    ...
    await proc.kill()       # SIGKILL: a crash, nothing is flushed
    await proc.start()      # again, on the same database
    await proc.stop()       # SIGTERM, graceful shutdown; returns the exit status

The process gets a clean environment for its settings (``BOT_TOKEN`` = the stand-in's token,
``TELEGRAM_API_URL`` = the stand-in, ``DATABASE_URL``, ``LOG_LEVEL=INFO``, ``POLLING_TIMEOUT=1``)
and runs in ``workdir`` so no developer ``.env`` leaks in.  Its stdout and stderr go to
``workdir/bot-<n>.log`` (one file per start); :meth:`BotProcess.log_tail` puts them in failure
messages.

Group rate: the Sender honours Telegram's 20 messages per minute per group, so one game in one
group would take minutes.  ``group_rate`` (``(max_calls, window_seconds)``, default generous)
replaces the Sender's default group rate inside the child before ``bot.__main__`` runs (the same
``runpy`` call ``python -m bot`` makes), and ``sender_defaults`` other Sender keywords (e.g.
``attempt_timeout`` in seconds, for a stand-in that hangs on purpose); ``group_rate=None`` runs the
plain ``python -m bot``.
Webhook mode (``webhook=True``): the process serves its webhook on ``WEB_HOST=127.0.0.1`` and
``WEB_PORT`` (a free port chosen once, kept across restarts; or the ``WEB_PORT`` given in ``env``),
with ``WEBHOOK_URL`` = :attr:`BotProcess.webhook_base` (its own address), ``WEBHOOK_PATH`` and
``WEBHOOK_SECRET``; :meth:`BotProcess.start` then waits for the log line "webhook server on
HOST:PORT" instead of a long poll.  Several processes on one stand-in: give the stand-in their
``webhook_base`` addresses as ``api.webhook_targets``.  ``env`` adds to the environment (e.g.
``REDIS_URL``, ``REDIS_PREFIX``, ``WORKER_ID``, ``WEB_CONCURRENCY``).
Private-chat and global rates stay Telegram's.  On Linux that bootstrap also makes the child die
with the test process (``PR_SET_PDEATHSIG``), so a killed test run leaves no bot behind.  Times
are in seconds.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import sys
from pathlib import Path

from .fake_api import FakeBotAPI

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FAST_GROUP_RATE = (1200, 60.0)

#: Settings the child must not inherit from the developer's shell (bot/config.py reads them).
_SETTINGS_ENV = ("BOT_TOKEN", "DATABASE_URL", "TELEGRAM_API_URL", "WEBHOOK_URL", "WEBHOOK_PATH",
                 "WEBHOOK_SECRET", "WEB_HOST", "WEB_PORT", "DEFAULT_LOCALE", "LOG_LEVEL",
                 "LOBBY_TIMEOUT", "POLLING_TIMEOUT", "REDIS_URL", "WEBAPP_URL", "WEBAPP_NAME",
                 "REDIS_PREFIX", "WORKER_ID", "WEB_CONCURRENCY", "PORT", "SHARDS",
                 "LEASE_SECONDS")

#: Keeps aiogram's "Update id=N is handled" lines at INFO (bot/config.py shows them only at DEBUG):
#: the cluster tests read from them which worker handled which update.
_AIOGRAM_LINES = """\
import logging, bot.config as config
_configure = config.configure_logging
def _with_aiogram_lines(settings):
    _configure(settings)
    logging.getLogger("aiogram.event").setLevel(logging.INFO)
config.configure_logging = _with_aiogram_lines
"""

_BOOTSTRAP = """\
import os, runpy, sys
if sys.platform == "linux":  # die with the test run, even if it is killed
    import ctypes, signal
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != {parent}:
        sys.exit("mafia-bot e2e: the test run is gone")
from bot.telegram.sender import Sender
defaults = Sender.__init__.__kwdefaults__
assert "group_rate" in defaults, "Sender has no group_rate keyword any more"
{group_rate}defaults.update({sender!r})
{aiogram_lines}sys.argv[0] = "bot"
runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS's pick)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class BotProcessError(RuntimeError):
    """The bot process died or did not come up; the message ends with its log."""


class BotProcess:
    """One bot process at a time against ``api``; start it again after kill/stop."""

    def __init__(self, api: FakeBotAPI, database_url: str, workdir: Path, *,
                 group_rate: tuple[int, float] | None = FAST_GROUP_RATE,
                 sender_defaults: dict[str, float] | None = None,
                 env: dict[str, str] | None = None, webhook: bool = False,
                 webhook_path: str = "/webhook", webhook_secret: str | None = None,
                 aiogram_lines: bool = False) -> None:
        self.api = api
        self.aiogram_lines = aiogram_lines
        self.database_url = database_url
        self.workdir = Path(workdir)
        self.group_rate = group_rate
        self.sender_defaults = dict(sender_defaults or {})
        self.extra_env = dict(env or {})
        self.webhook = webhook
        self.webhook_path = webhook_path
        self.webhook_secret = webhook_secret or secrets.token_urlsafe(16)
        self.web_host = "127.0.0.1"
        self.web_port = int(self.extra_env.get("WEB_PORT") or free_port(self.web_host))
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.log_path: Path | None = None

    # --- lifecycle -------------------------------------------------------------------------

    def command(self) -> list[str]:
        if self.group_rate is None and not self.aiogram_lines:
            return [sys.executable, "-m", "bot"]
        group_rate = "" if self.group_rate is None else \
            f'defaults["group_rate"] = ({int(self.group_rate[0])}, {float(self.group_rate[1])})\n'
        code = _BOOTSTRAP.format(group_rate=group_rate, parent=os.getpid(),
                                 sender=self.sender_defaults,
                                 aiogram_lines=_AIOGRAM_LINES if self.aiogram_lines else "")
        return [sys.executable, "-c", code]

    def environment(self) -> dict[str, str]:
        assert self.api.base_url is not None, "start the FakeBotAPI first"
        env = {k: v for k, v in os.environ.items() if k.upper() not in _SETTINGS_ENV}
        env.update({
            "BOT_TOKEN": self.api.token,
            "TELEGRAM_API_URL": self.api.base_url,
            "DATABASE_URL": self.database_url,
            "LOG_LEVEL": "INFO",
            "POLLING_TIMEOUT": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT_ROOT), env.get("PYTHONPATH")])),
            "PYTHONUNBUFFERED": "1",
        })
        if self.webhook:
            env.update({"WEBHOOK_URL": self.webhook_base, "WEBHOOK_PATH": self.webhook_path,
                        "WEBHOOK_SECRET": self.webhook_secret, "WEB_HOST": self.web_host,
                        "WEB_PORT": str(self.web_port)})
        env.update(self.extra_env)
        return env

    @property
    def webhook_base(self) -> str:
        """The process's own web server, ``http://127.0.0.1:<port>`` (its WEBHOOK_URL in webhook mode)."""
        return f"http://{self.web_host}:{self.web_port}"

    @property
    def webhook_endpoint(self) -> str:
        """Where its webhook listens: :attr:`webhook_base` + ``webhook_path``."""
        return self.webhook_base + self.webhook_path

    async def start(self, timeout: float = 40.0) -> None:
        """Spawn the process and wait until it long-polls getUpdates (in webhook mode: until it
        logged "webhook server on HOST:PORT").

        Raises BotProcessError (with the log) if it exits first or is not ready within ``timeout``.
        """
        if self.running:
            raise BotProcessError("the bot process is already running")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        self.log_path = self.workdir / f"bot-{self.starts}.log"
        polls_before = self.api.long_poll_count
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                *self.command(), cwd=self.workdir, env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=asyncio.subprocess.STDOUT)
        if self.webhook:
            await self.wait_for_log(f"webhook server on {self.web_host}:{self.web_port}", timeout)
            return
        await self.wait_until(lambda: self.api.long_poll_count > polls_before, timeout,
                              what="poll getUpdates")

    async def wait_for_log(self, text: str, timeout: float) -> None:
        """Wait until the output of the current start contains ``text``; raises BotProcessError
        (with the log) if the process exits first or ``timeout`` seconds pass."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.log_text():
            if self.process is not None and self.process.returncode is not None:
                raise BotProcessError(f"the bot exited with status {self.process.returncode} "
                                      f"before it logged {text!r}\n{self.log_tail()}")
            if loop.time() > deadline:
                raise BotProcessError(f"the bot did not log {text!r} within {timeout} s\n{self.log_tail()}")
            await asyncio.sleep(0.05)

    async def wait_until(self, predicate, timeout: float, *, what: str = "meet the condition"):
        """``api.wait_for(predicate)``, failing fast (with the log) if the process exits meanwhile."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self.process is not None and self.process.returncode is not None:
                raise BotProcessError(f"the bot exited with status {self.process.returncode} "
                                      f"before it could {what}\n{self.log_tail()}")
            left = deadline - loop.time()
            if left <= 0:
                raise BotProcessError(f"the bot did not {what} within {timeout} s\n{self.log_tail()}")
            try:
                return await self.api.wait_for(predicate, min(left, 1.0))
            except TimeoutError:
                continue

    async def kill(self, timeout: float = 10.0) -> int | None:
        """SIGKILL the process (a crash: no shutdown code runs) and wait for it; returns its exit
        status (-9), or None if it was never started."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        return await asyncio.wait_for(self.process.wait(), timeout)

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the running process (e.g. SIGSTOP, SIGCONT)."""
        if not self.running:
            raise BotProcessError(f"signal {signum}: the bot process is not running")
        assert self.process is not None
        self.process.send_signal(signum)

    async def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM and wait for a graceful exit (SIGKILL after ``timeout``); returns the status."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.send_signal(signal.SIGKILL)
                await self.process.wait()
                raise BotProcessError(f"the bot did not stop within {timeout} s of SIGTERM\n"
                                      f"{self.log_tail()}") from None
        return self.process.returncode

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    # --- logs ------------------------------------------------------------------------------

    def log_text(self, start: int | None = None) -> str:
        """Output of start number ``start`` (default: the latest)."""
        path = self.workdir / f"bot-{start}.log" if start else self.log_path
        if path is None or not path.exists():
            return ""
        return path.read_text(encoding="utf-8", errors="replace")

    def all_logs(self) -> str:
        return "\n".join(self.log_text(n) for n in range(1, self.starts + 1))

    def log_tail(self, lines: int = 60) -> str:
        tail = self.log_text().splitlines()[-lines:]
        return "--- bot log (last lines) ---\n" + "\n".join(tail)

    def problems(self) -> list[str]:
        """Log lines at WARNING level or above, and tracebacks, over every start (the notice of
        the SIGTERM that :meth:`stop` sends is expected and left out)."""
        return [line for line in self.all_logs().splitlines()
                if (any(f" {level} " in line for level in ("WARNING", "ERROR", "CRITICAL"))
                    or line.startswith("Traceback")) and "Received SIGTERM signal" not in line]
