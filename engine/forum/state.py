"""The forum preset's part of the game state (``GameState.forum``; rule IDs in docs/rules/forum.md).

Created when the introduction night starts.  Every mutable field is copied by :meth:`clone`
(``tests/engine/test_purity.py`` checks that a busy forum state shares nothing mutable).
Tonight's fields are reset when a night starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..mafia.roles import Role, Team


@dataclass
class ForumState:
    #: FORUM-26, 28, Q13: the side the Maniac / the Putana chose on night 1 (Town if none)
    sides: dict[int, Team] = field(default_factory=dict)
    #: tonight: the Cop's target, immune to everything and acting in vain (FORUM-46, Q21)
    cop_target: int | None = None
    #: tonight: the Cop chose a mafioso, the Mafia kill nobody (FORUM-48)
    mafia_blocked: bool = False
    #: tonight: the Sleepwalker the Mafia agreed on, revealed to them (FORUM-39, Q19)
    revealed: int | None = None
    #: tonight: the re-pick minute after a reveal was given (FORUM-Q19 e, FORUM-X07)
    extended: bool = False
    #: FORUM-30, Q15: infected player -> the night he was infected
    infected: dict[int, int] = field(default_factory=dict)
    #: FORUM-24: the Doctor has used his one self-heal
    self_healed: bool = False
    #: FORUM-21: Commissar -> his answers ((target, is_mafia), ...) in order, shrugs left out
    checks: dict[int, tuple[tuple[int, bool], ...]] = field(default_factory=dict)
    #: FORUM-14: the eliminated who named a suspect in their last word
    named: set[int] = field(default_factory=set)
    #: FORUM-21: the Commissars who published a check in their last word
    shown: set[int] = field(default_factory=set)
    #: FORUM-17, 18, Q05, Q17: warnings per player
    warnings: dict[int, int] = field(default_factory=dict)
    #: FORUM-18, 32, 38, 49, Q17, X24: the players the host removed (none of them wins)
    #: (rules revision 3 on, REV-X01: an older log keeps none, and its snapshot no such key)
    removed: set[int] = field(default_factory=set, metadata={"omit_empty": True})
    #: the open ballot: 'vote' (the day's vote), 'revote' (the tied only, FORUM-11/12) or
    #: 'host' (the host settles a second tie, FORUM-Q06)
    stage: str = ""
    #: FORUM-56, Q23: guesser -> ((player, role), ...)
    guesses: dict[int, tuple[tuple[int, Role], ...]] = field(default_factory=dict)
    #: FORUM-57, Q24: voter -> the best player he chose
    best_votes: dict[int, int] = field(default_factory=dict)

    def clone(self) -> ForumState:
        return ForumState(
            sides=dict(self.sides), cop_target=self.cop_target, mafia_blocked=self.mafia_blocked,
            revealed=self.revealed, extended=self.extended, infected=dict(self.infected),
            self_healed=self.self_healed, checks=dict(self.checks), named=set(self.named),
            shown=set(self.shown), warnings=dict(self.warnings), removed=set(self.removed),
            stage=self.stage,
            guesses=dict(self.guesses), best_votes=dict(self.best_votes),
        )

    def new_night(self) -> None:
        """Forget tonight's fields (the infections and the season-long ones stay)."""
        self.cop_target = None
        self.mafia_blocked = False
        self.revealed = None
        self.extended = False
