"""The layering rules of docs/architecture.md, checked by import-linter contracts
(``[tool.importlinter]`` in pyproject.toml): the engine imports only the stdlib, its core knows no
game, the shared mafia mechanics know no preset, and no preset imports another (issue 8); the
benchmarks' modules import each other without a cycle, and no package of ours has an import
cycle anywhere: every strongly connected component of its import graph (grimp's, type-only
imports included) is one module (issue 23)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def contracts() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["importlinter"]["contracts"]


def test_the_import_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    run = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    names = [c["name"] for c in contracts()]
    for name in names:
        assert f"{name} KEPT" in run.stdout, f"contract not checked: {name}\n{run.stdout}"
    assert f"Contracts: {len(names)} kept, 0 broken." in run.stdout


def test_the_engine_may_not_import_the_stdlib_bits_that_bring_io_or_a_loop():
    engine_rule = next(c for c in contracts() if c["source_modules"] == ["engine"])
    for name in ("bot", "aiogram", "sqlalchemy", "apscheduler", "babel", "asyncio", "aiohttp"):
        assert name in engine_rule["forbidden_modules"]


PRESETS = ["engine.party", "engine.club", "engine.online", "engine.forum"]
#: every game package: the mafia presets and NOIR, a game of its own on the core
GAMES = [*PRESETS, "engine.noir"]
#: the packages above the presets (they may read a preset; no preset reads them)
ABOVE = ["engine.scoring", "engine.tournament"]


def test_the_contracts_state_the_layering_of_the_engine():
    by_source = {tuple(c.get("source_modules", ())): c for c in contracts()}
    assert set(by_source[("engine.core",)]["forbidden_modules"]) == {"engine.mafia", *GAMES, *ABOVE}
    assert set(by_source[("engine.mafia",)]["forbidden_modules"]) == {*GAMES, *ABOVE}
    assert by_source[("engine.noir",)]["forbidden_modules"] == ["engine.mafia"]
    independence = [c for c in contracts() if c["type"] == "independence"]
    assert any(set(c["modules"]) == set(GAMES) for c in independence)
    layers = next(c for c in contracts() if c["type"] == "layers")
    assert layers["containers"] == ["engine"]
    assert layers["layers"][:2] == ["tournament", "scoring"]
    assert layers["layers"][3:] == ["mafia", "core"]
    assert set(layers["layers"][2].replace(" ", "").split("|")) == {"party", "club", "online", "forum"}
    # the tournaments read the score sheets (engine.scoring) and the core, never a preset
    assert set(by_source[("engine.tournament",)]["forbidden_modules"]) == set(GAMES)


def lint_imports(root: Path, contract: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    return subprocess.run([exe, "--no-cache", "--contract", contract], cwd=root,
                          capture_output=True, text=True, timeout=300)


def test_the_benchmarks_contract_forbids_an_import_cycle():
    """Issue 23 item 4: the benchmarks' modules import each other in one direction only."""
    acyclic = next(c for c in contracts() if c.get("id") == "benchmarks-acyclic")
    assert acyclic["type"] == "acyclic_siblings" and acyclic["ancestors"] == ["benchmarks"]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "benchmarks" in config["tool"]["importlinter"]["root_packages"]


@pytest.mark.parametrize("module, line", [
    # the cycle of issue 23: the generic planner reading the party table's module
    ("benchmarks/buttons.py", "from . import players as _players\n"),
    ("benchmarks/presses.py", "from .buttons import Planned as _Planned\n"),
    ("benchmarks/players.py", "from . import stack as _stack\n"),
])
def test_an_import_cycle_in_the_benchmarks_breaks_the_contract(tmp_path, module, line):
    """The contract does catch a cycle: the same check on a copy with one import put back."""
    for name in ("bot", "engine", "benchmarks", "locales"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    assert lint_imports(tmp_path, "benchmarks-acyclic").returncode == 0  # the copy is clean
    path = tmp_path / module
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")
    run = lint_imports(tmp_path, "benchmarks-acyclic")
    assert run.returncode != 0 and "BROKEN" in run.stdout, run.stdout


#: the packages whose whole import graph must be acyclic
OURS = ["bot", "engine", "benchmarks"]


def import_cycles(package: str) -> list[list[str]]:
    """The import cycles inside ``package``: its import graph's strongly connected components
    of more than one module (or a module importing itself), each sorted, by Tarjan's algorithm.
    Type-only imports (``if TYPE_CHECKING:``) count: a protocol, not a guarded import, breaks a
    cycle (docs/architecture.md)."""
    graph = grimp.build_graph(package, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]  # iterative DFS: (module, its next neighbours)
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, todo = work[-1]
            child = next(todo, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1 or module in edges[module]:
                    cycles.append(sorted(component))
    return cycles


@pytest.mark.parametrize("package", OURS)
def test_no_import_cycle_in_the_package(package, monkeypatch):
    """Issue 23: no module of ``package`` imports itself back through others (the engine's
    mafia mechanics reach their preset through the ``engine.mafia.step.Variant`` protocol)."""
    monkeypatch.syspath_prepend(str(ROOT))  # this checkout's packages, not an installed copy
    graph = grimp.build_graph(package, cache_dir=None)
    assert package in graph.modules and len(graph.modules) > 5
    cycles = import_cycles(package)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle_through_a_type_only_import(tmp_path, monkeypatch):
    """The check can fail: a package whose ``a -> b -> c`` is closed by ``c``'s type-only import
    of ``a`` has one cycle of the three, and ``d`` (outside it) is not in it."""
    pkg = tmp_path / "cyclic_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from . import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("from .c import X\n", encoding="utf-8")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nX = 1\n"
                              "if TYPE_CHECKING:\n    from .a import b\n", encoding="utf-8")
    (pkg / "d.py").write_text("from . import a\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cyclic_pkg") == [["cyclic_pkg.a", "cyclic_pkg.b", "cyclic_pkg.c"]]
