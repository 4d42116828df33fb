"""The bot side's layout (design.md §10, issue 8): each game's presentation, views and button
codec in its own package under ``bot/games/``, the shared adapter reaching a game only through
the registry, no import cycle.  The rules are import-linter contracts (``pyproject.toml``,
ids ``bot-*``); these tests run them."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOT_CONTRACTS = ("bot-games-independent", "bot-mafia-shared", "bot-shared-via-registry",
                 "bot-acyclic")


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
    ("bot/keyboards.py", "from . import presenter as _presenter\n", "bot-acyclic"),
])
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    """The contracts do catch what they forbid: the same check on a copy with one bad import."""
    for name in ("bot", "engine", "locales"):
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
