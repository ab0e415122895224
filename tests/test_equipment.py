"""Equipment: every constant tagged, primitives consistent with the published layouts."""

import dataclasses
import math

import numpy as np
import pytest

from carromlab.equipment import (
    BOARDS,
    COLOURS,
    GAME_SETS,
    CarrookaBoard,
    CrokinoleBoard,
    IcfBoard,
    KoobaBoard,
)
from carromlab.equipment._sourced import TAGS, untagged_numbers

FAMILIES = sorted(BOARDS)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_numeric_constant_is_tagged_with_a_source(family):
    board = BOARDS[family]()
    assert untagged_numbers(board) == []
    rows = board.provenance()
    assert rows, family
    for row in rows:
        assert row["tag"] in TAGS
        assert len(row["source"]) > 10, row


@pytest.mark.parametrize("family", FAMILIES)
def test_boards_are_frozen_and_hashable(family):
    board = BOARDS[family]()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.side = 1.0  # type: ignore[misc]
    assert hash(board) == hash(BOARDS[family]())


@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "kooba"])
def test_captures_lie_on_the_surface_and_cushions_face_inwards(family):
    board = BOARDS[family]()
    layout = board.layout
    for cap in layout.captures:
        assert layout.surface.contains(cap.x, cap.y), cap.name
    for seg in layout.cushions:
        nx, ny = seg.normal
        mx, my = (seg.x0 + seg.x1) / 2, (seg.y0 + seg.y1) / 2
        assert nx * (0 - mx) + ny * (0 - my) > 0, f"{seg.name} normal points outwards"


def test_icf_dimensions():
    b = IcfBoard()
    assert b.half == pytest.approx(0.37)
    # Pockets tangent to both frames: centre 2.225 cm from each face.
    for cap in b.layout.captures:
        assert abs(cap.x) == pytest.approx(0.37 - 0.02225)
        assert cap.radius == pytest.approx(0.02225)
    # Baselines 10.15 cm and 13.33 cm from the frame; base circles closing them.
    outer, inner = b.baseline_y()
    assert outer == pytest.approx(-0.37 + 0.1015)
    assert inner - outer == pytest.approx(0.0318)
    (_xl, yc), (xr, _) = b.base_circle_centres()
    assert yc == pytest.approx(-0.37 + 0.1174)  # 11.74 cm from own frame (docs/equipment.md)
    assert 0.37 - xr == pytest.approx(0.1492)
    # Arrows: 25.7 cm long, heads 5 cm clear of the pocket edge, on the diagonals.
    a = b.zones["arrow.NE"]
    assert math.hypot(a.x1 - a.x0, a.y1 - a.y0) == pytest.approx(0.257)
    pocket = next(c for c in b.layout.captures if c.name == "pocket.NE")
    gap = math.hypot(a.x1 - pocket.x, a.y1 - pocket.y) - pocket.radius
    assert gap == pytest.approx(0.05)
    assert a.x0 == pytest.approx(a.y0)
    assert b.zones["outer_circle"].radius == pytest.approx(0.085)
    specs = b.piece_specs()
    assert specs["striker"].mass / specs["coin"].mass == pytest.approx(15 / 5.25)


def test_crokinole_surround_options():
    square = CrokinoleBoard()
    ditch = CrokinoleBoard(surround="ditch")
    assert square.layout.surface.beyond == "cushion"
    assert len(square.layout.captures) == 5  # hole + 4 corner pockets
    assert ditch.layout.surface.shape == "circle"
    assert ditch.layout.surface.beyond == "ditch"
    assert [c.kind for c in ditch.layout.captures] == ["hole"]
    for post in ditch.layout.posts:
        assert math.hypot(post.x, post.y) == pytest.approx(0.102)
    with pytest.raises(ValueError, match="surround"):
        CrokinoleBoard(surround="moat")  # type: ignore[arg-type]


def test_crokinole_pegs_leave_the_axes_open():
    b = CrokinoleBoard()
    angles = sorted(math.degrees(math.atan2(p.y, p.x)) % 360 for p in b.layout.posts)
    assert angles == pytest.approx([22.5 + 45 * k for k in range(8)])


def test_carrooka_pockets_spots_and_lines():
    b = CarrookaBoard()
    assert len(b.layout.captures) == 6
    assert len(b.layout.rails) == 1
    for cap in b.layout.captures:  # tangent to the rail
        assert math.hypot(cap.x, cap.y) + cap.radius == pytest.approx(b.radius)
    spots = b.spots()
    assert list(spots) == list(COLOURS)
    for x, y in spots.values():
        assert math.hypot(x, y) == pytest.approx(b.spot_radius)
    assert b.zones["margin_line"].radius == pytest.approx(0.36)


def test_kooba_zones_tile_each_run_from_home_to_lock():
    b = KoobaBoard()
    # Walking up the North axis from the edge: home, steps 1..5, lock, eye.
    order = []
    for r in np.linspace(b.half - 1e-4, 0.0, 400):
        hits = [name for name, z in b.zones.items() if z.contains(0.0, r) and ".N" in name]
        hits += ["eye"] if b.zones["eye"].contains(0.0, r) else []
        for h in hits:
            if not order or order[-1] != h:
                order.append(h)
    expected = ["home.N", *[f"run.N.{k}" for k in range(1, 6)], "lock.N", "eye"]
    assert [h for h in order if h in expected] == expected
    # Penalty zones sit in the corners clockwise from each axis.
    assert b.zones["penalty.N"].contains(b.half - 0.01, b.half - 0.01)
    assert b.zones["penalty.E"].contains(b.half - 0.01, -b.half + 0.01)
    assert b.zones["penalty.S"].contains(-b.half + 0.01, -b.half + 0.01)
    assert b.zones["penalty.W"].contains(-b.half + 0.01, b.half - 0.01)
    assert b.throw_distance == pytest.approx(2.24)


def test_game_sets_cover_every_variant():
    assert set(GAME_SETS) == {
        "icf",
        "icf-doubles",
        "carrooka",
        "carroms",
        "force-out",
        "force-out-fast",
        "ring-pegs",
        "circle-scores",
        "kooba",
    }
    for gs in GAME_SETS.values():
        specs = gs.default_board().piece_specs()
        assert set(gs.kinds) <= set(specs), gs.variant


def test_polygon_zone_contains_is_vectorised():
    b = KoobaBoard()
    z = b.zones["run.N.3"]
    lo, hi = b.step_span(3)
    xs = np.array([0.0, 0.0, 0.05])
    ys = np.array([(lo + hi) / 2, hi + 0.001, (lo + hi) / 2])
    assert z.contains(xs, ys).tolist() == [True, False, False]
