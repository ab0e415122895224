"""A game is its folder: every folder under carromlab/games/ with an ``__init__.py``
registers a game, and the lists that name the games follow the folders (the independence
contract of pyproject.toml, the mypy strict list, tests/typecheck/contracts.py). Each
folder's ``__init__`` is the game's ``Game`` declaration only, naming its parts by dotted
path (``registry.part``); those paths resolve, and reach only the game's own folder and the
layers below the games, which the import-linter contracts cannot see through the registry's
import by name (tests/test_architecture.py)."""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
from pathlib import Path

import pytest
from test_typing import strict_modules

from carromlab.errors import CarromlabError
from carromlab.registry import GAMES, Game, Part, part, parts, ref

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "carromlab" / "games"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def folders() -> list[str]:
    """The game folders on disk (a folder with an ``__init__.py``), by name."""
    return sorted(p.parent.name for p in GAMES_DIR.glob("*/__init__.py"))


def _contract(kind: str) -> dict:
    found = [c for c in PYPROJECT["tool"]["importlinter"]["contracts"] if c["type"] == kind]
    assert len(found) == 1, f"one {kind} contract expected, found {len(found)}"
    return found[0]


def _matches(expression: str, module: str) -> bool:
    """import-linter's module expression: ``*`` one name, ``**`` any number of names."""
    parts_ = [
        r"[^.]+" if p == "*" else r".+" if p == "**" else re.escape(p)
        for p in expression.split(".")
    ]
    return re.fullmatch(r"\.".join(parts_), module) is not None


def _mypy_matches(pattern: str, module: str) -> bool:
    """mypy's override pattern: ``a.b`` that module, ``a.b.*`` it and everything under it."""
    if pattern.endswith(".*"):
        base = pattern[:-2]
        return module == base or module.startswith(base + ".")
    return module == pattern


def test_every_folder_registers_its_game():
    assert len(folders()) >= 7
    for name in folders():
        module = importlib.import_module(f"carromlab.games.{name}")
        game = getattr(module, "GAME", None)
        assert isinstance(game, Game), f"carromlab/games/{name}/__init__.py builds no GAME"
        assert GAMES[game.name] is game, name


def test_the_independence_contract_covers_every_folder():
    expressions = _contract("independence")["modules"]
    for name in folders():
        module = f"carromlab.games.{name}"
        assert any(_matches(e, module) for e in expressions), (
            f"{module} is not in pyproject.toml's independence contract ({expressions})"
        )


def test_the_module_expression_reading():
    assert _matches("carromlab.games.*", "carromlab.games.icf")
    assert not _matches("carromlab.games.*", "carromlab.games.icf.rules")
    assert not _matches("carromlab.games.icf", "carromlab.games.kooba")
    assert _matches("carromlab.**", "carromlab.games.icf.rules")
    assert _mypy_matches("carromlab.games.*", "carromlab.games.icf")
    assert not _mypy_matches("carromlab.games.icf", "carromlab.games.icf.rules")


def test_mypy_strict_covers_every_folders_registration():
    patterns = strict_modules()
    for name in folders():
        module = f"carromlab.games.{name}"
        assert any(_mypy_matches(p, module) for p in patterns), (
            f"{module} (its __init__, the Game declaration) is not in the mypy strict list"
        )


def test_the_typecheck_contracts_name_every_game():
    """tests/typecheck/contracts.py checks each game's machine and driver against the
    declared interfaces: every folder is there."""
    text = (ROOT / "tests" / "typecheck" / "contracts.py").read_text()
    for name in folders():
        assert f"from carromlab.games.{name} import machine" in text, name
        assert f"from carromlab.games.{name}.driver import" in text, name


def test_each_registration_is_a_declaration_only():
    """No wrapper in a game's ``__init__``: its docstring, imports and assignments (the
    ``Game``, constants), no function, class or lambda."""
    for name in folders():
        tree = ast.parse((GAMES_DIR / name / "__init__.py").read_text())
        for node in tree.body:
            ok = isinstance(node, ast.Import | ast.ImportFrom | ast.Assign | ast.AnnAssign) or (
                isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            )
            assert ok, f"games/{name}/__init__.py line {node.lineno}: {type(node).__name__}"
        lambdas = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
        assert not lambdas, f"games/{name}/__init__.py: lambda at {lambdas}"


