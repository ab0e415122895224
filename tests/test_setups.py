"""Standard opening positions: legal, stable through JSON, and geometrically what the rules say."""

from __future__ import annotations

import itertools
import math

import pytest

from carromlab.equipment import COLOURS, SEATS
from carromlab.errors import CarromlabError
from carromlab.position import Position
from carromlab.registry import standard_names, standard_position

NAMES = standard_names()

EXPECTED_NAMES = {
    "icf-opening",
    "icf-doubles-opening",
    "carrooka-opening",
    "carroms-opening",
    "force-out-opening",
    "force-out-fast-opening",
    "ring-pegs-opening",
    "circle-scores-opening",
    "kooba-opening",
}


def test_every_game_has_a_standard_opening():
    assert EXPECTED_NAMES <= set(NAMES)
    assert len(NAMES) == len(set(NAMES))


def test_unknown_standard_position_is_refused():
    with pytest.raises(CarromlabError, match=r"unknown standard position 'chess'.*icf-opening"):
        standard_position("chess")


@pytest.mark.parametrize("name", NAMES)
def test_standard_position_validates(name):
    p = standard_position(name)
    assert p.validate() == []
    assert p.check() is p
    assert p.name == name
    assert len(p.pieces) > 0


@pytest.mark.parametrize("name", NAMES)
def test_standard_position_round_trips_through_json(name):
    p = standard_position(name)
    text = p.to_json()
    q = Position.from_json(text)
    assert q == p
    assert q.to_json() == text
    assert Position.from_json(q.to_json()).to_json() == text
    assert [(r.id, r.x, r.y) for r in q.pieces] == [(r.id, r.x, r.y) for r in p.pieces]


@pytest.mark.parametrize("name", NAMES)
def test_standard_position_is_deterministic(name):
    assert standard_position(name) == standard_position(name)


# ---------------------------------------------------------------------- ICF rosette


@pytest.fixture(scope="module")
def icf():
    return standard_position("icf-opening")


def _r(p: Position) -> float:
    return p.board.coin_diameter / 2


def _dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def _neighbours(p: Position) -> dict[str, set[str]]:
    two_r = 2 * _r(p)
    out = {c.id: set() for c in p.pieces}
    for a, b in itertools.combinations(p.pieces, 2):
        if _dist(a, b) <= two_r + 1e-6:
            out[a.id].add(b.id)
            out[b.id].add(a.id)
    return out


def test_rosette_has_19_pieces(icf):
    assert len(icf.pieces) == 19
    assert icf.count("queen") == 1
    assert icf.count("coin", "white") == 9
    assert icf.count("coin", "black") == 9
    assert icf.count("striker") == 0
    assert len({c.id for c in icf.pieces}) == 19


def test_rosette_queen_at_centre(icf):
    queens = [c for c in icf.pieces if c.kind == "queen"]
    assert len(queens) == 1
    assert queens[0].owner is None
    assert abs(queens[0].x) < 1e-12 and abs(queens[0].y) < 1e-12


def test_rosette_neighbours_touch_exactly_and_nothing_overlaps(icf):
    two_r = 2 * _r(icf)
    n_pairs = 0
    for a, b in itertools.combinations(icf.pieces, 2):
        d = _dist(a, b)
        assert d >= two_r - 1e-9, f"{a.id} and {b.id} overlap: {d} < {two_r}"
        if d <= two_r + 1e-6:
            n_pairs += 1
            assert abs(d - two_r) < 1e-9, f"{a.id} and {b.id} nearly touch: {d} vs {two_r}"
    # queen 6 + inner ring 6 + inner-outer 18 + outer ring 12 = 42 touching pairs
    assert n_pairs == 42


def _rings(p: Position):
    r = _r(p)
    inner = [c for c in p.pieces if c.kind == "coin" and abs(math.hypot(c.x, c.y) - 2 * r) < 1e-9]
    outer = [c for c in p.pieces if c.kind == "coin" and math.hypot(c.x, c.y) > 3 * r]
    return inner, outer


