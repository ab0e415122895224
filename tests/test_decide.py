"""``decide`` and ``carromlab decide``: a player's chosen stroke at a position, the player's
own estimate and an independent re-estimate (carromlab/analysis/decide.py).

Cheap on purpose: the greedy player (about 320 kernel shots a stroke) and small
re-estimates, on ICF positions whose kernel programs the suite compiles anyway (the
players' evaluator at 20 discs, the shot runner of the mid-game and of a three-coin
board)."""

from __future__ import annotations

import json
import math

import pytest
from cli_run import no_work, run
from test_cli_units import probe

from carromlab.errors import CarromlabError
from carromlab.position import Piece, Position
from carromlab.registry import GAMES, STRONGEST, Game, get_game, standard_position

#: The re-estimate's executions in these tests.
N = 500


def legal(result) -> None:
    """The chosen stroke is one the game lets the shooter play: a legal origin, a forward
    aim on a line board, a sane speed (the game's own check, as ``estimate`` makes it)."""
    from carromlab.analysis.variants import analysis_for

    va = analysis_for(result.variant)
    va.check_shot(result.position, result.shot)
    assert va.legal_origin(result.position, result.shot.x, result.shot.y)[0]
    if va.origin_of is None:  # a line board: forward
        assert 0.0 < result.shot.angle < math.pi
    assert 0.0 < result.shot.speed <= 15.0


# ---------------------------------------------------------------------- strongest, per game


def test_strongest_names_the_top_of_each_games_ladder():
    """One field per game (docs/decisions.md): ICF's search-based player, the searched break
    for Carroms and Carrooka, Force Out's racing player, KOOBA's refined aims with the early
    attack; greedy where nothing stronger is measured (Circle Scores, Ring Pegs)."""
    want = {
        "icf": "search",
        "carroms": "greedy-break",
        "carrooka": "greedy-break",
        "force-out": "greedy-race",
        "circle-scores": "greedy",
        "ring-pegs": "greedy",
        "kooba": "strong",
    }
    for name, policy in want.items():
        game = get_game(name)
        assert game.policy_name(STRONGEST) == policy, name
        assert policy in game.players
    for game in GAMES.values():  # every game's resolves to one of its players
        assert game.policy_name(STRONGEST) in game.players, game.name
        assert game.policy_name("greedy") == "greedy"


def test_a_strongest_player_the_game_does_not_have_is_refused():
    with pytest.raises(CarromlabError, match="strongest player 'nope' is not one of"):
        Game("toy", "Toy", ("toy",), "icf", players={"greedy": None}, strongest="nope")


# ---------------------------------------------------------------------- the decision


def test_the_chosen_stroke_is_legal_and_the_same_for_a_seed_through_the_api_and_json(capsys):
    """The library's decision and the command's JSON agree stroke for stroke (the same
    seed), the stroke is legal, and the JSON carries every field: the stroke in the command
    line's units, the player's own estimate, the turn assumed, the re-estimate with its
    intervals (on another seed than the player's)."""
    from carromlab.analysis.decide import decide, estimate_seed

    pos = standard_position("icf-midgame")
    result = decide(pos, "greedy", skill="club", seed=3, n=N)
    legal(result)
    assert result.player == "greedy" and result.decision.values  # the player's own value
    assert set(result.decision.values) == {"value"}
    code, out, err = run(
        capsys, "decide", "--position", "icf-midgame", "--seed", "3", "--n", str(N), "--json"
    )
    assert code == 0, err
    doc = json.loads(out)
    stroke = doc["stroke"]
    assert stroke["placement_unit"] == "m" and stroke["lies"] is False
    assert stroke["placement"] == pytest.approx(float(result.shot.x), abs=1e-12)
    assert stroke["angle"] == pytest.approx(math.degrees(float(result.shot.angle)), abs=1e-9)
    assert stroke["speed"] == pytest.approx(float(result.shot.speed), abs=1e-12)
    assert doc["policy"] == doc["player"] == "greedy" and doc["skill"] == "club"
    assert doc["variant"] == "icf" and doc["position"] == "icf-midgame" and doc["seed"] == 3
    assert doc["player_values"]["value"] == pytest.approx(result.decision.values["value"])
    assert doc["turn"]["shooter"] == "white" and doc["turn_from"] in ("default", "position")
    assert "white" in doc["turn_text"]  # the turn assumed, in words
    est = doc["estimate"]
    assert est["n"] == N and est["seed"] == estimate_seed(3) != 3
    for key in ("points", "p_foul", "p_continues"):
        r = est[key]
        assert r["lo"] <= r["estimate"] <= r["hi"], key
    assert est["points"]["quantity"] == "points" and est["p_foul"]["quantity"] == "foul"
    assert est["points"]["estimate"] == pytest.approx(result.quantity("points"))
    assert doc["shots"]["plan"] > 0 and doc["shots"]["estimate"] == N
    # the words: the stroke, the turn assumed, the re-estimate
    code, out, err = run(capsys, "decide", "--position", "icf-midgame", "--seed", "3", "--n", "200")
    assert code == 0, err
    assert f"angle {math.degrees(float(result.shot.angle)):.1f} deg" in out
    assert "\nturn: " in out and "player's estimate: value" in out
    assert "re-estimate: 200 executions at club" in out and "points:" in out


