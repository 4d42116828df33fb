"""The shared night's pieces that need nothing of the day: the opening of a night with the
mafia's acquaintance, the mafia's agreed target, whether everybody has acted, missed deadlines
and the check results (rule IDs in docs/rules/party.md and club.md).  The night's resolution,
which leads into the morning, is :func:`engine.mafia.flow.resolve_night`."""

from __future__ import annotations

from ..core.audience import Private
from .events import CheckResult, DonCheckResult, MafiaRevealed, PlayerInactive
from .roles import Role, Team
from .state import GameState, Phase
from .step import Step


def night_of_actions(s: Step) -> None:
    st = s.st
    st.night_actions = {}
    st.mafia_picks = {}
    st.continue_allowed = False
    purpose = "intro" if st.night == 1 else "night"
    meeting = st.night == 1 and s.rs.intro == "meeting"  # CLUB-08
    s.new_phase(Phase.NIGHT, "meeting" if meeting else "night", purpose=purpose)
    if st.night == 1:  # PARTY-05, CLUB-09
        members = tuple(p.user_id for p in st.mafia_alive())
        don = next((p.user_id for p in st.mafia_alive() if p.role is Role.DON), None)
        s.emit(MafiaRevealed(members=members, don=don))


def agreed_target(st: GameState, all_required: bool = False) -> int | None:
    """PARTY-25/26, PARTY-Q11: the pick every active living mafioso holds, else None."""
    shooters = [p.user_id for p in st.mafia_alive() if p.active or all_required]
    if not shooters:
        return None
    picks = {st.mafia_picks.get(u) for u in shooters}
    if len(picks) == 1:
        (target,) = picks
        if target is not None and st.is_alive(target):
            return target
    return None


def all_night_actions_in(s: Step) -> bool:
    """Close early only when every living active player has submitted (PARTY-Q14); never in a
    preset whose night has a fixed length (CLUB-Q09/Q10), except the first night's acquaintance
    when it is no meeting."""
    st = s.st
    if not s.rs.night_close_early:
        return False
    for p in st.alive_active():
        if p.team is Team.MAFIA and st.night > 1:
            if agreed_target(st) is None:
                return False
        elif p.user_id not in st.night_actions:
            return False
    return True


def record_misses(s: Step, acted: set[int]) -> None:
    """PARTY-Q20 (c): two missed deadlines in a row make a player inactive (off when the preset
    sets ``missed_deadlines_to_inactive = 0``: club nights need no tap, CLUB-X04)."""
    if s.rs.missed_deadlines_to_inactive <= 0:
        return
    for p in s.st.alive_active():
        if p.user_id in acted:
            p.misses = 0
            continue
        p.misses += 1
        if p.misses >= s.rs.missed_deadlines_to_inactive:
            p.active = False
            s.emit(PlayerInactive(user_id=p.user_id, reason="missed"))


def check_result(s: Step, checker: int, target: int, action: str = "check") -> None:
    """PARTY-27, CLUB-31/32, ONLINE-11/15: the answer goes to the checker only."""
    role = s.st.players[target].dealt_role
    if action == "don_check":
        s.emit(DonCheckResult(checker=checker, target=target, is_sheriff=role is Role.SHERIFF,
                              audience=Private(checker)))
        return
    s.emit(CheckResult(checker=checker, target=target, is_mafia=role.team is Team.MAFIA,
                       audience=Private(checker)))
