"""NOIR in /history, the pure part (docs/history.md, "NOIR"): the protocol of moves in words,
the replay's boards, "what I knew" (his identity cards only) and the result for the tables,
from logs of seeded ``engine.noir.apply`` playouts with legal actions and from a scripted log."""

from __future__ import annotations

import re
from html import unescape

import pytest
from babel.support import NullTranslations

from bot.games import bot_game
from bot.games.noir.boards import CAPTION_LIMIT
from bot.history.protocol import Entry
from engine.core.audience import Private
from engine.noir import (
    Accused,
    Arrested,
    Collapsed,
    Detonated,
    Event,
    GameEnded,
    GameStarted,
    IdentityCard,
    IdentityChanged,
    Interrogated,
    KillAttempted,
    PlayerJoined,
    Profiled,
    Shifted,
    SuspectKilled,
    ThreatsPlaced,
    TokensCleared,
    TurnStarted,
    TurnTimedOut,
    public_board,
    to_dict,
)

from .noir_helpers import finished, noir_entries

HISTORY = bot_game("noir").history
_ = str
ngettext = NullTranslations().ngettext
A, B, C, D, E, F = 11, 12, 13, 14, 15, 16  # user ids of the scripted game


def plain(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html)).replace("\u2068", "").replace("\u2069", "")


def scripted() -> list[Entry]:
    """A short NOIR log written by hand: the words of every kind of action."""
    order = ((A, "killer"), (B, "undercover"), (C, "bomber"), (D, "detective"), (E, "psycho"),
             (F, "suit"))
    ev: list[Event] = [PlayerJoined(user_id=u, name=f"N{u}", count=i) for i, (u, _r) in enumerate(order, 1)]
    start: list[Event] = [GameStarted(order=order, rows=6, cols=6, layout=tuple(range(36)), arrests_needed=4,
                         points_needed=18)]
    start += [IdentityCard(audience=Private(u), role=r, suspect=20 + i, teammates=())
              for i, (u, r) in enumerate(order)]
    start.append(TurnStarted(player=A, role="killer", turn_seq=1))
    log: list[list[Event]] = [
        ev, start,
        [Shifted(player=A, line="row", index=2, by=1), TurnStarted(player=B, role="undercover",
                                                                    turn_seq=2)],
        [Accused(player=B, target=22, hit=True),
         Arrested(role="bomber", suspect=22, by="accusation", arrests=1),
         TokensCleared(kind="bomb", suspects=(3,)),
         IdentityChanged(player=C, role="bomber", reason="arrested"),
         IdentityCard(audience=Private(C), role="bomber", suspect=30, teammates=()),
         TurnStarted(player=C, role="bomber", turn_seq=3)],
        [Detonated(player=C, bomb=5, chain=(6, 23)),
         SuspectKilled(suspect=6, cause="bomb", agent_role=None, points=1),
         SuspectKilled(suspect=23, cause="bomb", agent_role="detective", points=3),
         IdentityChanged(player=D, role="detective", reason="killed"),
         IdentityCard(audience=Private(D), role="detective", suspect=31, teammates=()),
         TurnStarted(player=D, role="detective", turn_seq=4)],
        [Interrogated(player=D, suspect=9, near=("psycho",)),
         TurnStarted(player=E, role="psycho", turn_seq=5)],
        [TurnTimedOut(player=E, auto=False, auto_pass=True),
         ThreatsPlaced(player=E, targets=(1, 2), auto=True),
         TurnStarted(player=F, role="suit", turn_seq=6)],
        [Collapsed(player=F, axis="columns", end="first", removed=(6,), rows=5, cols=6),
         TurnStarted(player=A, role="killer", turn_seq=7)],
        [KillAttempted(player=A, target=7), SuspectKilled(suspect=7, cause="kill",
                                                          agent_role=None, points=4),
         Profiled(player=F, card=8, mafiosi=()),
         GameEnded(outcome="agents", arrests=4, points=4,
                   identities=tuple((u, r, {C: 30, D: 31}.get(u, 20 + i))
                                    for i, (u, r) in enumerate(order)))],
    ]
    first = {"type": "CreateGame", "user_id": A, "ruleset": "noir", "settings": {}}
    return [Entry(i, first if i == 0 else {"type": "X"}, [to_dict(e) for e in events])
            for i, events in enumerate(log)]


