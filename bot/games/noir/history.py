"""NOIR in /history, /stats and /me (docs/history.md, "NOIR"): the game's hook for the shared
history (``BotGame.history``, reached through the registry; ``bot/history`` never imports this
package).  Everything is built from the stored log (``entries``: objects with ``seq``,
``command`` and ``events``, the dicts the log stores):

* :meth:`NoirHistory.outcome` -- the summary and every player's result, for the tables behind
  the list, /stats and /me.  Teams are stored *scoped*: ``noir:agents`` / ``noir:mafia``, so
  NOIR's totals never mix with the mafia presets' town and mafia; scoped teams feed no Elo track
  (:attr:`rated` False).
* :meth:`protocol_blocks` -- the protocol of moves (players, roles, identities, every turn in
  words, the score and the winner), as HTML blocks the shared code pages.
* :meth:`steps` / :meth:`step_view` -- the step-through replay of the boards (``boards.py``).
* :meth:`knew_pages` -- "what I knew": the viewer's own identity cards over time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from ...ui.i18n import N_
from ...ui.names import isolate
from ..hints import Gettext, NGettext
from . import boards
from .names import role_name, suspect_name
from .story import NAME_LIMIT, Card, Story, read, team_of

SCOPE = "noir"
TEAMS = {"agents": N_("Agents"), "mafia": N_("Mafia")}
OUTCOMES = {"agents": N_("The agents win."), "mafia": N_("The mafia wins."),
            "draw": N_("A draw: both thresholds at once.")}


def scoped(team: str) -> str:
    """``agents`` -> ``noir:agents`` (the team as the history tables store it)."""
    return f"{SCOPE}:{team}"


@dataclass(frozen=True)
class PlayerOutcome:
    """One player's result: ``team`` scoped; ``survived``: never arrested and his identity
    never killed (NOIR has no elimination)."""

    user_id: int
    name: str
    seat: int
    role: str
    team: str
    won: bool
    survived: bool


@dataclass(frozen=True)
class Outcome:
    """A finished game's summary: ``winner`` a scoped team or None (a draw); ``rounds`` the
    turns played (stored in the summary's ``days`` column)."""

    winner: str | None
    rounds: int
    players: tuple[PlayerOutcome, ...]


class NoirHistory:
    """The hook (see the module docstring). Stateless; one instance in ``GAME``."""

    scope = SCOPE
    rated = False

    # --- names -----------------------------------------------------------------------------
    @staticmethod
    def team_name(_: Gettext, team: str | None) -> str:
        """A scoped or plain NOIR team's name ("Agents")."""
        key = (team or "").split(":", 1)[-1]
        return _(TEAMS[key]) if key in TEAMS else escape(str(team))

    @staticmethod
    def role_name(_: Gettext, role: str | None) -> str:
        try:
            return "🕵 " + role_name(_, role or "")
        except KeyError:
            return escape(str(role))

    @staticmethod
    def rounds_text(ngettext: NGettext, n: int) -> str:
        return ngettext("{n} turn", "{n} turns", n).format(n=n)

    # --- the tables ------------------------------------------------------------------------
    def outcome(self, entries: Sequence[Any]) -> Outcome | None:
        """The result of a finished game; None when the log has no GameEnded."""
        s = read(str, entries)
        if s.outcome is None:
            return None
        winner = scoped(s.outcome) if s.outcome in TEAMS else None
        players = tuple(PlayerOutcome(
            user_id=uid, name=s.names.get(uid, "?"), seat=seat, role=role,
            team=scoped(team_of(role)), won=scoped(team_of(role)) == winner,
            survived=not s.fate.get(uid)) for seat, (uid, role) in enumerate(s.order, 1))
        return Outcome(winner=winner, rounds=s.turns, players=players)

    @staticmethod
    def participants(entries: Sequence[Any]) -> set[int]:
        return {uid for uid, _r in read(str, entries).order}

    # --- the protocol ----------------------------------------------------------------------
    def protocol_blocks(self, _: Gettext, ngettext: NGettext, entries: Sequence[Any]) -> list[str]:
        """The protocol after the shared header: players, every turn, the result."""
        s = read(_, entries)
        blocks = ["\n".join([_("<b>Players, roles and identities</b>")] + players_lines(_, s))]
        turn_lines: dict[int, list[str]] = {}
        for m in s.moves:
            if m.turn:
                turn_lines.setdefault(m.turn, []).extend(m.lines)
        players = {m.turn: m.player for m in s.moves}
        for turn in sorted(turn_lines):
            head = _("<b>Turn {n}</b> · {player}").format(n=turn, player=_who(_, s, players[turn]))
            blocks.append("\n".join([head] + turn_lines[turn]))
        blocks.append("\n".join(result_lines(_, s)))
        return blocks

    # --- the replay of the boards ----------------------------------------------------------
    def steps(self, entries: Sequence[Any]) -> list[boards.Step]:
        """The boards after the start and after every command that changed something
        (language-free: cache it with the log)."""
        return boards.steps(entries)

    def step_view(self, _: Gettext, entries: Sequence[Any], steps: list[boards.Step],
                  k: int, head: str) -> tuple[str, bytes, str]:
        """Step ``k`` (clamped): (photo caption, PNG bytes, text-board HTML), each under
        ``head``; identities are marked (the game is over)."""
        return boards.view(_, read(_, entries), steps, k, head)

    # --- what I knew -----------------------------------------------------------------------
    def knew_pages(self, _: Gettext, entries: Sequence[Any], viewer: int) -> list[str]:
        """The viewer's identity cards, one a page, as he received them (his private events
        only; the rest of the game is public and in the protocol)."""
        s = read(_, entries)
        if viewer not in dict(s.order):
            return [_("You did not play in this game: you saw only its public board, which the "
                      "group's /history shows.")]
        by_seq: dict[int, list[str]] = {}
        for m in s.moves:
            by_seq.setdefault(m.seq, []).extend(m.lines)
        pages = []
        for card in (c for c in s.cards if c.user_id == viewer):
            when = _("Turn {n}").format(n=card.turn) if card.turn else _("The deal")
            lines = [f"<b>{when}</b>"]
            if by_seq.get(card.seq) and card.turn:
                lines += by_seq[card.seq] + [""]
            lines += card_lines(_, s, card)
            pages.append("\n".join(lines))
        return pages or [_("Nothing to show.")]


def _who(_: Gettext, s: Story, uid: int | None) -> str:
    if uid is None:
        return "—"
    role = s.role(uid)
    raw = s.names.get(uid, "?")
    name = isolate(raw if len(raw) <= NAME_LIMIT else raw[:NAME_LIMIT - 1] + "…")
    return f"{name} ({role_name(_, role)})" if role else name


def players_lines(_: Gettext, s: Story) -> list[str]:
    lines = []
    for seat, (uid, role) in enumerate(s.order, 1):
        text = f"{seat}. {_who(_, s, uid)} · {_(TEAMS[team_of(role)])}"
        first, last = s.first.get(uid), s.last.get(uid)
        if first is not None:
            text += " · " + escape(suspect_name(_, first))
        if last is not None and last != first:
            text += " → " + escape(suspect_name(_, last))
        fate = s.fate.get(uid, set())
        if "arrested" in fate:
            text += " · 🚔"
        if "killed" in fate:
            text += " · ☠️"
        lines.append(text)
    return lines


def result_lines(_: Gettext, s: Story) -> list[str]:
    lines = [_("🏁 <b>Result</b>")]
    if s.cancelled:
        return lines + [_("The game was cancelled.")]
    lines.append(_("Arrests {a}/{an} · Dead {p}/{pn}").format(
        a=s.arrests, an=s.arrests_needed, p=s.points, pn=s.points_needed))
    if s.outcome in OUTCOMES:
        lines.append("🏆 <b>" + _(OUTCOMES[s.outcome]) + "</b>")
    lines.append(_("Turns played: {n}.").format(n=s.turns))
    return lines


def card_lines(_: Gettext, s: Story, card: Card) -> list[str]:
    """One received card in the words of the live identity card (``views.identity_text``)."""
    if card.hand:
        return [_("Your cards: {cards}.").format(
            cards=", ".join(escape(suspect_name(_, c)) for c in card.hand))]
    if card.cancel is not None:
        return [_("You could cancel the attack on {suspect}.").format(
            suspect=escape(suspect_name(_, card.cancel)))]
    lines = [_("Your role: {role}.").format(role=role_name(_, card.role))]
    if card.suspect is not None:
        lines.append(_("You are {suspect}.").format(
            suspect=f"<b>{escape(suspect_name(_, card.suspect))}</b>"))
    for uid, role, suspect in card.teammates:
        who = isolate(s.names.get(uid))
        if suspect is None:
            lines.append(_("{name} ({role}): no identity.").format(name=who, role=role_name(_, role)))
        else:
            lines.append(_("{name} ({role}) is {suspect}.").format(
                name=who, role=role_name(_, role), suspect=escape(suspect_name(_, suspect))))
    return lines


HISTORY = NoirHistory()
