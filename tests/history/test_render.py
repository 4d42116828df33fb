"""Paging at Telegram's limits: every page of a list, protocol, replay or "what I knew" view is
valid HTML of at most 4096 UTF-16 units (also with long names, many players and a chatty mafia);
keyboards stay under 100 buttons and callback data under 64 bytes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.handlers.history import knew_view, list_view, protocol_view, replay_view
from bot.history import keyboards as kb
from bot.history import protocol as P
from bot.history.render import PAGE_LIMIT, list_text, paginate
from bot.history.service import Loaded
from bot.storage.history import HistoryRecord
from bot.storage.records import GameRecord
from bot.telegram.limits import MESSAGE_LIMIT, utf16_len
from bot.ui.callbacks import Hist
from bot.ui.i18n import Translator
from engine import RelayedMessage, to_dict
from tests.engine.playout import play
from tests.fakes.telegram import plain_text
from tests.history.helpers import entries_of, playouts

TR = Translator(default_locale="en")
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
BIG_ID = 2**63 - 1


def info(game_id: int, players: int = 8, **kw: Any) -> HistoryRecord:
    values: dict[str, Any] = dict(game_id=game_id, chat_id=-100, title="Group", ruleset="party",
                                  winner="town", players=players, days=3, duration=2460,
                                  finished_at=T0)
    values.update(kw)
    return HistoryRecord(**values)


def loaded(entries: list[P.Entry], game_id: int = 1) -> Loaded:
    """The history's view of a finished party game (its games row as the store would give it)."""
    game = GameRecord(id=game_id, chat_id=-100, ruleset="party", status="finished", locale="en",
                      settings={}, seed=1, creator_id=1, created_at=T0, started_at=T0,
                      finished_at=T0, winner="town", timer_seq=None, deadline_at=None, ui={},
                      log_len=len(entries))
    return Loaded(info(game_id), game, entries)


def check_message(text: str, markup) -> None:
    assert utf16_len(text) <= MESSAGE_LIMIT
    plain_text(text, strict=True)  # raises on broken HTML, as Telegram would
    if markup is not None:
        buttons = [b for row in markup.inline_keyboard for b in row]
        assert len(buttons) <= 100
        for b in buttons:
            assert b.url or len(b.callback_data.encode()) <= 64


def all_views(ld: Loaded, viewers, locale: str):
    """(text, markup) of every page of every view of the game."""
    out = []
    for view in (protocol_view, replay_view):
        k = 0
        while True:
            text, markup = view(TR, locale, ld, k, 0)
            out.append((text, markup))
            assert markup is not None  # the protocol and the replay always have their buttons
            if not any(b.text == "▶️" for row in markup.inline_keyboard for b in row):
                break
            k += 1
    for viewer in viewers:
        k = 0
        while True:
            text, markup = knew_view(TR, locale, ld, viewer, k)
            out.append((text, markup))
            if markup is None or not any(b.text == "▶️" for row in markup.inline_keyboard for b in row):
                break
            k += 1
    return out


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_page_of_every_view_fits(locale):
    for _case, po in playouts(per_case=1, chaos=(0.2,)):
        entries = entries_of(po)
        viewers = [p.user_id for p in po.state.seated()][:3] + [None]
        for text, markup in all_views(loaded(entries), viewers, locale):
            check_message(text, markup)


def chatty_game():
    """12 players with 64-character names full of HTML specials, and a mafia that writes
    1,000-character messages of '<' (5,000 characters once escaped) every night."""
    po = play(seed=4242, n=12, chaos=0.0, ruleset="party")
    entries = entries_of(po)
    names = {}
    for en in entries:
        if en.command["type"] == "Join":
            names[en.command["user_id"]] = en.command["name"] = ("<&>\"'" * 13)[:64]
            for e in en.events:
                e["name"] = names[en.command["user_id"]]
    mafia = [p.user_id for p in po.state.seated() if p.team.value == "mafia"]
    out = []
    for en in entries:
        events = list(en.events)
        if any(e["type"] == "PhaseStarted" and e["phase"] == "night" for e in events):
            events += [to_dict(RelayedMessage(sender=mafia[i % len(mafia)], text="<" * 1000))
                       for i in range(6)]
        out.append(P.Entry(en.seq, en.command, events))
    return po, out


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_long_names_and_a_chatty_mafia_are_split_into_valid_pages(locale):
    po, entries = chatty_game()
    mafioso = next(p.user_id for p in po.state.seated() if p.team.value == "mafia")
    views = all_views(loaded(entries, BIG_ID), [mafioso], locale)
    for text, markup in views:
        check_message(text, markup)
    knew = [t for t, _m in views if t.startswith("🧠")]
    assert sum("&lt;" * 100 in t for t in knew) >= 2  # the relay really is in there, split


