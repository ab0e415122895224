"""A new game needs no shared file: the toy game of tests/toy_game.py, registered from here,
plays through `carromlab play` and `carromlab estimate` and the conformance checks. Adding it
edits no other file: its one module names its parts by dotted path (``registry.part``), and
no list of the package (pyproject.toml's contracts and mypy list, tests/typecheck/contracts.py)
names it (test_the_toy_game_is_in_no_shared_list)."""

import json

import pytest
from cli_run import run

from carromlab.errors import CarromlabError
from carromlab.registry import get_game, standard_position, unregister_game


@pytest.fixture()
def toy():
    import toy_game

    game = toy_game.register()
    yield game
    unregister_game(game.name)


def test_the_toy_game_is_found_by_name_and_variant(toy):
    assert get_game("pot-three") is toy and get_game("pot-three") is toy
    pos = standard_position("pot-three-opening").check()
    assert pos.variant == "pot-three" and len(pos.pieces) == 3


def test_the_toy_game_is_in_no_shared_list(toy):
    """Its parts are named by dotted path in its own module (or the shared layers'), they
    resolve, and no shared list names the toy game: the registration alone adds it."""
    from pathlib import Path

    from carromlab.registry import parts

    found = parts(toy)
    assert {"config", "driver", "analysis", "rules_class", "players.greedy"} <= set(found)
    for where, p in found.items():
        module = p.path.partition(":")[0]
        assert module == "toy_game" or not module.startswith("carromlab.games"), where
        p.resolve()
    root = Path(__file__).resolve().parents[1]
    for shared in ("pyproject.toml", "tests/typecheck/contracts.py", "carromlab/registry.py"):
        text = (root / shared).read_text()
        assert "toy_game" not in text and "pot-three" not in text, shared


def test_play_through_the_cli(toy, capsys, tmp_path):
    args = ["play", "--variant", "pot-three", "--policy", "random", "--games", "2"]
    args += ["--max-strokes", "6", "--seed", "3", "--out", str(tmp_path)]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "wrote 2 games" in out
    from carromlab.analysis.results import read_parquet

    games = read_parquet(tmp_path / "games.parquet")
    assert len(games) == 2 and (games["strokes"] <= 6).all() and games["finished"].all()
    config = games.attrs["config"]
    assert config["variant"] == "pot-three" and config["rules"]["max_strokes"] == 6
    code, out, _ = run(capsys, *args)
    assert code == 0 and "resuming: 2 of 2" in out
    code, _, err = run(capsys, *args[:-2], "--boards", "3", "--out", str(tmp_path / "x"))
    assert code == 2 and "--boards is for icf, not pot-three" in err


def test_estimate_through_the_cli(toy, capsys):
    code, out, err = run(
        capsys,
        "estimate",
        "--variant",
        "pot-three",
        "--angle",
        "90",
        "--speed",
        "2",
        "--n",
        "200",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    rows = {r["quantity"]: r for r in res["rows"]}
    assert {"points", "potted", "continues", "foul"} <= set(rows)
    # straight up the middle from x = 0 hits c1 (0, 0.15) full: it goes north, not into a
    # pocket, so the pot rate is small but the shot is legal
    assert 0 <= rows["potted"]["estimate"] <= 1
    assert res["config"]["variant"] == "pot-three"
    assert res["config"]["position"] == "pot-three-opening"


def test_a_greedy_toy_game_plays_on_the_loop(toy):
    from carromlab.play import play_games

    config = toy.make_config(max_strokes=4)
    player = toy.make_player("greedy")
    [rec] = play_games([player, player], config, seed=1, games=1)
    assert rec.state.over and len(rec.strokes) <= 4


def test_unregistered_it_is_gone(toy):
    unregister_game("pot-three")
    with pytest.raises(CarromlabError, match="unknown game or variant 'pot-three'"):
        get_game("pot-three")
    from toy_game import register

    register()
