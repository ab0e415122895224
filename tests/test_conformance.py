"""Every registered game keeps the same contracts (one test, parametrised over GAMES): its
standard positions are legal, drawable and round-trip through JSON; it declares a machine
with ``new_game`` and ``apply``, its players plan through ``plan(view, turn, seed)``; a
greedy stroke runs on the game loop; a whole game plays to its end through ``carromlab
play`` and its rows carry the run's configuration (and a rerun resumes); every game with
shot analysis answers ``carromlab estimate``."""

import importlib
import json

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from cli_run import run
from test_play_summary import check_printed

from carromlab.analysis.players import Player
from carromlab.play import Driver, play_games
from carromlab.plot import draw_position
from carromlab.position import Position
from carromlab.registry import GAMES
from carromlab.rules.interfaces import GameMachine

VARIANTS = [(g.name, v) for g in GAMES.values() for v in g.variants]
#: One variant for each machine and driver (ICF doubles and Fast Play share their game's).
DISTINCT = [(g, v) for g, v in VARIANTS if v not in ("icf-doubles", "force-out-fast")]
#: A short whole game for each variant: command-line arguments of `carromlab play` (random
#: players; KOOBA has only its greedy player; Ring Pegs' random rings rarely pass the pegged
#: circle, so its game ends at a stroke cap).
SHORT = {
    "icf": ["--policy", "random", "--boards", "1"],
    "icf-doubles": ["--policy", "random", "--boards", "1"],
    "carrooka": ["--policy", "random"],
    "carroms": ["--policy", "random", "--target", "8"],
    "force-out": ["--policy", "random"],
    "force-out-fast": ["--policy", "random"],
    "circle-scores": ["--policy", "random", "--shots", "3"],
    "ring-pegs": ["--policy", "random", "--max-strokes", "12"],  # rarely passes: capped
    "kooba": ["--policy", "greedy"],
}
MACHINES = {
    "icf": "carromlab.games.icf.machine",
    "carrooka": "carromlab.games.carrooka.machine",
    "carroms": "carromlab.games.carroms.machine",
    "force-out": "carromlab.games.force_out.machine",
    "circle-scores": "carromlab.games.circle_scores.machine",
    "ring-pegs": "carromlab.games.ring_pegs.machine",
    "kooba": "carromlab.games.kooba.machine",
}


def test_every_variant_has_a_short_game():
    assert sorted(SHORT) == sorted(v for _, v in VARIANTS)
    assert sorted(MACHINES) == sorted(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_standard_positions_are_legal_drawable_and_round_trip(game, tmp_path):
    g = GAMES[game]
    assert g.positions, game
    for name, make in g.positions.items():
        pos = make().check()
        assert pos.variant in g.variants and pos.name == name
        assert pos.board.family == g.family
        path = tmp_path / f"{name}.json"
        pos.save(path)
        assert Position.load(path) == pos
        fig, ax = plt.subplots()
        assert draw_position(pos, ax=ax) is ax
        plt.close(fig)


@pytest.mark.parametrize("game", list(GAMES))
def test_machine_player_and_driver_contracts(game):
    g = GAMES[game]
    machine = importlib.import_module(MACHINES[game])
    assert isinstance(machine, GameMachine)
    for v in g.variants:
        config = g.make_config(v)
        assert getattr(config, "variant", None) == v
        assert isinstance(g.driver(config), Driver)
        for policy in g.players:
            assert isinstance(g.make_player(policy, variant=v), Player)


#: Variants whose short game (below) is played by random players: their greedy player gets a
#: stroke here (the others play a whole greedy game).
#: (Ring Pegs' greedy player plays whole games in tests/test_ring_pegs.py.)
RANDOM_SHORT = [(g, v) for g, v in DISTINCT if "random" in SHORT[v] and v != "ring-pegs"]


@pytest.mark.parametrize("game, variant", RANDOM_SHORT)
def test_a_greedy_stroke_on_the_loop(game, variant):
    g = GAMES[game]
    config = g.make_config(variant)
    driver = g.driver(config)
    greedy = g.make_player("greedy", variant=variant)
    [rec] = play_games([greedy] * driver.n_seats, config, seed=2, games=1, max_strokes=1)
    assert len(rec.strokes) == 1


@pytest.mark.parametrize("game, variant", DISTINCT)
def test_a_whole_game_ends_and_its_rows_carry_the_config(game, variant, capsys, tmp_path):
    from carromlab.analysis.results import read_parquet

    args = ["play", "--variant", variant, "--games", "1", "--seed", "4", *SHORT[variant]]
    code, out, err = run(capsys, *args, "--out", str(tmp_path))
    assert code == 0, err
    assert "wrote" in out and "1 games" in out
    games = read_parquet(tmp_path / "games.parquet")
    capped = "--max-strokes" in SHORT[variant]  # ends at the cap, unfinished (no winner)
    assert len(games) == 1 and (games["finished"].all() or capped)
    if capped:
        assert (games["strokes"] <= 12).all() and (
            (games["winner"] == -1) | games["finished"]
        ).all()
    assert {"winner", "strokes" if game != "kooba" else "shots"} <= set(games.columns)
    check_printed(out, games)  # it ends with the results, read from the rows it wrote
    config = games.attrs["config"]
    assert config["variant"] == variant and config["seed"] == 4 and config["rules"]
    assert {"carromlab", "jax", "numpy"} <= set(config)
    code, out, _ = run(capsys, *args, "--out", str(tmp_path))
    assert code == 0 and "resuming: 1 of 1" in out


@pytest.mark.parametrize("game, variant", DISTINCT)
def test_estimate_answers_every_variant(game, variant, capsys):
    code, out, err = run(capsys, "estimate", "--variant", variant, "--n", "64", "--json")
    assert code == 0, err
    res = json.loads(out)
    assert res["rows"] and all(r["lo"] <= r["estimate"] <= r["hi"] for r in res["rows"])
    assert all(0 <= r["lo"] and r["hi"] <= 1 for r in res["rows"] if r["kind"] == "probability")
    assert res["config"]["seed"] == 0
