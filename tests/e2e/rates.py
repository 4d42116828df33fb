"""What the stand-in Bot API saw of Telegram's sending limits (a mixin of FakeBotAPI).

Telegram allows about 20 messages per minute per group and about 30 per second per bot
(bot/telegram/limits.py).  These counters read the recorded calls (``api.calls``, every request
but getUpdates, with its arrival time) and give the most calls seen in any window of that length,
whoever made them, so a test with several bot processes can check the limits held across all of
them together (issue 12).  Unlike ``enable_flood_control`` (which refuses calls over the limit and
counts only sends and edits, ``messages_api.FLOOD_METHODS``) they refuse nothing and count every
call that writes to a chat: reads (``get*``) are left out, as Telegram does not count them and the
bot makes them outside its Sender, and so are the answers to a user's query
(``answerCallbackQuery``...): they send no message (Telegram's 30 per second is about messages)
and the bot makes them at once, outside its Sender's buckets.  Calls refused with an error count
too (they reached Telegram) unless ``ok_only``.  Windows are in seconds, half-open: calls at t
and t + window are in two.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Call


def counted(method: str) -> bool:
    """Whether a call of ``method`` counts against the sending limits (not a read, not an
    answer to a query)."""
    return not method.lower().startswith(("get", "answer"))


def busiest_window(stamps: Iterable[float], window: float) -> int:
    """The most of ``stamps`` (seconds) that fall in any half-open window of ``window`` seconds."""
    times = sorted(stamps)
    best, first = 0, 0
    for last, moment in enumerate(times):
        while moment - times[first] >= window:
            first += 1
        best = max(best, last - first + 1)
    return best


class RateCountersMixin:
    """Needs the server's ``calls``."""

    if TYPE_CHECKING:
        calls: list[Call]

    def limited_calls(self, chat_id: int | None = None, *, ok_only: bool = False) -> list[Call]:
        """The recorded calls that count against the limits (of ``chat_id`` only, if given)."""
        wanted = None if chat_id is None else str(chat_id)
        return [c for c in self.calls if counted(c.method) and (not ok_only or c.ok)
                and (wanted is None or str(c.params.get("chat_id")) == wanted)]

    def busiest_group_minute(self, chat_id: int, *, ok_only: bool = False) -> int:
        """The most calls with ``chat_id`` seen in any 60 s (Telegram's limit: 20 for a group)."""
        return self.busiest_chat_window(chat_id, 60.0, ok_only=ok_only)

    def busiest_chat_window(self, chat_id: int, window: float, *, ok_only: bool = False) -> int:
        """The most calls with ``chat_id`` seen in any ``window`` seconds (a test that runs the
        bot with a group rate on a shorter clock, e.g. 20 per 6 s, checks that window)."""
        return busiest_window((c.at for c in self.limited_calls(chat_id, ok_only=ok_only)), window)

    def busiest_bot_second(self, *, ok_only: bool = False) -> int:
        """The most calls of the bot, any chat or none, seen in any 1 s (Telegram's limit: 30)."""
        return busiest_window((c.at for c in self.limited_calls(ok_only=ok_only)), 1.0)
