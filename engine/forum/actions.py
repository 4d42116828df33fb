"""The forum preset's buttons: :class:`ForumActions`, what ``engine.legal_actions`` answers in
a forum game (docs/rules/forum.md, "legal_actions")."""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.queries import LegalActions
from ..mafia.roles import Role


@dataclass(frozen=True)
class ForumActions(LegalActions):
    """The shared buttons plus the forum's: sides, the Journalist's pair, the day's vote, the last
    word's suspect and published check, the host's decision and moderation, the bonus round and
    the best player."""

    #: the Maniac / Putana picks a side (night 1)
    choose_side: bool = False
    #: the Journalist's pair tonight -- the players he may pair (two of them)
    compare: tuple[int, ...] = ()
    #: the day's vote / revote open to him -- whom he may vote for, and his current vote
    #: (None: not yet; he may change it until the ballot closes)
    day_vote: tuple[int, ...] = ()
    day_vote_mark: int | None = None
    #: his own last word -- the living players he may name as a suspect (once); the
    #: Commissar's checked players whose answer he may publish (once)
    suspect: tuple[int, ...] = ()
    reveal_check: tuple[int, ...] = ()
    #: the host settles a tied revote -- the tied he may remove (or nobody)
    host_decide: tuple[int, ...] = ()
    #: the host may warn or remove these living players (a host-less game: the shell
    #: offers the same to group admins)
    moderate: tuple[int, ...] = ()
    #: after the win: start or skip the bonus round; the players whose roles he may
    #: guess and the roles offered; the players he may choose as the best player (once)
    bonus_decide: bool = False
    bonus_guess: tuple[int, ...] = ()
    bonus_roles: tuple[Role, ...] = ()
    best_player: tuple[int, ...] = ()
