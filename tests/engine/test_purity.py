"""engine/ stays pure: stdlib-only imports, no clock, no randomness, no I/O, and ``apply`` never
mutates its input (design.md §1-2)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import sys
from enum import Enum
from pathlib import Path

import pytest

from engine import CastVote, MarkInactive, NightAction, Pause, apply
from engine.mafia.state import GameState

from .helpers import game_at_day, game_at_night, uid
from .playout import play

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))

#: stdlib modules that bring time, chance, I/O, concurrency or the environment into the rules
IMPURE = {
    "asyncio", "concurrent", "datetime", "time", "random", "secrets", "uuid", "os", "sys", "io",
    "pathlib", "shutil", "tempfile", "glob", "socket", "ssl", "select", "selectors", "http",
    "urllib", "email", "smtplib", "threading", "multiprocessing", "subprocess", "signal",
    "sqlite3", "dbm", "shelve", "pickle", "logging", "gettext", "locale", "builtins",
    "importlib", "ctypes", "zoneinfo", "calendar", "sched", "queue", "contextvars", "atexit",
    "webbrowser", "platform", "getpass",
}
#: calls that read the clock, draw chance or do I/O, by name or attribute
IMPURE_CALLS = {
    "open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint",
    "now", "utcnow", "today", "time", "time_ns", "monotonic", "perf_counter", "process_time",
    "sleep", "urandom", "getrandbits", "randint", "randrange", "shuffle", "choice", "sample",
    "uuid4", "getenv", "environ",
}


def imported_modules(tree: ast.AST) -> list[tuple[int, str, int]]:
    """(line, top-level module name, relative level) of every import, nested ones included."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0], 0) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, (node.module or "").split(".")[0], node.level))
    return out


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINE)) for p in MODULES])
def test_engine_imports_only_the_stdlib_and_itself(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for line, name, level in imported_modules(tree):
        if level or name == "engine":
            continue
        where = f"{path.name}:{line} imports {name}"
        assert name in sys.stdlib_module_names, f"{where} (not the stdlib)"
        assert name not in IMPURE, f"{where} (clock, chance, I/O or concurrency)"


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ENGINE)) for p in MODULES])
def test_engine_makes_no_impure_calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            assert name not in IMPURE_CALLS, f"{path.name}:{node.lineno} calls {name}()"
        if isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith,
                             ast.Global)):
            raise AssertionError(f"{path.name}:{node.lineno}: {type(node).__name__} in engine/")


def test_the_import_checker_catches_outside_imports():
    bad = ast.parse("import aiogram\nfrom sqlalchemy import select\nimport random\n"
                    "def f():\n    from bot import service\n")
    names = [name for _, name, level in imported_modules(bad) if not level]
    assert names == ["aiogram", "sqlalchemy", "random", "bot"]
    assert "aiogram" not in sys.stdlib_module_names and "random" in IMPURE


# --- apply() never mutates its input; clone() shares nothing mutable ---------------------------
def _mutable_ids(value, acc: dict, path: str = "state") -> dict:
    """id -> path of every mutable object reachable from ``value``."""
    if isinstance(value, (str, int, float, bool, type(None), Enum)):
        return acc
    if isinstance(value, tuple):
        for i, v in enumerate(value):
            _mutable_ids(v, acc, f"{path}[{i}]")
        return acc
    if dataclasses.is_dataclass(value):
        # typeshed's dataclass protocol lacks __dataclass_params__ (every dataclass has it)
        if not type(value).__dataclass_params__.frozen:  # type: ignore[union-attr]
            acc[id(value)] = path
        for f in dataclasses.fields(value):
            _mutable_ids(getattr(value, f.name), acc, f"{path}.{f.name}")
        return acc
    acc[id(value)] = path
    if isinstance(value, dict):
        for k, v in value.items():
            _mutable_ids(v, acc, f"{path}[{k!r}]")
    elif isinstance(value, (list, set)):
        for i, v in enumerate(value):
            _mutable_ids(v, acc, f"{path}[{i}]")
    else:
        raise AssertionError(f"unexpected type at {path}: {type(value).__name__}")
    return acc


def _busy_states() -> list[GameState]:
    """States with every optional part populated: pause, vote round, night picks, settings."""
    t = game_at_day(7, "MMCDTTT", settings={"tempo": "short", "timings": {"speech": 45},
                                             "options": {"announce_save": True}})
    t.speeches({1: 5, 2: 6})
    t.defences()
    t.do(CastVote(user_id=uid(1), target=uid(5)))
    t.do(MarkInactive(player=uid(7), reason="away"))
    t.do(Pause(user_id=uid(2), remaining=9))
    n = game_at_night(7, "MMCDTTT")
    n.do(NightAction(user_id=uid(1), action="kill", target=uid(5)))
    n.do(NightAction(user_id=uid(3), action="check", target=uid(2)))
    return [t.state, n.state]


def test_clone_is_equal_and_shares_nothing_mutable():
    for st in _busy_states():
        c = st.clone()
        assert c == st and c is not st
        shared = set(_mutable_ids(st, {})) & set(_mutable_ids(c, {}))
        assert not shared, [_mutable_ids(st, {})[i] for i in shared]


def test_clone_covers_every_field():
    names = {f.name for f in dataclasses.fields(GameState)}
    st = _busy_states()[0]
    assert {n for n in names if getattr(st.clone(), n) != getattr(st, n)} == set()


@pytest.mark.parametrize("seed", range(6))
def test_apply_never_mutates_its_input(seed):
    po = play(seed, 5 + seed, host=seed % 2 == 1, chaos=0.2)
    state = None
    for cmd in po.log:
        snapshot = copy.deepcopy(state)
        new, _ = apply(state, cmd)
        assert state == snapshot, f"apply mutated its input on {cmd}"
        if state is not None:
            assert new is not state
        state = new
