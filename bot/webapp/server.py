"""The Mini App's HTTP side on the bot's own aiohttp server (docs/miniapp.md):

* ``GET  /webapp/``                      the page (``static/index.html``), ``/webapp/static/*``
* ``GET  /webapp/api/table?g=<game>``    the viewer's table (JSON) and a stream ``ticket``
* ``GET  /webapp/api/stream?g=<game>&ticket=<ticket>[&lang=<code>]``  server-sent events:
  ``table`` (the same JSON) at once and after a stored command that changed the viewer's own
  table (nothing else: no timing of hidden actions); a comment line every 25 s
* ``POST /webapp/api/act``               ``{"g", "a", "t", "s"}`` -> ``{"ok", "text"[, "url"]}``
* ``POST /webapp/api/sheet``             ``{"g", "a", "t"}`` -> ``{"ok", "text", "sheet"}``: the
  judge's press on a finished game's score sheet (:mod:`.sheet`; 403 for anybody else)
* ``GET  /webapp/tournament?t=<id>``     a tournament's pages (``static/tournament.html``), their
  API under ``/webapp/api/tournament`` (:mod:`.tournament_api`)

The table and act requests carry the Mini App's ``initData`` (``Authorization: tma
<initData>``): 401 when it is missing, forged or older than 24 h; 403 for a game that is not the
user's nor his group's; 404 for no game. ``g`` may be left out: then the ``start_param`` the
group's link carried (``g<id>``), else the user's running game. The stream (``EventSource``
sends no headers) takes the 5-minute ticket the table answer carries instead (:mod:`.auth`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from aiohttp import web

from ..games.spec import Viewer
from ..ui.i18n import N_
from . import redact, tournament_api
from .auth import Unauthorized, check_ticket, init_data_of, make_ticket, verify
from .service import NoAccess, WebApp
from .sheet import sheet_of
from .streams import END, RECHECK, TooMany
from .texts import Gettext

logger = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
#: seconds between the stream's keep-alive comments
KEEPALIVE = 25.0
WEBAPP_KEY = web.AppKey("mafia_webapp", WebApp)
TOKEN_KEY = web.AppKey("mafia_webapp_token", str)


PAGE_KEY = web.AppKey("mafia_webapp_page", str)
#: the tournament's pages (schedule, standings, my games: :mod:`.tournament_api`)
TOUR_PAGE_KEY = web.AppKey("mafia_webapp_tournament_page", str)
#: the user's name from initData (for a join from the page), kept on the request
NAME_KEY = web.RequestKey("mafia_webapp_name", str)
#: initData's ``user.allows_write_to_pm`` (a join from the page needs the bot to reach him)
WRITE_KEY = web.RequestKey("mafia_webapp_write", bool)
#: the page's own scripts and styles only, Telegram's script, requests to this server
#: framed only by Telegram's web clients (web.telegram.org: /k/, /a/); the apps open it in a webview
CSP = ("default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors https://web.telegram.org https://*.web.telegram.org")


def page_html(page: str = "index.html") -> str:
    """``page`` (``index.html``, ``tournament.html``) with its script and style names versioned
    by their contents, so a Telegram client never runs yesterday's script with today's API."""
    html = (STATIC / page).read_text(encoding="utf-8")
    for name in ("app.js", "noir.js", "app.css", "tournament.js", "tournament.css"):
        version = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
        html = html.replace(f"static/{name}", f"static/{name}?v={version}")
    return html


def setup(app: web.Application, webapp: WebApp, token: str) -> None:
    """Add the page and its API to ``app`` (the bot's web server)."""
    app[WEBAPP_KEY] = webapp
    app[TOKEN_KEY] = token
    app[PAGE_KEY] = page_html()
    app[TOUR_PAGE_KEY] = page_html("tournament.html")
    redact.install()  # the stream's ticket and initData stay out of aiohttp's logs
    app.router.add_get("/webapp/", page)
    app.router.add_get("/webapp/tournament", page)
    tournament_api.setup(app, webapp, token)
    app.router.add_get("/webapp", to_page)
    app.router.add_static("/webapp/static/", STATIC)
    app.router.add_get("/webapp/api/table", table)
    app.router.add_get("/webapp/api/stream", stream)
    app.router.add_post("/webapp/api/act", act)
    app.router.add_post("/webapp/api/sheet", sheet)
    app.on_shutdown.append(_close_streams)


async def _close_streams(app: web.Application) -> None:
    app[WEBAPP_KEY].close_streams()


async def to_page(request: web.Request) -> web.Response:
    raise web.HTTPFound("/webapp/" + (f"?{request.query_string}" if request.query_string else ""))


async def page(request: web.Request) -> web.Response:
    html = request.app[TOUR_PAGE_KEY if request.path.endswith("/tournament") else PAGE_KEY]
    return web.Response(text=html, content_type="text/html",
                        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP,
                                 "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "no-referrer"})


def _error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)


def _game_param(value: str | None, start_param: str | None) -> int | None:
    """The game id asked for: ``g=<id>``, else the link's ``start_param`` ``g<id>``."""
    raw = value or ""
    if not raw and start_param and start_param.startswith("g"):
        raw = start_param[1:]
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:  # "²".isdigit() is True
        raise NoAccess(missing=True)
    return int(raw)


#: the page's words for a refused request (the status -> msgid)
REFUSALS = {401: N_("Open this page from the bot's button."),
            403: N_("Only the game's players and the group's members see this table."),
            404: N_("You are not in a running game."),
            413: N_("This request is too large."),
            429: N_("Too many open pages of this game; close one and try again.")}
#: a press the game's worker did not answer in time (many workers; nothing was applied)
UNAVAILABLE = N_("The game did not answer in time; nothing was done. Please try again.")
#: ... taken by the game's worker, which fell silent (it may have been applied)
UNKNOWN = N_("The game did not answer in time. Look at the table before you try again.")
#: a press on a score sheet the game has not (yet)
NO_SHEET = N_("This game has no score sheet.")


def _refused(cls: type[web.HTTPException], reason: str, _: Gettext) -> web.HTTPException:
    """``cls`` (an aiohttp HTTP error) with ``{"error": reason, "text": <for the user>}``."""
    body = {"error": reason, "text": _(REFUSALS[cls.status_code])}
    return cls(text=json.dumps(body, ensure_ascii=False), content_type="application/json")


def _language(request: web.Request) -> str | None:
    """The ``language_code`` of the request's initData when it is genuine, else None."""
    try:
        data = verify(request.app[TOKEN_KEY], init_data_of(request.headers),
                      request.app[WEBAPP_KEY].service.clock())
    except Unauthorized:
        return None
    return data.user.language_code if data.user is not None else None


async def _resolve(request: web.Request, wanted: str | None, *, ticket: bool = False
                   ) -> tuple[WebApp, Any, Viewer, int]:
    """(webapp, live game, viewer, user id) of an API request (``ticket``: authenticated by a
    stream ticket instead of ``initData``). Raises web errors."""
    webapp = request.app[WEBAPP_KEY]
    token, now = request.app[TOKEN_KEY], webapp.service.clock()
    # the refusals' language: initData's ``language_code``; the stream (no initData) has the
    # page's ``lang`` parameter -- it only picks the words of a refusal
    lang = (request.query.get("lang", "")[:8] or None) if ticket else None
    try:
        if ticket:
            game_id = _game_param(wanted, None)
            if game_id is None:
                raise Unauthorized("bad ticket")
            uid = check_ticket(token, request.query.get("ticket", ""), game_id, now)
        else:
            data = verify(token, init_data_of(request.headers), now)
            user = data.user
            if user is None:  # verify() refuses it already; for the type checker
                raise Unauthorized("no user")
            uid, lang = user.id, user.language_code
            request[NAME_KEY] = " ".join(x for x in (user.first_name, user.last_name)
                                         if x).strip() or user.username or str(uid)
            request[WRITE_KEY] = bool(user.allows_write_to_pm)
            game_id = _game_param(wanted, data.start_param)
    except Unauthorized as exc:
        raise _refused(web.HTTPUnauthorized, str(exc), webapp.tr.get(lang)) from None
    except NoAccess:
        raise _refused(web.HTTPNotFound, "no such game", webapp.tr.get(lang)) from None
    try:
        g = await webapp.game_of(uid, game_id)
        viewer = await webapp.viewer(g, uid)
    except NoAccess as exc:
        cls = web.HTTPNotFound if exc.missing else web.HTTPForbidden
        raise _refused(cls, str(exc), webapp.tr.get(lang)) from None
    return webapp, g, viewer, uid


async def table(request: web.Request) -> web.Response:
    webapp, g, viewer, uid = await _resolve(request, request.query.get("g"))
    data = await webapp.table(g, viewer)
    data["ticket"] = make_ticket(request.app[TOKEN_KEY], uid, g.id, webapp.service.clock())
    return web.json_response(data, headers={"Cache-Control": "no-store"})


def _no_constant(name: str) -> None:
    raise ValueError(f"not JSON: {name}")


def _strict_loads(text: str) -> Any:
    """``json.loads`` without Python's extensions ``NaN``, ``Infinity``, ``-Infinity`` (not
    JSON; ``int(Infinity)`` would raise ``OverflowError``): a ``ValueError`` like any bad body."""
    return json.loads(text, parse_constant=_no_constant)


async def _body(request: web.Request) -> dict | web.Response:
    """The request's JSON object, or the error answer (400 not a JSON object, 413)."""
    try:
        body = await request.json(loads=_strict_loads)
    except web.HTTPRequestEntityTooLarge:  # aiohttp's own answer is plain text
        _ = request.app[WEBAPP_KEY].tr.get(_language(request))
        return web.json_response({"error": "too large", "text": _(REFUSALS[413])}, status=413)
    except (ValueError, UnicodeDecodeError):
        return _error(400, "bad json")
    return body if isinstance(body, dict) else _error(400, "bad json")


async def act(request: web.Request) -> web.Response:
    body = await _body(request)
    if isinstance(body, web.Response):
        return body
    webapp, g, _viewer, uid = await _resolve(request, str(body.get("g", "") or ""))
    answer = await webapp.perform(g, uid, body, request.get(NAME_KEY),
                                  request.get(WRITE_KEY, False))
    _ = webapp.tr.get(g.locale)
    if answer["status"] == 503:  # many workers: the game's worker did not answer
        text = _(UNKNOWN if answer.get("unknown") else UNAVAILABLE)
        return web.json_response({"error": "unavailable", "text": text}, status=503,
                                 headers={"Retry-After": "2"})
    if answer["status"] == 404:
        return web.json_response({"error": "no such game", "text": _(REFUSALS[404])},
                                 status=404)
    if answer["status"] != 200:
        return _error(answer["status"], "failed")
    return web.json_response(answer["body"])


async def sheet(request: web.Request) -> web.Response:
    """The judge's press on a finished game's score sheet (:mod:`.sheet`): ``{"g", "a", "t"}``
    -> ``{"ok", "text", "sheet"}`` (the sheet as he sees it now). 403 ``not the judge`` for
    anybody but the sheet's judge; 404 ``no sheet`` (a running game, a game without one, a
    code the page has not)."""
    body = await _body(request)
    if isinstance(body, web.Response):
        return body
    webapp, g, _viewer, uid = await _resolve(request, str(body.get("g", "") or ""))
    _ = webapp.tr.get(g.locale)
    try:
        code, seat = str(body.get("a", "")), int(body.get("t", 0))
    except (TypeError, ValueError, OverflowError):
        return _error(400, "bad press")
    if webapp.sheets is None or not g.state.over:
        return web.json_response({"error": "no sheet", "text": _(NO_SHEET)}, status=404)
    status, text = await webapp.sheets.act(g.id, uid, code, seat)
    if status == "denied":
        return web.json_response({"error": "not the judge", "text": text}, status=403)
    if status != "ok":
        return web.json_response({"error": "no sheet", "text": text or _(NO_SHEET)}, status=404)
    return web.json_response({"ok": True, "text": text,
                              "sheet": await sheet_of(webapp.sheets, _, g.locale, g.id, uid)},
                             headers={"Cache-Control": "no-store"})


async def stream(request: web.Request) -> web.StreamResponse:
    """Server-sent events: the viewer's table now and whenever a stored command changed it;
    the viewer's right is re-checked at every wake-up and keep-alive (a member who left the
    group is refused from then on); a finished game's stream sends its last table, then an
    ``end`` event, and closes. 429 when the game has its cap of streams here (:mod:`.streams`)."""
    webapp, g, viewer, uid = await _resolve(request, request.query.get("g"), ticket=True)
    game_id = g.id
    try:
        sub = webapp.open_stream(g, uid)
    except TooMany:
        lang = request.query.get("lang", "")[:8] or None
        raise _refused(web.HTTPTooManyRequests, "too many streams", webapp.tr.get(lang)) \
            from None
    q = sub.queue
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                       "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    try:
        await webapp.follow(game_id)  # many workers: before the first table is read
        if webapp.relay is not None:  # ... which may be older than the subscription
            g = await webapp.load(game_id)
            viewer = await webapp.viewer(g, uid)
        await resp.prepare(request)
        sent = await _send(resp, await webapp.stream_view(g, viewer), None)
        shown = g.state.commands  # the log's length the viewer's table is of
        while not g.state.over:
            try:
                seq = await asyncio.wait_for(q.get(), KEEPALIVE)
            except TimeoutError:
                await resp.write(b": keep-alive\n\n")
                seq = RECHECK  # his right again; many workers: a lost notice is caught up
            told = [seq]
            while not q.empty():  # several commands at once: one table
                told.append(q.get_nowait())
            if END in told:
                break
            if RECHECK not in told and max(t for t in told if t is not None) <= shown:
                continue  # told twice (here, through Redis)
            g = await webapp.load(game_id)
            viewer = await webapp.viewer(g, uid)  # eliminated: sees less; left: NoAccess
            sent = await _send(resp, await webapp.stream_view(g, viewer), sent)
            shown = g.state.commands
        if g.state.over:
            await resp.write(b"event: end\ndata: {}\n\n")
    except (ConnectionResetError, NoAccess, KeyError):  # gone, or lost his access
        pass
    finally:
        webapp.close_stream(sub)
        await asyncio.shield(webapp.unfollow(game_id))  # even when the request is cancelled
    return resp


async def _send(resp: web.StreamResponse, view: tuple[str, bytes], sent: str | None) -> str:
    """Write ``view`` (:meth:`WebApp.stream_view`: fingerprint, event) unless it is the table
    last ``sent`` to this viewer (its fingerprint): a viewer learns of a command only when his
    own table changed -- an onlooker cannot count or time the night's hidden actions (a mafioso
    re-picking, the Commissar checking). Returns the fingerprint of what he has."""
    stable, event = view
    if stable != sent:
        await resp.write(event)
    return stable


__all__ = ["setup", "WEBAPP_KEY"]
