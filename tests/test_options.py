"""The typed options of each command family (carromlab/run_options.py) and the library's shot
set-up (carromlab/shot_setup.py): one default and one check per number, shared by the
command line, the reports and a notebook; the position a shot is played in, its turn,
estimate's shot and a map's grid worked out without the command line.

Nothing here runs the kernel: where a report would compute, the analysis is replaced by a
stand-in that records what it was given."""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from cli_run import run

from carromlab.cli import app
from carromlab.errors import CarromlabError
from carromlab.input_schema import Quantity
from carromlab.registry import GAMES, get_game
from carromlab.reports import BestShotsReport, EstimateReport, PlayReport, ShotMapReport
from carromlab.run_options import (
    BestOptions,
    DecideOptions,
    EstimateOptions,
    PlayOptions,
    ShotMapOptions,
)
from carromlab.shot_setup import (
    estimate_shot,
    grid_specs,
    map_grid,
    setup_shot,
    shot_position,
    shot_turn,
)

ROOT = Path(__file__).resolve().parents[1]

#: Each command and the options object whose defaults its signature reads.
FAMILIES = {
    "estimate": EstimateOptions,
    "shotmap": ShotMapOptions,
    "best": BestOptions,
    "play": PlayOptions,
    "decide": DecideOptions,
}


def _defaults(command: str) -> dict:
    click_app = typer.main.get_command(app)
    params = click_app.commands[command].params
    return {p.name: p.default for p in params}


# ---------------------------------------------------------------------- one default each


@pytest.mark.parametrize("command", list(FAMILIES))
def test_the_command_lines_defaults_are_the_options(command):
    options = FAMILIES[command]()
    given = _defaults(command)
    fields = [f.name for f in dataclasses.fields(options)]
    for name in fields:
        assert name in given, (command, name)
        assert given[name] == getattr(options, name), (command, name)


def test_the_reports_defaults_are_the_options():
    est = inspect.signature(EstimateReport.run).parameters
    for name in ("skill", "n", "seed", "chunk", "hand_set"):
        assert est[name].default == getattr(EstimateOptions, name), name
    smap = inspect.signature(ShotMapReport.run).parameters
    for name in ("skill", "n", "seed", "chunk", "value", "hand_set", "story"):
        assert smap[name].default == getattr(ShotMapOptions, name), name
    best = inspect.signature(BestShotsReport.run).parameters
    for name in ("skill", "value", "n_grid", "iterations", "population", "n_cem", "top", "n"):
        assert best[name].default == getattr(BestOptions, name), name