def test_the_positions_turn_is_the_one_decided_and_re_estimated_under():
    """A position that carries its turn (icf-queen-shot: white, 6 own coins down, 4 of
    black's) is decided under it, the re-estimate valued under it, and the turn line says it
    is the position's."""
    from carromlab.analysis.decide import decide

    result = decide(standard_position("icf-queen-shot"), "greedy", seed=0, n=200)
    legal(result)
    assert result.turn_from == "position"
    assert (result.turn.own_down, result.turn.opponent_down) == (6, 4)
    assert result.estimate.attrs["config"]["turn"]["own_down"] == 6
    assert result.turn_line().endswith("(the position's)")
    assert "6 own coins down" in result.turn_line()


def arrow_coin() -> Position:
    """White's one coin on the north-east arrow, 10 cm from the pocket, and two black coins
    (tests/test_analysis.py's best-shot position, with its second white coin made black)."""
    board = standard_position("icf-opening").board
    pk = next(c for c in board.layout.captures if c.name == "pocket.NE")
    u = 0.1 / math.sqrt(2)
    return Position(
        "icf",
        (
            Piece("w1", "coin", "white", pk.x - u, pk.y - u),
            Piece("b1", "coin", "black", -0.30, 0.05),
            Piece("b2", "coin", "black", 0.0, 0.30),
        ),
        name="arrow-coin",
    )


def test_an_obvious_pot_is_decided_and_re_estimated_as_one():
    """The coin on the arrow: the strongest ICF player (the search-based player) pots it, and the
    independent re-estimate says it nearly always goes down (greedy at its smaller budget
    finds a cut that pots it about 4 times in 5)."""
    from carromlab.analysis.decide import decide

    result = decide(arrow_coin(), STRONGEST, skill="expert", seed=0, n=N)
    legal(result)
    assert result.player == "search"
    assert result.quantity("capture:w1") >= 0.9
    rows = result.estimate.set_index("quantity")
    assert rows.loc["capture:w1", "lo"] > 0.85
    assert result.headline()["points"]["estimate"] >= 0.85
    assert result.headline()["p_foul"]["estimate"] <= 0.05


# ---------------------------------------------------------------------- bad input


BAD = [
    (["decide", "--position", "nope"], "'nope' is neither a position file"),
    (["decide", "--policy", "gredy"], "unknown policy 'gredy' for icf; did you mean greedy"),
    (["decide", "--policy", "strongst"], "did you mean strongest"),
    (["decide", "--skill", "klub"], "unknown skill 'klub'; did you mean club?"),
    (["decide", "--variant", "kooba"], "decide is not available for 'kooba': it decides"),
    (["decide", "--variant", "carom"], "unknown game or variant 'carom'"),
    (["decide", "--position", "icf-opening", "--variant", "carroms"], "is for variant 'icf'"),
    (["decide", "--n", "0"], "--n"),
    (["decide", "--seed", "-1"], "--seed"),
]


def test_bad_input_is_one_line_before_any_work(capsys):
    for args, needle in BAD:
        with no_work():
            code, _, err = run(capsys, *args)
        assert code == 2 and err.startswith("error: "), (args, err)
        assert len(err.strip().splitlines()) == 1, (args, err)
        assert needle in err, (args, err)


def test_bad_input_is_refused_before_jax_is_imported():
    results = probe(*(args for args, _ in BAD))
    for (args, needle), (code, line, lines, jax, _) in zip(BAD, results):
        assert code == 2 and lines == 1 and needle in line, (args, line)
        assert not jax, (args, "imported JAX")


def test_the_library_refuses_a_game_it_does_not_decide():
    from carromlab.analysis.decide import decide

    with pytest.raises(CarromlabError, match="decide is not available for 'kooba'"):
        decide(standard_position("kooba-opening"), "greedy")


# ---------------------------------------------------------------------- the other games


@pytest.mark.parametrize(
    "name",
    [
        "carroms-opening",
        "carrooka-midgame",
        "force-out-opening",
        "circle-scores-opening",
        "ring-pegs-opening",
    ],
)
def test_every_game_with_shot_analysis_decides_a_legal_stroke(name):
    """Each game's greedy player, shown the position as its players see it in play (the
    sliding-disc games: the position; Carrooka: a game state holding it), decides a legal
    stroke in the command line's units, and the re-estimate runs."""
    from carromlab.analysis.decide import decide

    result = decide(standard_position(name), "greedy", seed=0, n=200)
    legal(result)
    stroke = result.stroke()
    assert stroke is not None
    if stroke["lies"]:  # played from where it lies: no placement
        assert stroke["placement"] is None
    else:
        assert stroke["placement"] is not None
    doc = result.summary()
    assert doc["estimate"]["points"]["lo"] <= doc["estimate"]["points"]["hi"]
    if result.variant == "carrooka":  # the piece on: red while reds are on
        assert doc["played_turn"]["on"] == "red"


@pytest.mark.parametrize(
    "name",
    ["force-out-opening", "ring-pegs-opening", "carrooka-midgame"],
)
def test_each_games_search_player_plays_at_least_its_greedy_players_stroke(name):
    """Every game's ``search`` player is its greedy player on the map search
    (:func:`~carromlab.analysis.policies.map_searching`): it decides a legal stroke, the same
    again from the seed, worth at least greedy's (the re-estimates are paired: one seed, so
    one set of keys, for both strokes; 2,000 executions each)."""
    from carromlab.analysis.decide import decide

    pos = standard_position(name)
    mine = decide(pos, "search", seed=0, n=2000)
    legal(mine)
    assert mine.shots["plan"] > 8000  # its budget (16,384 a decision) was spent
    again = decide(pos, "search", seed=0, n=200)
    assert again.stroke() == mine.stroke()
    greedy = decide(pos, "greedy", seed=0, n=2000)
    ours, theirs = mine.quantity("points"), greedy.quantity("points")
    assert ours >= theirs - 0.05, (ours, theirs)
