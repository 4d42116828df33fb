"""Whole games through the bot (real updates through Dispatcher.feed_update, buttons pressed as
the bot sent them): they end with the result and the full reveal, and no secret leaks on the way
(PARTY-31/47/48/49, PARTY-Q25)."""

from __future__ import annotations

from collections import Counter

import pytest
from aiogram.methods import SendMessage

from bot.ui.callbacks import Act
from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import Phase, Team
from tests.bot.driver import play_to_end
from tests.bot.harness import GROUP, Harness, make_harness, request_of, text_of
from tests.bot.helpers import role_card_heads, role_pairs, start_game
from tests.fakes.telegram import plain_text

GAMES = [(5, 11), (5, 12), (7, 21), (7, 22), (10, 31)]


async def play(h: Harness, seed: int, chatter: bool = False):
    game_id = await start_game(h)
    await play_to_end(h, seed, chatter=chatter)
    st = (await h.service.live(game_id)).state  # replayed from the log: the game is closed
    return game_id, st


def result_index(h: Harness) -> int:
    """Index (in h.session.calls) of the one group message announcing the result."""
    hits = [i for i, c in enumerate(h.session.calls)
            if c.method == "sendMessage" and c.chat_id == GROUP and c.ok and "🏆" in (c.text or "")]
    assert len(hits) == 1, hits
    return hits[0]


@pytest.mark.parametrize(("n", "seed"), GAMES, ids=[f"{n}p-seed{s}" for n, s in GAMES])
async def test_PARTY_Q25_full_game_ends_with_result_and_full_reveal(db_url: str, n: int, seed: int):
    h = await make_harness(db_url, n_users=n)
    try:
        game_id, st = await play(h, seed)
        assert st.phase is Phase.ENDED and st.winner in (Team.TOWN, Team.MAFIA)
        rec = await h.service.storage.get_game(game_id)
        assert rec.status == "finished" and rec.winner == st.winner.value
        assert rec.log_len == st.commands
        assert await h.service.game_for_chat(GROUP) is None

        result = plain_text(text_of(h.session.calls[result_index(h)]))
        assert ("Town wins!" if st.winner is Team.TOWN else "Mafia wins!") in result
        _ = h.app.translator.get("en")
        for p in st.seated():
            line = f"№{p.seat} {p.name} — {ROLE_ICONS[p.role]} {_(ROLE_NAMES[p.role])}"
            assert line + (" ☠️" if not p.alive else "") in result.splitlines()
        players = await h.service.storage.list_players(game_id)
        assert sorted((r.seat, r.user_id) for r in players) == [(p.seat, p.user_id) for p in st.seated()]

        table_id = rec.ui["table"]
        table = h.message(GROUP, table_id)
        assert "Game over" in table["text"] and "reply_markup" not in table
        assert h.session.calls.calls_to("unpinChatMessage", GROUP)

        # Finished turns lose their buttons; a press on an old one (forged here) changes nothing.
        assert not [b for _m, b in h.buttons(GROUP) if (b.get("callback_data") or "").startswith("a:")
                    and ":end:" in b["callback_data"]]
        old = Act(g=game_id, s=1, a="end").pack()
        assert await h.press(h.users[0], GROUP, table_id, old) == "This game is over."
        assert (await h.service.storage.get_game(game_id)).log_len == rec.log_len
    finally:
        await h.stop()


@pytest.mark.parametrize(("n", "seed"), [(7, 44), (8, 43), (10, 42)])
async def test_PARTY_31_47_48_49_no_secret_leaks_through_a_whole_game(sqlite_url: str, n: int,
                                                                       seed: int):
    h = await make_harness(sqlite_url, n_users=n)
    try:
        game_id, st = await play(h, seed, chatter=True)
        pairs = role_pairs(h.app.translator)
        heads = role_card_heads(h.app.translator)
        end = result_index(h)
        calls = h.session.calls

        # PARTY-31/47/48: nothing sent to or edited in the group before the result names a role.
        group_texts = [plain_text(text_of(c)) for c in calls[:end]
                       if c.chat_id == GROUP and c.method in ("sendMessage", "editMessageText")]
        assert len(group_texts) > 20
        for text in group_texts:
            assert not [p for p in pairs if p in text], text
            assert "Your role" not in text and not [y for y in heads if y in text], text

        # PARTY-47: every role card went to its own player only, protected from forwarding.
        cards = [c for c in calls if c.method == "sendMessage" and c.text and
                 any(y in plain_text(c.text) for y in heads)]
        assert Counter(c.chat_id for c in cards) == Counter(p.user_id for p in st.seated())
        for c in cards:
            p = st.players[c.chat_id]
            assert f"{ROLE_ICONS[p.role]} " in plain_text(text_of(c))
            assert request_of(c, SendMessage).protect_content is True
        # ...and the mafia really talked through the relay (so the scan below means something).
        relayed = [c for c in calls if c.method == "sendMessage"
                   and isinstance(c.chat_id, int) and c.chat_id > 0
                   and "let us pick carefully" in (c.text or "")]
        assert relayed, "this seed no longer reaches a night with two mafiosi: pick another"

        # PARTY-49: from his elimination to the end, a player gets no role, no team, no check
        # result, no relayed mafia talk and no action buttons.
        dead = [p for p in st.seated() if not p.alive]
        assert dead
        for p in dead:
            dms = [(i, c) for i, c in enumerate(calls[:end]) if c.chat_id == p.user_id and c.ok
                   and c.method in ("sendMessage", "editMessageText")]
            out = [i for i, c in dms if "You are out of the game" in (c.text or "")]
            if not out:
                continue  # eliminated by the very last command: nothing came after anyway
            for i, c in dms:
                if i <= out[0]:
                    continue
                text = plain_text(text_of(c))
                assert not [q for q in pairs if q in text], text
                for secret in ("Your team", "is mafia", "is not mafia", "let us pick"):
                    assert secret not in text, text
                if c.method == "sendMessage":
                    assert c.reply_markup is None, text
    finally:
        await h.stop()
