"""Protocols and replays built from the logs of seeded engine playouts (every preset, with and
without a host, calm and chaotic) agree with the engine's own record of the game."""

from __future__ import annotations

import pytest

from bot.history import protocol as P
from engine import RULESETS, Phase
from engine.club.state import fouls_of
from tests.history.helpers import entries_of, playouts

CASES = list(playouts(per_case=4))


def test_every_preset_is_covered():
    assert {case.split("-")[0] for case, _ in CASES} == set(RULESETS)
    assert len(CASES) >= 25


def events_of(entries, kind):
    return [e for en in entries for e in en.events if e["type"] == kind]


def facts(rp: P.Replay, cls):
    return [f for ch in rp.chapters for f in ch.facts if isinstance(f, cls)]


@pytest.mark.parametrize("po", [po for _, po in CASES], ids=[c for c, _ in CASES])
def test_replay_and_protocol_match_the_engine_record(po):
    st = po.state
    assert st.phase is Phase.ENDED
    entries = entries_of(po)
    rp = P.build_replay(entries)

    # chapters: the seating first, the result last, day and night numbers never go back
    kinds = [ch.kind for ch in rp.chapters]
    assert kinds[0] == "setup" and kinds[-1] == "end" and kinds.count("end") == 1
    assert "night" in kinds
    days = [ch.day for ch in rp.chapters]
    nights = [ch.night for ch in rp.chapters]
    assert days == sorted(days) and nights == sorted(nights)

    # every elimination, in order, with its cause; the alive lists follow them
    elim = [(e["user_id"], e["cause"]) for e in events_of(entries, "PlayerEliminated")]
    assert [(f.user_id, f.cause) for f in facts(rp, P.Eliminated)] == elim
    gone: set[int] = set()
    for ch in rp.chapters[1:]:
        assert not gone & set(ch.alive), ch
        gone |= {f.user_id for f in ch.facts if isinstance(f, P.Eliminated)}

    # every vote round with the same tally and leaders as VoteResult
    results = events_of(entries, "VoteResult")
    votes = facts(rp, P.Vote)
    assert [(v.tally, v.leaders) for v in votes] == [
        (tuple((c, tuple(vs)) for c, vs in r["tally"]), tuple(r["leaders"])) for r in results]
    for v in votes:
        assert v.stage == ("vote" if v.round == 1 else "revote")
    assert len(facts(rp, P.Nomination)) == len(events_of(entries, "NominationAccepted"))
    checks = [(e["checker"], e["target"], e["is_mafia"]) for e in events_of(entries, "CheckResult")]
    assert [(c.checker, c.target, c.is_mafia) for c in facts(rp, P.Check)] == checks
    mornings = [(e["killed"], e["saved"]) for e in events_of(entries, "NightResult")]
    assert [(m.killed, m.saved) for m in facts(rp, P.Morning)] == mornings

    # the protocol: seating, roles and fate of every player as in the final state
    pr = P.build_protocol(entries)
    assert pr.ruleset == st.ruleset
    assert [(p.seat, p.user_id, p.role, p.team, p.alive) for p in pr.players] == [
        (q.seat, q.user_id, q.role.value, q.team.value, q.alive) for q in st.seated()]
    ended = events_of(entries, "GameEnded")[0]
    assert pr.result.winner == st.winner.value == ended["winner"]
    assert pr.result.roles == tuple((s, u, r) for s, u, r in ended["roles"])
    assert pr.result.days == st.day
    out = {u: c for u, c in elim}
    for p in pr.players:
        assert (p.out is None) == p.alive
        if p.out is not None:
            assert p.out[2] == out[p.user_id]
    kinds = {"foul": "FoulIssued", "cancelled": "FoulCancelled", "warning": "WarningIssued"}
    fouls = [(e["player"], e["type"]) for en in entries for e in en.events
             if e["type"] in kinds.values()]
    assert [(f.user_id, kinds[f.kind]) for f in pr.fouls] == fouls
    assert {p.user_id: p.fouls for p in pr.players if p.fouls} == {
        u: fouls_of(st, u) for u in st.players if fouls_of(st, u)}

    # last words in order; every round of the protocol holds the facts of its chapters
    spoke = [e["speaker"] for e in events_of(entries, "PhaseStarted") if e["phase"] == "last_word"]
    assert pr.last_words == spoke
    assert sum(len(r.of(P.Vote)) for r in pr.rounds) == len(results)
    numbers = [(r.kind, r.number) for r in pr.rounds]
    assert len(numbers) == len(set(numbers))


def test_unknown_events_and_phases_are_skipped_not_fatal():
    _, po = CASES[0]
    entries = entries_of(po)
    extra = P.Entry(len(entries), {"type": "Whatever"},
                    [{"type": "SomethingNew", "x": 1, "audience": {"kind": "public"}},
                     {"type": "PhaseStarted", "phase": "duel", "phase_seq": 999, "day": 9,
                      "night": 9, "speaker": entries[0].command["user_id"]}])
    ended = entries[-1]
    rp = P.build_replay(entries[:-1] + [extra, P.Entry(ended.seq + 1, ended.command, ended.events)])
    assert [ch.kind for ch in rp.chapters][-2:] == ["duel", "end"]


def test_fouls_warnings_and_best_moves_reach_the_protocol():
    _, po = next((c, po) for c, po in CASES if c.startswith("party"))
    entries = entries_of(po)
    uid = po.state.seated()[0].user_id
    other = po.state.seated()[1].user_id
    extra = [{"type": "FoulIssued", "player": uid, "count": 1, "by": None, "reason": "noise"},
             {"type": "WarningIssued", "player": other, "count": 1, "reason": ""},
             {"type": "BestMove", "user_id": other, "targets": [uid], "hits": 1}]
    at = next(i for i, en in enumerate(entries) if any(e["type"] == "NominationAccepted"
                                                        for e in en.events))
    en = entries[at]
    entries[at] = P.Entry(en.seq, en.command, en.events + extra)
    pr = P.build_protocol(entries)
    assert [(f.user_id, f.kind) for f in pr.fouls] == [(uid, "foul"), (other, "warning")]
    assert pr.player(uid).fouls == 1 and pr.player(other).fouls == 0
    assert [(b.user_id, b.targets) for b in pr.best_moves] == [(other, (uid,))]


FORUM_CASES = [(c, po) for c, po in CASES if c.startswith("forum")][:6]


@pytest.mark.parametrize("po", [po for _, po in FORUM_CASES], ids=[c for c, _ in FORUM_CASES])
def test_FORUM_56_57_bonus_round_and_best_player_are_in_the_protocol(po):
    entries = entries_of(po)
    rp = P.build_replay(entries)
    chosen = events_of(entries, "BestPlayerChosen")
    bonus = events_of(entries, "BonusResults")
    after = facts(rp, P.AfterGame)
    assert [f.winners for f in after if f.kind == "best_player"] == [
        tuple(e["winners"]) for e in chosen]
    assert [f.hits for f in after if f.kind == "bonus"] == [
        tuple(tuple(h) for h in e["hits"]) for e in bonus]
