"""The forum preset's invariants over one finished playout (docs/rules/forum.md), read off the
event stream only and checked against a second, independent model of the rules written here:

* **the night** is resolved exactly as FORUM-Q22 says: every ``NightDeaths`` equals this model's
  deaths (Cop immunity, the Mafia's unanimity and block, heals, the Maniac, infections falling
  due one night later, the revealed Sleepwalker), in seat order; the Cop's turn comes first every
  night while a Cop is dealt, and only he acts in it;
* **the Cop's target is never affected**: never among the night's dead, never newly infected,
  checked only with a shrug, compared only with a shrug, his own action void;
* **the Sleepwalker never dies at the Mafia's hand without the re-pick**: the Mafia's agreement
  on him (unless he is the Cop's target) reveals him in the same step, and he dies at night only
  when revealed, slain by the Maniac or infected;
* **the Werewolf turns exactly when the last mafioso leaves**: in the very step that removes the
  last mafioso, if he is alive, and never otherwise;
* answers are true (checks, comparisons, published checks); cards shown on leaving are the real
  ones; last words only for Town status and never after a removal; votes only from those who
  may vote, for those who may be voted for; warnings counted; the win declared exactly when the
  model says; the reveal's winners follow the chosen sides; the after-game tallies add up.
"""

from __future__ import annotations

from collections import Counter

from engine import (
    BallotCast,
    BestPlayerChosen,
    BestPlayerVoted,
    BonusResults,
    CheckResult,
    CheckRevealed,
    CheckShrugged,
    ComparisonResult,
    GameEnded,
    GuessesRecorded,
    MafiaBlocked,
    NightActionAccepted,
    NightDeaths,
    NightExtended,
    PhaseStarted,
    PlayerActive,
    PlayerEliminated,
    PlayerInactive,
    PlayerRemoved,
    Private,
    Role,
    RolesRevealed,
    SideChosen,
    SleepwalkerRevealed,
    SuspectNamed,
    Team,
    TieRevote,
    VictoryDeclared,
    VoteResult,
    WarningIssued,
    WerewolfTurned,
)


class Model:
    """The rules again, independently of engine/forum*.py, fed by the events."""

    def __init__(self, st) -> None:
        self.role = {p.user_id: p.role for p in st.seated()}
        self.seat = {p.user_id: p.seat for p in st.seated()}
        self.alive = set(self.role)
        self.active = set(self.role)
        self.turned: set[int] = set()
        self.alternate = st.options.get("alternate_nights", True)
        self.cop_dealt = Role.COP in self.role.values()
        self.infected: dict[int, int] = {}
        self.self_healed = False
        self.sides: dict[int, Team] = {}
        self.removed: set[int] = set()  # FORUM-X24: none of them wins
        self.night = 0
        self.new_night()

    def of(self, role: Role) -> int | None:
        return next((u for u, r in self.role.items() if r is role), None)

    def team(self, u: int) -> Team:
        return Team.MAFIA if self.role[u] is Role.MAFIA or u in self.turned else Team.TOWN

    def new_night(self) -> None:
        self.cop_target: int | None = None
        self.blocked = False
        self.revealed: int | None = None
        self.picks: dict[int, int | None] = {}
        self.acts: dict[int, tuple[str, int | None]] = {}

    def killer_night(self) -> bool:
        return self.night >= 2 and (self.night % 2 == 1 if self.alternate else True)

    def agreed(self) -> int | None:
        shooters = [u for u in self.alive if self.team(u) is Team.MAFIA and u in self.active]
        picks = {self.picks.get(u) for u in shooters}
        if len(picks) == 1:
            (t,) = picks
            if t is not None and t in self.alive:
                return t
        return None

    def clan(self, u: int) -> str:
        if self.team(u) is Team.MAFIA:
            return "mafia"
        return f"maniac{u}" if self.role[u] is Role.MANIAC else "town"

    def resolve(self) -> tuple[tuple[int, ...], dict[int, str]]:
        """Tonight's dead (seat order) and why each was attacked."""
        immune = self.cop_target if self.cop_target in self.alive else None
        acts = {u: a for u, a in self.acts.items() if u != immune and u in self.alive}
        heal = next((t for a, t in acts.values() if a == "heal"), None)
        heal = None if heal == immune else heal
        why: dict[int, str] = {}
        kill = None if self.blocked else self.agreed()
        if kill is not None and kill != immune:
            why[kill] = "mafia"
        for a, t in acts.values():
            if a == "slay" and t is not None and t != immune and t in self.alive:
                why.setdefault(t, "maniac")
        for u in [u for u, n in self.infected.items() if n < self.night]:
            del self.infected[u]
            if u != immune and u in self.alive:
                why.setdefault(u, "infection")
        self.saved = heal in why
        if heal is not None:
            why.pop(heal, None)
        for a, t in acts.values():
            if a == "infect" and t is not None and t not in (immune, heal) and t not in why \
                    and t in self.alive and t not in self.infected:
                self.infected[t] = self.night
        if self.revealed is not None and self.revealed in self.alive:
            why.setdefault(self.revealed, "revealed")
        return tuple(sorted(why, key=lambda u: self.seat[u])), why


