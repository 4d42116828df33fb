"""Webhook delivery of the stand-in Bot API (a mixin of :class:`tests.e2e.fake_api.FakeBotAPI`).

Theory of operation
-------------------
``setWebhook`` stores a :class:`Webhook`; from then on a dispatcher task hands every pending update
(``pending_updates``, the same queue ``getUpdates`` serves, filtered by ``allowed_updates``) to a
delivery task of its own, which POSTs the update as JSON (``X-Telegram-Bot-Api-Secret-Token``
when a secret is set) to a *target* and waits for the answer.  A 2xx acknowledges the update (it
leaves ``pending_updates``); another status, a refused or dropped connection or no answer within
``webhook_timeout`` seconds is recorded as the webhook's last error and the update is posted again
after ``webhook_retry_delays`` (0.2, 0.5, 1, 2, 2, ... seconds; Telegram's delays grow to minutes),
the target being chosen again.  At most ``max_connections`` POSTs are in flight at once, so
updates are delivered concurrently and in no guaranteed order, as Telegram may.  While a webhook is
set ``getUpdates`` answers 409; ``deleteWebhook`` stops the deliveries and leaves the unacknowledged
updates to ``getUpdates``.

Spreading over workers, as a load balancer would: the target is the webhook URL unless the test sets
``api.webhook_targets`` (URLs; one without a path gets the webhook URL's path and query) and
``api.webhook_chooser``: ``"round_robin"`` (default; every attempt takes the next target, so a
retry goes to another worker), ``"random"`` (``webhook_rng``, seeded) or a callable
``update -> index`` (taken modulo the number of targets).

Faults: ``duplicate_next_updates(n)`` posts each of the next ``n`` updates a second time after it
was acknowledged (Telegram's retry after a 200 it never got), ``duplicate_next_updates(n,
at_once=True)`` posts both copies at the same time to two different targets.  Every attempt is
recorded in ``webhook_deliveries``.  Times are in seconds (``time.monotonic()``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from .model import now
from .protocol import Params, api_method, bad_request

if TYPE_CHECKING:
    from .fake_api import FakeBotAPI

_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
Chooser = str | Callable[[dict[str, Any]], int]


@dataclass
class Webhook:
    """What ``setWebhook`` stored."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None


@dataclass
class WebhookDelivery:
    """One POST of one update: ``status`` is the HTTP status, or None with ``error`` (a refused or
    dropped connection, a timeout); ``copy`` is 1, or 2 for the second copy of a duplicated update."""

    update_id: int
    target: str
    started: float
    ended: float | None = None
    status: int | None = None
    error: str | None = None
    copy: int = 1

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


@dataclass
class _Duplicates:
    left: int = 0
    at_once: bool = False


