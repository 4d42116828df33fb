"""bot.telegram.prestart: the presses queued while the bot was down are answered before the heavy
start-up (issue 10, item 5), and nothing is confirmed, so the dispatcher still handles them."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from bot.telegram.prestart import answer_pending_presses

TOKEN = "123456:SECRET-TOKEN"


class FakeTelegram:
    def __init__(self, updates: list[dict[str, Any]], fail: Set[str] = frozenset()) -> None:
        self.updates, self.fail = updates, fail
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, url: str, fields: dict):
        method = url.rsplit("/", 1)[1]
        self.calls.append((method, dict(fields)))
        if method in self.fail:
            raise RuntimeError(f"Bad Request: {method} failed for {url}")
        return self.updates if method == "getUpdates" else True


def test_every_queued_press_is_answered_and_no_update_is_confirmed() -> None:
    updates = [{"update_id": 1, "message": {"text": "/start"}},
               {"update_id": 2, "callback_query": {"id": "q2", "data": "a:1:2:vote:3"}},
               {"update_id": 3, "callback_query": {"id": "q3", "data": "zz"}}]
    telegram = FakeTelegram(updates)
    assert answer_pending_presses("http://api.local/", TOKEN, post=telegram) == 2
    peek = telegram.calls[0]
    assert peek == ("getUpdates", {"timeout": 0, "limit": 100})  # no offset: nothing confirmed
    answered = sorted(f["callback_query_id"] for m, f in telegram.calls if m == "answerCallbackQuery")
    assert answered == ["q2", "q3"]
    assert all("text" not in f for _m, f in telegram.calls[1:])


def test_an_unreadable_bot_api_is_logged_once_without_the_token(caplog) -> None:
    caplog.set_level("INFO", logger="bot.telegram.prestart")
    telegram = FakeTelegram([], fail={"getUpdates"})
    assert answer_pending_presses("http://api.local", TOKEN, post=telegram) == 0
    assert TOKEN not in caplog.text and "<token>" in caplog.text
    assert len(caplog.records) == 1


def test_a_press_too_old_to_answer_does_not_stop_the_others() -> None:
    updates = [{"update_id": n, "callback_query": {"id": f"q{n}"}} for n in range(1, 4)]
    telegram = FakeTelegram(updates, fail={"answerCallbackQuery"})
    assert answer_pending_presses("http://api.local", TOKEN, post=telegram) == 0
    assert len([m for m, _f in telegram.calls if m == "answerCallbackQuery"]) == 3
