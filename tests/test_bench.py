"""Benchmark plumbing (not timing): scenarios, the committed cut position, the JSON report."""

import json

import pytest

from carromlab.bench import scenario
from carromlab.cli import main
from carromlab.registry import standard_position
from carromlab.shots import noisy_shots, shot_keys


def test_cut_scenario_uses_the_midgame_position_with_clear_paths():
    pos = standard_position("icf-midgame")
    assert scenario("cut").position == pos
    assert len(pos.pieces) == 19 and pos.validate() == []


def test_shot_keys_do_not_depend_on_chunking():
    sc = scenario("cut")
    whole = noisy_shots(sc.shot, sc.noise, shot_keys(3, 0, 10))
    part = noisy_shots(sc.shot, sc.noise, shot_keys(3, 6, 4))
    assert list(map(float, whole.angle[6:])) == list(map(float, part.angle))
    assert float(whole.angle.std()) > 0.001  # the noise is there


def test_bench_json_report(capsys):
    try:
        main(["bench", "--scenario", "cut", "--batch", "64", "--chunk", "32", "--json"])
    except SystemExit as e:  # pragma: no cover - typer exits 0
        assert not e.code
    report = json.loads(capsys.readouterr().out)
    assert report["scenario"] == "cut" and report["batch"] == 64
    assert report["truncated"] == 0
    assert 5 <= report["events_per_shot"]["mean"] <= report["events_per_shot"]["max"] < 200
    assert report["shots_per_s"] > 0 and report["compile_s"] > 0
    assert {"device", "jax_version", "dtype"} <= set(report)


def test_pymunk_peer_pockets_the_cut():
    pytest.importorskip("pymunk")
    from carromlab.bench.pymunk_peer import simulate_pymunk
    from carromlab.bench.runner import scenario_template

    sc = scenario("cut")
    table, _, pieces = scenario_template(sc)
    import math
    from dataclasses import replace

    import numpy as np

    vx, vy = pieces.vx.copy(), pieces.vy.copy()
    vx[0], vy[0] = 2.0 * math.cos(sc.shot.angle), 2.0 * math.sin(sc.shot.angle)
    out = simulate_pymunk(table, replace(pieces, vx=vx, vy=vy))
    w1 = pieces.ids.index("w1")
    ne = table.capture_names.index("pocket.NE")
    assert out["capture"][w1] == ne
    assert np.sum(out["capture"] >= 0) == 1


def _boards_json(capsys, *args: str) -> dict:
    """``bench --scenario boards ARGS --json``'s report."""
    try:
        main(["bench", "--scenario", "boards", *args, "--json"])
    except SystemExit as e:  # pragma: no cover - typer exits 0
        assert e.code in (0, None)
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_boards_bench_json_report(capsys):
    """The whole-board benchmark's plumbing on one board (the figures are in
    docs/benchmarks.md)."""
    rep = _boards_json(capsys, "--batch", "1", "--skill", "pro")
    assert rep["scenario"] == "boards" and rep["boards"] == 1 and rep["skill"] == "pro"
    assert rep["strokes"] >= 1 and rep["kernel_shots"] > rep["strokes"]
    assert rep["truncated_strokes"] == 0 and rep["breaker_wins"] in (0, 1)
    assert rep["policy_name"] == "greedy" and rep["shots_per_stroke"] > 1


def test_boards_bench_plays_the_search_player_at_the_budget_given(capsys):
    """``--policy search --shots N``: both seats search at N kernel shots a decision."""
    rep = _boards_json(capsys, "--batch", "1", "--policy", "search", "--shots", "512")
    assert rep["policy_name"] == "search" and rep["shots_a_decision"] == 512
    assert rep["strokes"] >= 1 and rep["kernel_shots"] > rep["strokes"]


def test_boards_bench_plays_any_game_with_its_cost_per_decision(capsys):
    """``--game``: another game's whole games (Force Out has no boards) between its own
    player (random: no search, so the kernel shots are the strokes' executions), with the
    cost per board and per decision."""
    rep = _boards_json(capsys, "--game", "force-out", "--batch", "1", "--policy", "random")
    assert rep["game"] == "force-out" and rep["unit"] == "whole games"
    assert rep["strokes"] >= 1 and rep["kernel_shots"] == rep["strokes"]  # one execution each
    assert rep["s_per_decision"] * rep["strokes"] == pytest.approx(rep["elapsed_s"])
    assert "breaker_wins" not in rep


@pytest.mark.parametrize(
    "args, words",
    [
        (["--scenario", "boards", "--game", "kooba", "--policy", "learned"], "'learned'"),
        (["--scenario", "boards", "--game", "icff"], "'icff'"),
        (["--scenario", "cut", "--game", "carroms"], "boards scenario"),
    ],
)
def test_boards_bench_checks_the_game_and_its_players_at_once(capsys, args, words):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", *args, "--json"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


@pytest.mark.parametrize(
    "args, words",
    [
        (["--scenario", "boards", "--policy", "greedy", "--shots", "4096"], "--policy search"),
        (["--scenario", "boards", "--policy", "search", "--shots", "10"], "--shots 10"),
        (["--scenario", "cut", "--shots", "4096"], "boards scenario"),
    ],
)
def test_bench_shots_is_the_search_players_budget_and_checked_at_once(capsys, args, words):
    """``--shots`` (a search player's kernel shots a decision) only with the boards scenario
    and the search player, in range: one line, exit 2, before any kernel runs."""
    with pytest.raises(SystemExit) as exit_:
        main(["bench", *args, "--json"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


def test_boards_bench_refuses_an_unknown_policy_at_once(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--scenario", "boards", "--policy", "lookahed", "--json"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "'lookahed'" in err and "lookahead" in err


@pytest.mark.heavy  # the games benchmark on a second board (the ICF one runs by default)
def test_carrooka_games_bench_json_report(capsys):
    """The Carrooka whole-game benchmark's plumbing on one game."""
    try:
        main(["bench", "--scenario", "carrooka-games", "--batch", "1", "--skill", "pro", "--json"])
    except SystemExit as e:  # pragma: no cover - typer exits 0
        assert e.code in (0, None)
    rep = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rep["scenario"] == "carrooka-games" and rep["games"] == 1 and rep["finished"] == 1
    assert rep["kernel_shots"] > rep["strokes"] >= 1
    assert rep["truncated_strokes"] == 0