def _angle(c) -> float:
    return math.atan2(c.y, c.x) % (2 * math.pi)


def test_rosette_neighbour_counts(icf):
    nb = _neighbours(icf)
    r = _r(icf)
    inner, outer = _rings(icf)
    assert len(inner) == 6 and len(outer) == 12
    assert len(nb["q"]) == 6
    assert nb["q"] == {c.id for c in inner}
    for c in inner:
        assert len(nb[c.id]) == 6, c.id
    straight = [c for c in outer if abs(math.hypot(c.x, c.y) - 4 * r) < 1e-9]
    between = [c for c in outer if abs(math.hypot(c.x, c.y) - 2 * math.sqrt(3) * r) < 1e-9]
    assert len(straight) == 6 and len(between) == 6
    for c in straight:
        assert len(nb[c.id]) == 3, c.id
    for c in between:
        assert len(nb[c.id]) == 4, c.id


def test_rosette_inside_outer_circle(icf):
    r = _r(icf)
    outermost = max(math.hypot(c.x, c.y) for c in icf.pieces) + r
    assert outermost <= 0.085
    assert outermost <= icf.board.outer_circle_diameter / 2
    assert outermost == pytest.approx(5 * r)  # two coin diameters plus a radius


def test_rosette_inner_ring_alternates(icf):
    inner, _ = _rings(icf)
    owners = [c.owner for c in sorted(inner, key=_angle)]
    assert sorted(owners) == ["black"] * 3 + ["white"] * 3
    for k in range(6):
        assert owners[k] != owners[(k + 1) % 6]


def _at(p: Position, x: float, y: float):
    hits = [c for c in p.pieces if math.hypot(c.x - x, c.y - y) < 1e-9]
    assert len(hits) == 1, (x, y)
    return hits[0]


def test_rosette_whites_form_a_y(icf):
    inner, outer = _rings(icf)
    inner_whites = [c for c in inner if c.owner == "white"]
    assert len(inner_whites) == 3
    for c in inner:
        behind = _at(icf, 2 * c.x, 2 * c.y)
        assert behind.owner == c.owner, (c.id, behind.id)
    # The three arms are 120 degrees apart.
    angles = sorted(_angle(c) for c in inner_whites)
    gaps = [angles[1] - angles[0], angles[2] - angles[1], 2 * math.pi + angles[0] - angles[2]]
    for g in gaps:
        assert g == pytest.approx(2 * math.pi / 3)
    # Outer ring reads W W B B W W B B W W B B counter-clockwise (rule 41's Y, whites paired).
    outer_owners = [c.owner for c in sorted(outer, key=_angle)]
    start = outer_owners.index("white")
    if outer_owners[start - 1] == "white":  # started in the middle of a pair
        start -= 1
    rolled = outer_owners[start:] + outer_owners[:start]
    assert rolled == ["white", "white", "black", "black"] * 3


def test_rosette_one_arm_points_at_minus_y(icf):
    r = _r(icf)
    arm = _at(icf, 0.0, -2 * r)
    assert arm.owner == "white"
    assert _at(icf, 0.0, -4 * r).owner == "white"


def test_icf_doubles_opening_is_the_same_rosette():
    single = standard_position("icf-opening")
    double = standard_position("icf-doubles-opening")
    assert double.variant == "icf-doubles"
    assert [(c.id, c.kind, c.owner, c.x, c.y) for c in double.pieces] == [
        (c.id, c.kind, c.owner, c.x, c.y) for c in single.pieces
    ]


# ---------------------------------------------------------------------- Carrooka


@pytest.fixture(scope="module")
def carrooka():
    return standard_position("carrooka-opening")


