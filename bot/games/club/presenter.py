"""The club preset's presenter (docs/rules/club-sport.md): the mafia presentation plus the
judge's console — fouls, disqualifications, taken-back nominations (CLUB-36..39, CLUB-Q06, Q08)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState, Phase
from engine.club import events as clev

from ...ui.texts import label
from ..hints import Gettext
from ..mafia import views
from ..mafia.presenter import MafiaPresenter
from .views import foul_keyboard, fouls_mark

if TYPE_CHECKING:
    from ..hints import Live


class ClubPresenter(MafiaPresenter):
    """Renders a club game; the console of each chat is kept up to date."""

    TIMING_KEYS: tuple[str, ...] = ("speech", "defence", "last_word", "vote", "night", "meeting")

    @staticmethod
    def table_text(_: Gettext, st: GameState) -> str:
        """The pinned table with each living player's fouls (CLUB-36)."""
        return views.table_text(_, st, fouls_mark)

    def send_console(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None:
        """CLUB-36/39, CLUB-Q08: the judge's console: a foul or a disqualification per seat.
        The newest console of each chat is kept up to date (``refresh_consoles``); the one it
        replaces (``/panel``) loses its buttons (issue 20: they stayed live after the game)."""
        text = _("⚖️ Fouls: ⚠️ gives a foul, 🟥 disqualifies. /panel shows this again.")
        markup = self.out.with_webapp(_, g, foul_keyboard(g.id, st))  # + the Mini App
        key = f"console:{chat_id}"
        self.close_dm(g, key, chat_id)
        self.keep(g, key, self.dm(chat_id, text, markup))
        self.remember(g, key, text, markup)

    def refresh_consoles(self, g: Live, _: Gettext, st: GameState) -> None:
        """Show the current fouls and only the living seats on every console sent."""
        text = _("⚖️ Fouls: ⚠️ gives a foul, 🟥 disqualifies. /panel shows this again.")
        for key in {k for k in (*g.ui, *g.refs) if k.startswith("console:")}:
            self.edit(g, key, int(key.split(":", 1)[1]), text,
                      self.out.with_webapp(_, g, foul_keyboard(g.id, st)))

    def on_FoulCancelled(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: clev.FoulCancelled) -> None:
        self.group(g, _("↩️ A foul of {player} is taken back ({n} of 4).").format(
            player=label(st, e.player), n=e.count))
        self.refresh_consoles(g, _, st)

    def on_NominationUndone(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                            e: clev.NominationUndone) -> None:
        self.group(g, _("↩️ The nomination of {player} is taken back.").format(
            player=label(st, e.target)))
        if st.phase is Phase.SPEECH:
            self.edit(g, "turn", g.chat_id,
                      views.turn_text(_, st, at=self.shown_end(g, st, "turn")),
                      views.turn_keyboard(_, g.id, st))

    def on_FoulIssued(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: clev.FoulIssued) -> None:
        text = _("⚠️ Foul to {player} ({n} of 4).").format(player=label(st, e.player), n=e.count)
        if e.count == 3:
            text += " " + _("He loses his next speech but may still nominate.")
        self.group(g, text)
        self.refresh_consoles(g, _, st)
