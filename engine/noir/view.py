"""What each audience may see of a state, for the bot's board and DMs.

:func:`public_board` is everything the group may see (NOIR-42, Q22, Q28): the same public state
always gives the same board, whatever the hidden identities.  :func:`private_card` is one
player's secret view (NOIR-05, 36): his identity card, his hand, his pending cancel prompt, so a
restarted bot can re-send them."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Role
from .state import NoirState


@dataclass(frozen=True)
class PublicBoard:
    """``grid`` rows of suspects; the mark sets are sorted tuples; ``order`` (user_id, role);
    ``timer`` (kind, seq, seconds) or None; ``window`` (suspect, cause) or None."""

    phase: str
    grid: tuple[tuple[int, ...], ...]
    dead: tuple[int, ...]
    arrested: tuple[int, ...]
    bombs: tuple[int, ...]
    threats: tuple[int, ...]
    shields: tuple[int, ...]
    interrogated: tuple[int, ...]
    arrests: int
    arrests_needed: int
    points: int
    points_needed: int
    order: tuple[tuple[int, str], ...]
    current: int | None
    step: str
    turn_seq: int
    last_action: tuple[str | int, ...]  # (kind, suspects...): NoirState.last_action
    timer: tuple[str, int, int] | None  # (kind, seq, seconds)
    paused: bool
    window: tuple[int, str] | None  # (suspect, cause)
    outcome: str | None


@dataclass(frozen=True)
class PrivateCard:
    """``teammates`` (user_id, role, suspect); ``hand`` the Profiler's cards; ``cancel`` the
    suspect the Suit may save now, or None."""

    user_id: int
    role: str
    suspect: int | None
    teammates: tuple[tuple[int, str, int | None], ...]
    hand: tuple[int, ...]
    cancel: int | None


def public_board(st: NoirState) -> PublicBoard:
    playing = bool(st.order)
    w = st.window
    return PublicBoard(
        phase=st.phase, grid=tuple(tuple(r) for r in st.grid),
        dead=tuple(sorted(s for s in st.dead if s not in st.removed)),
        arrested=tuple(sorted(st.arrested)), bombs=tuple(sorted(st.bombs)),
        threats=tuple(sorted(st.threats)), shields=tuple(sorted(st.shields)),
        interrogated=tuple(sorted(s for s in st.interrogated if s not in st.removed)),
        arrests=st.arrests, arrests_needed=st.table.arrests_needed if playing else 0,
        points=st.points, points_needed=st.table.points_needed if playing else 0,
        order=tuple((u, st.players[u].dealt_role.value) for u in st.order), current=st.current,
        step=st.step, turn_seq=st.turn_seq, last_action=tuple(st.last_action),
        timer=(st.timer.kind, st.timer.seq, st.timer.seconds) if st.timer else None,
        paused=st.paused is not None, window=(w.suspect, w.cause) if w else None,
        outcome=st.outcome,
    )


def private_card(st: NoirState, user_id: int) -> PrivateCard:
    """Raises KeyError for a user who does not play."""
    p = st.players[user_id]
    mates = tuple((m.user_id, m.dealt_role.value, m.identity) for m in st.team_of(p.dealt_role.team)
                  if m is not p) if p.role else ()
    w = st.window
    return PrivateCard(
        user_id=user_id, role=p.role.value if p.role else "", suspect=p.identity,
        teammates=mates, hand=tuple(st.hand) if p.role == Role.PROFILER else (),
        cancel=w.suspect if w and w.suit_can and p.role == Role.SUIT else None,
    )
