"""The log, JSON and purity of engine/noir: NOIR-X22, X24 (replay, round trips, imports)."""

from __future__ import annotations

import ast
import copy
import json
import sys
from pathlib import Path

import pytest

from engine.noir import (
    COMMAND_TYPES,
    EVENT_TYPES,
    BadSetup,
    CreateGame,
    IllegalCommand,
    Kill,
    Role,
    apply,
    command_from_dict,
    event_from_dict,
    replay,
    state_from_dict,
    state_to_dict,
    to_dict,
)

from ..test_purity import IMPURE, IMPURE_CALLS, imported_modules
from .helpers import G
from .playout import play

NOIR = Path(__file__).resolve().parents[3] / "engine" / "noir"
MODULES = sorted(NOIR.glob("*.py"))
#: the core's conventions NOIR shares: audiences, refusals, and the log's encoding (its own tables)
ALLOWED_ENGINE = {"engine.core.audience", "engine.core.errors", "engine.core.serialize"}
#: variant.py, NOIR's entry in the engine registry, also knows the core's registry and CreateGame
ALLOWED_IN_VARIANT = ALLOWED_ENGINE | {"engine.core.game", "engine.core.commands"}


def test_NOIR_X22_replay_of_the_log_is_the_state():
    po = play(3, 8)
    final, produced = replay(po.log)
    assert final == po.state and len(produced) == len(po.log)
    with pytest.raises(BadSetup):
        replay([])
    with pytest.raises(BadSetup):
        apply(None, Kill(user_id=1, target=0))


def test_NOIR_X22_json_round_trips():
    po = play(5, 6)
    for _, cmd, after, events in po.steps[::7]:
        assert command_from_dict(json.loads(json.dumps(to_dict(cmd)))) == cmd
        assert state_from_dict(json.loads(json.dumps(state_to_dict(after)))) == after
        for e in events:
            assert event_from_dict(json.loads(json.dumps(to_dict(e)))) == e
    with pytest.raises(ValueError):
        command_from_dict({"type": "Nope"})
    with pytest.raises(ValueError):
        event_from_dict({"type": "CastVote"})
    assert set(COMMAND_TYPES) & set(EVENT_TYPES) == set()


def test_NOIR_X22_apply_never_mutates_its_input():
    po = play(11, 6, chaos=0.3)
    for before, cmd, _, _ in po.steps[3:]:
        snapshot = copy.deepcopy(before)
        apply(before, cmd)
        assert before == snapshot
    for st, cmd in po.refused:
        snapshot = copy.deepcopy(st)
        with pytest.raises(IllegalCommand):
            apply(st, cmd)
        assert st == snapshot


def test_NOIR_X24_commands_name_suspects_not_cells():
    g = G(6, ids={Role.KILLER: "B2"})
    target = g.s("B3")
    cmd = Kill(user_id=g.u(Role.KILLER), target=target)
    assert to_dict(cmd) == {"user_id": g.u(Role.KILLER), "target": target, "type": "Kill"}
    assert to_dict(CreateGame(settings={}))["type"] == "CreateGame"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_noir_imports_only_the_stdlib_and_two_engine_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.startswith("engine"):
            allowed = ALLOWED_IN_VARIANT if path.name == "variant.py" else ALLOWED_ENGINE
            assert node.module in allowed, f"{path.name} imports {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("engine") for a in node.names)
    for line, name, level in imported_modules(tree):
        if level or name == "engine":
            continue
        assert name in sys.stdlib_module_names and name not in IMPURE, f"{path.name}:{line}"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_noir_makes_no_impure_calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            assert name not in IMPURE_CALLS, f"{path.name}:{node.lineno} calls {name}()"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_noir_modules_stay_small(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


def test_NOIR_X26_malformed_commands_are_refused_cleanly():
    from engine.noir import (
        Accuse,
        BadInput,
        Detonate,
        IllegalCommand,
        MoveToken,
        Pause,
        PlaceThreats,
        Shift,
        StartGame,
        Swap,
    )
    g = G(8)
    g.turn_to(Role.SNIPER)
    u = g.u(Role.SNIPER)
    for cmd in (
        MoveToken(user_id=u, kind="bomb", source=[1], dest=2),
        MoveToken(user_id=u, kind=None, source=1, dest=2),
        Shift(user_id=u, line="row", index="1", by=1),
        Shift(user_id=u, line=None, index=1, by=None),
        Detonate(user_id=u, bomb={"x": 1}),
        PlaceThreats(user_id=u, targets=None),
        Swap(user_id=u, first=[1], second=[2]),
        Accuse(user_id=u, target=None),
        Pause(user_id=u, remaining="soon"),
    ):
        g.refuse(cmd, IllegalCommand)
    g.refuse(Pause(user_id=u, remaining="soon"), BadInput)
    fresh = G(6)
    st = fresh.st.clone()
    st.phase, st.order = "lobby", []
    with pytest.raises(IllegalCommand):
        apply(st, StartGame(order=fresh.start.order, roles=("nobody",) * 6,
                            layout=fresh.start.layout, deck=fresh.start.deck))
    with pytest.raises(IllegalCommand):
        apply(st, StartGame(order=fresh.start.order, roles=fresh.start.roles,
                            layout=(None,) * 36, deck=fresh.start.deck))