def _layers_below_games() -> list[str]:
    layers = _contract("layers")["layers"]
    below = layers[layers.index("carromlab.games") + 1 :]
    return [m.strip() for layer in below for m in layer.split("|")]


@pytest.mark.parametrize("folder", folders())
def test_each_part_resolves_within_its_folder_and_below(folder):
    """Every dotted path of the game resolves (imported here), and names a module of the
    game's own folder or of a layer below the games (pyproject.toml's layers)."""
    game = importlib.import_module(f"carromlab.games.{folder}").GAME
    found = parts(game)
    assert found, f"{game.name} names no part by dotted path"
    own = f"carromlab.games.{folder}"
    below = _layers_below_games()
    for where, p in found.items():
        module = p.path.partition(":")[0]
        allowed = module == own or module.startswith(own + ".")
        allowed = allowed or any(module == m or module.startswith(m + ".") for m in below)
        assert allowed, f"{game.name}: {where} {p.path!r} reaches above the games' layer"
        p.resolve()


def test_every_game_names_its_parts_by_path():
    """The built-in games hold no callable but their parts: each callable field is a Part."""
    for game in GAMES.values():
        for name in ("config", "driver", "analysis", "rules_class", "explorer"):
            value = getattr(game, name)
            assert value is None or isinstance(value, Part), (game.name, name)
        for name in ("positions", "players", "commands", "bench_scenarios"):
            for key, value in getattr(game, name).items():
                assert isinstance(value, Part), (game.name, name, key)


# ------------------------------------------------------------------ the calling convention


def _game(**fields) -> Game:
    return Game(name="probe", title="Probe", variants=("probe", "probe-b"), family="icf", **fields)


def test_a_path_that_does_not_resolve_is_one_line_naming_game_field_path():
    game = _game(driver="carromlab.games.nowhere:Driver")
    with pytest.raises(CarromlabError) as e:
        game.driver(None)
    message = str(e.value)
    assert "\n" not in message
    assert (
        "'probe'" in message and "driver" in message and "carromlab.games.nowhere:Driver" in message
    )
    game = _game(players={"x": part("carromlab.registry:NoSuchName")})
    with pytest.raises(
        CarromlabError, match=r"game 'probe': players 'carromlab.registry:NoSuchName'"
    ):
        game.make_player("x")
    with pytest.raises(CarromlabError, match="not a dotted path"):
        _game(config="carromlab.registry.Game")


def test_the_calling_convention():
    """What each part is called with (``builtins:dict`` shows it): the caller's arguments,
    less the variant (``takes_variant=False``) or the skill (``takes_skill=False``), then the
    fixed ones, a ``ref`` read as the object it names; a value field returns its object."""
    from carromlab.registry import STRONGEST, Option

    game = _game(
        rules_class="carromlab.registry:Option",  # a plain string is a part
        explorer="carromlab.registry:Option",
        config=part("builtins:dict", takes_variant=False, fixed=1),
        analysis=part("carromlab.registry:Option", "d", "h"),
        players={
            "all": part("builtins:dict"),
            "no-variant": part(
                "builtins:dict", takes_variant=False, budget=ref("carromlab.registry:STRONGEST")
            ),
            "no-skill": part("builtins:dict", takes_variant=False, takes_skill=False),
        },
        positions={"p": part("builtins:dict", a=2)},
    )
    assert game.rules_class("probe") is Option and game.explorer() is Option
    assert game.make_config("probe-b", boards=3) == {"fixed": 1, "boards": 3}
    assert game.analysis("probe") == Option("probe", "d", "h")  # the variant first
    assert game.make_player("all", "pro", "probe-b") == {"skill": "pro", "variant": "probe-b"}
    assert game.make_player("no-variant", "pro") == {"skill": "pro", "budget": STRONGEST}
    assert game.make_player("no-skill", "pro") == {}
    assert game.positions["p"]() == {"a": 2}
    assert isinstance(game.config, Part) and game.config.slot == "config"
    # the path is imported once and kept
    assert game.rules_class.resolve() is game.rules_class.resolve() is Option
