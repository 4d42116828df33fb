"""The forum's moderation (a part of :class:`~bot.games.forum.presenter.ForumPresenter`):
the host's panel of warnings and removals (FORUM-17, 18), a removal confirmed first (issue 20:
one tap removed a player at once, a second tap on ❗ could land on 🟥), the warnings and the
removal told in the group -- the removal once, with the card (FORUM-Q08)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from engine import GameState
from engine.forum import events as fev
from engine.mafia import events as ev
from engine.mafia.roles import Role

from ...ui.texts import ELIMINATION_CAUSES, SANCTION_REASONS, label
from ..hints import Gettext
from ..mafia.base import Markup, PresenterBase
from . import views as vf
from .cards import card as _card

if TYPE_CHECKING:
    from ..hints import Live


def _reason(_: Gettext, reason: str) -> str:
    if not reason:
        return ""
    return " (" + (_(SANCTION_REASONS[reason]) if reason in SANCTION_REASONS
                   else escape(reason)) + ")"


class ModerationEvents(PresenterBase):
    """Renders the moderation; ``self`` is the game's presenter."""

    def moderation_view(self, g: Live, _: Gettext, st: GameState, chat_id: int
                        ) -> tuple[str, Markup]:
        """The panel in ``chat_id``: its grid, or the question its 🟥 asked (``g.refs``
        ``ask:console:<chat>``: the seat) while that seat still plays."""
        asking = g.refs.get(f"ask:console:{chat_id}")
        if asking is not None and not any(p.seat == asking for p in st.alive()):
            g.refs.pop(f"ask:console:{chat_id}", None)
            asking = None
        return vf.moderation_text(_, st, asking), vf.moderation_keyboard(_, g.id, st, asking)

    def send_moderation_panel(self, g: Live, _: Gettext, st: GameState, chat_id: int) -> None:
        """FORUM-17, 18: the host's (or an admin's) warnings and removals, kept up to date."""
        g.refs.pop(f"ask:console:{chat_id}", None)
        text, markup = self.moderation_view(g, _, st, chat_id)
        key = f"console:{chat_id}"
        self.close_dm(g, key, chat_id)  # a panel replaced by /panel keeps no live buttons
        self.keep(g, key, self.dm(chat_id, text, markup))
        self.remember(g, key, text, markup)

    def refresh_moderation(self, g: Live, _: Gettext, st: GameState) -> None:
        for key in {k for k in (*g.ui, *g.refs) if k.startswith("console:")}:
            chat_id = int(key.split(":", 1)[1])
            self.edit(g, key, chat_id, *self.moderation_view(g, _, st, chat_id))

    def ask_moderation(self, g: Live, _: Gettext, st: GameState, chat_id: int,
                       seat: int | None) -> None:
        """The panel in ``chat_id`` asks to confirm the removal of ``seat``, or (None) goes
        back to its grid."""
        if seat is None:
            g.refs.pop(f"ask:console:{chat_id}", None)
        else:
            g.refs[f"ask:console:{chat_id}"] = seat
        self.edit(g, f"console:{chat_id}", chat_id, *self.moderation_view(g, _, st, chat_id))

    def on_WarningIssued(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.WarningIssued) -> None:
        self.group(g, _("❗ Warning to {player} ({n}){reason}.").format(
            player=label(st, e.player), n=e.count, reason=_reason(_, e.reason)))
        self.refresh_moderation(g, _, st)

    def on_PlayerRemoved(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: fev.PlayerRemoved) -> None:
        g.refs["removed"] = (e.player, e.reason)  # told with his card: one message (issue 20)

    def forum_eliminated(self, g: Live, _: Gettext, st: GameState, e: ev.PlayerEliminated,
                         role: Role) -> None:
        """FORUM-Q08: the card of every player who leaves is shown at once (``role``: his,
        which ``e`` carries in the forum); a removal is told once, with its reason."""
        self.refresh_moderation(g, _, st)
        card = _("Card: {card}.").format(card=_card(_, role))  # whoever it was (issue 20)
        if e.cause == "disqualified":
            g.ui["disqualified"] = [*(g.ui.get("disqualified") or []), e.user_id]  # 🟥 at the end
            who, reason = g.refs.pop("removed", (e.user_id, ""))
            self.announce(g, _("🟥 {player} is removed from the game{reason}.").format(
                player=label(st, e.user_id), reason=_reason(_, reason if who == e.user_id else ""))
                + " " + card)
            self.dm(e.user_id, _("🟥 You are removed. Please watch without posting."))
            return
        self.announce(g, "☠️ " + _(ELIMINATION_CAUSES[e.cause]).format(player=label(st, e.user_id))
                      + " " + card)
        self.dm(e.user_id, _("☠️ You are out of the game. Town roles get a last word; after it "
                             "please watch without posting."))
