"""The facades ``engine`` and ``engine.noir`` name their exports (``__all__``, issue 23): a new
command, event or refusal must be added there by hand, which these tests check."""

from __future__ import annotations

import engine
import engine.noir
from engine.core import errors
from engine.noir import errors as noir_errors


def _refusals(module: object) -> set[str]:
    return {n for n, v in vars(module).items()
            if isinstance(v, type) and issubclass(v, engine.IllegalCommand)}


def _engine_types(registry: dict[str, type]) -> set[str]:
    """The registered names of the engine's own types (tests register their own subclasses too)."""
    return {n for n, cls in registry.items() if cls.__module__.startswith("engine.")}


def test_engine_exports_every_command_event_and_refusal() -> None:
    names = {*_engine_types(engine.COMMAND_TYPES), *_engine_types(engine.EVENT_TYPES),
             *_refusals(errors)}
    assert sorted(names - set(engine.__all__)) == []


def test_noir_exports_every_command_event_and_refusal() -> None:
    names = {*_engine_types(engine.noir.COMMAND_TYPES), *_engine_types(engine.noir.EVENT_TYPES),
             *_refusals(noir_errors)}
    assert sorted(names - set(engine.noir.__all__)) == []


def test_every_exported_name_exists() -> None:
    for module in (engine, engine.noir):
        assert [n for n in module.__all__ if not hasattr(module, n)] == []
