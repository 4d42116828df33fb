""""What I knew": a player's replay never shows another player's secret -- no other player's
role card, check result or night action, no mafia talk unless he was on that team and alive, the
host's role list only to the host -- and it still shows everything he did see."""

from __future__ import annotations

import pytest

from bot.history import protocol as P
from bot.history.render import Labels, chapter_blocks, role_text
from bot.ui.i18n import Translator
from engine import Role
from tests.history.helpers import entries_of, playouts

CASES = list(playouts(per_case=2, chaos=(0.05, 0.3)))
_ = Translator(default_locale="en").get("en")


def hosts(entries) -> set[int]:
    return {e["user_id"] for en in entries for e in en.events
            if e["type"] == "HostAssigned" and e["user_id"] is not None}


def viewers(po, entries):
    return [p.user_id for p in po.state.seated()] + sorted(hosts(entries)) + [None]


def check_visible(entries, viewer, st) -> None:
    seen = P.visible_events(entries, viewer)
    seen_ids = {id(e) for _, e in seen}
    team = st.players[viewer].team.value if viewer in st.players else None
    host_ever = viewer in hosts(entries)
    out_at = None  # index of the viewer's elimination among all events
    flat = P.all_events(entries)
    for i, (_, e) in enumerate(flat):
        if e["type"] == "PlayerEliminated" and e["user_id"] == viewer:
            out_at = i
    for i, (_, e) in enumerate(flat):
        a = e["audience"]
        shown = id(e) in seen_ids
        if a["kind"] == "public":
            assert shown, e  # everything public, always
        elif a["kind"] == "private":
            assert shown == (a["user_id"] == viewer), (viewer, e)
        elif a["kind"] == "team":
            alive = out_at is None or i < out_at
            assert shown == (viewer is not None and team == a["team"] and alive), (viewer, e)
        elif a["kind"] == "host":
            assert not shown or host_ever, (viewer, e)
    for _, e in seen:  # the named secrets, once more by type
        t = e["type"]
        if t == "RoleAssigned":
            assert e["user_id"] == viewer
        elif t in ("CheckResult", "DonCheckResult"):
            assert e["checker"] == viewer
        elif t == "NightActionAccepted":
            assert e["user_id"] == viewer
        elif t in ("MafiaRevealed", "MafiaPicks", "RelayedMessage"):
            assert team == "mafia"
        elif t == "HostRoles":
            assert host_ever


@pytest.mark.parametrize("po", [po for _, po in CASES], ids=[c for c, _ in CASES])
def test_what_i_knew_keeps_every_secret(po):
    entries = entries_of(po)
    st = po.state
    for viewer in viewers(po, entries):
        check_visible(entries, viewer, st)
        rp = P.build_replay(entries, viewer, full=False)
        me = st.players.get(viewer)
        mafia = me is not None and me.team.value == "mafia"
        is_host = viewer in hosts(entries)
        known = {viewer} | ({p.user_id for p in st.seated() if p.team.value == "mafia"}
                            if mafia else set())
        if is_host:
            known |= set(st.players)
        roles = {f.user_id for ch in rp.chapters for f in ch.facts if isinstance(f, P.RoleFact)}
        assert roles <= known
        if me is not None and not is_host:
            assert viewer in roles  # his own card is there
        checks = [f for ch in rp.chapters for f in ch.facts if isinstance(f, (P.Check, P.DonCheck))]
        assert all(c.checker == viewer for c in checks)
        team_facts = [f for ch in rp.chapters for f in ch.facts
                      if isinstance(f, (P.TeamMet, P.Picks, P.Relay))]
        assert not team_facts or mafia
        moves = [f for ch in rp.chapters for f in ch.facts if isinstance(f, (P.NightMove, P.Shot))]
        assert all(m.user_id == viewer for m in moves)

        # and in the rendered pages, before the result: no other player's role
        L = Labels(rp.players, rp.host, rp.host_name)
        dead: set[int] = set()
        for ch in rp.chapters:
            if ch.kind == "end":
                continue
            text = "\n".join(chapter_blocks(_, rp, ch, dead))
            for p in st.seated():
                if p.user_id in known:
                    continue
                for role in Role:
                    assert f"{L.full(p.user_id)} — {role_text(_, role.value)}" not in text, text
            if not mafia:
                assert "The mafia met" not in text and "Mafia's picks" not in text
                assert "shot at" not in text
            for line in text.splitlines():
                if "checked" in line:
                    assert line.startswith((f"🔎 {L.full(viewer)} ", f"🔎 The Don {L.full(viewer)} "))


def test_the_full_view_is_everything_and_an_onlooker_sees_public_only():
    _case, po = CASES[0]
    entries = entries_of(po)
    assert len(P.visible_events(entries, None)) == sum(
        1 for en in entries for e in en.events if e["audience"]["kind"] == "public")
    full = P.build_replay(entries)
    onlooker = P.build_replay(entries, None, full=False)
    assert not [f for ch in onlooker.chapters for f in ch.facts if isinstance(f, P.RoleFact)]
    assert len([f for ch in full.chapters for f in ch.facts if isinstance(f, P.RoleFact)]) \
        == len(po.state.seated())
