"""CLUB-X16 in the archive (issue 21): a judge's action he took back (Undo) is not part of the
/history protocol, its card and picture, nor of the score sheet: all four tell the final truth."""

from __future__ import annotations

from bot.history import protocol as P
from bot.history.protocol_card import build_card, sheet_of_entries, text_pages
from bot.history.render import protocol_pages
from bot.ui.i18n import Translator
from engine import Disqualify, IssueFoul, Nominate, to_dict
from engine.club.commands import UndoJudgeAction, UndoNomination
from engine.scoring import FIIM
from tests.engine.helpers import HOST, club_at_day, uid
from tests.history.test_render import info

TR = Translator(default_locale="en")


def undone_game():
    """Day 1 of a judged club game: №2 gets four fouls and the Undo (3 fouls, plays on); №4 is
    disqualified and the Undo brings him back; №1's nomination of №6 is removed and the Undo
    puts it back (a lone nominee of day 1 stays, CLUB-Q02).  Nights 2-5: the mafia shoots №4, №5,
    №6 and №7 and wins."""
    t = club_at_day(1, host=True)
    for _ in range(4):
        t.do(IssueFoul(user_id=HOST, player=uid(2)))
    assert not t.state.is_alive(uid(2))
    t.do(UndoJudgeAction(user_id=HOST))
    t.do(Disqualify(user_id=HOST, player=uid(4)))
    t.do(UndoJudgeAction(user_id=HOST))
    t.do(IssueFoul(user_id=HOST, player=uid(5)))
    t.do(UndoJudgeAction(user_id=HOST))  # №5: no foul after all
    t.do(Nominate(user_id=uid(1), target=uid(6)))
    t.do(UndoNomination(user_id=HOST, target=uid(6)))
    t.do(UndoJudgeAction(user_id=HOST))
    assert t.state.is_alive(uid(2)) and t.state.is_alive(uid(4)) and t.state.nominations == [uid(6)]
    for night, seat in ((2, 4), (3, 5), (4, 6), (5, 7)):  # the sole nominee of day 1 stays
        t.to_night(night)
        t.night(kill=seat)
    for _ in range(20):
        if t.state.over:
            break
        t._step_quietly()
    assert t.state.over and t.state.winner is not None
    return [P.Entry(i, to_dict(cmd), [to_dict(e) for e in evs])
            for i, (cmd, evs) in enumerate(zip(t.log, t.produced, strict=True))]


def test_CLUB_X16_the_protocol_and_its_card_forget_what_the_judge_took_back():
    entries = undone_game()
    pr = P.build_protocol(entries)
    two, four, five, six = (pr.player(uid(s)) for s in (2, 4, 5, 6))
    assert two is not None and four is not None and five is not None and six is not None
    assert (two.fouls, two.out, two.left) == (3, None, None)
    assert four.out == ("night", 2, "night") and four.left == "killed"
    assert five.fouls == 0 and six.out == ("night", 4, "night")
    sheet = sheet_of_entries(entries, FIIM)
    assert sheet is not None
    assert {p.user_id: p.left for p in pr.players} == {s.user_id: s.left for s in sheet.seats}
    day1 = next(r for r in pr.rounds if (r.kind, r.number) == ("day", 1))
    assert not day1.of(P.NominationUndone) and [n.target for n in day1.of(P.Nomination)] == [uid(6)]
    # the text protocol
    text = "\n".join(protocol_pages(TR.get("en"), TR.nget("en"), "en",
                                    info(1, ruleset="club", players=10), pr))
    line4 = next(x for x in text.splitlines() if x.startswith("№4 "))
    assert "☠️ night 2" in line4 and "day 1" not in line4, line4
    line2 = next(x for x in text.splitlines() if x.startswith("№2 "))
    assert "⚠️ 3" in line2 and "☠️ day 1" not in line2, line2
    assert "disqualified" not in text.lower() and "withdrawn" not in text.lower()
    # the card (the picture draws it) and its text pages
    card = build_card(TR.get("en"), "en", pr, sheet)
    rows = {r.seat: r for r in card.rows}
    assert (rows[2].fouls, rows[2].out, rows[2].how) == (3, "", "") and rows[5].fouls == 0
    assert (rows[4].out, rows[4].how) == ("N2", "shot dead")
    day = ["".join(sp.text for sp in line) for line in card.grid[0][1].lines]
    assert not any(x.startswith("Out:") for x in day) and "Fouls: 2 ×3" in day, day
    assert any(x.startswith("Nominated: 1→6") for x in day), day
    assert "disqualified" not in "\n".join(text_pages(TR.get("en"), card))
