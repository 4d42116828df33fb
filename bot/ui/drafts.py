"""Drafts: multi-tap choices still in progress, kept the way the rest of the game is kept.

Three choices take several taps before anything goes to the engine: the online first victim's
best move (ONLINE-07/08: three names), the forum Journalist's pair (FORUM: the first of two
players) and the forum bonus round's form (a role guessed per survivor). Until the last tap they
are *drafts*: not commands, so not in the log, but they must survive a restart.

They live in ``games.ui["drafts"]`` (JSON, written through ``GameService.persist_ui_soon`` on
every change), each stamped with the ``phase_seq`` it was made in::

    {"bm": {"seq": 41, "v": [1001, 1004]},            # best-move picks, user ids in tap order
     "cmp:1003": {"seq": 57, "v": 1006},              # the Journalist's first player
     "bg:1002": {"seq": 88, "v": {"1005": "mafia"}}}  # bonus form: target user id -> role value

A draft from another phase reads as empty, so a phase change needs no clean-up write (and a
restart between a phase change and a clean-up cannot revive an old draft).

A game whose state has no ``phase_seq`` (NOIR) stamps its drafts with its own step number
through :func:`get` / :func:`put` (NOIR: ``bot/games/noir/drafting.py``, stamped by the turn and
its step), under its own keys; the same rule holds: a draft of another step reads as empty.
"""

from __future__ import annotations

from typing import Any

KEY = "drafts"


def _seq(g: Any) -> int:
    return g.state.phase_seq if g.state is not None else -1


def get(g: Any, key: str, seq: int) -> Any:
    """The draft ``key`` (JSON) if it was stamped ``seq``, else None."""
    entry = (g.ui.get(KEY) or {}).get(key)
    if not isinstance(entry, dict) or entry.get("seq") != seq:
        return None
    return entry.get("v")


def put(g: Any, key: str, value: Any, seq: int) -> None:
    """Store the draft ``key`` stamped ``seq`` (None deletes it); drafts of any other stamp go.
    The caller persists ``g.ui`` (``GameService.persist_ui_soon``)."""
    drafts = {k: v for k, v in (g.ui.get(KEY) or {}).items()
              if isinstance(v, dict) and v.get("seq") == seq}  # old phases' drafts go
    if value is None:
        drafts.pop(key, None)
    else:
        drafts[key] = {"seq": seq, "v": value}
    g.ui[KEY] = drafts


def _get(g: Any, key: str) -> Any:
    return get(g, key, _seq(g))


def _put(g: Any, key: str, value: Any) -> None:
    put(g, key, value, _seq(g))


def best_move(g: Any) -> list[int]:
    """ONLINE-08: the players picked so far (user ids, in tap order)."""
    return [int(u) for u in _get(g, "bm") or []]


def set_best_move(g: Any, picked: list[int]) -> None:
    _put(g, "bm", [int(u) for u in picked] or None)


def pair_first(g: Any, uid: int) -> int | None:
    """FORUM: the Journalist's first tapped player (user id), or None."""
    v = _get(g, f"cmp:{uid}")
    return int(v) if v is not None else None


def set_pair_first(g: Any, uid: int, target: int | None) -> None:
    _put(g, f"cmp:{uid}", target)


def bonus(g: Any, uid: int) -> dict[int, str]:
    """FORUM bonus round: ``uid``'s form so far, target user id -> role value (``Role.value``)."""
    return {int(t): str(r) for t, r in (_get(g, f"bg:{uid}") or {}).items()}


def set_bonus(g: Any, uid: int, form: dict[int, str]) -> None:
    _put(g, f"bg:{uid}", {str(t): str(r) for t, r in form.items()} or None)