def test_carrooka_reds_form_a_triangle_inside_the_break_line(carrooka):
    board = carrooka.board
    reds = [c for c in carrooka.pieces if c.kind == "red"]
    assert len(reds) == 15
    r = board.puck_diameter / 2
    for c in reds:
        assert math.hypot(c.x, c.y) + r <= board.break_radius, c.id
        assert board.zones["break_line"].contains(c.x, c.y)
    rows: dict[float, list] = {}
    for c in reds:
        rows.setdefault(round(c.y, 9), []).append(c)
    ys = sorted(rows)
    assert [len(rows[y]) for y in ys] == [1, 2, 3, 4, 5]  # apex at -y
    h = board.puck_diameter * math.sqrt(3) / 2
    for y0, y1 in itertools.pairwise(ys):
        assert y1 - y0 == pytest.approx(h)
    for y in ys:
        xs = sorted(c.x for c in rows[y])
        assert sum(xs) == pytest.approx(0.0, abs=1e-12)  # each row centred on x = 0
        for x0, x1 in itertools.pairwise(xs):
            assert x1 - x0 == pytest.approx(board.puck_diameter)
    assert sum(c.y for c in reds) / 15 == pytest.approx(0.0, abs=1e-12)


def test_carrooka_colours_on_their_spots(carrooka):
    board = carrooka.board
    spots = board.spots()
    for colour in COLOURS:
        [c] = [c for c in carrooka.pieces if c.kind == colour]
        assert (c.x, c.y) == pytest.approx(spots[colour], abs=1e-12)
        assert board.zones[f"spot.{colour}"].contains(c.x, c.y)
        assert math.hypot(c.x, c.y) == pytest.approx(board.spot_radius)
    assert len(carrooka.pieces) == 15 + len(COLOURS)


# ---------------------------------------------------------------------- Carrom Company


@pytest.mark.parametrize("name", ["force-out-opening", "force-out-fast-opening"])
def test_force_out_rings_inside_the_small_circle(name):
    p = standard_position(name)
    board = p.board
    r = board.ring_diameter / 2
    assert p.count("ring", "red") == 8
    assert p.count("ring", "green") == 8
    assert len(p.pieces) == 16
    for c in p.pieces:
        assert math.hypot(c.x, c.y) + r <= board.small_radius, c.id
        assert board.zones["small_circle"].contains(c.x, c.y)


def test_ring_pegs_each_ring_on_its_own_peg():
    p = standard_position("ring-pegs-opening")
    pegs = p.board.peg_centres()
    rings = [c for c in p.pieces if c.kind == "ring"]
    assert len(rings) == len(pegs) == 8
    used = set()
    for c in rings:
        k = min(range(len(pegs)), key=lambda i: math.hypot(c.x - pegs[i][0], c.y - pegs[i][1]))
        assert math.hypot(c.x - pegs[k][0], c.y - pegs[k][1]) < 1e-9, c.id
        used.add(k)
    assert used == set(range(8))


def test_carroms_opening_counts():
    p = standard_position("carroms-opening")
    assert p.count("black") == 1
    assert p.count("ring", "red") == 12
    assert p.count("ring", "green") == 12


# ---------------------------------------------------------------------- KOOBA


@pytest.mark.parametrize(
    ("name", "seats"),
    [("kooba-opening", SEATS), ("kooba-opening-2p", SEATS[:2]), ("kooba-opening-3p", SEATS[:3])],
)
def test_kooba_markers_at_home_and_kooba_at_centre(name, seats):
    p = standard_position(name)
    board = p.board
    kooba = [c for c in p.pieces if c.kind == "kooba"]
    assert len(kooba) == 1
    assert (kooba[0].x, kooba[0].y) == (0.0, 0.0)
    markers = [c for c in p.pieces if c.kind == "marker"]
    assert sorted(c.owner for c in markers) == sorted(seats)
    for c in markers:
        assert board.zones[f"home.{c.owner}"].contains(c.x, c.y), c.id
        for other in SEATS:
            if other != c.owner:
                assert not board.zones[f"home.{other}"].contains(c.x, c.y)
