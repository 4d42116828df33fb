"""How the mafia presenters spend few Telegram calls (issue 11, target 2; docs/performance.md,
"Messages per game") -- a part of :class:`~bot.games.mafia.presenter.MafiaPresenter`.

* **Announcements ride on the next standing message.** A short announcement of one engine step
  (the morning, an elimination, a tie, a day without a vote, the deal) is held while the step is
  presented (:meth:`LiveMessages.announce`); when the same step sends a standing message with
  buttons (a turn, the vote, the ready gate) through :meth:`LiveMessages.standing`, the
  announcements head it -- one message instead of two -- and stay on it through its later edits
  (the *head*, kept in ``g.ui`` so a restart keeps it too). Whatever is left is sent at the
  end of the step as one plain message, before any other message with buttons, so the order
  of the events stays.
* **No edit that changes nothing.** Every edit of a kept message goes through ``edit``, which
  skips a text and keyboard equal to what the message shows (``Presenter.remember``), and
  :meth:`LiveMessages.close` removes a keyboard only from a message that still has one.
* **Live counters are throttled.** The vote and the ready gate change at every press; their
  edits go through :meth:`LiveMessages.live_edit`: at most one edit per :data:`LIVE_GAP`
  seconds of game time per message; a change inside the gap is kept and shown by the next
  event of the game after the gap, by the edit that closes the message, or -- when the game is
  quiet -- by a timer at the gap's end (a job on the deadlines' clock,
  ``clock:{game}:live:<key>``: the benchmark's game time fires it when production would). The
  press itself is confirmed at once by its callback answer, so the presser never waits.
* **The lobby's joins and leaves are throttled alike** (``MafiaPresenter.refresh_lobby``): the
  joiner is answered at once in his private chat (or by the Mini App), the lobby message
  follows at most once per :data:`LIVE_GAP`; the organiser's own changes (tempo, roles, the
  host) show at once, and the start or the cancellation replaces the lobby at once and drops
  the held edit, so no timer edits a closed lobby. A held lobby edit is noted in ``g.ui``
  (``held:lobby``) and shown again after a restart (``MafiaPresenter.restarted``), since the
  timer and the held text live in memory only.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .base import Markup, PresenterBase

if TYPE_CHECKING:
    from ..hints import Live

if TYPE_CHECKING:
    from ..hints import Live

from datetime import timedelta

#: seconds of game time between two edits of one live message (vote, ready gate)
LIVE_GAP = 5.0
#: announcements of one step are joined with a blank line, as the Sender merges texts
JOIN = "\n\n"


class LiveMessages(PresenterBase):
    """The call-saving helpers; ``self`` is the game's presenter (``self.out`` the shared
    :class:`bot.presentation.presenter.Presenter`)."""

    # --- announcements -------------------------------------------------------------------------
    def begin_step(self, g: Live) -> None:
        g.refs["stepping"] = True

    def end_step(self, g: Live) -> None:
        g.refs.pop("stepping", None)
        self.flush_announcements(g)
        self.flush_cards(g)
        self.flush_live(g)

    # --- role cards ----------------------------------------------------------------------------
    def hold_card(self, g: Live, uid: int, text: str) -> None:
        """A role card without buttons, held while the step is presented: a private message
        with buttons sent to ``uid`` in the same step (the first night's) carries it on top."""
        g.refs.setdefault("cards", {})[uid] = text

    def flush_cards(self, g: Live) -> None:
        for uid, text in (g.refs.pop("cards", None) or {}).items():
            self.keep(g, f"role:{uid}", self.dm(uid, text, None, protect_content=True))
            self.out.remember(g, f"role:{uid}", text, None)

    def send_private(self, g: Live, key: str, uid: int, text: str, markup: Markup) -> None:
        """Send ``uid``'s private message ``key`` (kept, its text remembered); a role card held
        in this step heads it -- and its later edits -- so the card costs no message of its
        own (the message is then protected from forwarding, as the card is)."""
        card = (g.refs.get("cards") or {}).pop(uid, None)
        kw = {}
        if card is not None:
            text, kw = card + JOIN + text, {"protect_content": True}
        self.keep(g, key, self.dm(uid, text, markup, **kw))
        if card is not None:
            g.ui["head:" + key] = card
        self.out.remember(g, key, text, markup)

    def announce(self, g: Live, text: str) -> None:
        """A plain group announcement; inside a step held to head the next standing message.
        An answer to a command (a reply) goes out at once."""
        if not g.refs.get("stepping") or self._replying(g):
            self.out.group(g, text)
            return
        g.refs.setdefault("heads", []).append(text)

    def flush_announcements(self, g: Live) -> None:
        heads = g.refs.pop("heads", None)
        if heads:
            self.out.group(g, JOIN.join(heads))

    def group(self, g: Live, text: str, markup: Markup = None, **kw: Any
              ) -> asyncio.Future[Any]:
        """Send to the group, after the step's held announcements (the order stays)."""
        self.flush_announcements(g)
        return self.out.group(g, text, markup, **kw)

    def standing(self, g: Live, key: str, text: str, markup: Markup, **kw: Any
                 ) -> asyncio.Future[Any]:
        """Send the standing message ``key`` (kept, its shown text remembered); the step's held
        announcements head it (and its later edits)."""
        heads = g.refs.pop("heads", None)
        head = JOIN.join(heads) if heads else None
        if head:
            if self.out.on_group_text is not None:  # the onlookers' copy of the announcements
                self.out.on_group_text(g, head)
            text = head + JOIN + text
        fut = self.out.group(g, text, markup, **kw)
        self.keep(g, key, fut)
        if head:
            g.ui["head:" + key] = head
        self.out.remember(g, key, text, markup)
        return fut

    def _replying(self, g: Live) -> bool:
        from ...ui.replies import reply_kwargs

        return bool(reply_kwargs(g.chat_id))

    # --- edits ---------------------------------------------------------------------------------
    def edit(self, g: Live, key: str, chat_id: int, text: str, markup: Markup = None) -> None:
        """Edit the kept message ``key`` (its head kept); nothing when it already shows this."""
        head = g.ui.get("head:" + key)
        if head:
            text = head + JOIN + text
        g.refs.pop("live:" + key, None)  # this edit shows the latest state
        g.ui.pop("held:" + key, None)
        self.out.edit(g, key, chat_id, text, markup)

    def close(self, g: Live, key: str, chat_id: int, markup: Markup = None) -> None:
        """The kept message ``key`` loses its keyboard (``markup``: the buttons it keeps, e.g.
        the Mini App's) -- unless it shows exactly that already."""
        ref = self.ref(g, key)
        if ref is None or isinstance(ref, (dict, list)):
            return
        dumped = markup.model_dump_json() if markup is not None else None
        shown = g.refs.get("shown:" + key)
        if shown is not None and shown[1] == dumped:
            return
        if shown is not None:
            g.refs["shown:" + key] = (shown[0], dumped)
        self.sender.edit_markup(chat_id, ref, markup)

    def live_edit(self, g: Live, key: str, text: str, markup: Markup, *, stored: bool = False) -> None:
        """Edit the live group message ``key`` at most once per :data:`LIVE_GAP` seconds.
        ``stored``: a held change is also noted in ``g.ui["held:<key>"]`` (persisted), for the
        game's ``restarted`` to show it after a restart; any edit of ``key`` clears the note."""
        now = self.clock()
        last = g.refs.get("edited:" + key)
        if last is None or (now - last).total_seconds() >= LIVE_GAP:
            g.refs["edited:" + key] = now
            self.edit(g, key, g.chat_id, text, markup)
            return
        first = "live:" + key not in g.refs
        g.refs["live:" + key] = (text, markup, g.state.phase_seq if g.state else None)
        if stored and not g.ui.get("held:" + key):
            g.ui["held:" + key] = True
            if self.on_ui_change is not None:
                self.on_ui_change(g)
        if first:  # a job on the deadlines' clock (Presenter.arm_clock)
            wait = max(LIVE_GAP - (now - last).total_seconds(), 0.1)
            self.out.arm_clock(g, "live:" + key, now + timedelta(seconds=wait), self._live_due,
                               g, key)

    def drop_live(self, g: Live, key: str) -> None:
        """Forget a held edit of ``key`` (its message was closed by a plain edit)."""
        g.refs.pop("live:" + key, None)
        g.ui.pop("held:" + key, None)

    def flush_live(self, g: Live) -> None:
        """Show the held live edits whose gap has passed (called after every step)."""
        for key in [k[5:] for k in g.refs if isinstance(k, str) and k.startswith("live:")]:
            last = g.refs.get("edited:" + key)
            if last is None or (self.clock() - last).total_seconds() >= LIVE_GAP:
                self._show_live(g, key)

    async def _live_due(self, g: Live, key: str) -> None:
        self._live_timer(g, key)

    def _live_timer(self, g: Live, key: str) -> None:
        held = g.refs.get("live:" + key)
        st = g.state
        if held is None or st is None or st.phase_seq != held[2] or st.over:
            g.refs.pop("live:" + key, None)
            return
        self._show_live(g, key)

    def _show_live(self, g: Live, key: str) -> None:
        held = g.refs.pop("live:" + key, None)
        if held is None:
            return
        g.refs["edited:" + key] = self.clock()
        self.edit(g, key, g.chat_id, held[0], held[1])
