"""The bot side's layout (design.md §10, issues 8 and 23): the layers as packages, each importing
only those below it (docs/architecture.md, "Layers"), each game's presentation, views and button
codec in its own package under ``bot/games/``, the shared adapter reaching a game only through
the registry, no import cycle, no module over 400 lines.  The import rules are import-linter
contracts (``pyproject.toml``, ids ``bot-*``); these tests run them."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOT_CONTRACTS = ("bot-games-independent", "bot-mafia-shared", "bot-shared-via-registry",
                 "bot-layers", "bot-acyclic")
#: the longest a module of bot/ or engine/ may be (split it before: docs/architecture.md)
MAX_LINES = 400


def _contracts() -> dict[str, dict]:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in cfg["tool"]["importlinter"]["contracts"] if "id" in c}


def _lint_imports(root: pathlib.Path, *ids: str) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports") or str(pathlib.Path(sys.executable).parent / "lint-imports")
    args = [exe, "--no-cache"]
    for cid in ids:
        args += ["--contract", cid]
    return subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=300)


def test_bot_import_contracts_are_kept():
    assert set(BOT_CONTRACTS) <= set(_contracts())
    run = _lint_imports(ROOT, *BOT_CONTRACTS)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(BOT_CONTRACTS)} kept, 0 broken." in run.stdout


def test_shared_contract_lists_every_shared_bot_module():
    """A new shared module cannot slip past ``bot-shared-via-registry``."""
    shared = {f"bot.{p.stem}" if p.is_file() else f"bot.{p.name}"
              for p in (ROOT / "bot").iterdir()
              if p.name not in ("__init__.py", "games", "__pycache__")
              and (p.suffix == ".py" or (p / "__init__.py").exists())}
    assert set(_contracts()["bot-shared-via-registry"]["source_modules"]) == shared


@pytest.mark.parametrize("module, line, contract", [
    ("bot/handlers/game.py", "from ..games.forum import views as _forum_views\n",
     "bot-shared-via-registry"),
    ("bot/games/online/__init__.py", "from ..forum import codec as _forum_codec\n",
     "bot-games-independent"),
    ("bot/games/mafia/views.py", "from ..club import views as _club_views\n", "bot-mafia-shared"),
    ("bot/ui/keyboards.py", "from ..presentation import presenter as _presenter\n", "bot-acyclic"),
    ("bot/ui/names.py", "from . import keyboards as _keyboards\n", "bot-acyclic"),
    # the layers: a lower layer reaching up, and two independent siblings meeting
    ("bot/telegram/sender.py", "from ..ui import texts as _texts\n", "bot-layers"),
    ("bot/storage/store.py", "from ..services import game_service as _gs\n", "bot-layers"),
    ("bot/ui/texts.py", "from .. import games as _games\n", "bot-layers"),
    ("bot/services/said.py", "from ..presentation import views as _views\n", "bot-layers"),
    ("bot/handlers/common.py", "from ..webapp import server as _server\n", "bot-layers"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    """The contracts do catch what they forbid: the same check on a copy with one bad import."""
    for name in ("bot", "engine", "benchmarks", "locales"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    path = tmp_path / module
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")
    run = _lint_imports(tmp_path, contract)
    assert run.returncode != 0 and "BROKEN" in run.stdout, run.stdout


def test_every_preset_has_its_bot_package():
    from bot.games import GAMES
    from engine import GAMES as ENGINE_GAMES

    assert set(GAMES) == set(ENGINE_GAMES)  # every registered game, mafia preset or not (NOIR)
    for name, game in GAMES.items():
        assert game.name == name
        assert game.presenter.__module__.startswith("bot.games.")
        assert type(game.codec).__module__.startswith("bot.games.")


def _long_modules(root: pathlib.Path) -> dict[str, int]:
    """The modules of ``root/bot`` and ``root/engine`` over :data:`MAX_LINES` lines: path -> lines."""
    return {p.relative_to(root).as_posix(): n
            for top in ("bot", "engine") for p in sorted((root / top).rglob("*.py"))
            if "__pycache__" not in p.parts
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}


def test_every_bot_and_engine_module_is_at_most_400_lines():
    """No module of ``bot/`` or ``engine/`` passes :data:`MAX_LINES` lines (split it before)."""
    long = _long_modules(ROOT)
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_line_limit_catches_a_long_module(tmp_path):
    """The check above can fail: a module one line too long is named, one at the limit is not."""
    (tmp_path / "bot" / "ui").mkdir(parents=True)
    (tmp_path / "engine").mkdir()
    (tmp_path / "bot" / "ui" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (tmp_path / "engine" / "fits.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert _long_modules(tmp_path) == {"bot/ui/long.py": MAX_LINES + 1}
