"""Validation of positions: every bad input is refused with a message that names the piece (or
field) and the number; legal edge cases (touching pieces, stacked Aeros) are accepted."""

from __future__ import annotations

import copy
import json
import math

import pytest

from carromlab.equipment import CarrookaBoard, CrokinoleBoard, IcfBoard
from carromlab.errors import CarromlabError, PositionError
from carromlab.position import Piece, Position

ICF = IcfBoard()
CROK = CrokinoleBoard()
R_COIN = ICF.coin_diameter / 2  # 15.5 mm
POCKET_NE = ICF.side / 2 - ICF.pocket_inset  # centre of pocket.NE on both axes
PEG0_ANGLE = math.pi / 8  # peg.0 of the default crokinole board (22.5 deg)
PEG0 = (CROK.small_radius * math.cos(PEG0_ANGLE), CROK.small_radius * math.sin(PEG0_ANGLE))


def pos(variant: str, *pieces: tuple, board=None, name: str = "") -> Position:
    return Position(variant, tuple(Piece(*p) for p in pieces), board, name=name)


def polar(r: float, a: float) -> tuple[float, float]:
    return (r * math.cos(a), r * math.sin(a))


def good_dict() -> dict:
    return {
        "format": "carromlab-position",
        "version": 1,
        "variant": "icf",
        "name": "t",
        "description": "",
        "pieces": [
            {"id": "q", "kind": "queen", "owner": None, "x": 0.0, "y": 0.0},
            {"id": "w1", "kind": "coin", "owner": "white", "x": 0.1, "y": 0.0},
        ],
    }


def edited(fn) -> dict:
    d = copy.deepcopy(good_dict())
    fn(d)
    return d


def _set(d: dict, path: tuple, value) -> None:
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def _del(d: dict, path: tuple) -> None:
    for k in path[:-1]:
        d = d[k]
    del d[path[-1]]


def with_value(path: tuple, value) -> dict:
    return edited(lambda d: _set(d, path, value))


def without(path: tuple) -> dict:
    return edited(lambda d: _del(d, path))


