"""The Mini App's application side: who a user is to a game (host, player, onlooker; judge or
not), his table as JSON (filtered on the server), his presses run through the game's codec --
the same path, checks, log and refusals as a button press (``bot/handlers/game.py``) -- and the
live streams' wake-ups after every stored command (``GameService.listeners``)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Hashable, Sequence
from typing import Any

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from pydantic import ValidationError

from engine import IllegalCommand
from engine.core.game import game_of

from ..games import bot_game
from ..games.spec import Press, Viewer
from ..handlers.common import is_chat_admin, is_group_member, may_manage, refusal
from ..handlers.lobby import join_lobby, lobby_press
from ..presentation.views import timings_text
from ..services.game_service import NotOwner
from ..ui.callbacks import Act
from ..ui.i18n import N_
from ..ui.timings import timing_labels
from .log import EventLog, visible
from .sheet import sheet_of
from .streams import Stream, Streams, ViewCache
from .texts import CONFIRMS, JUDGE_WORDS, Gettext, page_texts

#: the codecs' own refusals (answered, nothing changed): the page shows them as failures
REFUSED = (N_("This button is out of date."), N_("You can't choose that now."),
           N_("You can't choose that cell now."), N_("You can't choose that player now."),
           N_("The game is paused."))
logger = logging.getLogger(__name__)
#: seconds a group's answer "is he an admin / a member" is trusted; a leave or a join the bot
#: sees (``left_chat_member``, ``chat_member``: :meth:`WebApp.membership_changed`) acts at once
MEMBERSHIP_TTL = 120
#: a table's fields that change without anything in it changing (the server's clock)
VOLATILE = ("now",)


class NoAccess(Exception):
    """The user may not see this game (HTTP 403), or there is no such game (HTTP 404:
    ``missing``)."""

    def __init__(self, missing: bool = False) -> None:
        super().__init__("no such game" if missing else "not your game")
        self.missing = missing


class WebApp:
    """``service``: the GameService; ``presenter``: the shared Presenter (``game(ruleset)``);
    ``tr``: the Translator; ``bot``: for the group-membership and admin checks; ``url``: the
    public HTTPS base URL the page is served under (``WEBAPP_URL``)."""

    def __init__(self, service: Any, presenter: Any, tr: Any, bot: Bot, url: str) -> None:
        self.service = service
        self.presenter = presenter
        self.tr = tr
        self.bot = bot
        self.url = url.rstrip("/")
        self.log = EventLog(service.storage)
        self.streams = Streams()
        self.views = ViewCache()
        self._members: dict[tuple[str, int, int], tuple[float, bool]] = {}
        #: many workers (issue 12): the :class:`bot.cluster.miniapp.MiniAppRelay` reading,
        #: streaming and acting on the games another worker serves; None: one process
        self.relay: Any = None
        #: the score sheets (:class:`bot.history.sheets.SheetService`): a finished sport game's
        #: table carries its sheet (:mod:`.sheet`); None: none shown
        self.sheets: Any = None
        #: the tournaments (:class:`bot.services.tournaments.TournamentService`): their pages
        #: (:mod:`.tournament`); None: not served
        self.tournaments: Any = None

    # --- who looks ---------------------------------------------------------------------------
    async def _member(self, kind: str, chat_id: int, user_id: int) -> bool:
        key = (kind, chat_id, user_id)
        hit = self._members.get(key)
        if hit is not None and time.monotonic() - hit[0] < MEMBERSHIP_TTL:
            return hit[1]
        check = is_chat_admin if kind == "admin" else is_group_member
        ok = await check(self.bot, chat_id, user_id)
        self._members[key] = (time.monotonic(), ok)
        return ok

    async def in_group(self, chat_id: int, user_id: int, *, admin: bool = False) -> bool:
        """Whether ``user_id`` is a member (``admin``: an admin) of the group ``chat_id``:
        the game page's check, its answer trusted :data:`MEMBERSHIP_TTL` seconds."""
        return await self._member("admin" if admin else "member", chat_id, user_id)

    async def viewer(self, g: Any, user_id: int) -> Viewer:
        """What ``user_id`` is to the game ``g``. Raises :class:`NoAccess` for a user who is
        neither in the game nor in its group."""
        st = g.state
        if st is None:
            raise NoAccess(missing=True)
        codec = bot_game(st.ruleset).codec
        judge = user_id == st.host or (st.host is None and bool(codec.JUDGE) and not st.over
                                       and await self._member("admin", g.chat_id, user_id))
        if user_id == st.host:
            return Viewer(user_id, "host", judge=True)
        p = st.players.get(user_id)
        if p is not None and not st.over and (getattr(p, "alive", True)
                                              or not getattr(p, "seat", 0)):
            return Viewer(user_id, "player", judge=judge)
        if p is None and not await self._member("member", g.chat_id, user_id):
            raise NoAccess()
        return Viewer(user_id, "onlooker", judge=judge)

    async def game_of(self, user_id: int, wanted: int | None) -> Any:
        """The live game ``wanted`` (or, None, the user's running game). Raises NoAccess."""
        game_id = wanted if wanted is not None else await self.service.game_for_user(user_id)
        if game_id is None:
            raise NoAccess(missing=True)
        try:
            return await self.load(game_id)
        except KeyError:
            raise NoAccess(missing=True) from None

    async def load(self, game_id: int) -> Any:
        """The game: live where this worker serves it, else (many workers) read-only from the
        store (``relay.snapshot``: ``read_only``, never changed here). Raises ``KeyError``."""
        try:
            return await self.service.live(game_id)
        except NotOwner:
            if self.relay is None:
                raise
            return await self.relay.snapshot(game_id)

    # --- the table ---------------------------------------------------------------------------
    async def table(self, g: Any, viewer: Viewer) -> dict[str, Any]:
        """The table of ``g`` as ``viewer`` may see it: the game's view (``BotGame.webapp``)
        of the state and of the events he was shown, his buttons, the clock (``deadline``: Unix
        seconds, the page counts down), the page's texts in the game's language."""
        st = g.state
        _ = self.tr.get(g.locale)
        out: dict[str, Any] = {
            "game": g.id, "ruleset": st.ruleset, "locale": g.locale,
            "viewer": {"kind": viewer.kind, "judge": viewer.judge},
            "now": self.service.clock().timestamp(), "deadline": None,
            "texts": page_texts(_),
        }
        timer = getattr(st, "timer", None)
        paused = getattr(st, "pause", None) or getattr(st, "paused", None)  # NOIR: ``paused``
        if timer is not None and g.deadline is not None and not paused:
            out["deadline"] = g.deadline.timestamp()
            out["seconds"] = timer.seconds
        if viewer.judge:  # the timings; a running turn's clock: the console's buttons (club)
            out["timings"] = self.timings(_, st)
        view = bot_game(st.ruleset).webapp
        if game_of(st).status(st) == "lobby":  # join / leave / start from the page
            out["lobby"] = {"players": [p.name for p in st.players.values()],
                            "joined": viewer.user_id in st.players,
                            "host": st.host_name if st.host is not None else None}
            out["table"] = None
            out["buttons"] = await self.lobby_buttons(_, g, viewer)
            return out
        if view is None:  # a game with no live table yet: the public basics only
            out["table"] = None
            out["buttons"] = []
            return out
        if st.over and self.sheets is not None:  # the score sheet (issue 21)
            out["sheet"] = await sheet_of(self.sheets, _, g.locale, g.id, viewer.user_id)
        events = visible(await self.log.events(g.id, st.commands), viewer)
        out["table"] = view.table(_, st, viewer, events, g)
        phase_bound = bot_game(st.ruleset).codec.PHASE_BOUND
        out["buttons"] = [] if st.over else [  # a view may stamp its own (NOIR: its step)
            self.worded(_, st, {**b, "s": b["s"] if "s" in b else
                                st.phase_seq if b["a"] in phase_bound else 0})
            for b in view.buttons(_, st, viewer, g)]
        return out

    @staticmethod
    def worded(_: Gettext, st: Any, button: dict[str, Any]) -> dict[str, Any]:
        """``button`` with the judge's words (``title``: "Foul: №3 Anna", for the page's title
        and aria-label; the console shows the icon) and, for a disqualification, ``confirm``:
        the question the page asks before sending it (nothing takes it back)."""
        code, seat = button.get("a"), button.get("t")
        if code not in JUDGE_WORDS or not seat:
            return button
        try:
            name = st.by_seat(seat).name
        except (KeyError, AttributeError):
            name = ""
        button["title"] = _(JUDGE_WORDS[code]).format(seat=seat, name=name).strip()
        if code in CONFIRMS:
            button["confirm"] = _(CONFIRMS[code]).format(seat=seat, name=name)
        return button

    async def lobby_buttons(self, _: Gettext, g: Any, viewer: Viewer) -> list[dict]:
        """The lobby's buttons (kind 'lobby', ``s`` 0): «Join» for a group member not in it,
        «Leave» for a player, «Start» for whoever may start it (the organiser, the host, a
        group admin) -- the lobby message's own buttons (``bot/handlers/lobby.py``)."""
        st = g.state
        joined = viewer.user_id in st.players or viewer.user_id == st.host
        out = [{"a": "leave", "t": 0, "s": 0, "label": _("➖ Leave"), "kind": "lobby"} if joined
               else {"a": "join", "t": 0, "s": 0, "label": _("➕ Join"), "kind": "lobby"}]
        if await may_manage(self.bot, g.chat_id, viewer.user_id, st):
            out.append({"a": "start", "t": 0, "s": 0, "label": _("▶️ Start"), "kind": "lobby"})
        return out

    @staticmethod
    def timings(_: Gettext, st: Any) -> dict[str, Any]:
        """The judge's timings (docs/miniapp.md; the club's judge moves a running turn's clock
        with his console's buttons, CLUB-X18..X20): ``all`` the game's durations
        ("speech 60 s · defence 30 s · …"), ``current`` the running timer's ("speech 60 s") or
        None (a kind without a name, a pause, no timer)."""
        timer = getattr(st, "timer", None)
        label = timing_labels(_).get(timer.kind) if timer is not None else None
        return {"all": timings_text(_, st.timings, st.ruleset),
                "current": label.format(n=timer.seconds) if label and timer is not None
                else None}

    # --- acting ------------------------------------------------------------------------------
    async def act(self, g: Any, user_id: int, data: dict, name: str | None = None,
                  writable: bool = False) -> dict[str, Any]:
        """Run one press from the page: ``data`` = {a: code, t: seat (0), s: phase_seq (0),
        d: the draft's tag the button was drawn for (optional; views with ``draft_tag``)}.
        The same checks as a button (``bot/handlers/game.py``): a finished game, a stale phase
        ("This button is out of date."), the judge's codes (host, or a group admin without
        one: CLUB-41, CLUB-Q08), then the codec and the engine; in the lobby, the lobby's
        ``join`` (``name``: the user's name from initData) / ``leave`` / ``start`` as the deep
        link and the lobby buttons do (:meth:`lobby_act`; ``writable``: initData's
        ``allows_write_to_pm``). Returns {ok, text} (and ``url`` for a join refused because the
        bot cannot write to him): ``text`` the answer a button press gets; ``ok`` False when it
        was refused before or by the engine (nothing stored)."""
        st = g.state
        _ = self.tr.get(g.locale)
        try:
            press_data = Act(g=g.id, s=int(data.get("s", 0)), a=str(data.get("a", "")),
                             t=int(data.get("t", 0)))
            press_data.pack()  # what a button could carry: ≤ 64 bytes, no ':' in the code
        except (ValidationError, TypeError, ValueError, OverflowError):  # int(1e999) overflows
            return {"ok": False, "text": _("This button is out of date.")}
        if st is None or st.over:
            return {"ok": False, "text": _("This game is over.")}
        if game_of(st).status(st) == "lobby":
            return await self.lobby_act(g, user_id, press_data.a, name, writable)
        if press_data.a == "start":  # a stale «Start» of the lobby: as the lobby answers it
            return {"ok": False, "text": _("This game has already started or ended.")}
        game = bot_game(st.ruleset)
        codec = game.codec
        if press_data.a in codec.PHASE_BOUND and press_data.s != st.phase_seq:
            return {"ok": False, "text": _("This button is out of date.")}
        tag, view = data.get("d"), game.webapp
        if tag is not None and hasattr(view, "draft_tag") \
                and str(tag) != view.draft_tag(g, user_id):  # drawn for another draft (NOIR)
            return {"ok": False, "text": _("This button is out of date.")}
        if press_data.a in codec.JUDGE and st.host is None \
                and not await self._member("admin", g.chat_id, user_id):
            return {"ok": False, "text": _("Only the host or a group admin can give fouls.")}
        press = Press(g=g, user_id=user_id, data=press_data, st=st, service=self.service,
                      presenter=self.presenter.game(st.ruleset), _=_)
        try:
            text = await codec.run(press)
            return {"ok": text not in {_(m) for m in REFUSED}, "text": text}
        except IllegalCommand as exc:
            return {"ok": False, "text": refusal(self.tr, g.locale, exc)}

    async def perform(self, g: Any, user_id: int, data: dict, name: str | None = None,
                      writable: bool = False) -> dict[str, Any]:
        """:meth:`act` where the game lives: here, or (many workers, ``g.read_only``) on the
        worker serving it (``relay.forward_act``). The answer ``{"status": 200, "body"}``;
        ``{"status": 503}`` when the game's worker did not answer in time or lost the game
        meanwhile (nothing applied: "try again"), with ``"unknown": True`` when it took the
        press and fell silent; ``{"status": 404}`` for a game gone."""
        if getattr(g, "read_only", False):
            return await self.relay.forward_act(g, user_id, data, name, writable)
        try:
            return {"status": 200, "body": await self.act(g, user_id, data, name, writable)}
        except NotOwner:  # the shard moved between reading the game and acting on it
            return {"status": 503}

    async def lobby_act(self, g: Any, user_id: int, code: str, name: str | None,
                        writable: bool = False) -> dict[str, Any]:
        """«Join», «Leave» or «Start» from the page: the deep link's and the lobby buttons'
        own path (``bot.handlers.lobby.join_lobby`` / ``lobby_press``): the same checks (a
        member of the group, one game at a time, who may start), the same engine commands.
        A join is refused (``url``: the lobby's deep link) unless the bot can write to the
        user (:meth:`can_write`): his role card goes to his private chat (PARTY-Q20)."""
        _ = self.tr.get(g.locale)
        if code == "join":
            if not await self.can_write(user_id, writable):
                link = self.presenter.deep_link(f"join_{g.id}")
                return {"ok": False, "url": link, "text": _(
                    "I can't write to you yet: open the private chat with the bot and press "
                    "«Start» ({link}), then you join the game.").format(link=link)}
            before = g.state.commands
            joined = await join_lobby(self.service, self.bot, self.tr, g, user_id,
                                      (name or str(user_id))[:64])
            return {"ok": g.state.commands > before, "text": joined}
        if code in ("leave", "start"):
            before = g.state.commands
            text, _alert = await lobby_press(self.service, self.bot, self.tr, g, user_id,
                                             g.chat_id, code)
            return {"ok": g.state.commands > before, "text": text}
        return {"ok": False, "text": _("This button is out of date.")}

    async def can_write(self, user_id: int, writable: bool) -> bool:
        """Whether the bot may send ``user_id`` a private message: his verified initData says
        so (``writable``: ``allows_write_to_pm``), else a ``sendChatAction`` to him succeeds
        (he pressed Start once, or granted write access after the page was opened). A 403 or
        400 ("chat not found") means no; any other failure (a timeout, a 5xx) lets him in."""
        if writable:
            return True
        try:
            await self.bot.send_chat_action(user_id, "typing")
        except (TelegramForbiddenError, TelegramBadRequest):
            return False
        except Exception:  # noqa: BLE001 -- Telegram is down: do not block the lobby for it
            logger.info("webapp: write check of %s failed", user_id, exc_info=True)
        return True

    # --- live --------------------------------------------------------------------------------
    def open_stream(self, g: Any, user_id: int) -> Stream:
        """A stream of the game ``g`` for ``user_id``, woken after every stored command. Raises
        :class:`.streams.TooMany` when the game has its cap of streams here; ends the user's
        oldest stream of the game when he holds his cap (:mod:`.streams`)."""
        return self.streams.open(g.id, user_id, g.chat_id)

    def close_stream(self, stream: Stream) -> None:
        self.streams.close(stream)
        if not self.streams.count(stream.game_id):
            self.views.forget(stream.game_id)

    async def follow(self, game_id: int) -> None:
        """A stream of the game opened here (after :meth:`open_stream`): with many workers,
        hear of the commands stored by the worker serving it (``relay.follow``)."""
        if self.relay is not None:
            await self.relay.follow(game_id)

    async def unfollow(self, game_id: int) -> None:
        """A stream of the game closed here (after :meth:`close_stream`)."""
        if self.relay is not None:
            await self.relay.unfollow(game_id)

    def wake(self, game_id: int, length: int) -> None:
        """Tell the game's local streams its log's ``length`` now (-1: unknown, re-read)."""
        self.streams.wake(game_id, length)

    async def on_step(self, g: Any, before: Any, after: Any, events: Sequence[Any]) -> None:
        """``GameService.listeners``: a command was stored; wake the game's streams (with many
        workers, those on every worker: ``relay.publish``). A stream shows a finished game's
        last table, then ends."""
        self.log.on_step(g, before, after, events)
        self.wake(g.id, after.commands)
        if self.relay is not None:
            self.relay.publish(g.id, after.commands)

    def membership_changed(self, chat_id: int, user_id: int, member: bool) -> None:
        """The bot saw ``user_id`` leave (``member`` False) or join the group ``chat_id``
        (``bot/handlers/private.py``): the cached answers are replaced at once, and a leaver's
        open streams of the group's games re-check his access (an onlooker's end)."""
        self._members[("member", chat_id, user_id)] = (time.monotonic(), member)
        self._members.pop(("admin", chat_id, user_id), None)
        if not member:
            self.streams.recheck_user(chat_id, user_id)

    def close_streams(self) -> None:
        """Shutting down: every open stream ends."""
        self.streams.end_all()

    @staticmethod
    def view_key(g: Any, viewer: Viewer) -> Hashable:
        """Which viewers see the same table (and buttons): a group member outside the game
        shares his view with every other such onlooker (judge or not); anyone in the game, the
        host, and everybody in a lobby (whose buttons are his own) sees his own -- with a
        multi-part choice's draft, the draft's too (NOIR, ``draft_tag``)."""
        st = g.state
        if viewer.kind == "onlooker" and viewer.user_id not in st.players \
                and game_of(st).status(st) != "lobby":
            return ("onlooker", viewer.judge)
        view = bot_game(st.ruleset).webapp
        draft = view.draft_tag(g, viewer.user_id) if hasattr(view, "draft_tag") else None
        return (viewer.kind, viewer.judge, viewer.user_id, draft)

    async def stream_view(self, g: Any, viewer: Viewer) -> tuple[str, bytes]:
        """The viewer's table as a server-sent ``table`` event: (its fingerprint but for
        :data:`VOLATILE` fields, the event's bytes), computed once per stored command for all
        the streams that show the same view (:meth:`view_key`)."""
        async def render() -> tuple[str, bytes]:
            data = await self.table(g, viewer)
            stable = json.dumps({k: v for k, v in data.items() if k not in VOLATILE},
                                ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            return stable, f"event: table\ndata: {body}\n\n".encode()

        return await self.views.get(g.id, g.state.commands, self.view_key(g, viewer), render)


__all__ = ["NoAccess", "WebApp"]