def test_the_protocol_says_every_action_in_words():
    text = plain("\n\n".join(HISTORY.protocol_blocks(_, ngettext, scripted())))
    assert "1. N11 (Killer) · Mafia · Lefty" in text
    assert "3. N13 (Bomber) · Mafia · Mask → Onyx · 🚔" in text
    assert "4. N14 (Detective) · Agents · Mist → Owl · ☠️" in text
    assert "Turn 1 · N11 (Killer)\n↔️ N11 (Killer): shift of row 3 by +1" in text
    assert "accusation of Mask — a hit" in text
    assert "🚔 Arrest of the Bomber (Mask) — N13 · arrests 1/4" in text
    assert "The bombs leave the board: Blues" in text
    assert "N13 (Bomber) takes a new identity → Onyx" in text
    assert "detonation of the bomb on Cobra · chain: Count → Mist" in text
    assert "☠️ Mist dies (blown up) · the identity of N14 (Detective) · dead 3/18" in text
    assert "interrogation about Dice; next to him: Psycho" in text
    assert "N15 (Psycho): time is up, the turn passes · auto-pass from now on" in text
    assert "threats on Ashes, Baron · by the timeout" in text
    assert "collapse, the grid is now 5×6; removed: Count" in text
    assert "🔪 N11 (Killer): kill of Dame" in text
    assert "profiling with Dandy; mafiosi next to him: nobody" in text
    assert text.rstrip().endswith("Arrests 4/4 · Dead 4/18\n🏆 The agents win.\nTurns played: 7.")


def test_the_outcome_for_the_tables_uses_scoped_teams():
    out = HISTORY.outcome(scripted())
    assert out.winner == "noir:agents" and out.rounds == 7
    by = {p.user_id: p for p in out.players}
    assert [p.seat for p in out.players] == [1, 2, 3, 4, 5, 6]
    assert by[A].team == "noir:mafia" and not by[A].won and by[A].survived
    assert by[B].team == "noir:agents" and by[B].won
    assert not by[C].survived and not by[D].survived  # arrested; identity killed
    assert HISTORY.outcome(scripted()[:-1]) is None  # no GameEnded: not finished


@pytest.mark.parametrize("seed,n", [(1, 6), (4, 8), (9, 6)])
def test_a_played_game_has_a_protocol_matching_the_engine(seed, n):
    po = finished(seed, n)
    st, entries = po.state, noir_entries(po)
    text = plain("\n\n".join(HISTORY.protocol_blocks(_, ngettext, entries)))
    for seat, uid in enumerate(st.order, 1):
        role = st.players[uid].role.value
        assert f"{seat}. P{uid} ({role.capitalize()})" in text
    assert f"Arrests {st.arrests}/{st.table.arrests_needed} · Dead {st.points}/" \
           f"{st.table.points_needed}" in text
    shifts = sum(1 for _b, _c, _a, evs in po.steps for e in evs if isinstance(e, Shifted))
    assert len(re.findall(r": shift of (row \d|column [A-G]) by [+-]\d", text)) == shifts
    out = HISTORY.outcome(entries)
    assert out.winner == (f"noir:{st.outcome}" if st.outcome != "draw" else None)
    assert out.rounds == st.turn_seq
    assert HISTORY.participants(entries) == set(st.order)