# Each case: a callable that must raise, the exception type, and substrings of the message.
BAD = [
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.0, 0.0), ("w2", "coin", "white", 0.021, 0.0)),
        PositionError,
        ["'w1'", "'w2'", "overlaps", "by 10 mm", "centres 21 mm apart", "radii sum 31 mm"],
        id="icf-overlapping-coins",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.36, 0.0)),
        PositionError,
        ["'w1'", "through the edge", "5.5 mm beyond the frame", "370 mm"],
        id="icf-coin-through-frame",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.4545, 0.0)),
        PositionError,
        ["'w1'", "off the playing surface", "100 mm beyond", "(0.4545, 0.0000)"],
        id="icf-coin-off-surface",
    ),
    pytest.param(
        lambda: pos("icf", ("b3", "coin", "black", POCKET_NE - 0.003, POCKET_NE - 0.004)),
        PositionError,
        ["'b3'", "pocket.NE", "centre 5 mm from its centre", "radius 22.2 mm"],
        id="icf-coin-in-pocket",
    ),
    pytest.param(
        lambda: pos("force-out", ("r1", "ring", "red", 0.005, 0.0)),
        PositionError,
        ["'r1'", "lies in hole", "5 mm", "radius 17.5 mm"],
        id="crokinole-ring-in-centre-hole",
    ),
    pytest.param(
        # Peg radius 4.75 mm + ring radius 15.9 mm - 10.65 mm = 10 mm of overlap.
        lambda: pos("force-out", ("g2", "ring", "green", *polar(0.102 + 0.01065, PEG0_ANGLE))),
        PositionError,
        ["'g2'", "overlaps peg.0", "by 10 mm"],
        id="crokinole-ring-on-peg",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", math.nan, 0.0)),
        PositionError,
        ["'w1'", "non-finite", "x=nan"],
        id="nan-x",
    ),
    pytest.param(
        lambda: pos("icf", ("b1", "coin", "black", 0.0, -math.inf)),
        PositionError,
        ["'b1'", "non-finite", "y=-inf"],
        id="inf-y",
    ),
    pytest.param(
        lambda: pos("icf", ("p1", "puck", None, 0.0, 0.0)),
        PositionError,
        ["'p1'", "unknown kind 'puck'", "'icf'", "coin, queen, striker"],
        id="unknown-kind",
    ),
    pytest.param(
        lambda: pos("carrooka", ("q", "queen", None, 0.0, 0.0)),
        PositionError,
        ["'q'", "unknown kind 'queen'", "'carrooka'", "red"],
        id="queen-in-carrooka",
    ),
    pytest.param(
        lambda: pos("icf", ("c7", "coin", "green", 0.1, 0.0)),
        PositionError,
        ["'c7'", "owner 'green'", "allowed owners: white, black"],
        id="coin-owned-by-green",
    ),
    pytest.param(
        lambda: pos("icf", ("q", "queen", "white", 0.0, 0.0)),
        PositionError,
        ["'q'", "owner 'white'", "queen pieces have no owner"],
        id="neutral-queen-with-owner",
    ),
    pytest.param(
        lambda: pos("icf", *[(f"w{i}", "coin", "white", -0.3 + 0.06 * i, 0.0) for i in range(10)]),
        PositionError,
        ["too many coin pieces", "'white'", "10 (at most 9)"],
        id="ten-white-coins",
    ),
    pytest.param(
        lambda: pos("icf", ("s1", "striker", None, 0.0, -0.25), ("s2", "striker", None, 0.0, 0.25)),
        PositionError,
        ["too many striker pieces", "2 (at most 1)"],
        id="two-strikers",
    ),
    pytest.param(
        lambda: pos("kooba", *[(f"a{i}", "aero", "N", 0.0, 0.0) for i in range(4)]),
        PositionError,
        ["too many aero pieces", "4 (at most 3)"],
        id="four-aeros",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.1, 0.0), ("w1", "coin", "white", -0.1, 0.0)),
        PositionError,
        ["duplicate piece id 'w1'", "pieces[0]", "pieces[1]"],
        id="duplicate-ids",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.1, 0.0), ("", "coin", "black", -0.1, 0.0)),
        PositionError,
        ["pieces[1]", "empty id"],
        id="empty-id",
    ),
    pytest.param(
        lambda: pos("ring-pegs", ("g1", "ring", None, PEG0[0] + 0.003, PEG0[1])),
        PositionError,
        ["'g1'", "must sit on a peg", "3 mm", "peg.0"],
        id="ring-pegs-ring-off-peg",
    ),
    pytest.param(
        lambda: pos("ring-pegs", ("g1", "ring", None, *PEG0), ("g2", "ring", None, *PEG0)),
        PositionError,
        ["two rings on peg.0", "'g1'", "'g2'"],
        id="ring-pegs-two-on-one-peg",
    ),
    pytest.param(
        lambda: pos("carrooka", ("r1", "red", None, 0.395, 0.0)),
        PositionError,
        ["'r1'", "11 mm beyond", "400 mm-radius"],
        id="carrooka-puck-beyond-rail",
    ),
    pytest.param(
        lambda: pos("kooba", ("a1", "aero", "N", 0.27, 0.0)),
        PositionError,
        ["'a1'", "off the board", "corner lies at (0.3133, 0.0000)", "580 mm"],
        id="kooba-aero-corner-off",
    ),
    pytest.param(
        lambda: pos("snooker"),
        CarromlabError,
        ["unknown variant 'snooker'", "icf", "kooba"],
        id="unknown-variant",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("variant",), "snooker")),
        CarromlabError,
        ["unknown variant 'snooker'"],
        id="json-unknown-variant",
    ),
    pytest.param(
        lambda: pos("icf", ("w1", "coin", "white", 0.0, 0.0), board=CarrookaBoard()),
        PositionError,
        ["variant 'icf'", "'icf' board", "not 'carrooka'"],
        id="board-family-mismatch",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"family": "kooba"})),
        PositionError,
        ["variant 'icf'", "'icf' board", "not 'kooba'"],
        id="json-board-family-mismatch",
    ),
    pytest.param(
        lambda: Position.from_json('{"format": "carromlab-position",\n  version: 1}'),
        PositionError,
        ["not valid JSON", "line 2, column 3"],
        id="json-not-json",
    ),
    pytest.param(
        lambda: Position.from_json("[1, 2]"),
        PositionError,
        ["must be a JSON object", "list"],
        id="json-not-an-object",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("format",), "carrom-pos")),
        PositionError,
        ["'format'", "'carromlab-position'", "found 'carrom-pos'"],
        id="json-wrong-format",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("version",), 7)),
        PositionError,
        ["format version 7", "reads version 1"],
        id="json-wrong-version",
    ),
    pytest.param(
        lambda: Position.from_dict(without(("pieces",))),
        PositionError,
        ["missing key 'pieces'"],
        id="json-missing-pieces",
    ),
    pytest.param(
        lambda: Position.from_dict(without(("pieces", 1, "y"))),
        PositionError,
        ["pieces[1]", "missing 'y'"],
        id="json-piece-missing-y",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("pieces", 1, "x"), "0.1")),
        PositionError,
        ["pieces[1]", "'w1'", ".x must be a number", "'0.1'"],
        id="json-x-as-string",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("pieces", 1, "colour"), "red")),
        PositionError,
        ["pieces[1]", "unknown key(s) colour"],
        id="json-unknown-piece-key",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"family": "icf", "size": 0.74})),
        PositionError,
        ["unknown icf board field(s): size"],
        id="json-unknown-board-field",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"family": "icf", "side": -0.74})),
        PositionError,
        ["board field 'side'", "positive", "-0.74"],
        id="json-negative-board-size",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"coin_diameter": "big"})),
        PositionError,
        ["board field 'coin_diameter'", "must be a number", "'big'"],
        id="json-board-field-string",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"side": math.inf})),
        PositionError,
        ["board field 'side'", "finite", "inf"],
        id="json-board-field-inf",
    ),
    pytest.param(
        lambda: Position.from_dict(
            {
                **good_dict(),
                "variant": "force-out",
                "pieces": [],
                "board": {"family": "crokinole", "surround": "moat"},
            }
        ),
        PositionError,
        ["crokinole", "surround", "'moat'"],
        id="json-bad-crokinole-surround",
    ),
    pytest.param(
        lambda: Position.from_json(json.dumps(good_dict()).replace('"x": 0.1', '"x": NaN')),
        PositionError,
        ["'w1'", "non-finite", "x=nan"],
        id="json-nan-literal-x",
    ),
    pytest.param(
        lambda: Position.from_json(json.dumps(good_dict()).replace('"x": 0.1', '"x": -1e400')),
        PositionError,
        ["'w1'", "non-finite", "x=-inf"],
        id="json-overflowing-float-x",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("pieces", 1, "y"), 7 * 10**400)),
        PositionError,
        ["'w1'", "non-finite", "y=inf"],
        id="json-huge-integer-y",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("board",), {"side": 10**400})),
        PositionError,
        ["board field 'side'", "too large", "401 digits"],
        id="json-huge-integer-board-field",
    ),
    pytest.param(
        lambda: Position.from_dict(
            {
                **good_dict(),
                "variant": "force-out",
                "pieces": [],
                "board": {"family": "crokinole", "peg_count": 8.5},
            }
        ),
        PositionError,
        ["board field 'peg_count'", "whole number", "8.5"],
        id="json-fractional-peg-count",
    ),
    pytest.param(
        lambda: Position.from_dict(
            {**good_dict(), "variant": "carrooka", "pieces": [], "board": {"pocket_count": 6.0}}
        ),
        PositionError,
        ["board field 'pocket_count'", "whole number", "6.0"],
        id="json-float-pocket-count",
    ),
    pytest.param(
        lambda: Position.from_dict(with_value(("name",), 42)),
        PositionError,
        ["'name'", "must be a string", "42"],
        id="json-name-not-string",
    ),
]