def test_the_families_own_defaults():
    assert (EstimateOptions.n, ShotMapOptions.n, BestOptions.n, DecideOptions.n) == (
        10_000,
        200,
        2000,
        20_000,
    )
    assert BestOptions().speed_values == [1.0, 2.0, 3.5]
    assert BestOptions().keywords()["speeds"] == [1.0, 2.0, 3.5]
    assert set(EstimateOptions().keywords()) == {"skill", "n", "seed", "chunk", "hand_set"}
    assert PlayOptions().as_dict() == {
        "variant": "icf",
        "games": 1,
        "policy": "greedy",
        "skill": "club",
        "seed": 0,
        "slots": 256,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        PlayOptions().games = 2  # type: ignore[misc]


# ---------------------------------------------------------------------- one check each


@pytest.mark.parametrize(
    ("make", "line"),
    [
        (lambda: EstimateOptions(n=0), "--n 0: must be at least 1"),
        (lambda: EstimateOptions(speed=0.0), "--speed 0.0: must be positive"),
        (lambda: EstimateOptions(angle=400.0), "--angle 400.0: must be at most 360 degrees"),
        (lambda: EstimateOptions(hand_set=0.5), "--hand-set 0.5: must be at most 0.1 m"),
        (lambda: ShotMapOptions(seed=2**32), "--seed 4294967296: must be at most 4,294,967,295"),
        (lambda: ShotMapOptions(angles="30:150:x"), "--angles must be START:STOP:COUNT"),
        (lambda: ShotMapOptions(speeds="0:2:3"), "--speeds '0:2:3': 0.0 must be positive"),
        (lambda: ShotMapOptions(chunk=2**21), "--chunk 2097152: must be at most"),
        (lambda: BestOptions(top=0), "--top 0: must be at least 1"),
        (lambda: BestOptions(iterations=-1), "--iterations -1: must be at least 0"),
        (lambda: BestOptions(speeds=""), "--speeds '': must not be empty"),
        (lambda: PlayOptions(slots=0), "--slots 0: must be at least 1"),
        (lambda: PlayOptions(games=10**7), "--games 10000000: must be at most 1,000,000"),
        (lambda: DecideOptions(n=0), "--n 0: must be at least 1"),
        (lambda: DecideOptions(seed=-1), "--seed -1: must be at least 0"),
    ],
)
def test_a_bad_number_is_one_line_naming_the_option(make, line):
    with pytest.raises(CarromlabError) as e:
        make()
    text = str(e.value)
    assert len(text.splitlines()) == 1 and text.startswith(line), text


@pytest.mark.parametrize(
    ("args", "make"),
    [
        (["play", "--slots", "0"], lambda: PlayOptions(slots=0)),
        (["estimate", "--angle", "400"], lambda: EstimateOptions(angle=400.0)),
        (["best", "--n-cem", "0"], lambda: BestOptions(n_cem=0)),
        (["shotmap", "--speeds", "0:2:3"], lambda: ShotMapOptions(speeds="0:2:3")),
        (["decide", "--n", "0"], lambda: DecideOptions(n=0)),
    ],
)
def test_the_command_line_says_what_the_options_say(capsys, tmp_path, args, make):
    code, out, err = run(capsys, *args, *(["--out", str(tmp_path / "o")] * (args[0] != "decide")))
    with pytest.raises(CarromlabError) as e:
        make()
    assert code == 2 and out == "" and err == f"error: {e.value}\n"


def test_a_unit_written_is_kept_and_checked():
    q = Quantity(65.9, "angle", "65.9deg")
    assert EstimateOptions(angle=q).angle.text == "65.9deg"
    with pytest.raises(CarromlabError, match=r"--placement 400\.0: must be at most 360"):
        EstimateOptions(placement=400.0)


# ---------------------------------------------------------------------- the shot's set-up


def test_the_setup_of_a_shot_without_the_command_line():
    icf = setup_shot("estimate", "icf")
    assert icf.position.name == "icf-midgame" and not icf.own_command
    assert icf.turn == shot_turn(icf.game, {}, icf.position)
    # Carrooka: its own options move the striker and nominate the piece on
    options = {"striker": "0.05,-0.25", "nominate": "blue"}
    carrooka = setup_shot("best", "carrooka", "carrooka-midgame", options)
    striker = next(p for p in carrooka.position.pieces if p.kind == "striker")
    assert (striker.x, striker.y) == (0.05, -0.25) and carrooka.turn.on == "blue"
    assert set(carrooka.options) == {o.key for o in carrooka.game.shot_options}
    # KOOBA's estimate is its own: no position, and --position refused
    kooba = setup_shot("estimate", "kooba")
    assert kooba.own_command and kooba.position is None and kooba.turn is None
    with pytest.raises(CarromlabError, match="--position does not apply to estimate"):
        setup_shot("estimate", "kooba", "icf-midgame")
    with pytest.raises(CarromlabError, match="best needs a game with shot analysis"):
        setup_shot("best", "kooba")
    with pytest.raises(CarromlabError, match="is for"):
        shot_position("icf-opening", "carroms")
    with pytest.raises(CarromlabError, match="neither a position file"):
        setup_shot("estimate", "icf", "nope")
    with pytest.raises(CarromlabError, match="off the carrooka board"):
        setup_shot("estimate", "carrooka", options={"striker": "12,20"})


def test_the_setup_needs_no_jax():
    """The position, its turn and the game's options are worked out before JAX loads, so a
    command refuses a bad name or file at once."""
    code = textwrap.dedent(
        """
        import json, sys
        from carromlab.shot_setup import setup_shot
        s = setup_shot("shotmap", "carrooka", None, {"nominate": "blue"})
        print(json.dumps([s.position.name, s.turn.on, "jax" in sys.modules]))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == ["carrooka-opening", "blue", False]


def test_estimates_shot_is_the_options():
    setup = setup_shot("estimate", "icf")
    warned: list[str] = []
    shot = estimate_shot(EstimateOptions(placement=0.05, angle=1.15), setup, warned.append)
    assert shot.x == pytest.approx(0.05) and shot.speed == 2.0
    assert len(warned) == 1 and warned[0].startswith("warning: --angle 1.15 looks like radians")
    default = estimate_shot(EstimateOptions(), setup, warned.append)
    assert default.x == get_game("icf").default_placement and len(warned) == 1
    with pytest.raises(CarromlabError, match="does not point forward"):
        estimate_shot(EstimateOptions(angle=250.0), setup, warned.append)


def test_a_maps_grid_defaults_to_its_games():
    from carromlab.analysis.shotmap import FALLBACK_GRID

    for game in GAMES.values():
        for variant in game.variants:
            assert grid_specs(variant) == (game.default_grid or FALLBACK_GRID)
    setup = setup_shot("shotmap", "icf")
    grid = map_grid(ShotMapOptions(), setup)
    assert grid.cells == 13 * 61 and grid.speeds == [2.0]
    assert grid.placements.text == "-0.18:0.18:13" and grid.angles.text == "30:150:61"
    warned: list[str] = []
    small = map_grid(ShotMapOptions(angles="0.5:2.6:3", speeds="1,2"), setup, warned.append)
    assert small.cells == 13 * 3 * 2 and small.axes()[2] == [1.0, 2.0]
    assert warned and "look like radians" in warned[0]
    with pytest.raises(CarromlabError, match="do not point forward"):
        map_grid(ShotMapOptions(angles="0:360:73"), setup)
    with pytest.raises(CarromlabError, match="one kernel run"):
        map_grid(ShotMapOptions(n=10**8), setup)


# ---------------------------------------------------------------------- the reports take them


def test_reports_run_what_the_options_describe(monkeypatch):
    import carromlab.analysis

    got = {}

    def estimate(position, shot, **kw):
        got["estimate"] = (position.name, shot, kw)
        raise CarromlabError("stand-in")

    def best_shots(position, **kw):
        got["best"] = (position.name, kw)
        raise CarromlabError("stand-in")

    monkeypatch.setattr(carromlab.analysis, "estimate", estimate)
    monkeypatch.setattr(carromlab.analysis, "best_shots", best_shots)
    options = EstimateOptions(position="icf-queen-shot", n=64, seed=5, angle=80.0)
    with pytest.raises(CarromlabError, match="stand-in"):
        EstimateReport.from_options(options)
    name, shot, kw = got["estimate"]
    assert name == "icf-queen-shot" and shot.speed == 2.0
    assert (kw["n"], kw["seed"], kw["chunk"], kw["skill"]) == (64, 5, 4096, "club")
    assert kw["turn"] == setup_shot("estimate", "icf", "icf-queen-shot").turn
    with pytest.raises(CarromlabError, match="stand-in"):
        BestShotsReport.from_options(BestOptions(top=2, speeds="2:3:3", value="p_continues"))
    name, kw = got["best"]
    assert name == "icf-midgame" and kw["speeds"] == [2.0, 2.5, 3.0]
    assert (kw["top_k"], kw["n_final"], kw["value"]) == (2, 2000, "p_continues")


def test_a_play_report_refuses_what_has_no_games(tmp_path):
    with pytest.raises(CarromlabError, match="unknown policy"):
        PlayReport.run(PlayOptions(policy="clever"), tmp_path / "play")
    assert not (tmp_path / "play").exists()
