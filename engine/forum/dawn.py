"""The forum preset's dawn: the end of a night and its resolution (rule IDs in
docs/rules/forum.md).

**Resolution** (:func:`resolve`, FORUM-Q22): (1) the Cop's target is immune and acts in vain;
(2) the Mafia's kill is the pick every active living mafioso holds, none if the Cop chose a
mafioso; (3) every choice is closed; (4) the Doctor's heal, unless he or his patient is the Cop's
target; (5) the deaths: the Mafia's and the Maniac's victims and the infections falling due,
minus the healed and the immune (one death each, Q14); (6) the Putana's new infection, unless on
the immune, the healed, the dying or the already infected (Q15); (7) the checks and comparisons
were answered at once, as at the start of the night (X09); (8) a revealed Sleepwalker leaves,
healed or not (FORUM-40); (9) ``NightDeaths`` in seat order, ``PlayerEliminated`` for each (card
shown), last words for Town status; (10) the Werewolf turns at once (X08), the win check after
the last words.
"""

from __future__ import annotations

from ..mafia import flow
from ..mafia import night as mafia_night
from ..mafia.roles import Role, Team
from ..mafia.state import GameState
from ..mafia.step import Step
from . import elimination
from . import night as forum_night
from .events import NightDeaths, NightExtended
from .night import SIDED, agreed, side_chosen

#: FORUM-Q19 e: seconds the Mafia get for a new choice after a reveal
REPICK_SECONDS = 60


# --- the end of the night ----------------------------------------------------------------------
def deadline(s: Step) -> None:
    """The night's timer fired: one more minute for the Mafia after a reveal with no new choice
    (FORUM-Q19 e, X07), else the night ends."""
    st = s.st
    f = st.forum
    if (st.night > 1 and f.revealed is not None and not f.extended and not f.mafia_blocked
            and agreed(st) is None and any(p.active for p in st.mafia_alive())):
        f.extended = True
        t = s.set_timer("repick", REPICK_SECONDS)
        s.emit(NightExtended(timer_seq=t.seq, seconds=t.seconds))
        return
    end_night(s, timed_out=True)


def end_night(s: Step, timed_out: bool) -> None:
    """FORUM hook of ``flow.end_night``: resolve, announce, eliminate, last words."""
    st = s.st
    f = st.forum
    if timed_out:  # PARTY-Q20 c: two missed nights in a row make a player inactive
        acted = set(st.night_actions) | set(st.mafia_picks)
        if st.night > 1:  # the Cop moved in his own turn; a revealed Sleepwalker has nothing
            acted |= {p.user_id for p in st.alive()
                      if p.role is Role.COP or p.user_id == f.revealed}
        mafia_night.record_misses(s, acted)
    deaths: list[int] = []
    saved = False
    if st.night == 1:
        for p in st.alive():  # FORUM-Q13: Town unless chosen
            if p.role in SIDED and p.user_id not in f.sides:
                f.sides[p.user_id] = Team.TOWN
                side_chosen(s, p.user_id, Team.TOWN, True)
    else:
        forum_night.maybe_reveal(s)  # X23: a silent mafioso dropped at the deadline -- no re-pick
        deaths, saved = resolve(st)
    st.night_actions, st.mafia_picks = {}, {}
    f.new_night()
    s.emit(NightDeaths(killed=tuple(deaths), saved=saved and bool(st.options.get("announce_save"))))
    for uid in deaths:
        elimination.eliminate(s, uid, "night")
    elimination.settle(s)
    st.after_last_words = "day"
    flow.start_last_words(s)


def resolve(st: GameState) -> tuple[list[int], bool]:
    """FORUM-Q22 (1)..(8): tonight's dead (seat order) and whether a heal saved someone.
    Records the new infection; the eliminations are the caller's."""
    f = st.forum
    immune = f.cop_target if f.cop_target is not None and st.is_alive(f.cop_target) else None
    acts = [(u, a, t) for u, (a, t) in st.night_actions.items() if u != immune and st.is_alive(u)]
    heal = next((t for _, a, t in acts if a == "heal" and t != immune), None)
    attacks: set[int] = set()
    kill = None if f.mafia_blocked else agreed(st)
    if kill is not None and kill != immune:
        attacks.add(kill)
    for _, a, t in acts:
        if a == "slay" and t is not None and t != immune and st.is_alive(t):
            attacks.add(t)
    for u in [u for u, n in f.infected.items() if n < st.night]:  # due tonight (Q15)
        del f.infected[u]
        if u != immune and st.is_alive(u):
            attacks.add(u)
    saved = heal in attacks
    deaths = attacks - {heal}
    for _, a, t in acts:
        if (a == "infect" and t is not None and t not in (immune, heal) and t not in deaths
                and st.is_alive(t) and t not in f.infected):
            f.infected[t] = st.night
    if f.revealed is not None and st.is_alive(f.revealed):  # FORUM-40: healed or not
        deaths.add(f.revealed)
    return sorted(deaths, key=lambda u: st.players[u].seat), saved