@pytest.mark.parametrize(("make", "exc", "expected"), BAD)
def test_bad_input_is_refused_with_a_clear_message(make, exc, expected):
    with pytest.raises(exc) as info:
        result = make()
        if isinstance(result, Position):
            result.check()
    message = str(info.value)
    assert "\n" not in message
    for part in expected:
        assert part in message, f"{part!r} not in {message!r}"


# -------------------------------------------------------------- problems listed, not raised


@pytest.mark.parametrize(
    ("make", "n_problems"),
    [
        pytest.param(
            lambda: pos("ring-pegs", ("g1", "ring", None, *PEG0), ("g2", "ring", None, *PEG0)),
            2,  # two on one peg, and the two rings overlap
            id="two-rings-on-peg",
        ),
        pytest.param(
            lambda: pos("kooba", *[(f"a{i}", "aero", "N", 0.0, 0.0) for i in range(4)]),
            2,  # too many for the owner, too many in all
            id="four-aeros",
        ),
    ],
)
def test_problem_counts(make, n_problems):
    assert len(make().validate()) == n_problems


def test_unknown_variant_is_a_carromlab_error_listing_known_variants():
    with pytest.raises(CarromlabError) as info:
        Position("snooker", ())
    assert "known variants: icf, icf-doubles, carrooka" in str(info.value)


def test_check_prefixes_the_position_name():
    p = pos("icf", ("w1", "coin", "white", 0.36, 0.0), name="bad-one")
    with pytest.raises(PositionError) as info:
        p.check()
    assert info.value.problems[0].startswith("position 'bad-one': piece 'w1' (coin)")


