"""Benchmarks of mafia-bot: ``python -m benchmarks`` (full stack) and ``--engine`` (engine only).

See ``python -m benchmarks --help``. The full-stack run plays simulated party games through the
real dispatcher, service, engine, store, presenter and sender against an in-process fake of the
Telegram Bot API (``tests/fakes``), so it needs the test helpers on ``sys.path``: run it from the
repository root. ``--workers N`` plays instead over N real webhook worker processes behind the
end-to-end tests' stand-in Bot API (``benchmarks/workers_bench.py``, issue 12).
"""

from .cli import main

__all__ = ["main"]
