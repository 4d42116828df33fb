"""A finished NOIR game read from its stored log, in words (docs/history.md, "NOIR"): who
played which role, the turns and every action of each turn (NOIR-18..39: shifts, collapses,
kills, bombs and chains, threats, shots, accusations, autopsies, interrogations, profiling,
shields, the Suit's cancel, arrests, timeouts and auto-passes), the identities over time and the
result.  Pure: reads the event dicts the log stores (``engine.noir.serialize``), no engine call.

The game is over when this is shown, so identities are named: a killed suspect says whose
identity he was, a change of identity says the new one (NOIR-05, 15 keep them secret only while
the game runs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from engine.noir import Role, cell_name

from ...ui.i18n import N_
from ...ui.names import isolate
from .names import role_name, suspect_name

Gettext = Callable[[str], str]
NAME_LIMIT = 40  # characters of a player's name

CAUSES = {"kill": N_("killed"), "shot": N_("shot"), "bomb": N_("blown up"),
          "threat": N_("threat carried out")}
TOKENS = {"bomb": N_("bomb"), "threat": N_("threat"), "shield": N_("shield")}


def team_of(role: str) -> str:
    """'mafia' | 'agents' for a role value (NOIR-05). Raises ValueError for an unknown one."""
    return Role(role).team.value


@dataclass
class Move:
    """What one stored command did (``seq``) in the turn ``turn`` (1.., 0 before the first)
    of ``player``; ``lines`` HTML, one an event.  A command that ends a turn and starts the
    next gives two moves with the same ``seq``."""

    seq: int
    turn: int
    player: int | None
    lines: list[str] = field(default_factory=list)


@dataclass
class Card:
    """One identity card a player received (private to him): at ``seq`` in turn ``turn``."""

    seq: int
    turn: int
    user_id: int
    role: str
    suspect: int | None
    teammates: tuple[tuple[int, str, int | None], ...]
    hand: tuple[int, ...] = ()
    cancel: int | None = None


@dataclass
class Story:
    """The game in words. ``order`` (user_id, role) in turn order (the seat is the index + 1);
    ``first`` / ``last`` each player's first and final suspect; ``fate`` user -> set of
    'arrested' | 'killed' (his identity killed at least once)."""

    names: dict[int, str] = field(default_factory=dict)
    order: list[tuple[int, str]] = field(default_factory=list)
    first: dict[int, int | None] = field(default_factory=dict)
    last: dict[int, int | None] = field(default_factory=dict)
    fate: dict[int, set[str]] = field(default_factory=dict)
    arrests_needed: int = 0
    points_needed: int = 0
    outcome: str | None = None
    arrests: int = 0
    points: int = 0
    cancelled: bool = False
    turns: int = 0
    moves: list[Move] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)

    @property
    def started(self) -> bool:
        return bool(self.order)

    def seat(self, uid: int) -> int:
        return next((i for i, (u, _r) in enumerate(self.order, 1) if u == uid), 0)

    def role(self, uid: int) -> str | None:
        return next((r for u, r in self.order if u == uid), None)


class _Reader:
    def __init__(self, _: Gettext) -> None:
        self._ = _
        self.s = Story()
        self.ident: dict[int, int | None] = {}
        self.turn = 0
        self.player: int | None = None
        self.move = Move(0, 0, None)  # entry() starts each command's move before its events
        self.pending: dict[int, int] = {}  # user -> his IdentityChanged line in this move

    # --- words -----------------------------------------------------------------------------
    def name(self, uid: int | None) -> str:
        if uid is None:
            return "—"
        raw = self.s.names.get(uid, "?")
        return isolate(raw if len(raw) <= NAME_LIMIT else raw[:NAME_LIMIT - 1] + "…")

    def who(self, uid: int | None) -> str:
        role = self.s.role(uid) if uid is not None else None
        return f"{self.name(uid)} ({role_name(self._, role)})" if role else self.name(uid)

    def sus(self, suspect: int | None) -> str:
        return escape(suspect_name(self._, suspect)) if suspect is not None else "—"

    def roles(self, roles: Sequence[str]) -> str:
        return ", ".join(role_name(self._, r) for r in roles) or self._("nobody")

    def owner(self, suspect: int) -> int | None:
        return next((u for u, s in self.ident.items() if s == suspect), None)

    def line(self, text: str) -> None:
        self.move.lines.append(text)

    # --- the walk --------------------------------------------------------------------------
    def entry(self, seq: int, events: list[dict[str, Any]]) -> None:
        self.move = Move(seq, self.turn, self.player)
        self.pending = {}
        for e in events:
            handler = getattr(self, "on_" + str(e.get("type")), None)
            if handler is not None:
                handler(e)
        if self.move.lines:
            self.s.moves.append(self.move)

    def on_PlayerJoined(self, e: dict[str, Any]) -> None:
        self.s.names[int(e["user_id"])] = str(e.get("name", ""))

    def on_GameStarted(self, e: dict[str, Any]) -> None:
        self.s.order = [(int(u), str(r)) for u, r in e.get("order", ())]
        self.s.arrests_needed = int(e.get("arrests_needed") or 0)
        self.s.points_needed = int(e.get("points_needed") or 0)
        self.s.fate = {u: set() for u, _r in self.s.order}

    def on_IdentityCard(self, e: dict[str, Any]) -> None:
        uid = int(e["audience"]["user_id"])
        suspect = e.get("suspect")
        self.s.cards.append(Card(self.move.seq, self.turn, uid, str(e.get("role", "")), suspect,
                                 tuple((int(u), str(r), s) for u, r, s in e.get("teammates", ()))))
        if uid not in self.s.first:
            self.s.first[uid] = suspect
        elif self.ident.get(uid) != suspect and uid in self.pending:
            i = self.pending.pop(uid)
            self.move.lines[i] += " → " + self.sus(suspect)
        self.ident[uid] = suspect
        self.s.last[uid] = suspect

    def on_HandDealt(self, e: dict[str, Any]) -> None:
        uid = int(e["audience"]["user_id"])
        self.s.cards.append(Card(self.move.seq, self.turn, uid, "profiler", self.ident.get(uid),
                                 (), hand=tuple(e.get("cards", ()))))

    def on_CancelOffered(self, e: dict[str, Any]) -> None:
        uid = int(e["audience"]["user_id"])
        self.s.cards.append(Card(self.move.seq, self.turn, uid, "suit", self.ident.get(uid), (),
                                 cancel=e.get("suspect")))

    def on_TurnStarted(self, e: dict[str, Any]) -> None:
        """A new turn: what the command did before it stays in the turn before."""
        self.turn += 1
        self.s.turns = self.turn
        self.player = int(e["player"])
        if self.move.lines:
            self.s.moves.append(self.move)
            self.pending = {}
        self.move = Move(self.move.seq, self.turn, self.player)

    def on_TurnTimedOut(self, e: dict[str, Any]) -> None:
        _ = self._
        if e.get("auto"):
            self.line(_("⏭ {player}: turn passed (auto-pass)").format(player=self.who(e["player"])))
        else:
            text = _("⏰ {player}: time is up, the turn passes").format(player=self.who(e["player"]))
            if e.get("auto_pass"):
                text += " · " + _("auto-pass from now on")
            self.line(text)

    def on_PlayerReturned(self, e: dict[str, Any]) -> None:
        self.line(self._("↩️ {player} is back").format(player=self.who(e["player"])))

    def on_Paused(self, e: dict[str, Any]) -> None:
        self.line(self._("⏸ The game is paused."))

    def on_Resumed(self, e: dict[str, Any]) -> None:
        self.line(self._("▶️ The game goes on."))

    def on_Shifted(self, e: dict[str, Any]) -> None:
        _ = self._
        index = int(e["index"])
        line = (_("row {n}") if e["line"] == "row" else _("column {n}")).format(
            n=index + 1 if e["line"] == "row" else cell_name(0, index)[0])
        self.line(_("↔️ {player}: shift of {line} by {by}").format(
            player=self.who(e["player"]), line=line, by=f"{int(e['by']):+d}"))

    def on_Collapsed(self, e: dict[str, Any]) -> None:
        _ = self._
        self.line(_("🧱 {player}: collapse, the grid is now {rows}×{cols}; removed: {list}").format(
            player=self.who(e["player"]), rows=e["rows"], cols=e["cols"],
            list=", ".join(self.sus(s) for s in e.get("removed", ())) or "—"))

    def on_Swapped(self, e: dict[str, Any]) -> None:
        self.line(self._("🔀 {player}: swap of {a} and {b}").format(
            player=self.who(e["player"]), a=self.sus(e["first"]), b=self.sus(e["second"])))

    def on_ThreatsPlaced(self, e: dict[str, Any]) -> None:
        _ = self._
        text = _("❗ {player}: threats on {list}").format(
            player=self.who(e["player"]), list=", ".join(self.sus(s) for s in e["targets"]))
        if e.get("auto"):
            text += " · " + _("by the timeout")
        self.line(text)

    def on_ThreatsSkipped(self, e: dict[str, Any]) -> None:
        self.line(self._("❗ {player}: no suspect could take a threat").format(
            player=self.who(e["player"])))

    def on_BombPlaced(self, e: dict[str, Any]) -> None:
        self.line(self._("💣 {player}: bomb on {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"])))

    def on_Detonated(self, e: dict[str, Any]) -> None:
        _ = self._
        text = _("💥 {player}: detonation of the bomb on {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["bomb"]))
        if e.get("chain"):
            text += " · " + _("chain: {list}").format(
                list=" → ".join(self.sus(s) for s in e["chain"]))
        self.line(text)

    def on_Shot(self, e: dict[str, Any]) -> None:
        self.line(self._("🎯 {player}: shot at {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"])))

    def on_KillAttempted(self, e: dict[str, Any]) -> None:
        self.line(self._("🔪 {player}: kill of {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"])))

    def on_TokenMoved(self, e: dict[str, Any]) -> None:
        _ = self._
        self.line(_("↪️ {player}: {token} moved from {a} to {b}").format(
            player=self.who(e["player"]), token=_(TOKENS.get(e["kind"], e["kind"])),
            a=self.sus(e["source"]), b=self.sus(e["dest"])))

    def on_ShieldPlaced(self, e: dict[str, Any]) -> None:
        self.line(self._("🛡 {player}: protection of {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"])))

    def on_ShieldRemoved(self, e: dict[str, Any]) -> None:
        self.line(self._("🛡 {player}: protection taken off {suspect}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"])))

    def on_IdentityChanged(self, e: dict[str, Any]) -> None:
        _ = self._
        uid = int(e["player"])
        if e.get("reason") == "chose":
            text = _("🎭 {player}: change of identity").format(player=self.who(uid))
        else:
            text = _("🎭 {player} takes a new identity").format(player=self.who(uid))
        self.line(text)
        self.pending[uid] = len(self.move.lines) - 1

    def on_Accused(self, e: dict[str, Any]) -> None:
        _ = self._
        verdict = _("a hit") if e.get("hit") else _("a miss")
        self.line(_("☝️ {player}: accusation of {suspect} — {verdict}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"]), verdict=verdict))

    def on_AutopsyDone(self, e: dict[str, Any]) -> None:
        self.line(self._("🔬 {player}: autopsy of {suspect}; mafiosi next to him: {roles}").format(
            player=self.who(e["player"]), suspect=self.sus(e["target"]),
            roles=self.roles(e.get("mafiosi", ()))))

    def on_Interrogated(self, e: dict[str, Any]) -> None:
        self.line(self._("🗂 {player}: interrogation about {suspect}; next to him: {roles}").format(
            player=self.who(e["player"]), suspect=self.sus(e["suspect"]),
            roles=self.roles(e.get("near", ()))))

    def on_Profiled(self, e: dict[str, Any]) -> None:
        self.line(self._("🧩 {player}: profiling with {suspect}; mafiosi next to him: {roles}")
                  .format(player=self.who(e["player"]), suspect=self.sus(e["card"]),
                          roles=self.roles(e.get("mafiosi", ()))))

    def on_WindowOpened(self, e: dict[str, Any]) -> None:
        self.line(self._("🛡 {suspect} is protected: {role} may cancel the attack").format(
            suspect=self.sus(e["suspect"]), role=role_name(self._, "suit")))

    def on_KillCancelled(self, e: dict[str, Any]) -> None:
        self.line(self._("🛡 {role}: the attack on {suspect} is cancelled").format(
            suspect=self.sus(e["suspect"]), role=role_name(self._, "suit")))

    def on_SuspectKilled(self, e: dict[str, Any]) -> None:
        _ = self._
        suspect = int(e["suspect"])
        cause: str = e.get("cause", "")
        text = _("☠️ {suspect} dies ({cause})").format(
            suspect=self.sus(suspect), cause=_(CAUSES.get(cause, cause)))
        owner = self.owner(suspect)
        if owner is not None:
            text += " · " + _("the identity of {player}").format(player=self.who(owner))
            self.s.fate.setdefault(owner, set()).add("killed")
        text += " · " + _("dead {p}/{pn}").format(p=e.get("points"), pn=self.s.points_needed)
        self.line(text)

    def on_Arrested(self, e: dict[str, Any]) -> None:
        _ = self._
        role = str(e["role"])
        uid = next((u for u, r in self.s.order if r == role), None)
        text = _("🚔 Arrest of the {role} ({suspect})").format(
            role=role_name(_, role), suspect=self.sus(e.get("suspect")))
        if uid is not None:
            text += " — " + self.name(uid)
            self.s.fate.setdefault(uid, set()).add("arrested")
        if e.get("by") == "kill":
            text += " · " + _("killed by his own team")
        text += " · " + _("arrests {a}/{an}").format(a=e.get("arrests"), an=self.s.arrests_needed)
        self.line(text)

    def on_TokensCleared(self, e: dict[str, Any]) -> None:
        _ = self._
        what = _("bombs") if e.get("kind") == "bomb" else _("threats")
        self.line(_("🧹 The {tokens} leave the board: {list}").format(
            tokens=what, list=", ".join(self.sus(s) for s in e.get("suspects", ())) or "—"))

    def on_GameEnded(self, e: dict[str, Any]) -> None:
        s = self.s
        s.outcome = e.get("outcome")
        s.arrests, s.points = int(e.get("arrests") or 0), int(e.get("points") or 0)
        for uid, _role, suspect in e.get("identities", ()):
            s.last[int(uid)] = suspect

    def on_GameCancelled(self, e: dict[str, Any]) -> None:
        self.s.cancelled = True


def read(_: Gettext, entries: Sequence[Any]) -> Story:
    """The story of a NOIR log: ``entries`` have ``seq`` and ``events`` (stored dicts)."""
    r = _Reader(_)
    for en in sorted(entries, key=lambda en: en.seq):
        r.entry(en.seq, list(en.events))
    return r.s
