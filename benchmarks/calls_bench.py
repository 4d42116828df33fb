"""CPU of one Bot API call made through the Sender: ``python -m benchmarks.calls_bench``.

A keyboard is built as the views build one (12 player buttons), the call is queued on the
:class:`bot.telegram.sender.Sender`, goes through the session middleware (:mod:`bot.telegram.faults`) and
aiogram's ``check_response`` parses a canned answer — a message with that keyboard, as Telegram
returns for ``sendMessage`` and ``editMessageText``, ``true`` for ``answerCallbackQuery``. No
network and no fake server work: what is timed is the bot's own CPU per call (main thread,
``process_time``), printed in microseconds per call for each kind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any, TypedDict

from aiogram import Bot
from aiogram.client.session.base import BaseSession

from bot.telegram.limits import Rate
from bot.telegram.sender import Sender
from bot.ui.callbacks import Act
from bot.ui.keyboards import InlineKeyboardBuilder
from tests.fakes.telegram import TEST_TOKEN

CHAT = -1_009_000_000_001


class Rates(TypedDict):
    """The sender's rate limits (``Sender`` keywords): (calls, per seconds)."""

    group_rate: Rate
    private_rate: Rate
    global_rate: Rate


UNLIMITED = Rates(group_rate=(10**6, 1.0), private_rate=(10**6, 1.0), global_rate=(10**6, 1.0))


def keyboard(seq: int) -> Any:
    kb = InlineKeyboardBuilder()
    for seat in range(1, 13):
        kb.button(text=f"№{seat} Player {seat}", callback_data=Act(g=7, s=seq, a="vote", t=seat))
    kb.adjust(3)
    return kb.as_markup()


class CannedSession(BaseSession):
    """Answers every call with a canned body, parsed by aiogram's ``check_response``."""

    def __init__(self) -> None:
        super().__init__()
        markup = keyboard(1).model_dump(exclude_none=True)
        message = {"message_id": 5, "date": 1_700_000_000, "text": "x " * 200,
                   "chat": {"id": CHAT, "type": "supergroup", "title": "Bench"},
                   "from": {"id": 1, "is_bot": True, "first_name": "Bot", "username": "bot"},
                   "reply_markup": markup}
        self.message = json.dumps({"ok": True, "result": message})

    async def make_request(self, bot: Bot, method: Any, timeout: int | None = None) -> Any:
        body = self.message if method.__api_method__ != "answerCallbackQuery" else (
            '{"ok": true, "result": true}')
        return self.check_response(bot, method, 200, body).result

    async def close(self) -> None:
        pass

    async def stream_content(self, *args: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError
        yield b""


async def run(calls: int) -> dict[str, float]:
    """Microseconds of CPU per call for each kind: send, edit, answer."""
    bot = Bot(TEST_TOKEN, session=CannedSession())
    sender = Sender(bot, **UNLIMITED)
    kinds = {
        "sendMessage with 12 buttons": lambda i: sender.send(CHAT, f"turn {i}", keyboard(i)),
        "editMessageText with 12 buttons": lambda i: sender.edit(CHAT, 5, f"turn {i}",
                                                                 keyboard(i)),
        "answerCallbackQuery": lambda i: sender.answer(str(i)),
    }
    figures = {}
    for name, call in kinds.items():
        for i in range(50):  # warm up: build the models aiogram builds lazily
            await call(i)
        started = time.process_time()
        for i in range(calls):
            await call(i)
        figures[name] = (time.process_time() - started) / calls * 1e6
    await sender.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calls_bench", description=__doc__)
    parser.add_argument("--calls", type=int, default=2000, help="calls of each kind (2000)")
    args = parser.parse_args(argv)
    for name, micros in asyncio.run(run(args.calls)).items():
        print(f"{name:34} {micros:7.1f} µs of CPU per call (keyboard built, queued, answered)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
