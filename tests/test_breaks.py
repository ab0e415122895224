"""Break search: keys, the stored table, and a small real search whose break the players use."""

import json
import math

import pytest

from carromlab.analysis import breaks
from carromlab.analysis.policies import Greedy
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.games.icf.rules import IcfScoring, IcfTurn
from carromlab.physics import Physics
from carromlab.registry import standard_position

TINY = dict(
    speeds=(4.5,),
    n_grid=1,
    iterations=1,
    population=4,
    n_cem=4,
    top_k=2,
    n_final=32,
)


def test_the_key_names_what_decides_the_break():
    pos = standard_position("icf-opening")
    turn = breaks.break_turn("icf")
    assert turn == IcfTurn(is_break=True)
    key = breaks.break_key(pos, "club", turn)
    assert key == breaks.break_key(pos, "club", turn, Physics())  # the default physics
    others = [
        breaks.break_key(pos, "expert", turn),
        breaks.break_key(pos, "club", turn, Physics(mu=0.12)),
        breaks.break_key(pos, "club", turn, scoring=IcfScoring(due=0.0)),
        breaks.break_key(pos, "club", IcfTurn(is_break=True, shooter="black")),
        breaks.break_key(pos.replace(pieces=pos.pieces[1:]), "club", turn),
        breaks.break_key(pos, "club", turn, n_final=100),
    ]
    assert len({key, *others}) == len(others) + 1


def test_the_table_is_written_atomically_and_read_back(tmp_path, monkeypatch):
    path = tmp_path / "breaks.json"
    monkeypatch.setattr(breaks, "break_table_path", lambda variant: path)
    record = {
        "key": "k1",
        "variant": "icf",
        "position": "icf-opening",
        "skill": "club",
        "shot": {"placement": 0.01, "angle": 91.0, "speed": 4.5},
    }
    breaks.write_break(record)
    breaks.write_break({**record, "key": "k2", "skill": "expert"})
    assert set(breaks.read_breaks("icf")) == {"k1", "k2"}
    assert json.loads(path.read_text())["breaks"][0]["skill"] == "club"
    assert not path.with_suffix(".json.tmp").exists()


def test_a_small_search_finds_a_legal_break_that_greedy_then_plays(monkeypatch, tmp_path):
    monkeypatch.setattr(breaks, "break_table_path", lambda variant: tmp_path / "b.json")
    monkeypatch.setattr(breaks, "SEARCH", {**breaks.SEARCH, **TINY})
    monkeypatch.setattr(breaks, "_SESSION", {})
    pos = standard_position("icf-opening")
    turn = breaks.break_turn("icf")
    record = breaks.search_break(pos, "club", turn)
    shot = record["shot"]
    assert record["lo"] <= record["value"] <= record["hi"] and record["n"] == TINY["n_final"]
    assert record["provenance"]["search"]["n_final"] == TINY["n_final"]
    va = analysis_for("icf")
    assert va.legal_origin(pos, *va.origin(pos, [shot["placement"]]))[0]
    # the player's break: looked up (this session's search), not searched again
    monkeypatch.setattr(breaks, "_SESSION", {record["key"]: record})
    monkeypatch.setattr(breaks, "search_break", lambda *a, **k: pytest.fail("searched again"))
    played = Greedy(break_shot="search").choose(pos, turn, seed=0)
    assert played.x == pytest.approx(shot["placement"])
    assert math.degrees(played.angle) == pytest.approx(shot["angle"])
    assert played.speed == pytest.approx(shot["speed"])


def test_a_bad_break_setting_says_what_is_allowed():
    pos = standard_position("icf-opening")
    with pytest.raises(CarromlabError, match="'search' or None"):
        Greedy(break_shot="best").choose(pos, breaks.break_turn("icf"), seed=0)


def test_carroms_games_find_the_stored_break_of_either_seat():
    """Carroms: the first stroke of a board is its break, and the view each seat breaks from
    (South red, North green, turned as the game turns it) has its searched break stored."""
    from carromlab.games.carroms.machine import new_game
    from carromlab.play.drivers import SEAT_ANGLE, turned
    from carromlab.registry import get_game

    game = get_game("carroms")
    config = game.make_config("carroms")
    table = breaks.read_breaks("carroms")
    for first in (0, 1):
        state = new_game(config, first)
        turn = state.turn_state()
        assert turn.is_break and turn.shooter == ("red", "green")[first]
        view = turned(state.position, -SEAT_ANGLE[config.seats[first]])
        assert view.set_by_hand
        assert breaks.break_key(view, "club", turn) in table
    assert game.make_player("greedy-break").break_shot == "search"
    assert game.make_player("greedy").break_shot is None  # screens its break


def test_carrooka_plays_the_stored_break_on_the_games_first_stroke(monkeypatch):
    """Carrooka: ``greedy-break`` plays the searched break from the break line (looked up in
    the table, under the player's own foul price), and screens the strokes after it."""
    from carromlab.analysis.asks import Evaluator
    from carromlab.analysis.policies import run_plan
    from carromlab.games.carrooka.driver import CAPACITY
    from carromlab.games.carrooka.machine import new_game
    from carromlab.games.carrooka.players import CarrookaGreedy
    from carromlab.games.carrooka.rules import CarrookaScoring, CarrookaTurn
    from carromlab.registry import get_game

    monkeypatch.setattr(breaks, "search_break", lambda *a, **k: pytest.fail("searched"))
    game = get_game("carrooka")
    config = game.make_config("carrooka")
    state = new_game(config)
    player = game.make_player("greedy-break")
    turn = breaks.break_turn("carrooka")
    assert turn == CarrookaTurn("red")
    key = breaks.break_key(state.position, "club", turn, scoring=CarrookaScoring(foul=player.foul))
    stored = breaks.read_breaks("carrooka")[key]["shot"]
    evaluator = Evaluator(state.position.board.layout, CAPACITY)
    shot = run_plan(player.plan(state, config, 0), evaluator)
    angle = math.degrees(math.atan2(float(shot.y[0]), float(shot.x[0])))
    assert angle == pytest.approx(stored["placement"])
    assert math.degrees(float(shot.angle[0])) == pytest.approx(stored["angle"])
    assert float(shot.speed[0]) == pytest.approx(stored["speed"])
    with pytest.raises(CarromlabError, match="'search' or None"):
        CarrookaGreedy(break_shot="fixed")
