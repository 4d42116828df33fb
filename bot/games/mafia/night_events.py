"""Night events of the mafia presets (a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`):
the mafia's team, picks and relay, the checks, the morning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState
from engine.mafia import events as ev

from ..hints import Gettext
from .base import Markup, PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from html import escape

from engine import Phase, Role, Team, find_ruleset

from ...ui.texts import label
from . import night as night_views


class NightEvents(PresenterBase):
    """Renders the night's events; ``self`` is the game's presenter."""

    def on_MafiaRevealed(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                         e: ev.MafiaRevealed) -> None:
        for uid in self.audience_ids(st, e.audience):
            mates = [label(st, m) + (" " + _("(Don)") if m == e.don else "")
                     for m in e.members if m != uid]
            if mates:
                self.dm(uid, _("🕶 Your team: {list}.").format(list=", ".join(mates)) + "\n"
                        + _("At night, whatever you write here is passed to your team."))
            else:  # nobody to pass anything to
                self.dm(uid, _("🕶 You are the only mafioso."))

    def refresh_night_dm(self, g: Live, _: Gettext, st: GameState, uid: int) -> None:
        """Show ``uid``'s night message as the state now is (a preset may override)."""
        ref = self.ref(g, f"night:{uid}")
        if ref is not None and st.phase is Phase.NIGHT:
            self.edit(g, f"night:{uid}", uid, *self.night_view(_, g, st, uid))

    def night_dm(self, g: Live, _: Gettext, st: GameState, uid: int) -> None:
        """``uid``'s night message. A role card still showing «I have read my role» becomes it
        (the card's text stays on top): one edit instead of closing the card and sending anew --
        unless the Mini App is configured, whose button the card keeps."""
        text, markup = self.night_view(_, g, st, uid)
        key = f"night:{uid}"
        card = self.ref(g, f"role:{uid}")
        shown = g.refs.get(f"shown:role:{uid}")
        if card is not None and not isinstance(card, (dict, list)) and shown is not None \
                and shown[1] is not None and self.out.webapp_url:
            # the card keeps the Mini App's button for the whole game (docs/miniapp.md): it is
            # closed, and the night gets its own message
            self.close_role_card(g, _, uid)
        elif card is not None and not isinstance(card, (dict, list)) and shown is not None \
                and shown[1] is not None:
            head = shown[0]
            for old in (f"role:{uid}", f"shown:role:{uid}"):
                g.refs.pop(old, None)
            g.ui.pop(f"role:{uid}", None)
            if isinstance(card, int):
                g.ui[key] = card
                g.refs.pop(key, None)
            else:
                g.refs[key] = card
            g.ui["head:" + key] = head
            g.refs["shown:" + key] = (head, shown[1])
            self.edit(g, key, uid, text, markup)
            return
        self.send_private(g, key, uid, text, markup)

    def night_view(self, _: Gettext, g: Live, st: GameState, uid: int) -> tuple[str, Markup]:
        """``(text, markup)`` of ``uid``'s night message (a preset may override)."""
        return night_views.night_text(_, st, uid), night_views.night_keyboard(_, g.id, st, uid)

    def on_NightActionAccepted(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                               e: ev.NightActionAccepted) -> None:
        # A party pick is shown to the whole team by on_MafiaPicks; a final (club, online) shot
        # has no MafiaPicks event, so the shooter's own keyboard is refreshed here (CLUB-Q09).
        if e.action != "kill" or find_ruleset(st.ruleset).final_shots:
            self.refresh_night_dm(g, _, st, e.user_id)

    def on_MafiaPicks(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                      e: ev.MafiaPicks) -> None:
        for uid in self.audience_ids(st, e.audience):
            self.refresh_night_dm(g, _, st, uid)

    def on_CheckResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.CheckResult) -> None:
        if st.players[e.checker].role is Role.SHERIFF:  # CLUB-32: a colour
            verdict = _("⭐ {player} is <b>black</b>.") if e.is_mafia else \
                _("⭐ {player} is <b>red</b>.")
        else:
            verdict = _("🔎 {player} is <b>mafia</b>.") if e.is_mafia else \
                _("🔎 {player} is <b>not mafia</b>.")
        self.tell_checker(g, _, st, e.checker, verdict.format(player=label(st, e.target)))

    def tell_checker(self, g: Live, _: Gettext, st: GameState, uid: int, verdict: str) -> None:
        """A check's answer: on the checker's night message while the night runs (it shows his
        choice already: one edit instead of a new message), else a message of its own."""
        key = f"night:{uid}"
        if st.phase is Phase.NIGHT and self.ref(g, key) is not None \
                and g.refs.get("shown:" + key) is not None \
                and st.players[uid].team is not Team.MAFIA:  # a mafioso's changes with picks
            text, markup = self.night_view(_, g, st, uid)
            self.edit(g, key, uid, text + "\n" + verdict, markup)
            return
        self.dm(uid, verdict)

    def on_DonCheckResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: ev.DonCheckResult) -> None:
        verdict = _("🎩 {player} <b>is the Sheriff</b>.") if e.is_sheriff else \
            _("🎩 {player} is not the Sheriff.")
        self.tell_checker(g, _, st, e.checker, verdict.format(player=label(st, e.target)))

    def on_RelayedMessage(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                          e: ev.RelayedMessage) -> None:
        for uid in self.audience_ids(st, e.audience):
            if uid != e.sender:
                self.dm(uid, f"🕶 {label(st, e.sender)}: {escape(e.text)}")

    def on_NightResult(self, g: Live, _: Gettext, before: GameState | None, st: GameState,
                       e: ev.NightResult) -> None:
        if e.killed is None and st.night <= 1:  # the meeting: no shot was possible
            text = _("☀️ Morning. On the first night the mafia only met: nobody was shot.")
        elif e.killed is None:
            text = _("☀️ Morning. Nobody was killed tonight.")
            if e.saved:
                text += " " + _("The doctor saved the victim.")
        else:
            text = _("☀️ Morning. {player} was killed tonight.").format(player=label(st, e.killed))
        self.announce(g, text)
        if before is not None:
            for p in before.alive():  # a message whose keyboard went with the press stays
                self.close(g, f"night:{p.user_id}", p.user_id)