def test_just_overlapping_coins_are_refused():
    d = ICF.coin_diameter - 3e-6  # beyond OVERLAP_TOLERANCE (2e-6)
    problems = pos(
        "icf", ("w1", "coin", "white", 0.0, 0.0), ("b1", "coin", "black", d, 0.0)
    ).validate()
    assert len(problems) == 1
    assert "'w1'" in problems[0] and "'b1'" in problems[0] and "overlaps" in problems[0]


def test_from_dict_with_check_false_keeps_an_illegal_position():
    d = with_value(("pieces", 1, "x"), 0.01)  # overlaps the queen
    p = Position.from_dict(d, check=False)
    assert p.by_id("w1").x == 0.01
    assert len(p.validate()) == 1
    with pytest.raises(PositionError, match=r"'q'.*overlaps.*'w1'"):
        Position.from_dict(d)


# ---------------------------------------------------------------------- files


def test_load_prefixes_the_path_of_a_bad_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_value(("pieces", 1, "x"), 0.36)))
    with pytest.raises(PositionError) as info:
        Position.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "'w1'" in message and "5.5 mm beyond the frame" in message


def test_load_prefixes_the_path_of_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "junk.json"
    path.write_text("carrom!\n")
    with pytest.raises(PositionError) as info:
        Position.load(path)
    assert str(info.value).startswith(f"{path}: not valid JSON")


def test_load_of_a_missing_file_is_one_line(tmp_path):
    path = tmp_path / "nowhere" / "missing.json"
    with pytest.raises(PositionError) as info:
        Position.load(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"cannot read {path}")
    assert "No such file" in message


def test_save_then_load_round_trips(tmp_path):
    p = Position.from_dict(good_dict())
    path = p.save(tmp_path / "ok.json")
    assert Position.load(path) == p


# ---------------------------------------------------------------------- legal edge cases


def test_touching_coins_are_legal():
    d = 2 * R_COIN
    p = pos("icf", ("w1", "coin", "white", 0.0, 0.0), ("b1", "coin", "black", d, 0.0))
    assert p.validate() == []


@pytest.mark.parametrize("angle", [0.3, 1.0, 2.2, 4.0, 5.5])
def test_touching_coins_at_an_angle_are_legal(angle):
    d = 2 * R_COIN
    x, y = 0.05 + d * math.cos(angle), -0.02 + d * math.sin(angle)
    p = pos("icf", ("w1", "coin", "white", 0.05, -0.02), ("b1", "coin", "black", x, y))
    assert p.validate() == []


def test_coin_touching_the_frame_is_legal():
    p = pos("icf", ("w1", "coin", "white", ICF.side / 2 - R_COIN, 0.0))
    assert p.validate() == []


def test_kooba_aero_may_overlap_a_marker():
    hx, hy = 0.0, 0.15
    p = pos(
        "kooba",
        ("marker.N", "marker", "N", hx, hy),
        ("a1", "aero", "N", hx, hy),
        ("a2", "aero", "E", hx + 0.01, hy),
    )
    assert p.validate() == []


def test_kooba_markers_do_overlap_each_other():
    p = pos("kooba", ("marker.N", "marker", "N", 0.0, 0.1), ("marker.E", "marker", "E", 0.01, 0.1))
    problems = p.validate()
    assert len(problems) == 1
    assert "'marker.N'" in problems[0] and "'marker.E'" in problems[0] and "20 mm" in problems[0]


def test_validate_returns_every_geometric_problem():
    p = pos(
        "icf",
        ("w1", "coin", "white", 0.0, 0.0),
        ("w2", "coin", "white", 0.021, 0.0),  # overlaps w1
        ("b1", "coin", "black", -0.36, 0.0),  # through the W frame
        ("b2", "coin", "black", -POCKET_NE, -POCKET_NE),  # in pocket.SW
    )
    problems = p.validate()
    assert len(problems) == 3
    assert any("'w1'" in s and "'w2'" in s and "10 mm" in s for s in problems)
    assert any("'b1'" in s and "5.5 mm" in s for s in problems)
    assert any("'b2'" in s and "pocket.SW" in s for s in problems)
    with pytest.raises(PositionError) as info:
        p.check()
    assert info.value.problems == problems
    assert str(info.value) == "; ".join(problems)


def test_validate_returns_every_set_problem():
    p = pos(
        "icf",
        ("w1", "coin", "white", math.nan, 0.0),
        ("b1", "coin", "green", 0.1, 0.0),
        ("b1", "coin", "black", -0.1, 0.0),
    )
    problems = p.validate()
    assert len(problems) == 3
    assert any("'w1'" in s and "x=nan" in s for s in problems)
    assert any("'b1'" in s and "'green'" in s for s in problems)
    assert any("duplicate piece id 'b1'" in s for s in problems)
