"""Answer the presses queued while the bot was down, before the heavy start-up work.

Importing aiogram (its ~300 pydantic models) and recovering the open games takes seconds — 15-20 s
on a loaded machine — while Telegram gives a callback query about 15 s for its answer; after that
the user's button just stops spinning with "query is too old" logged (issue 10, item 5). So
``python -m bot`` (long polling only) first reads the pending updates with one plain
``getUpdates`` — *without* an offset, so none of them is confirmed and the dispatcher still gets
and handles every one of them afterwards — and answers each callback query at once, without a
text. The press itself is handled normally a moment later; its own answer then finds the query
answered, which the bot ignores (``bot.app.on_error``, :mod:`bot.telegram.calls`).

Standard library only (``urllib``), so it runs before aiogram is imported. Any failure is logged
as one line and skipped: this is a courtesy, start-up goes on regardless.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

logger = logging.getLogger(__name__)

TIMEOUT = 3.0  #: seconds for each request
MAX_ANSWERS = 100  #: one getUpdates page

Post = Callable[[str, dict[str, Any]], Any]


def _post(url: str, fields: dict[str, Any]) -> Any:
    data = urllib.parse.urlencode(fields).encode()
    with urllib.request.urlopen(url, data=data, timeout=TIMEOUT) as response:  # noqa: S310
        payload = json.loads(response.read().decode())
    if not payload.get("ok"):
        raise RuntimeError(payload.get("description") or "not ok")
    return payload.get("result")


def answer_pending_presses(api_url: str, token: str, post: Post = _post) -> int:
    """Answer (without text) every callback query waiting in ``getUpdates``; confirm nothing.

    ``api_url``: the Bot API base (``https://api.telegram.org``). Returns how many were
    answered; 0 when there were none or the Bot API could not be read (logged, never raised).
    """
    base = f"{api_url.rstrip('/')}/bot{token}"
    started = time.monotonic()
    try:
        updates = post(f"{base}/getUpdates", {"timeout": 0, "limit": MAX_ANSWERS}) or []
    except Exception as error:  # noqa: BLE001 - a courtesy only
        logger.info("pending presses not read early: %s", str(error).replace(token, "<token>"))
        return 0
    ids = [u["callback_query"]["id"] for u in updates
           if isinstance(u, dict) and isinstance(u.get("callback_query"), dict)]
    if not ids:
        return 0

    def answer(query_id: str) -> bool:
        try:
            post(f"{base}/answerCallbackQuery", {"callback_query_id": query_id})
            return True
        except Exception:  # noqa: BLE001 - too old already, or Telegram is down
            return False

    with ThreadPoolExecutor(max_workers=min(8, len(ids))) as pool:
        answered = sum(pool.map(answer, ids))
    logger.info("answered %d of %d press(es) queued while the bot was down (%.2f s)",
                answered, len(ids), time.monotonic() - started)
    return answered