def check_forum_game(po) -> Counter:  # noqa: C901  (one walk over the events, by kind)
    st = po.state
    m = Model(st)
    seen: Counter = Counter()
    sw, ww, cop = m.of(Role.SLEEPWALKER), m.of(Role.WEREWOLF), m.of(Role.COP)
    phase = ""
    last_word_ok: dict[int, bool] = {}
    warnings: Counter = Counter()
    checks: dict[int, dict[int, bool]] = {}
    candidates: tuple = ()
    best: dict[int, int] = {}
    decided = None
    by_command: dict[int, list] = {}
    for i, e in po.events:
        by_command.setdefault(i, []).append(e)
    for _, events in sorted(by_command.items()):
        mafia_out = False
        for k, e in enumerate(events):
            nxt = events[k + 1] if k + 1 < len(events) else None
            if decided is not None:
                assert not isinstance(e, (PlayerEliminated, NightActionAccepted, NightDeaths)), e
            if isinstance(e, PhaseStarted):
                first_of_night = e.phase == "cop_turn" or (
                    e.phase == "night" and phase != "cop_turn")
                if first_of_night:
                    m.night = e.night
                    m.new_night()
                    assert (e.phase == "cop_turn") == (m.cop_dealt and e.night >= 2), e
                if e.phase == "last_word":
                    assert e.speaker is not None and last_word_ok.pop(e.speaker), \
                        f"no last word due to {e.speaker}"
                    seen["last_word"] += 1
                if e.phase == "ballot":
                    candidates = e.candidates
                    seen[f"ballot_{e.purpose}"] += 1
                phase = e.phase
            elif isinstance(e, NightActionAccepted):
                u, a, t = e.user_id, e.action, e.target
                assert e.audience == Private(u) and u in m.alive
                if a == "block":
                    assert phase == "cop_turn" and m.role[u] is Role.COP and t != u
                    m.cop_target = t
                    continue
                assert phase == "night", e
                if m.night == 1 or a == "sleep":
                    assert a == "sleep", e
                elif a == "kill":
                    assert m.team(u) is Team.MAFIA or u == sw, e
                    assert not m.blocked and t != m.revealed, e
                    m.picks[u] = t
                else:
                    own = {"check": Role.COMMISSAR, "heal": Role.DOCTOR, "slay": Role.MANIAC,
                           "infect": Role.PUTANA}[a]
                    assert m.role[u] is own and u not in m.acts, e
                    if a in ("slay", "infect"):
                        assert m.killer_night(), e
                    if a == "heal" and t == u:
                        assert not m.self_healed, "a second self-heal"
                        m.self_healed = True
                if a != "kill":
                    m.acts[u] = (a, t)
            elif isinstance(e, MafiaBlocked):
                assert m.cop_target is not None and m.team(m.cop_target) is Team.MAFIA
                m.blocked = True
                seen["mafia_blocked"] += 1
            elif isinstance(e, SleepwalkerRevealed):
                assert e.user_id == sw and m.agreed() == sw and m.cop_target != sw, e
                m.revealed, m.picks = sw, {}
                seen["sleepwalker_revealed"] += 1
            elif isinstance(e, NightExtended):
                assert m.revealed is not None and phase == "night"
                seen["night_extended"] += 1
            elif isinstance(e, CheckResult):
                assert m.role[e.checker] is Role.COMMISSAR and e.audience == Private(e.checker)
                assert m.cop_target not in (e.checker, e.target), "the Cop's target checked"
                assert e.is_mafia is (m.team(e.target) is Team.MAFIA)
                checks.setdefault(e.checker, {})[e.target] = e.is_mafia
                seen["check"] += 1
            elif isinstance(e, CheckShrugged):
                assert m.cop_target in (e.checker, e.target)
                seen["shrug"] += 1
            elif isinstance(e, ComparisonResult):
                assert m.role[e.checker] is Role.JOURNALIST and e.first != e.second
                if m.cop_target in (e.checker, e.first, e.second):
                    assert e.same is None
                    seen["compare_shrug"] += 1
                else:
                    assert e.same is (m.clan(e.first) == m.clan(e.second)), e
                    seen["compare"] += 1
            elif isinstance(e, SideChosen):
                assert m.role[e.user_id] in (Role.MANIAC, Role.PUTANA) and m.night == 1
                m.sides[e.user_id] = e.side
            elif isinstance(e, NightDeaths):
                if m.night == 1:
                    assert e.killed == ()
                    continue
                want, why = m.resolve()
                assert e.killed == want, (e, why, m.__dict__)
                assert m.cop_target not in e.killed, "the Cop's target died"
                if sw in e.killed:
                    assert why[sw] != "mafia", "the Sleepwalker died at the Mafia's hand"
                assert e.saved is (m.saved and bool(st.options.get("announce_save")))
                for u in e.killed:
                    seen[f"death_{why[u]}"] += 1
                seen["saved"] += m.saved
            elif isinstance(e, PlayerEliminated):
                u = e.user_id
                assert u in m.alive and e.role is m.role[u], e
                m.alive.discard(u)
                m.picks.pop(u, None)
                m.acts.pop(u, None)
                last_word_ok[u] = e.cause != "disqualified" and m.team(u) is Team.TOWN
                mafia_out |= m.role[u] is Role.MAFIA
                seen[f"out_{e.cause}"] += 1
            elif isinstance(e, WerewolfTurned):
                assert e.user_id == ww and ww in m.alive and ww not in m.turned and mafia_out
                assert not [u for u in m.alive if m.role[u] is Role.MAFIA]
                m.turned.add(ww)
                seen["werewolf_turned"] += 1
            elif isinstance(e, PlayerInactive):
                m.active.discard(e.user_id)
            elif isinstance(e, PlayerActive):
                m.active.add(e.user_id)
            elif isinstance(e, BallotCast):
                assert e.voter in m.alive and e.target in m.alive and e.target != e.voter
                if e.stage == "revote":
                    assert e.voter not in candidates and e.target in candidates, e
            elif isinstance(e, TieRevote):
                assert len(e.candidates) >= 2
                seen["tie_revote"] += 1
            elif isinstance(e, VoteResult):
                counts = {c: len(v) for c, v in e.tally}
                top = max(counts.values(), default=0)
                assert e.leaders == tuple(c for c, _ in e.tally if counts[c] == top)
                if len(e.leaders) == 1 and top:
                    assert isinstance(nxt, PlayerEliminated) and nxt.user_id == e.leaders[0]
            elif isinstance(e, WarningIssued):
                warnings[e.player] += 1
                assert e.count == warnings[e.player] and e.player in m.alive
                assert (e.reason == "no_vote") <= (e.by is None)
                seen[f"warning_{e.reason}"] += 1
            elif isinstance(e, PlayerRemoved):
                assert isinstance(nxt, PlayerEliminated) and nxt.cause == "disqualified"
                m.removed.add(e.player)
                seen["removed"] += 1
            elif isinstance(e, SuspectNamed):
                assert phase == "last_word" and e.target in m.alive
                seen["suspect_named"] += 1
            elif isinstance(e, CheckRevealed):
                assert phase == "last_word" and checks[e.user_id][e.target] is e.is_mafia
                seen["check_revealed"] += 1
            elif isinstance(e, VictoryDeclared):
                mafia = len([u for u in m.alive if m.team(u) is Team.MAFIA])
                won = Team.TOWN if not mafia else Team.MAFIA if mafia >= len(m.alive) - mafia \
                    else None
                assert e.winner is won is st.winner, (e, mafia, m.alive)
                decided = e.winner
                seen[f"winner_{e.winner.value}"] += 1
            elif isinstance(e, (GuessesRecorded, BonusResults)):
                seen["bonus"] += isinstance(e, BonusResults)
                forms = [e.guesses] if isinstance(e, GuessesRecorded) else [g for _, g in e.guesses]
                for guesses in forms:  # only the survivors' cards are guessed
                    assert all(t in m.alive for t, _ in guesses)
                if isinstance(e, BonusResults):
                    assert e.hits == tuple((g, sum(m.role[t] is r for t, r in gs))
                                           for g, gs in e.guesses)
            elif isinstance(e, RolesRevealed):
                side = {u: m.sides.get(u, m.team(u)) for u in m.role}
                assert e.winners == tuple(sorted((u for u in m.role if side[u] is decided
                                                  and u not in m.removed),
                                                 key=lambda u: m.seat[u]))
                seen["removed_on_the_winning_side"] += any(
                    side[u] is decided for u in m.removed)
                seen["side_mafia_won"] += any(m.sides.get(u) is Team.MAFIA is decided
                                              for u in e.winners)
            elif isinstance(e, BestPlayerVoted):
                assert e.voter in m.role and e.target in m.role and e.voter != e.target
                assert e.voter not in best
                best[e.voter] = e.target
            elif isinstance(e, BestPlayerChosen):
                tally = Counter(best.values())
                top = max(tally.values(), default=0)
                assert set(e.winners) == {u for u, c in tally.items() if c == top}
                seen["best_player"] += bool(e.winners)
            elif isinstance(e, GameEnded):
                assert decided is e.winner
        # per step: the Werewolf turns exactly when the last mafioso leaves
        if ww in m.alive and ww not in m.turned and m.night:
            assert any(m.role[u] is Role.MAFIA for u in m.alive), "the Werewolf did not turn"
        # per step: the Mafia never stay agreed on the unrevealed, unprotected Sleepwalker
        if phase == "night" and sw is not None and m.revealed is None and not m.blocked:
            assert m.agreed() != sw or m.cop_target == sw, "agreed on the Sleepwalker, no reveal"
    assert decided is not None or st.phase.value == "cancelled"
    if cop is not None:
        seen["cop_dealt"] += 1
    return seen
