"""A whole game, end to end: the bot runs as its own process (``python -m bot``) and talks HTTP to
the stand-in Bot API; six simulated people play it in a supergroup (Russian, the default
language) by pressing the buttons the bot sends them."""

from __future__ import annotations

import pytest

from bot.ui.texts import ROLE_NAMES
from engine import Phase, Role, Team

from .botproc import BotProcess
from .conftest import Plan, Table, ids, seat_label
from .fake_api import FakeBotAPI

pytestmark = pytest.mark.asyncio(loop_scope="module")

GROUP = -1001000000001


async def test_six_players_play_a_game_to_the_end(bot_api: FakeBotAPI, bot_proc: BotProcess, reader) -> None:
    table = Table(bot_api, bot_proc, reader, GROUP, first_user_id=1001)
    _ = table._
    await table.join_all()
    cards = await table.start_game()

    st = await table.state()
    assert st.phase is Phase.READY and st.ready_purpose == "intro"
    assert sorted(p.seat for p in st.seated()) == [1, 2, 3, 4, 5, 6]
    for p in st.seated():  # each card names his own role and seat, and no other role
        card = cards[p.user_id].text or ""
        assert table.role_label(p.role) in card, card
        assert _("Your seat: №{seat} in «{chat}».").format(seat=p.seat, chat="Mafia night") in card
        assert [r for r in ROLE_NAMES if r is not p.role and table.role_label(r) in card] == []
        assert _("✅ I have read my role") in cards[p.user_id].button_texts
    # the table is pinned once its send is out; the group's lane may still be pacing the lobby's
    # last edits when the private role cards have all arrived
    await table.wait(lambda: bot_api.pinned_messages(GROUP), "pin the table message")

    civilians, mafia = ids(st, Role.CIVILIAN), ids(st, Role.MAFIA)
    (commissar,), (doctor,) = ids(st, Role.COMMISSAR), ids(st, Role.DOCTOR)
    assert (len(civilians), len(mafia)) == (2, 2)
    # Day 1: two nominees (a civilian, then the Commissar); everyone votes out the civilian.
    # Night 2: both mafiosi pick the other civilian; the Doctor protects himself; the Commissar
    # checks a mafioso.  Two mafiosi against two townsfolk: the mafia wins.
    plan = Plan(nominations={1: [lambda s: civilians[0], lambda s: commissar]},
                kill=lambda s: civilians[1], heal=lambda s: doctor, check=lambda s: mafia[0])
    end = await table.play(plan)
    assert end.phase is Phase.ENDED and end.winner is Team.MAFIA and end.day == 1
    assert {p.user_id for p in end.seated() if not p.alive} == set(civilians)

    finale = await table.wait_message(GROUP, _("Roles:"))
    await bot_api.settle(quiet=1.5, timeout=20)  # > 1 s: private chats get 1 message/s
    group = bot_api.messages(GROUP)
    assert group[-1] is finale, "the results are the last message in the group"
    assert _("🏆 <b>Mafia wins!</b>").replace("<b>", "").replace("</b>", "") in (finale.text or "")
    for p in end.seated():
        label = f"{seat_label(end, p.user_id)} — {table.role_label(p.role)}"
        assert label in (finale.text or ""), finale.text
    assert table.role_leaks(group[:-1]) == []
    assert len(table.role_leaks([finale])) == 6  # the check does see roles where they are
    assert not bot_api.pinned_messages(GROUP), "the table is unpinned at the end"

    # What the players saw on the way.
    votes = [m for m in group if m.contains(_("🗳 Result of the vote:"))]
    assert len(votes) == 1 and f"{seat_label(end, civilians[0])} — 6" in (votes[0].text or "")
    checked = _("🔎 {player} is <b>mafia</b>.").format(player=seat_label(end, mafia[0]))
    await table.wait_message(commissar, checked.replace("<b>", "").replace("</b>", ""))
    morning = _("☀️ Morning. {player} was killed tonight.").format(player=seat_label(end, civilians[1]))
    await table.wait_message(GROUP, morning)
    for user_id in mafia:  # both mafiosi learnt their team at night 1
        await table.wait_message(user_id, _("🕶 Your team: {list}.").split("{")[0])
    assert bot_proc.problems() == []