@pytest.mark.parametrize("seed,n", [(2, 6), (5, 8)])
def test_the_replay_steps_end_on_the_final_board(seed, n):
    po = finished(seed, n)
    entries = noir_entries(po)
    steps = HISTORY.steps(entries)
    quiet = {"TimerArmed", "TurnStarted", "Paused", "Resumed", "PlayerReturned", "IdentityCard",
             "HandDealt", "CancelOffered"}
    acting = [i for i, (_b, _c, after, evs) in enumerate(po.steps)
              if after.order and any(type(e).__name__ not in quiet for e in evs)]
    assert [s.seq for s in steps][1:] == [i for i in acting if i > steps[0].seq]
    assert steps[-1].board == public_board(po.state)
    assert steps[-1].identities == tuple((u, po.state.players[u].role.value,
                                          po.state.players[u].identity) for u in po.state.order)
    for k in (0, len(steps) // 2, len(steps) - 1):
        caption, png, text = HISTORY.step_view(_, entries, steps, k, "HEAD")
        assert png.startswith(b"\x89PNG") and len(plain(caption)) <= CAPTION_LIMIT
        assert caption.startswith("HEAD") and "<pre>" in text and "Arrests" in caption
        assert "🕵 P" in plain(caption)  # the identities, the game being over
    last = HISTORY.step_view(_, entries, steps, 10_000, "H")  # clamped
    assert last == HISTORY.step_view(_, entries, steps, len(steps) - 1, "H")


def test_a_long_caption_is_cut_to_the_limit():
    from bot.games.noir import boards
    from bot.games.noir.story import Move, Story

    po = finished(3, 8)
    steps = HISTORY.steps(noir_entries(po))
    story = Story(names={u: "W" * 40 for u in po.state.order}, order=[])
    story.moves = [Move(steps[3].seq, 1, None, ["x" * 300] * 6)]
    caption = boards.caption(_, story, steps[3], "HEAD")
    assert len(plain(caption)) <= CAPTION_LIMIT and "…" in caption


@pytest.mark.parametrize("seed,n", [(6, 6), (7, 8)])
def test_what_i_knew_is_his_own_identity_cards(seed, n):
    po = finished(seed, n)
    entries = noir_entries(po)
    for uid in po.state.order:
        mine = [e for _b, _c, _a, evs in po.steps for e in evs
                if isinstance(e.audience, Private) and e.audience.user_id == uid]
        pages = HISTORY.knew_pages(_, entries, uid)
        assert len(pages) == len(mine)
        role = po.state.players[uid].role.value
        assert pages[0].startswith("<b>The deal</b>") and f"Your role: {role.capitalize()}." \
            in pages[0]
        team = po.state.players[uid].team
        others = [u for u in po.state.order if po.state.players[u].team != team]
        for page in pages:  # an opponent's identity is never on his cards
            for u in others:
                assert f"P{u} (" not in page.split("\n\n")[-1]
    assert HISTORY.knew_pages(_, entries, 999)[0].startswith("You did not play")


def test_a_draw_has_no_winner_and_nobody_wins():
    entries = scripted()
    last = entries[-1]
    events = [dict(e, outcome="draw") if e["type"] == "GameEnded" else e for e in last.events]
    entries[-1] = Entry(last.seq, last.command, events)
    out = HISTORY.outcome(entries)
    assert out.winner is None and not any(p.won for p in out.players)
    text = plain("\n\n".join(HISTORY.protocol_blocks(_, ngettext, entries)))
    assert "🏆 A draw: both thresholds at once." in text


def test_scoped_teams_feed_no_elo_track():
    from bot.history.games import rated, scope_of, team_text
    from bot.history.stats import BASE_RATING, rate

    assert rated("town") and rated("mafia") and not rated("noir:agents")
    assert not rated("elsewhere:team")  # a scoped team of no known game
    assert scope_of("noir:mafia") == "noir" and scope_of("mafia") is None
    assert team_text(_, "noir:agents") == "Agents" and team_text(_, "town") == "Town"
    new = rate({}, {1: "noir:agents", 2: "noir:mafia", 3: "town", 4: "mafia"}, "town")
    assert set(new) == {(3, "town"), (4, "mafia")} and new[(3, "town")] > BASE_RATING
    assert rate({}, {1: "noir:agents", 2: "noir:mafia"}, "noir:agents") == {}


def test_the_protocol_and_the_cards_in_russian():
    from bot.ui.i18n import Translator

    tr = Translator()
    ru, nru = tr.get("ru"), tr.nget("ru")
    text = plain("\n\n".join(HISTORY.protocol_blocks(ru, nru, scripted())))
    assert "Ход 1 · N11 (Бандит)" in text and "сдвиг: строка 3 на +1" in text
    assert "Аресты 4/4 · Убито 4/18" in text and "Победили агенты." in text
    assert HISTORY.rounds_text(nru, 3) == "3 хода" and HISTORY.team_name(ru, "noir:agents") == \
        "Агенты"
    assert HISTORY.knew_pages(ru, scripted(), C)[0].startswith("<b>Раздача</b>")