def test_paginate_keeps_blocks_and_cuts_only_at_safe_places():
    blocks = ["a" * 10, "b" * 10, "c" * 10]
    assert paginate(blocks, limit=22) == ["a" * 10 + "\n\n" + "b" * 10, "c" * 10]
    assert paginate(blocks, limit=34) == ["\n\n".join(blocks)]
    assert paginate([], limit=10) == [""]
    long_line = "x &lt; " * 100
    pages = paginate([long_line], limit=50)
    assert all(utf16_len(p) <= 50 for p in pages)
    assert all(p.count("&") == p.count(";") for p in pages)  # no entity cut in two
    assert "".join(pages).replace(" ", "") == long_line.replace(" ", "")
    emoji = paginate(["🕶" * 30], limit=20)  # two UTF-16 units each
    assert all(utf16_len(p) <= 20 for p in emoji) and "".join(emoji) == "🕶" * 30
    assert PAGE_LIMIT < MESSAGE_LIMIT


def test_list_pages_and_keyboards_at_their_limits():
    _ = TR.get("ru")
    ngettext = TR.nget("ru")
    infos = [info(BIG_ID - i, players=12, title="x" * 256, duration=10**6) for i in range(10)]
    text = list_text(_, ngettext, "ru", infos, 10**6 - 1, 10**6, 10**7)
    markup = kb.list_keyboard([i.game_id for i in infos], 10**6 - 1, 10**6)
    check_message(text, markup)
    assert len(markup.inline_keyboard[-1]) == 1  # the last page: only ◀
    for data in (Hist(a="dy", g=BIG_ID, p=10**6, b=10**6), Hist(a="kn", g=BIG_ID, b=10**6),
                 Hist(a="l", p=10**9)):
        assert len(data.pack().encode()) <= 64
    for markup in (kb.protocol_keyboard(_, BIG_ID, 5, 10, 10**6),
                   kb.replay_keyboard(_, BIG_ID, 0, 200, 10**6),
                   kb.knew_keyboard(_, BIG_ID, 199, 200), kb.delete_keyboard(_, BIG_ID, 10**6),
                   kb.my_games_keyboard([BIG_ID] * 10, 10**6, 10**6 + 1)):
        check_message("x", markup)


async def test_list_view_pages_through_every_game(storage):
    """25 recorded games: 3 pages of at most 10, newest first, nothing lost or repeated."""
    from bot.history.service import HistoryService
    from tests.history.helpers import bulk_store, sample_playouts

    chat = -1009
    history = HistoryService(storage)
    ids = []
    games = sample_playouts()
    for i in range(25):
        ids.append(await bulk_store(storage, chat, games[i % len(games)], seed=i,
                                    finished_at=T0 + timedelta(minutes=i)))
        assert await history.record(ids[-1])
    seen = []
    for page in range(3):
        text, markup = await list_view(storage, TR, chat, page)
        check_message(text, markup)
        games = [Hist.unpack(b.callback_data).g for row in markup.inline_keyboard for b in row
                 if Hist.unpack(b.callback_data).a == "p"]
        assert len(games) == (10 if page < 2 else 5)
        seen += games
    assert seen == sorted(ids, reverse=True)  # all finished in order: newest first
    text, _m = await list_view(storage, TR, chat, 99)  # past the end: the last page
    assert "page 3/3" in text
