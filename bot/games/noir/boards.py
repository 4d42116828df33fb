"""The step-through replay of a finished NOIR game's boards (docs/history.md, "NOIR").

:func:`steps` replays the stored log through ``engine.noir`` and keeps the public board and the
identities after the start and after every command that changed something (a command whose
events are all quiet -- a timer armed, a pause, a resumption -- is no step).  :func:`view` draws
one step: the picture of ``board.draw`` with each player's name marked on his suspect (the game
is over: identities are no secret any more; red for the mafia, blue for the agents), a caption
(what the step did, the score, the identities) within Telegram's 1,024 characters, and the same
as a text grid for a chat where the picture cannot go."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape, unescape
from typing import Any

from PIL import ImageDraw

from engine.noir import (
    CancelOffered,
    Command,
    CreateGame,
    Event,
    GameCreated,
    HandDealt,
    IdentityCard,
    NoirState,
    Paused,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    PublicBoard,
    Resumed,
    TimerArmed,
    TurnStarted,
    apply,
    command_from_dict,
    public_board,
)

from ...telegram.limits import utf16_len
from ...ui.names import isolate
from . import board as drawing
from .names import SUSPECTS, role_name, suspect_name
from .story import Story, team_of

Gettext = Callable[[str], str]
CAPTION_LIMIT = 1024  # Telegram's caption length (after entities)
MAFIA_TAG, AGENT_TAG = (185, 30, 30), (30, 80, 185)
TAG_HEIGHT = 20  # px, the name band at the top of a suspect's cell
#: events that change nothing on the board: not a step of the replay
QUIET: tuple[type[Event], ...] = (
    TimerArmed, TurnStarted, Paused, Resumed, PlayerReturned, IdentityCard, HandDealt,
    CancelOffered, PlayerJoined, PlayerLeft, GameCreated)


@dataclass(frozen=True)
class Step:
    """The board after the command ``seq``; ``identities`` (user_id, role, suspect)."""

    seq: int
    board: PublicBoard
    identities: tuple[tuple[int, str, int | None], ...]


def commands(entries: Sequence[Any]) -> list[Command]:
    """NOIR commands of a stored log: the first (the core's CreateGame naming "noir") as NOIR's
    own CreateGame, the rest with NOIR's type table. Raises ValueError on a malformed log."""
    ordered = sorted(entries, key=lambda en: en.seq)
    if not ordered or ordered[0].command.get("type") != "CreateGame":
        raise ValueError("a NOIR log starts with CreateGame")
    first = ordered[0].command
    out: list[Command] = [CreateGame(user_id=first.get("user_id"),
                                     settings=dict(first.get("settings") or {}))]
    return out + [command_from_dict(en.command) for en in ordered[1:]]


def steps(entries: Sequence[Any]) -> list[Step]:
    """Every step of the replay (see the module docstring); [] for a game that never started."""
    seqs = [en.seq for en in sorted(entries, key=lambda en: en.seq)]
    out: list[Step] = []
    st: NoirState | None = None
    for seq, cmd in zip(seqs, commands(entries), strict=True):
        st, events = apply(st, cmd)
        if st.phase not in ("play", "ended") or not st.order:
            continue
        if out and all(isinstance(e, QUIET) for e in events):
            continue
        ids = tuple((u, _role(st, u), st.players[u].identity) for u in st.order)
        out.append(Step(seq, public_board(st), ids))
    return out


def _role(st: NoirState, uid: int) -> str:
    """The role value of the seated ``uid`` (dealt at the start, NOIR-02)."""
    role = st.players[uid].role
    assert role is not None  # a started game has dealt every seat its role
    return role.value


def names(_: Gettext) -> list[str]:
    return [suspect_name(_, s) for s in range(len(SUSPECTS))]


def picture(_: Gettext, story: Story, step: Step) -> bytes:
    """The board of ``step`` as PNG bytes, each player's name on his suspect's cell."""
    img = drawing.image(step.board, names(_))
    where = {s: (r, c) for r, row in enumerate(step.board.grid) for c, s in enumerate(row)}
    d = ImageDraw.Draw(img)
    font = drawing._font(11)
    for uid, role, suspect in step.identities:
        if suspect not in where:
            continue
        r, c = where[suspect]
        x0, y0 = drawing.EDGE + c * drawing.CELL, drawing.EDGE + r * drawing.CELL
        fill = MAFIA_TAG if team_of(role) == "mafia" else AGENT_TAG
        band = (x0 + 27, y0 + 4, x0 + drawing.CELL - 27, y0 + 4 + TAG_HEIGHT)
        d.rectangle(band, fill=fill)
        label = story.names.get(uid, "?")[:5]
        d.text(((band[0] + band[2]) // 2, (band[1] + band[3]) // 2), label, font=font,
               fill=(255, 255, 255), anchor="mm")
    return drawing.png_bytes(img)


def _plain_len(html: str) -> int:
    return utf16_len(unescape(re.sub(r"<[^>]+>", "", html)))


def caption(_: Gettext, story: Story, step: Step, head: str) -> str:
    """HTML caption of ``step`` under ``head``, at most :data:`CAPTION_LIMIT` characters."""
    b = step.board
    moves = [m for m in story.moves if m.seq == step.seq]
    move = moves[0] if moves else None
    lines = [ln for m in moves for ln in m.lines] or [_("The deal: the grid and the turn order.")]
    top = [head]
    if move is not None and move.turn and move.player is not None:
        role = story.role(move.player)
        who = isolate(story.names.get(move.player))
        top.append(_("Turn {n} · {player}").format(
            n=move.turn, player=f"{who} ({role_name(_, role)})" if role else who))
    score = "<b>" + escape(_("Arrests {a}/{an} · Dead {p}/{pn}").format(
        a=b.arrests, an=b.arrests_needed, p=b.points, pn=b.points_needed)) + "</b>"
    ids = "🕵 " + " · ".join(
        f"{isolate(story.names.get(u), limit=20)}: "
        f"{escape(suspect_name(_, s)) if s is not None else '—'}"
        for u, _r, s in step.identities)
    for keep in range(len(lines), -1, -1):
        body = lines[:keep] + (["…"] if keep < len(lines) else [])
        text = "\n".join(top + body + [score, ids])
        if _plain_len(text) <= CAPTION_LIMIT:
            return text
    return "\n".join(top + [score])[:CAPTION_LIMIT]


def text_board(_: Gettext, story: Story, step: Step, head: str) -> str:
    """The step as a text grid (``<pre>``), the legend and the caption."""
    grid = drawing.text_grid(step.board, names(_))
    legend = _("x dead · # arrested · * bomb · ! threat · + shield · ? interrogated")
    return f"<pre>{escape(grid)}</pre>\n{escape(legend)}\n\n" + caption(_, story, step, head)


def view(_: Gettext, story: Story, all_steps: list[Step], k: int, head: str
         ) -> tuple[str, bytes, str]:
    """(caption, PNG, text board) of step ``k`` (clamped to the steps there are)."""
    if not all_steps:
        raise ValueError("no steps")
    step = all_steps[min(max(0, k), len(all_steps) - 1)]
    return caption(_, story, step, head), picture(_, story, step), text_board(_, story, step, head)
