"""The host's private messages (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`;
PARTY-Q18, PARTY-Q22): the roles, the «Next» console edited per phase, the prompts that carry
«Next» for one phase only and lose it when the phase ends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import GameState
from engine.mafia import events as ev

from ..hints import Gettext
from .base import Markup, PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from ...ui.callbacks import Act
from ...ui.texts import ROLE_ICONS, ROLE_NAMES, label
from . import views


class HostEvents(PresenterBase):
    """Renders what the host sees; ``self`` is the game's presenter."""

    def on_HostRoles(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                     e: ev.HostRoles) -> None:
        if st.host is None:
            return  # HostRoles goes to the host of a hosted game (PARTY-Q18)
        lines = [_("🎩 You host this game. Roles:")]
        for uid, role in e.roles:
            lines.append(f"{label(st, uid)} — {ROLE_ICONS[role]} {_(ROLE_NAMES[role])}")
        lines.append("")
        lines.append(_("Use /next in the group (or the button below) to move the game on."))
        self.host_prompt(g, _, st, "roles", "\n".join(lines), protect_content=True)
        self.send_console(g, _, st, st.host)

    def host_prompt(self, g: Live, _: Gettext, st: GameState, kind: str, text: str, **kw: Any
                    ) -> None:
        """A private message (``kind``: roles | ready) to the host with «Next» for the phase
        now running; it loses the button when the phase ends (``refresh_host_next``). Nothing
        in a game without a host."""
        if st.host is None:
            return
        self.keep(g, f"hostprompt:{st.phase_seq}:{kind}",
                  self.dm(st.host, text, self._host_markup(g, _, st), **kw))

    def close_host_prompts(self, g: Live, st: GameState, keep_seq: int | None = None) -> None:
        """Take «Next» off the host's prompts of finished phases (all but ``keep_seq``)."""
        if st.host is None:
            return
        for key in {k for k in (*g.ui, *g.refs) if k.startswith("hostprompt:")}:
            if key.split(":")[1] != str(keep_seq):
                self.close_dm(g, key, st.host)

    def refresh_host_next(self, g: Live, _: Gettext, st: GameState) -> None:
        """The host's «Next» for the phase now running (one message, edited per phase);
        nothing in a game without a host."""
        if st.host is None:
            return
        text = _("🎩 Now: {phase}. «Next» moves the game on.").format(
            phase=views.phase_name(_, st))
        markup = self._host_markup(g, _, st)
        self.close_host_prompts(g, st, keep_seq=st.phase_seq)
        if self.ref(g, "hostnext") is None:
            self.keep(g, "hostnext", self.dm(st.host, text, markup))
            self.remember(g, "hostnext", text, markup)
        else:
            self.edit(g, "hostnext", st.host, text, markup)

    def _host_markup(self, g: Live, _: Gettext, st: GameState) -> Markup:
        """The host's «Next», bound to the current phase: a double tap moves on once."""
        return self.out.with_webapp(_, g, InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text=_("⏭ Next"), callback_data=Act(g=g.id, s=st.phase_seq, a="next").pack())]]))

    def close_host(self, g: Live, _: Gettext, st: GameState) -> None:
        """The game is over: the host's «Next» messages lose their button."""
        if not st.host:
            return
        self.close_host_prompts(g, st)
        self.edit(g, "hostnext", st.host, _("🏁 <b>Game over</b>"), None)
