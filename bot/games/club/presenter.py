"""The club preset's presenter (docs/rules/club-sport.md): the mafia presentation plus the
judge's console (``console.py``) -- fouls, disqualifications, taken-back nominations, the
judge's clock, Undo and a procedural loss (CLUB-36..39, CLUB-Q06, Q08, CLUB-X16..X20).

The console's record (per seat: fouls, nominations, votes, how he left; the checks; today's
protocol) is read from the game's events: the presenter keeps them in memory
(``g.refs["club:log"]``, one list per command, complete from the game's first command) as it
presents them; after a restart ``/panel`` brings the stored ones (:meth:`seed_log`), and until
then the console shows what the state knows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import GameState, Phase
from engine.club import events as clev
from engine.core.game import game_of

from ...ui.texts import label
from ..hints import Gettext
from ..mafia import views
from ..mafia.presenter import MafiaPresenter
from . import console
from .record import record
from .views import fouls_mark

if TYPE_CHECKING:
    from ..hints import Live

LOG = "club:log"


class ClubPresenter(MafiaPresenter):
    """Renders a club game; the console of each chat is kept up to date."""

    TIMING_KEYS: tuple[str, ...] = ("speech", "defence", "last_word", "vote", "night", "meeting")

    @staticmethod
    def table_text(_: Gettext, st: GameState) -> str:
        """The pinned table with each living player's fouls (CLUB-36)."""
        return views.table_text(_, st, fouls_mark)

    # --- the record's events -----------------------------------------------------------------
    def present(self, g: Live, before: GameState | None, after: GameState, events: list) -> None:
        """Note the step's events for the console's record, present them, then bring every
        console up to date (an edit that would show the same is skipped)."""
        n = before.commands if before is not None else 0
        log = g.refs.get(LOG)
        if log is None and n == 0:
            log = g.refs[LOG] = []
        if log is not None and len(log) == n:
            game = game_of(after)
            log.append([game.to_dict(e) for e in events])
        elif log is not None:
            g.refs.pop(LOG, None)  # a gap: /panel reads the stored log again
        super().present(g, before, after, events)
        if events and not after.over and after.phase is not Phase.LOBBY:
            self.refresh_consoles(g, self.tr.get(g.locale), after)

    def seed_log(self, g: Live, log: list[list[dict[str, Any]]]) -> None:
        """The stored events of every command (``Storage.load_events``), when the presenter
        has none complete (a restart)."""
        st = g.state
        if st is not None and len(log) == st.commands and g.refs.get(LOG) is None:
            g.refs[LOG] = [list(evs or ()) for evs in log]

    # --- the console -------------------------------------------------------------------------
    def console_view(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> tuple[str, Any]:
        """``(text, keyboard)`` of the console in ``chat_id`` (the question first while it asks
        to confirm)."""
        log = g.refs.get(LOG)
        rec = record(st, [e for evs in log for e in evs] if log is not None else [])
        text = console.text(_, st, rec, roles=chat_id == st.host)
        asking = g.refs.get(f"ask:console:{chat_id}")
        if asking is not None:
            code, seat = asking
            try:
                text = console.question(_, st, console.ASK[code], seat) + "\n\n" + text
            except KeyError:  # the seat is gone from the table (cannot happen: seats stay)
                asking = None
        markup = self.out.with_webapp(_, g, console.keyboard(_, g.id, st, asking))
        return text, markup

    def send_console(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None:
        """CLUB-36/39, CLUB-Q08: the judge's console (``console.py``). The newest console of
        each chat is kept up to date (``refresh_consoles``); the one it replaces (``/panel``)
        loses its buttons (issue 20: they stayed live after the game)."""
        key = f"console:{chat_id}"
        g.refs.pop("ask:" + key, None)
        text, markup = self.console_view(g, _, st, chat_id)
        self.close_dm(g, key, chat_id)
        self.keep(g, key, self.dm(chat_id, text, markup, protect_content=chat_id == st.host))
        self.remember(g, key, text, markup)

    def refresh_consoles(self, g: Live, _: Gettext, st: GameState) -> None:
        """Every console sent shows the current record and grid."""
        for key in {k for k in (*g.ui, *g.refs) if k.startswith("console:")}:
            chat_id = int(key.split(":", 1)[1])
            self.edit(g, key, chat_id, *self.console_view(g, _, st, chat_id))

    def ask_console(self, g: Live, _: Gettext, st: GameState, chat_id: int,
                    asking: tuple[str, int] | None) -> None:
        """The console in ``chat_id`` asks to confirm ``asking`` (a ``console.ASK`` code and
        its seat), or (None) goes back to its grid."""
        key = f"console:{chat_id}"
        if asking is None:
            g.refs.pop("ask:" + key, None)
        else:
            g.refs["ask:" + key] = asking
        self.edit(g, key, chat_id, *self.console_view(g, _, st, chat_id))

    # --- the judge's events ------------------------------------------------------------------
    def on_FoulCancelled(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: clev.FoulCancelled) -> None:
        self.group(g, _("↩️ A foul of {player} is taken back ({n} of 4).").format(
            player=label(st, e.player), n=e.count))

    def refresh_turn(self, g: Live, _: Gettext, st: GameState) -> None:
        if st.phase is Phase.SPEECH:
            self.edit(g, "turn", g.chat_id,
                      views.turn_text(_, st, at=self.shown_end(g, st, "turn")),
                      views.turn_keyboard(_, g.id, st))

    def on_NominationUndone(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: clev.NominationUndone) -> None:
        self.group(g, _("↩️ The nomination of {player} is taken back.").format(
            player=label(st, e.target)))
        self.refresh_turn(g, _, st)

    def on_FoulIssued(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: clev.FoulIssued) -> None:
        text = _("⚠️ Foul to {player} ({n} of 4).").format(player=label(st, e.player), n=e.count)
        if e.count == 3:
            text += " " + _("He loses his next speech but may still nominate.")
        self.group(g, text)

    def on_TimeAdded(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: clev.TimeAdded) -> None:
        """CLUB-X18: the group is told; the turn's message shows its new end."""
        self.group(g, _("⏱ The judge gives {player} {n} s more.").format(
            player=label(st, e.speaker), n=e.seconds))
        self.show_clock(g, _, st, always=True)

    def on_TurnRestarted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: clev.TurnRestarted) -> None:
        """CLUB-X19: the group is told; the turn's message shows its new end."""
        self.group(g, _("🔁 The judge restarts the turn of {player}: {n} s.").format(
            player=label(st, e.speaker), n=e.seconds))
        self.show_clock(g, _, st, always=True)

    def on_TurnEnded(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: clev.TurnEnded) -> None:
        """CLUB-X20 (the next turn's messages follow)."""
        self.group(g, _("⏭ The judge ends the turn of {player}.").format(
            player=label(st, e.speaker)))

    def on_ProceduralLoss(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: clev.ProceduralLoss) -> None:
        """CLUB-X17 (the result with every role follows at once)."""
        self.group(g, _("🏳 Procedural loss: the judge rules the breach of {player} decisive; "
                        "his team loses the game.").format(player=label(st, e.player)))

    def on_JudgeActionUndone(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                             e: clev.JudgeActionUndone) -> None:
        """CLUB-X16: the group is told what was taken back; a nomination is on the turn's
        ballot again."""
        texts = {"foul": _("↩️ The judge takes back the foul of {player} ({n} of 4)."),
                 "fourth_foul": _("↩️ The judge takes back the fourth foul of {player}: he is "
                                  "back in the game ({n} of 4)."),
                 "disqualification": _("↩️ The judge takes back the disqualification of "
                                       "{player}: he is back in the game."),
                 "nomination": _("↩️ The judge puts the nomination of {player} back.")}
        club = st.club
        n = club.fouls.get(e.player, 0) if club is not None else 0
        self.group(g, texts.get(e.action, texts["foul"]).format(player=label(st, e.player), n=n))
        if e.action in ("disqualification", "fourth_foul"):  # back at the table: no 🟥 at the end
            g.ui["disqualified"] = [u for u in g.ui.get("disqualified") or [] if u != e.player]
        if e.action == "nomination":
            self.refresh_turn(g, _, st)
