"""What the Sender's tests share: the chats and users, an unlimited rate set, a keyboard, an
injected sleep and a polling wait."""

from __future__ import annotations

import asyncio

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

GROUP = -1001000000001


OTHER_GROUP = -1001000000002


ALICE = 1001


BOB = 1002


UNLIMITED = {
    "group_rate": (100_000, 1.0),
    "private_rate": (100_000, 1.0),
    "global_rate": (100_000, 1.0),
}


def keyboard(label: str = "Vote") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=label, callback_data=label)]]
    )


class ManualSleep:
    """Injected instead of asyncio.sleep: records durations; blocks on ``gate`` when one is set."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.gate: asyncio.Event | None = None

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        if self.gate is not None:
            await self.gate.wait()
        else:
            await asyncio.sleep(0)


async def wait_until(predicate, timeout: float = 2.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), timeout)
