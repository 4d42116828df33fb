"""The shared mafia buttons: :class:`LegalActions`, what :func:`engine.mafia.queries.legal_actions`
answers (design.md §2, §5).  A preset with buttons of its own subclasses it (a frozen dataclass
with more fields) and names the subclass in its variant's ``actions``.  Its own module so that
the variant's protocol (:mod:`.step`) can name it without importing the queries."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LegalActions:
    ready: bool = False
    continue_: bool = False
    end_speech: bool = False
    nominate: tuple[int, ...] = ()
    vote: int | None = None
    exclude_vote: bool = False
    night_action: str | None = None
    night_targets: tuple[int, ...] = ()
    night_extra: str | None = None  # the Don's Sheriff search beside his shot
    night_extra_targets: tuple[int, ...] = ()
    sleep: bool = False
    pause: bool = False
    resume: bool = False
    host_next: bool = False

    #: a preset's own buttons are the fields of its subclass (``MafiaVariant.actions``:
    #: ``engine.online.actions.OnlineActions``, ``engine.forum.actions.ForumActions``)


NOTHING = LegalActions()  # the shared game's "nothing now" (a preset's: ``its class()``)
