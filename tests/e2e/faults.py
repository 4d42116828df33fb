"""Random faults of the stand-in Bot API (a mixin of :class:`tests.e2e.fake_api.FakeBotAPI`).

``api.inject_faults(rate, seed=...)`` makes each call fail, with probability ``rate``, in one of
:data:`FAULT_KINDS`; ``api.injected`` counts what was done. Times are in seconds.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web

from .model import Call
from .protocol import ApiError

BAD_GATEWAY_HTML = ("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
                    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
                    "</body>\r\n</html>\r\n")
#: what ``inject_faults`` may do to a call: answer 500 / 502 (an HTML page) / 429, close the
#: connection before the method runs ("drop") or after it ran ("drop_after": Telegram acted, the
#: bot cannot know), or hang and then close it ("hang")
FAULT_KINDS = ("500", "502_html", "429", "drop", "drop_after", "hang")


@dataclass
class _RandomFaults:
    rate: float
    kinds: tuple[str, ...]
    hang: float
    rng: random.Random
    methods: frozenset[str] | None


class RandomFaultsMixin:
    """Needs the server's ``calls``, ``_last_call_at`` and ``notify``."""

    if TYPE_CHECKING:
        calls: list[Call]
        _last_call_at: float

        async def notify(self) -> None: ...

    def __init__(self) -> None:
        self._random: _RandomFaults | None = None
        self.injected: Counter[str] = Counter()
        """Random faults injected so far, per kind (see inject_faults)."""

    # --- random faults -----------------------------------------------------------------------------

    def inject_faults(self, rate: float, *, seed: int = 0, kinds: Iterable[str] = FAULT_KINDS,
                      hang: float = 3.0, methods: Iterable[str] | None = None) -> None:
        """From now on, fail each call (of ``methods``, default every method) with probability
        ``rate`` in one of ``kinds`` (see :data:`FAULT_KINDS`), chosen by a ``seed``-ed RNG.
        ``hang`` is how long (seconds) a hanging request waits before its connection is closed.
        ``getUpdates`` only gets the faults that leave its updates queued (500, 502, 429, drop).
        ``rate=0`` stops injecting; ``injected`` counts what was done."""
        kinds = tuple(kinds)
        unknown = set(kinds) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}")
        self._random = None if rate <= 0 else _RandomFaults(
            rate, kinds, hang, random.Random(seed),
            None if methods is None else frozenset(m.lower() for m in methods))

    def _pick_fault(self, method: str) -> str | None:
        faults = self._random
        if faults is None or (faults.methods is not None and method not in faults.methods):
            return None
        if faults.rng.random() >= faults.rate:
            return None
        kinds = faults.kinds
        if method == "getupdates":
            kinds = tuple(k for k in kinds if k in ("500", "502_html", "429", "drop")) or ("500",)
        return faults.rng.choice(kinds)

    async def _inject(self, request: web.Request, method: str, call: Call,
                      fault: str) -> web.StreamResponse:
        self.injected[fault] += 1
        call.ok, call.error_code, call.description = False, 0, f"injected fault: {fault}"
        if method != "getupdates":
            self.calls.append(call)
            self._last_call_at = time.monotonic()
            await self.notify()
        if fault == "500":
            call.error_code = 500
            return web.json_response(ApiError(500, "Internal Server Error").payload(), status=500)
        if fault == "502_html":
            call.error_code = 502
            return web.Response(status=502, text=BAD_GATEWAY_HTML, content_type="text/html")
        if fault == "429":
            call.error_code = 429
            error = ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
            return web.json_response(error.payload(), status=429)
        if fault == "hang":
            await asyncio.sleep(self._random.hang if self._random else 3.0)
        return self._drop(request)

    @staticmethod
    def _drop(request: web.Request) -> web.StreamResponse:
        """Close the connection without an answer (the client sees a dropped connection)."""
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=500)

