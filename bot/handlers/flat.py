"""The bot's routers as one flat list of handlers per event type on the Dispatcher itself.

aiogram tries a router tree depth first: a router's handlers of the event type in order, then its
sub-routers, the first handler that takes the event wins (a ``SkipHandler`` passes it on to the
next handler, in the same router or a later one). Every router on the way costs a visit of its
own — its outer middlewares wrapped with ``functools.partial``/``functools.wraps``, its root
filters checked, the keyword arguments copied three times — even when it has no handler for the
event: a game press went through seven routers to reach its handler. Registering the same
handlers, in the same depth-first order, on the Dispatcher's own observers tries them in the same
order with one visit (``python -m benchmarks``: see docs/performance.md, CPU per update).

The routers keep their modules' ``router()`` functions (tests and readers see them as before);
only :func:`flatten` decides how they are mounted. A router with middlewares or root filters of
its own cannot be flattened without losing them: :func:`flatten` refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable

from aiogram import Router


def flatten(target: Router, routers: Iterable[Router]) -> None:
    """Append the handlers of ``routers`` (and of their sub-routers, depth first) to
    ``target``'s observers of the same event types, in the order aiogram would try them.

    Raises ``ValueError`` if one of them has middlewares or root filters of its own (on any
    event type: they would be dropped) or is already attached to a parent router."""
    for router in routers:
        if router.parent_router is not None:
            raise ValueError(f"router {router.name!r} is already included in another router")
        _append(target, router)


def _append(target: Router, router: Router) -> None:
    for name, observer in router.observers.items():
        own_filters = observer._handler.filters  # noqa: SLF001 - the root filters (.filter())
        if len(observer.middleware) or len(observer.outer_middleware) or own_filters:
            raise ValueError(f"router {router.name!r}: its {name} observer has middlewares or "
                             "root filters of its own; it cannot be flattened")
        if observer.handlers:
            target.observers[name].handlers.extend(observer.handlers)
    for sub in router.sub_routers:
        _append(target, sub)
