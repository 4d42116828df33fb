"""Replays of a game from its log: who saw what (visibility) and the chapters (pure, no I/O).

See :mod:`bot.history.protocol` for the theory of operation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .facts import (
    AfterGame,
    BestMove,
    Cancelled,
    Chapter,
    Check,
    DonCheck,
    Eliminated,
    Entry,
    Event,
    ExcludeVote,
    Fact,
    Foul,
    Misfire,
    Morning,
    NightMove,
    NoElimination,
    Nomination,
    NominationUndone,
    PauseFact,
    Picks,
    Presence,
    Relay,
    Replay,
    Result,
    RoleFact,
    Seating,
    Shot,
    Skipped,
    TeamMet,
    Tie,
    Turn,
    Vote,
)
from .visibility import REMOVALS, all_events, entries_from, participants, visible_events

#: Phase name (``PhaseStarted.phase``) -> chapter kind; ``None``: the phase joins the chapter
#: that is open (a last word belongs to the vote or the night that caused it).
CHAPTER_OF_PHASE: dict[str, str | None] = {
    "ready": "night", "night": "night", "speech": "speeches", "defence": "vote",
    "voting": "vote", "exclude_vote": "exclude", "last_word": None,
    # the online preset: the day is one open ballot; a tie goes to a revote or a lift vote
    "discussion": "vote", "revote": "vote", "lift_vote": "exclude", "best_move": None,
    # the forum preset: the Cop's turn is night; the after-game opens no chapter
    "cop_turn": "night", "debate": "speeches", "ballot": "vote",
    "bonus_offer": None, "bonus": None, "best_player": None,
}
TURN_PHASES = ("speech", "defence", "last_word", "best_move")


def _roster(entries: Sequence[Entry]) -> tuple[str, dict[int, str], dict[int, int], str]:
    """(ruleset, names by user, seats by user, host name) from the commands and public events."""
    ruleset, names, seats, host_name = "", {}, {}, ""
    for en in entries:
        cmd = en.command
        ctype = cmd.get("type")
        if ctype == "CreateGame":
            ruleset = cmd.get("ruleset", "")
        elif ctype == "Join" and cmd.get("user_id") is not None:
            names[int(cmd["user_id"])] = str(cmd.get("name", ""))
        elif ctype == "BecomeHost":
            host_name = str(cmd.get("name", ""))
        for e in en.events:
            t = e.get("type")
            if t == "GameCreated":
                ruleset = e.get("ruleset", ruleset)
            elif t == "PlayerJoined":
                names[int(e["user_id"])] = str(e.get("name", ""))
            elif t == "GameStarted":
                seats = {int(uid): int(seat) for seat, uid in e.get("seating", ())}
    return ruleset, names, seats, host_name


def _fouled(e: Event) -> int:
    """The player of a foul or warning event (``player``; older logs: ``user_id``)."""
    return int(e["player"] if "player" in e else e["user_id"])


# --- the replay --------------------------------------------------------------------------------
class _Builder:
    def __init__(self, players: dict[int, tuple[int, str]]) -> None:
        self.players = players
        self.chapters: list[Chapter] = []
        self.day = self.night = 0
        self.rounds_today = 0
        self.alive: set[int] = set()
        self.exclude_votes: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self.taps: tuple = ()
        self.host: int | None = None

    @property
    def current(self) -> Chapter | None:
        return self.chapters[-1] if self.chapters else None

    def open(self, kind: str) -> Chapter:
        if kind == "vote":
            self.rounds_today += 1
        alive = tuple(sorted(self.alive, key=lambda u: self.players.get(u, (0, ""))[0]))
        ch = Chapter(kind=kind, day=self.day, night=self.night,
                     round=self.rounds_today if kind == "vote" else 0, alive=alive)
        self.chapters.append(ch)
        return ch

    def add(self, fact: Fact) -> None:
        (self.current or self.open("setup")).facts.append(fact)

    def phase(self, e: Event) -> None:
        phase = str(e.get("phase", ""))
        day, night = int(e.get("day") or 0), int(e.get("night") or 0)
        if day != self.day:
            self.rounds_today = 0
        self.day, self.night = day, night
        kind = CHAPTER_OF_PHASE.get(phase, phase)
        cur = self.current
        if kind is not None:
            fresh = cur is None or cur.kind != kind or (kind == "vote" and cur.has(Vote))
            if kind == "night" and cur is not None and cur.kind == "night" and cur.night != night:
                fresh = True
            if fresh:
                self.open(kind)
        if e.get("speaker") is not None and (phase in TURN_PHASES or phase not in CHAPTER_OF_PHASE):
            self.add(Turn(phase=phase, user_id=int(e["speaker"])))

    def event(self, e: Event) -> None:
        t = e.get("type")
        handler = getattr(self, "on_" + str(t), None)
        if handler is not None:
            handler(e)

    # one method per event type -----------------------------------------------------------
    def on_GameStarted(self, e: Event) -> None:
        self.alive = {int(uid) for _, uid in e.get("seating", ())}
        self.open("setup")
        self.add(Seating(seats=tuple((int(s), int(u)) for s, u in e.get("seating", ())),
                         mafia_count=int(e.get("mafia_count") or 0)))

    def on_RoleAssigned(self, e: Event) -> None:
        self.add(RoleFact(int(e["user_id"]), str(e.get("role")), e.get("team")))

    def on_HostRoles(self, e: Event) -> None:
        known = {f.user_id for f in self.current.facts if isinstance(f, RoleFact)} \
            if self.current else set()
        for uid, role in e.get("roles", ()):
            if int(uid) not in known:
                self.add(RoleFact(int(uid), str(role), None))

    def on_MafiaRevealed(self, e: Event) -> None:
        don = e.get("don")
        self.add(TeamMet(tuple(int(u) for u in e.get("members", ())),
                         None if don is None else int(don)))

    def on_PhaseStarted(self, e: Event) -> None:
        self.phase(e)

    def on_TurnSkipped(self, e: Event) -> None:
        self.add(Skipped(int(e["user_id"]), str(e.get("reason", ""))))

    def on_NominationAccepted(self, e: Event) -> None:
        self.add(Nomination(int(e["by"]), int(e["target"])))

    def on_VoteResult(self, e: Event) -> None:
        cur = self.current
        rnd = cur.round if cur is not None and cur.kind == "vote" else max(1, self.rounds_today)
        tally = tuple((int(c), tuple(int(v) for v in voters)) for c, voters in e.get("tally", ()))
        self.add(Vote(stage="vote" if rnd <= 1 else "revote", round=rnd, tally=tally,
                      leaders=tuple(int(u) for u in e.get("leaders", ())), taps=self.taps))
        self.taps = ()

    def on_VoteTapped(self, e: Event) -> None:
        self.taps = tuple((int(v), None if t is None else int(t), bool(f))
                          for v, t, f in e.get("votes", ()))

    def on_TieRevote(self, e: Event) -> None:
        self.add(Tie(tuple(int(u) for u in e.get("candidates", ()))))

    def on_LiftCalled(self, e: Event) -> None:
        self.add(Tie(tuple(int(u) for u in e.get("candidates", ())), next="lift"))

    def on_LiftTapped(self, e: Event) -> None:
        votes = e.get("votes", ())
        self.exclude_votes = (tuple(int(v) for v, lift, _f in votes if lift),
                              tuple(int(v) for v, lift, _f in votes if not lift))

    def on_Misfire(self, e: Event) -> None:
        self.add(Misfire(int(e.get("count") or 0)))

    def on_ExcludeVoteCast(self, e: Event) -> None:
        self.exclude_votes = (tuple(int(u) for u in e.get("yes_votes", ())),
                              tuple(int(u) for u in e.get("no_votes", ())))

    def on_ExcludeVoteResult(self, e: Event) -> None:
        yes, no = self.exclude_votes
        self.exclude_votes = ((), ())
        self.add(ExcludeVote(tuple(int(u) for u in e.get("candidates", ())), yes, no,
                             int(e.get("needed") or 0), bool(e.get("passed"))))

    def on_DayWithoutElimination(self, e: Event) -> None:
        self.add(NoElimination(str(e.get("reason", "")),
                               tuple(int(u) for u in e.get("candidates", ()))))

    def on_PlayerEliminated(self, e: Event) -> None:
        self.alive.discard(int(e["user_id"]))
        self.add(Eliminated(int(e["user_id"]), str(e.get("cause", ""))))

    def on_NightActionAccepted(self, e: Event) -> None:
        action, target = str(e.get("action")), e.get("target")
        target = None if target is None else int(target)
        if action == "kill":
            cur = self.current
            if cur is not None:  # a changed pick replaces the earlier one
                cur.facts = [f for f in cur.facts
                             if not (isinstance(f, Shot) and f.user_id == int(e["user_id"]))]
            self.add(Shot(int(e["user_id"]), target))
        elif action != "sleep" and not action.endswith("check"):  # checks come with results
            self.add(NightMove(int(e["user_id"]), action, target))

    def on_MafiaPicks(self, e: Event) -> None:
        cur = self.current
        picks = Picks(tuple((int(m), None if t is None else int(t)) for m, t in e.get("picks", ())),
                      None if e.get("agreed") is None else int(e["agreed"]))
        if cur is not None:  # only the picks as they stood at the end of the night count
            cur.facts = [f for f in cur.facts if not isinstance(f, (Picks, Shot))]
        self.add(picks)

    def on_CheckResult(self, e: Event) -> None:
        self.add(Check(int(e["checker"]), int(e["target"]), bool(e.get("is_mafia"))))

    def on_DonCheckResult(self, e: Event) -> None:
        self.add(DonCheck(int(e["checker"]), int(e["target"]), bool(e.get("is_sheriff"))))

    def on_RelayedMessage(self, e: Event) -> None:
        self.add(Relay(int(e["sender"]), str(e.get("text", ""))))

    def on_NightResult(self, e: Event) -> None:
        killed = e.get("killed")
        self.add(Morning(None if killed is None else int(killed), bool(e.get("saved"))))

    def on_PlayerInactive(self, e: Event) -> None:
        if int(e["user_id"]) in self.players:
            self.add(Presence(int(e["user_id"]), False, str(e.get("reason", ""))))

    def on_PlayerAfk(self, e: Event) -> None:
        if int(e["user_id"]) in self.players:
            self.add(Presence(int(e["user_id"]), False, "afk"))

    def on_PlayerActive(self, e: Event) -> None:
        if int(e["user_id"]) in self.players:
            self.add(Presence(int(e["user_id"]), True))

    def on_Paused(self, e: Event) -> None:
        self.add(PauseFact(e.get("by"), True, str(e.get("reason", ""))))

    def on_Resumed(self, e: Event) -> None:
        self.add(PauseFact(e.get("by"), False))

    def on_FoulIssued(self, e: Event) -> None:
        self.add(Foul(_fouled(e), "foul", e.get("count"),
                      str(e.get("reason", ""))))

    def on_FoulCancelled(self, e: Event) -> None:
        self.add(Foul(_fouled(e), "cancelled", e.get("count"),
                      str(e.get("reason", ""))))

    def on_NominationUndone(self, e: Event) -> None:
        nominator = e.get("nominator")
        self.add(NominationUndone(int(e["target"]), None if nominator is None else int(nominator)))

    def on_JudgeActionUndone(self, e: Event) -> None:
        """CLUB-X16: the judge took his last action back, so its facts leave the replay (the
        Undo is the very next command: they are the player's latest of their kind).  A fourth
        foul: the foul and the removal; a disqualification: the removal; a foul: the foul; a
        removed nomination: the removal, so the nomination stands again."""
        action, uid = str(e.get("action", "")), int(e["player"])
        if action in REMOVALS:
            self.alive.add(uid)
            self._drop(lambda f: isinstance(f, Eliminated) and f.user_id == uid)
        if action in ("foul", "fourth_foul"):
            self._drop(lambda f: isinstance(f, Foul) and f.kind == "foul" and f.user_id == uid)
        elif action == "nomination":
            self._drop(lambda f: isinstance(f, NominationUndone) and f.target == uid)

    def _drop(self, match: Callable[[Fact], bool]) -> None:
        """Remove the latest fact that ``match`` es (none: nothing)."""
        for ch in reversed(self.chapters):
            for i in range(len(ch.facts) - 1, -1, -1):
                if match(ch.facts[i]):
                    del ch.facts[i]
                    return

    def on_WarningIssued(self, e: Event) -> None:
        self.add(Foul(_fouled(e), "warning", e.get("count"),
                      str(e.get("reason", ""))))

    def on_BestMove(self, e: Event) -> None:
        self.add(BestMove(int(e["user_id"]), tuple(int(u) for u in e.get("targets", ())),
                          e.get("hits")))

    def on_BonusResults(self, e: Event) -> None:
        self.add(AfterGame("bonus", hits=tuple((int(u), int(n)) for u, n in e.get("hits", ()))))

    def on_BestPlayerChosen(self, e: Event) -> None:
        self.add(AfterGame("best_player", winners=tuple(int(u) for u in e.get("winners", ()))))

    def on_GameEnded(self, e: Event) -> None:
        self.open("end")
        self.add(Result(e.get("winner"),
                        tuple((int(s), int(u), str(r)) for s, u, r in e.get("roles", ())),
                        int(e.get("days") or 0)))

    def on_GameCancelled(self, e: Event) -> None:
        self.open("end")
        self.add(Cancelled(str(e.get("reason", ""))))


__all__ = ["CHAPTER_OF_PHASE", "TURN_PHASES", "all_events", "build_replay", "entries_from",
           "participants", "visible_events"]


def build_replay(entries: Sequence[Entry], viewer: int | None = None, *,
                 full: bool | None = None) -> Replay:
    """The replay of a game: every event (``viewer`` None, the default), or only what ``viewer``
    received at the time (``full=False`` with ``viewer=None``: an onlooker's public view).
    Chapters before ``GameStarted`` (the lobby) are not part of it."""
    full = viewer is None if full is None else full
    ruleset, names, seats, host_name = _roster(entries)
    players = {uid: (seat, names.get(uid, "?")) for uid, seat in seats.items()}
    events = all_events(entries) if full else visible_events(entries, viewer)
    b = _Builder(players)
    host = None
    started = False
    for _, e in events:
        t = e.get("type")
        if t == "HostAssigned":
            host = e.get("user_id")
        if t == "GameStarted":
            started = True
        if started or t in ("GameEnded", "GameCancelled"):
            b.event(e)
    return Replay(ruleset=ruleset, players=players, host=host, host_name=host_name,
                  chapters=b.chapters, viewer=viewer, full=full)