class WebhookMixin:
    """Needs the server's ``pending_updates``, ``allowed_updates``, ``changed``, ``notify`` and
    ``_allowed`` (UpdatesMixin, FakeBotAPI)."""

    if TYPE_CHECKING:
        pending_updates: list[dict[str, Any]]
        allowed_updates: list[str] | None
        changed: asyncio.Condition
        closing: bool

        async def notify(self) -> None: ...
        def _allowed(self, update: dict[str, Any]) -> bool: ...

    def __init__(self) -> None:
        self.webhook: Webhook | None = None
        self.webhook_targets: list[str] | None = None
        """URLs to spread the deliveries over (None: the webhook URL)."""
        self.webhook_chooser: Chooser = "round_robin"
        self.webhook_rng = random.Random(0)
        self.webhook_retry_delays: tuple[float, ...] = (0.2, 0.5, 1.0, 2.0)
        """Delay before the n-th retry of an update (the last one repeats), seconds."""
        self.webhook_timeout = 10.0
        """How long one POST may take before it counts as failed, seconds."""
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_last_error: tuple[int, str] | None = None
        """(Unix time, message) of the latest failed delivery, as getWebhookInfo reports it."""
        self._duplicates = _Duplicates()
        self._round_robin = 0
        self._delivering: dict[int, asyncio.Task[None]] = {}
        self._webhook_dispatcher: asyncio.Task[None] | None = None
        self._webhook_session: aiohttp.ClientSession | None = None
        self._webhook_slots: asyncio.Semaphore | None = None

    @property
    def webhook_url(self) -> str | None:
        return self.webhook.url if self.webhook is not None else None

    # --- test controls ---------------------------------------------------------------------------

    def duplicate_next_updates(self, n: int = 1, *, at_once: bool = False) -> None:
        """Deliver each of the next ``n`` updates twice: after the first copy was acknowledged (a
        lost 200 retried), or with ``at_once`` both copies at the same moment to two targets (the
        chosen one and the next; the same URL if there is only one)."""
        self._duplicates.left, self._duplicates.at_once = n, at_once

    def deliveries_of(self, update_id: int) -> list[WebhookDelivery]:
        return [d for d in self.webhook_deliveries if d.update_id == update_id]

    async def set_webhook_config(self, webhook: Webhook | None, *, drop_pending: bool = False) -> None:
        """What setWebhook / deleteWebhook do.  Deliveries under way go on under the new settings
        (several workers each calling setWebhook at start-up interrupt nothing); they stop when the
        webhook is deleted or the pending updates dropped."""
        if webhook is None or drop_pending:
            await self._stop_deliveries()
        if drop_pending:
            self.pending_updates.clear()
        if webhook is not None:
            self.allowed_updates = webhook.allowed_updates or self.allowed_updates
            if self.webhook is None or self.webhook.max_connections != webhook.max_connections:
                self._webhook_slots = asyncio.Semaphore(webhook.max_connections)
            if self._webhook_dispatcher is None:
                self._webhook_dispatcher = asyncio.create_task(self._dispatch_updates())
        self.webhook = webhook
        await self.notify()

    async def stop_webhook_delivery(self) -> None:
        """Cancel every delivery and close the HTTP client (FakeBotAPI.stop)."""
        await self._stop_deliveries()
        if self._webhook_session is not None:
            await self._webhook_session.close()
            self._webhook_session = None

    # --- delivery --------------------------------------------------------------------------------

    async def _stop_deliveries(self) -> None:
        tasks = [t for t in (self._webhook_dispatcher, *self._delivering.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._webhook_dispatcher = None
        self._delivering.clear()

    def _undelivered(self) -> list[dict[str, Any]]:
        self.pending_updates = [u for u in self.pending_updates if self._allowed(u)]
        return [u for u in self.pending_updates if u["update_id"] not in self._delivering]

    async def _dispatch_updates(self) -> None:
        """Start a delivery task for every pending update that has none, forever."""
        while True:
            async with self.changed:
                await self.changed.wait_for(lambda: self.closing or bool(self._undelivered()))
            if self.closing:
                return
            for update in self._undelivered():
                update_id = update["update_id"]
                copies = 1
                if self._duplicates.left > 0:
                    self._duplicates.left -= 1
                    copies = 2
                self._delivering[update_id] = asyncio.create_task(
                    self._deliver(update, copies, self._duplicates.at_once))

    async def _deliver(self, update: dict[str, Any], copies: int, at_once: bool) -> None:
        """Post ``update`` until acknowledged (twice if ``copies`` == 2), then forget it."""
        update_id = update["update_id"]
        try:
            if copies == 2 and at_once:
                first = self._choose_target(update)
                await asyncio.gather(self._post_until_ok(update, 1, first),
                                     self._post_until_ok(update, 2, self._other_target(first)))
            else:
                await self._post_until_ok(update, 1)
                if copies == 2:
                    await self._post_until_ok(update, 2)
            self.pending_updates = [u for u in self.pending_updates if u["update_id"] != update_id]
        finally:
            self._delivering.pop(update_id, None)
        await self.notify()

    async def _post_until_ok(self, update: dict[str, Any], copy: int, target: str | None = None) -> None:
        failures = 0
        while True:
            record = WebhookDelivery(update["update_id"], target or self._choose_target(update),
                                     time.monotonic(), copy=copy)
            self.webhook_deliveries.append(record)
            await self._post(record, update)
            await self.notify()
            if record.ok:
                return
            self.webhook_last_error = (
                now(), record.error or f"Wrong response from the webhook: {record.status}")
            delays = self.webhook_retry_delays
            await asyncio.sleep(delays[min(failures, len(delays) - 1)])
            failures += 1
            target = None

    async def _post(self, record: WebhookDelivery, update: dict[str, Any]) -> None:
        assert self.webhook is not None and self._webhook_slots is not None
        headers = {"Content-Type": "application/json"}
        if self.webhook.secret_token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook.secret_token
        if self._webhook_session is None:
            self._webhook_session = aiohttp.ClientSession()
        try:
            async with self._webhook_slots, self._webhook_session.post(
                    record.target, data=json.dumps(update), headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.webhook_timeout)) as response:
                await response.read()
                record.status = response.status
        except TimeoutError:
            record.error = "Connection timed out"
        except aiohttp.ClientConnectorError as error:
            record.error = f"Connection refused: {error.os_error}"
        except aiohttp.ClientError as error:
            record.error = f"Connection error: {type(error).__name__}"
        finally:
            record.ended = time.monotonic()

    def _targets(self) -> list[str]:
        assert self.webhook is not None
        if not self.webhook_targets:
            return [self.webhook.url]
        hook = urlsplit(self.webhook.url)
        targets = []
        for target in self.webhook_targets:
            parts = urlsplit(target)
            if parts.path in ("", "/"):
                parts = parts._replace(path=hook.path, query=hook.query)
            targets.append(urlunsplit(parts))
        return targets

    def _choose_target(self, update: dict[str, Any]) -> str:
        targets = self._targets()
        chooser = self.webhook_chooser
        if callable(chooser):
            index = chooser(update)
        elif chooser == "random":
            index = self.webhook_rng.randrange(len(targets))
        elif chooser == "round_robin":
            index, self._round_robin = self._round_robin, self._round_robin + 1
        else:
            raise ValueError(f"unknown webhook_chooser {chooser!r}")
        return targets[index % len(targets)]

    def _other_target(self, target: str) -> str:
        targets = self._targets()
        return targets[(targets.index(target) + 1) % len(targets)] if target in targets else target


# --- the Bot API methods -----------------------------------------------------------------------------


@api_method("setWebhook")
async def set_webhook(api: FakeBotAPI, p: Params) -> bool:
    """Telegram's checks that matter here; http:// and any port are accepted (it is a test)."""
    url = p.text("url") or ""
    if not url:  # "use an empty string to remove webhook integration"
        await api.set_webhook_config(None, drop_pending=p.flag("drop_pending_updates"))
        return True
    if not url.startswith(("https://", "http://")):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    secret = p.text("secret_token")
    if secret is not None and not _SECRET_RE.match(secret):
        raise bad_request("secret token contains unallowed characters")
    max_connections = p.int("max_connections") or 40
    if not 1 <= max_connections <= 100:
        raise bad_request("bad webhook: max_connections must be between 1 and 100")
    allowed = p.json("allowed_updates")
    await api.set_webhook_config(Webhook(url, secret, max_connections, list(allowed) if allowed else None),
                                 drop_pending=p.flag("drop_pending_updates"))
    return True


@api_method("deleteWebhook")
async def delete_webhook(api: FakeBotAPI, p: Params) -> bool:
    await api.set_webhook_config(None, drop_pending=p.flag("drop_pending_updates"))
    return True


@api_method("getWebhookInfo")
async def get_webhook_info(api: FakeBotAPI, p: Params) -> dict[str, Any]:
    info: dict[str, Any] = {"url": api.webhook_url or "", "has_custom_certificate": False,
                            "pending_update_count": len(api.pending_updates)}
    if api.webhook is not None:
        info["max_connections"] = api.webhook.max_connections
        if api.webhook.allowed_updates:
            info["allowed_updates"] = api.webhook.allowed_updates
    if api.webhook_last_error is not None:
        info["last_error_date"], info["last_error_message"] = api.webhook_last_error
    return info

