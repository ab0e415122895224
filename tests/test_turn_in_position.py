"""A position carries its game's turn ("turn" in its JSON): read and written, checked against
the game's turn type in one line, and the turn every analysis values shots under (estimate,
shot maps, best, the explorer), said in words. Cheap: the ICF positions here share one
compiled kernel (20 discs) and use few shots."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from cli_run import no_work, run

import carromlab as cl
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError, PositionError
from carromlab.games.icf.midgame import BASELINE_Y, CUT_POCKET, CUT_STRIKER_X, ghost_aim
from carromlab.games.icf.rules import IcfTurn
from carromlab.position import Position
from carromlab.registry import position_turn, standard_position

TURN = {"shooter": "white", "own_down": 6, "opponent_down": 4}
SENTENCE = "white to play, 6 own coins down, 4 opponent's, queen on the board"


def queen_shot() -> cl.Shot:
    pos = standard_position("icf-queen-shot")
    q = pos.by_id("q")
    angle = ghost_aim(pos.board, CUT_STRIKER_X, BASELINE_Y, q.x, q.y, CUT_POCKET)
    return cl.Shot(CUT_STRIKER_X, BASELINE_Y, angle, 2.0)


def write(tmp_path, pos_or_doc, name="p.json"):
    path = tmp_path / name
    doc = pos_or_doc.to_dict() if isinstance(pos_or_doc, Position) else pos_or_doc
    path.write_text(json.dumps(doc))
    return path


# ---------------------------------------------------------------------- the file


def test_a_turn_round_trips_through_json():
    pos = standard_position("icf-midgame").replace(turn=dict(TURN, shooter="black"))
    text = pos.to_json()
    assert json.loads(text)["turn"] == dict(TURN, shooter="black")
    back = Position.from_json(text)
    assert back == pos and back.turn == dict(TURN, shooter="black")
    assert hash(back) == hash(pos)  # a position is a cache key
    assert back.to_json() == text
    # without a turn a file is as before: no key
    assert "turn" not in standard_position("icf-midgame").to_dict()
    # a turn object is taken as its fields (every one)
    as_object = pos.replace(turn=IcfTurn("black", 6, 4))
    assert as_object.turn == vars(IcfTurn("black", 6, 4))
    assert position_turn(as_object) == position_turn(pos) == IcfTurn("black", 6, 4)


def test_the_standard_queen_shot_carries_its_turn():
    pos = standard_position("icf-queen-shot")
    assert pos.turn == TURN and pos.validate() == []
    assert position_turn(pos) == IcfTurn("white", 6, 4)
    assert pos.count("coin", "white") == 3 and pos.count("coin", "black") == 5
    assert pos.count("queen") == 1


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        ([1, 2], "'turn' must be an object of the game's turn fields, not a list"),
        ({"shooter": {"a": 1}}, "turn field 'shooter' must be a string, a number, true, false"),
        ({"shooter": "w" * 65}, "turn field 'shooter' is too long: 65 characters (at most 64)"),
        ({f"f{i}": 0 for i in range(17)}, "'turn' has 17 fields (at most 16)"),
        ({"own_down": 1e400}, "turn field 'own_down' must be finite, not inf"),
    ],
)
def test_the_document_refuses_a_turn_that_is_not_an_object_of_scalars(turn, words):
    doc = standard_position("icf-midgame").to_dict() | {"turn": turn}
    with pytest.raises(PositionError) as e:
        Position.from_dict(doc)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_json_schema_holds_the_turn():
    jsonschema = pytest.importorskip("jsonschema")
    from carromlab.position_schema import json_schema

    validator = jsonschema.Draft202012Validator(json_schema())
    doc = standard_position("icf-queen-shot").to_dict()
    assert not list(validator.iter_errors(doc))
    assert list(validator.iter_errors(doc | {"turn": [1]}))
    assert list(validator.iter_errors(doc | {"turn": {"shooter": {"a": 1}}}))


# ---------------------------------------------------------------------- the game's word


def test_an_unknown_field_is_refused_naming_it_and_the_known_ones():
    pos = standard_position("icf-midgame").replace(turn={"own_dow": 3})
    with pytest.raises(CarromlabError) as e:
        analysis_for("icf").turn_of(pos)
    line = str(e.value)
    assert line.startswith("turn: unknown field 'own_dow' for icf; did you mean own_down")
    assert "shooter, own_down, opponent_down, queen_pending, dues, is_break" in line
    assert "\n" not in line


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"own_down": 12}, "turn: IcfTurn.own_down must be at most 9, not 12"),
        ({"shooter": "red"}, "turn: IcfTurn.shooter must be 'white' or 'black', not 'red'"),
        ({"queen_pending": "yes"}, "turn: IcfTurn.queen_pending must be true or false, not 'yes'"),
        ({"own_down": 2.5}, "turn: IcfTurn.own_down must be a whole number, not 2.5"),
        ({"dues": True}, "turn: IcfTurn.dues must be a whole number, not true"),
    ],
)
def test_a_bad_value_is_the_turn_types_own_line(fields, words):
    pos = standard_position("icf-midgame").replace(turn=fields)
    with pytest.raises(CarromlabError) as e:
        analysis_for("icf").turn_of(pos)
    assert str(e.value) == words


def test_no_turn_is_the_default_and_a_partial_turn_takes_the_defaults():
    va = analysis_for("icf")
    assert va.turn_of(standard_position("icf-midgame")) == IcfTurn()
    pos = standard_position("icf-midgame").replace(turn={"queen_pending": True})
    assert va.turn_of(pos) == IcfTurn(queen_pending=True)


# each game's turn: the fields it takes, a sentence, a value it refuses
GAMES = [
    ("icf-queen-shot", TURN, SENTENCE, {"own_down": -1}, "IcfTurn.own_down must be a whole"),
    (
        "carroms-opening",
        {"shooter": "green", "own_down": 2},
        "green to play, 2 own rings down",
        {"own_down": -1},
        "CarromsTurn.own_down must be a whole number >= 0, not -1",
    ),
    (
        "carrooka-midgame",
        {"on": "black", "counter": "r1"},
        "on: black (7 points), piece r1 as a free counter",
        {"on": "purple"},
        "the piece on must be 'red' or a colour",
    ),
    (
        "force-out-opening",
        {"shooter": "green", "opponent_out_of_play": 2},
        "green to play, 2 of the opponent's rings out of play",
        {"opponent_out_of_play": -2},
        "ForceOutTurn.opponent_out_of_play must be a whole number >= 0, not -2",
    ),
    (
        "circle-scores-opening",
        {"shooter": "B"},
        "player B to play",
        {"shooter": "C"},
        "the Circle Scores shooter is player A or B, not 'C'",
    ),
    (
        "ring-pegs-opening",
        {"stage": 2},
        "stage 2: into the hole",
        {"stage": 3},
        "the Ring Pegs stage is 1 or 2, not 3",
    ),
]


@pytest.mark.parametrize(("name", "fields", "sentence", "bad", "words"), GAMES)
def test_every_games_turn_is_read_said_and_checked(name, fields, sentence, bad, words):
    from carromlab.rules.turns import describe_turn

    pos = standard_position(name).replace(turn=fields)
    turn = analysis_for(pos.variant).turn_of(pos)
    assert turn == position_turn(pos)  # the analysis' and the command line's, the same
    assert {k: getattr(turn, k) for k in fields} == fields
    assert describe_turn(turn, pos) == sentence
    with pytest.raises(CarromlabError) as e:
        position_turn(pos.replace(turn=bad))
    assert str(e.value).startswith("turn: " + words), str(e.value)


def test_a_kooba_position_takes_no_turn(tmp_path, capsys):
    pos = standard_position("kooba-opening").replace(turn={"shooter": "N"})
    with pytest.raises(CarromlabError, match="a kooba position takes no 'turn'"):
        position_turn(pos)
    path = write(tmp_path, pos)
    code, out, err = run(capsys, "validate", str(path))
    assert code == 1 and out == ""
    words = "a kooba position takes no 'turn': kooba has no turn state to set; drop 'turn'"
    assert err.strip() == f"error: {path}: {words}"


# ---------------------------------------------------------------------- the command line


def test_validate_refuses_a_bad_turn_in_one_line_and_says_a_good_one(tmp_path, capsys):
    good = write(tmp_path, standard_position("icf-queen-shot"), "good.json")
    code, out, err = run(capsys, "validate", str(good))
    assert code == 0 and out.strip() == f"ok: {good} (icf, 9 pieces; turn: {SENTENCE})"
    bad = standard_position("icf-queen-shot").replace(turn={"own_down": 12, "oops": 1})
    path = write(tmp_path, bad, "bad.json")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"error: {path}: turn: unknown field 'oops' for icf;")


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        ({"own_dwn": 6}, "turn: unknown field 'own_dwn' for icf; did you mean own_down?"),
        ({"own_down": 12}, "turn: IcfTurn.own_down must be at most 9, not 12"),
    ],
)
def test_estimate_refuses_a_bad_turn_before_any_work(tmp_path, capsys, turn, words):
    path = write(tmp_path, standard_position("icf-queen-shot").replace(turn=turn))
    with no_work():
        code, out, err = run(capsys, "estimate", "--position", str(path), "--n", "8")
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"error: {path}: {words}")


def test_nominate_wins_over_the_positions_piece_on_and_keeps_its_counter():
    from carromlab.cli.checks import shot_turn
    from carromlab.games.carrooka.rules import CarrookaTurn
    from carromlab.registry import get_game

    game = get_game("carrooka")
    pos = standard_position("carrooka-midgame").replace(turn={"on": "black", "counter": "r1"})
    options = {"striker": "", "nominate": ""}
    assert shot_turn(game, options, pos) == CarrookaTurn("black", "r1")
    assert shot_turn(game, {**options, "nominate": "blue"}, pos) == CarrookaTurn("blue", "r1")
    bare = standard_position("carrooka-midgame")
    assert shot_turn(game, options, bare) == CarrookaTurn()
    assert shot_turn(game, {**options, "nominate": "pink"}, bare) == CarrookaTurn("pink")


# ---------------------------------------------------------------------- the analyses


def test_an_estimate_under_the_positions_turn_is_the_estimate_under_that_turn():
    pos = standard_position("icf-queen-shot")
    bare = pos.replace(turn=None)
    shot = queen_shot()
    own = cl.estimate(pos, shot, n=64, seed=3)
    given = cl.estimate(bare, shot, n=64, seed=3, turn=IcfTurn("white", 6, 4))
    pd.testing.assert_frame_equal(own, given)
    assert own.attrs["config"]["turn"] == given.attrs["config"]["turn"] == vars(IcfTurn(**TURN))
    # an explicit turn wins over the position's
    default = cl.estimate(pos, shot, n=64, seed=3, turn=IcfTurn())
    pd.testing.assert_frame_equal(default, cl.estimate(bare, shot, n=64, seed=3))
    # and the turn matters: a queen pocketed alone awaits her cover only under the turn
    q = {r.quantity: r.estimate for r in own.itertuples()}
    d = {r.quantity: r.estimate for r in default.itertuples()}
    assert q["capture:q"] == d["capture:q"] > 0
    assert q["queen_illegal"] == 0 and d["queen_illegal"] > 0
    assert q["continues"] > d["continues"]


def test_shot_maps_and_best_value_cells_under_the_positions_turn():
    from carromlab.analysis import evaluate_cells

    pos = standard_position("icf-queen-shot")
    shot = queen_shot()
    cells = [(CUT_STRIKER_X, float(np.degrees(shot.angle)), 2.0)]
    own = evaluate_cells(pos, cells, n=32, seed=1)
    given = evaluate_cells(pos.replace(turn=None), cells, n=32, seed=1, turn=IcfTurn(**TURN))
    pd.testing.assert_frame_equal(own, given)
    assert own.attrs["config"]["turn"] == vars(IcfTurn(**TURN))


def test_the_commands_say_which_turn_they_assumed(capsys, tmp_path):
    shot = queen_shot()
    args = [f"--placement={CUT_STRIKER_X}", "--angle", f"{np.degrees(shot.angle):.4f}deg"]
    args += ["--speed", "2", "--n", "16"]
    code, out, _ = run(capsys, "estimate", "--position", "icf-queen-shot", *args)
    assert code == 0 and f"turn: {SENTENCE}" in out
    code, out, _ = run(capsys, "estimate", "--position", "icf-midgame", *args)
    assert code == 0 and "turn: white to play, no coins down, queen on the board" in out
    grid = ["--placements=-0.05", "--angles", "60deg,66deg", "--speeds", "2", "--n", "4"]
    code, out, _ = run(
        capsys,
        "shotmap",
        "--position",
        "icf-queen-shot",
        *grid,
        "--out",
        str(tmp_path),
        "--json",
    )
    assert code == 0 and json.loads(out)["turn"] == SENTENCE


def test_reports_say_the_turn_and_best_prints_it(capsys):
    from carromlab.cli.tables import print_best
    from carromlab.reports import EstimateReport

    pos = standard_position("icf-queen-shot")
    report = EstimateReport.run(pos, queen_shot(), n=16, seed=0)
    assert report.turn_text == SENTENCE and report.summary()["turn"] == SENTENCE
    rows = pd.DataFrame(
        [
            {
                "rank": 1,
                "placement": -0.05,
                "angle": 60.0,
                "speed": 2.0,
                "points": 1.0,
                "points_lo": 0.5,
                "points_hi": 1.5,
                "n": 16,
            }
        ]
    )
    print_best(rows, "points", analysis_for("icf"), pos, SENTENCE)
    out = capsys.readouterr().out
    assert out.splitlines()[1] == f"turn: {SENTENCE}"


def test_the_explorer_opens_a_position_with_its_turn_in_words(monkeypatch):
    pytest.importorskip("anywidget")
    from pathlib import Path

    from carromlab.explore.model import turn_text

    assert turn_text(standard_position("icf-queen-shot")) == SENTENCE
    assert turn_text(standard_position("kooba-opening")) == ""
    monkeypatch.setattr(cl.Explorer, "_refresh", lambda self: None)  # no shots: the page only
    ex = cl.Explorer("icf-queen-shot", background=False)
    try:
        assert ex.turn_text == SENTENCE
        ex.position = "icf-midgame"
        assert ex.turn_text == "white to play, no coins down, queen on the board"
    finally:
        ex.close()
    import carromlab.explore.widget as widget

    js = (Path(widget.__file__).parent / "static" / "explorer.js").read_text()
    assert 'model.on("change:turn_text"' in js
