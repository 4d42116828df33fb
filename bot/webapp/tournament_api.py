"""The tournament pages' HTTP side (issue 22 item 6; docs/miniapp.md "Tournaments"):

* ``GET /webapp/api/tournament?t=<id>``            schedule, standings and the viewer's games
* ``GET /webapp/api/tournament/<part>?t=<id>``     one of them (``schedule``, ``standings``,
  ``mine``; the shape in :mod:`.tournament`)
* ``GET /webapp/api/tournament/export?t=<id>&f=json|csv&ticket=<ticket>``  the export's files
  (the same as ``/tournament export``) for an organiser; the link carries a 5-minute ticket
  (scope ``export``) instead of ``initData``, which never goes into a URL

The API requests carry the Mini App's ``initData`` (``Authorization: tma <initData>``): 401
without it. ``t`` may be left out when the link's ``start_param`` is ``t<id>``. A ``t`` that is
not ASCII digits (or longer than 18): 400; no such tournament (or none given): 404; a user in
none of its groups (home or linked tables): 403. Every refusal is JSON ``{"error", "text"}``,
worded in the user's ``language_code``.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from ..handlers import tournament_texts as tx
from ..handlers.tournament_tables import gettext_for
from ..ui.i18n import N_
from .auth import Unauthorized, check_ticket, init_data_of, make_ticket, verify
from .service import WebApp
from .tournament import PARTS, may_export, may_see, tournament_json

REFUSALS = {400: N_("No such tournament."),
            401: N_("Open this page from the bot's button."),
            403: N_("Only the members of the tournament's groups see its pages."),
            404: N_("No such tournament.")}
#: the export's ticket scope (a stream ticket opens no export, nor the other way round)
SCOPE = "export"


class BadId(Exception):
    """``t`` is not a tournament id (400)."""


def tournament_param(value: str | None, start_param: str | None) -> int | None:
    """The tournament asked for: ``t=<id>``, else the link's ``start_param`` ``t<id>``; None:
    none given. Raises :class:`BadId` for anything but 1..18 ASCII digits."""
    raw = value if value is not None else ""
    if not raw and start_param and start_param.startswith("t"):
        raw = start_param[1:]
    if value is None and not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:  # "²".isdigit() is True
        raise BadId(raw)
    return int(raw)


class TournamentRoutes:
    """The routes' handlers over ``webapp`` (its ``tournaments`` service) and the bot's
    ``token`` (initData and the export tickets)."""

    def __init__(self, webapp: WebApp, token: str) -> None:
        self.webapp, self.token = webapp, token

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/webapp/api/tournament", self.whole)
        app.router.add_get("/webapp/api/tournament/export", self.export)
        app.router.add_get("/webapp/api/tournament/{part}", self.part)

    def _refused(self, status: int, reason: str, lang: str | None) -> web.Response:
        _ = self.webapp.tr.get(lang)
        return web.json_response({"error": reason, "text": _(REFUSALS[status])}, status=status,
                                 headers={"Cache-Control": "no-store"})

    async def _resolve(self, request: web.Request) -> tuple[Any, dict[int, int], int] | web.Response:
        """(tournament, its tables, user id) of an API request, or the refusal."""
        now = self.webapp.service.clock()
        try:
            data = verify(self.token, init_data_of(request.headers), now)
        except Unauthorized as exc:
            return self._refused(401, str(exc), None)
        user = data.user
        if user is None:  # verify() refuses it already; for the type checker
            return self._refused(401, "no user", None)
        lang = user.language_code
        try:
            tid = tournament_param(request.query.get("t"), data.start_param)
        except BadId:
            return self._refused(400, "bad tournament id", lang)
        storage = self.webapp.service.storage
        t = None if tid is None or tid >= 2**63 else await storage.get_tournament(tid)
        if t is None or self.webapp.tournaments is None:
            return self._refused(404, "no such tournament", lang)
        tables = await storage.tournament_tables(t.id)
        if not await may_see(self.webapp, t, tables, user.id):
            return self._refused(403, "not a member", lang)
        return t, tables, user.id

    async def _answer(self, request: web.Request, parts: tuple[str, ...]) -> web.Response:
        got = await self._resolve(request)
        if isinstance(got, web.Response):
            return got
        t, tables, uid = got
        locale, _ = await gettext_for(self.webapp.service.storage, self.webapp.tr, t.chat_id)
        links = None
        if await may_export(self.webapp, t, uid):
            ticket = make_ticket(self.token, uid, t.id, self.webapp.service.clock(), SCOPE)
            links = {f: f"api/tournament/export?t={t.id}&f={f}&ticket={ticket}"
                     for f in ("json", "csv")}
        data = await tournament_json(self.webapp, _, locale, t, tables, uid, parts, links)
        return web.json_response(data, headers={"Cache-Control": "no-store"})

    async def whole(self, request: web.Request) -> web.Response:
        return await self._answer(request, PARTS)

    async def part(self, request: web.Request) -> web.Response:
        part = request.match_info["part"]
        if part not in PARTS:
            return web.json_response({"error": "no such part"}, status=404)
        return await self._answer(request, (part,))

    async def export(self, request: web.Request) -> web.Response:
        """The export's file for the organiser the ticket was made for (checked again)."""
        lang = request.query.get("lang", "")[:8] or None
        fmt = request.query.get("f", "")
        try:
            tid = tournament_param(request.query.get("t", ""), None)
        except BadId:
            return self._refused(400, "bad tournament id", lang)
        if tid is None or fmt not in ("json", "csv"):
            return self._refused(400, "bad request", lang)
        try:
            uid = check_ticket(self.token, request.query.get("ticket", ""), tid,
                               self.webapp.service.clock(), SCOPE)
        except Unauthorized as exc:
            return self._refused(401, str(exc), lang)
        service = self.webapp.tournaments
        t = None if service is None else await self.webapp.service.storage.get_tournament(tid)
        if t is None:
            return self._refused(404, "no such tournament", lang)
        if not await may_export(self.webapp, t, uid):
            return self._refused(403, "not the organiser", lang)
        if fmt == "json":
            body = json.dumps(await service.export(t), ensure_ascii=False, indent=1).encode()
            name, kind = f"tournament-{t.id}.json", "application/json"
        else:
            body = tx.standings_csv(await service.standings(t))
            name, kind = f"tournament-{t.id}-standings.csv", "text/csv"
        return web.Response(body=body, content_type=kind, charset="utf-8", headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


def setup(app: web.Application, webapp: WebApp, token: str) -> None:
    """Add the tournament pages' API to ``app`` (the Mini App's server)."""
    TournamentRoutes(webapp, token).add_to(app)


__all__ = ["REFUSALS", "TournamentRoutes", "setup", "tournament_param"]
