"""Ring Pegs shot origins are checked for overlap like the other games' (regression): an
origin on which the active shooting ring would overlap another piece - the opponent's ring
lying over the start, or a pegged ring - is refused with the piece's name, never simulated
(it used to be accepted, and the shot started millimetres inside the ring).
carromlab/games/ring_pegs/rules.py, decision 1."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from carromlab.analysis.estimate import estimate
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.games.ring_pegs.machine import new_game
from carromlab.games.ring_pegs.rules import active_spot, check_origin, legal_origin, origin
from carromlab.position import Piece
from carromlab.shots import Shot

VA = analysis_for("ring-pegs")
OPEN = new_game().board_position()
BOARD = OPEN.board
R = BOARD.outer_radius
RR = BOARD.ring_diameter / 2
OVERLAP = 0.0018  # 1.8 mm, the case


def _with(*extra, active=False):
    """The opening's pegged rings plus ``extra`` pieces; the active ring ("shooter") only
    when ``active`` (else shots start at the South start)."""
    pieces = [p for p in OPEN.pieces if active or p.id != "shooter"]
    return OPEN.replace(pieces=(*pieces, *extra))


def _opponent_at_start(gap: float):
    """The opponent's ring straight up from the South start, ``gap`` (m) from touching the
    active ring there (negative: overlapping)."""
    return _with(Piece("shooter.p2", "shooter", "p2", 0.0, -R + 2 * RR + gap))


def _shot(position, angle_deg=90.0, speed=2.0) -> Shot:
    x, y = origin(position, [0.0])
    return Shot(float(x[0]), float(y[0]), math.radians(angle_deg), speed)


def test_the_opening_start_is_still_legal():
    shot = _shot(OPEN)
    assert legal_origin(OPEN, shot.x, shot.y).all()
    VA.check_shot(OPEN, shot)  # no error


def test_an_origin_overlapping_the_opponents_ring_is_refused():
    """The opponent's ring lies 1.8 mm over the start (the position itself is legal: no
    active ring in it). The origin is illegal for every analysis (shot maps, asks) and a shot
    from it is refused before any simulation, naming the ring and the overlap."""
    pos = _opponent_at_start(-OVERLAP)
    assert pos.validate() == []
    shot = _shot(pos)
    assert active_spot(pos) == (0.0, -R)
    assert not legal_origin(pos, shot.x, shot.y).any()
    assert not VA.legal_origin(pos, shot.x, shot.y).any()
    with pytest.raises(
        CarromlabError, match=r"overlaps piece 'shooter\.p2' \(shooter\) by 1\.8 mm"
    ):
        VA.check_shot(pos, shot)
    with pytest.raises(CarromlabError, match=r"overlaps piece .shooter\.p2."):
        estimate(pos, shot, n=4, chunk=4)


def test_touching_is_allowed_overlapping_is_not():
    """Touching (a gap of 0 up to rounding) is legal, as in the other games; 1 um of
    overlap is not."""
    for gap, legal in ((1e-3, True), (0.0, True), (-1e-6, False)):
        pos = _opponent_at_start(gap)
        shot = _shot(pos)
        assert bool(legal_origin(pos, shot.x, shot.y)[0]) is legal, gap
        if legal:
            check_origin(pos, shot.x, shot.y)
        else:
            with pytest.raises(CarromlabError, match=r"overlaps piece 'shooter\.p2'"):
                check_origin(pos, shot.x, shot.y)


def test_an_active_ring_lying_inside_a_pegged_ring_is_refused():
    """The active ring lying 1.8 mm into pegged ring g1 (a position no validation has
    seen): its spot is not a legal origin, and the error names g1."""
    g = OPEN.by_id("g1")
    d = math.hypot(g.x, g.y)
    sx = g.x + g.x / d * (2 * RR - OVERLAP)
    sy = g.y + g.y / d * (2 * RR - OVERLAP)
    pos = _with(Piece("shooter", "shooter", "p1", sx, sy))
    assert active_spot(pos) == (sx, sy)
    assert not legal_origin(pos, sx, sy).any()
    with pytest.raises(CarromlabError, match=r"overlaps piece 'g1' \(ring\) by 1\.8 mm"):
        VA.check_shot(pos, Shot(sx, sy, 0.0, 1.0))


def test_origins_off_the_spot_are_still_refused_and_the_check_is_vectorised():
    x = np.array([0.0, 0.01, 0.0, np.nan])
    y = np.array([-R, -R, -R + 1e-5, -R])
    np.testing.assert_array_equal(legal_origin(OPEN, x, y), [True, False, False, False])
    with pytest.raises(CarromlabError, match="starts where the shooting ring lies"):
        check_origin(OPEN, 0.01, -R)
    with pytest.raises(CarromlabError, match="starts where the shooting ring lies"):
        check_origin(OPEN, float("nan"), -R)


def test_a_ring_resting_against_a_pegged_ring_is_settled_clear_of_it():
    """A stroke's resting places are separated of float32 overlaps; a pegged ring stays on its
    peg (the game never moves it), so the ring resting against it takes the whole overlap,
    measured from the peg where the game keeps it (not the kernel's float32 rounding of it),
    and its next origin is legal, in the player's turned view too (regressions: half the
    overlap was given to the pegged ring, and the float32 peg left nanometres of overlap; a
    later shot from there was refused)."""
    from carromlab.equipment.geometry import rotate
    from carromlab.play.drivers import settled

    table = VA.table_position(OPEN)  # the pegged rings (discs 1..8); disc 0 the active ring
    pegged = tuple(p for p in OPEN.pieces if p.id != "shooter")

    def at(xy):
        return OPEN.replace(pieces=(*pegged, Piece("shooter", "shooter", "p1", *xy)))

    peg = table.pieces[7]
    kernel_pegs = np.array([(p.x, p.y) for p in table.pieces], np.float32).astype(float)
    f32 = kernel_pegs[7]
    d = math.hypot(*f32)
    ring = (d - 2 * RR + 5e-8) * f32 / d  # 50 nm into the float32 peg's ring, from inside
    for angle in (None, math.pi / 2):  # the board's frame; a view turned a quarter
        back = 0.0 if angle is None else -angle
        view = table.replace(pieces=tuple(
            dataclasses.replace(p, x=rotate(p.x, p.y, back)[0], y=rotate(p.x, p.y, back)[1])
            for p in table.pieces))  # fmt: skip
        xy = np.array([ring, *kernel_pegs])  # the kernel's output, in the board's frame
        out = {"capture": np.full(len(xy), -1)}
        moved = settled(view, out, xy, striker=True, angle=angle)
        exact = np.array([(p.x, p.y) for p in table.pieces])
        assert np.allclose(moved[1:], exact, rtol=0, atol=1e-15)  # on their pegs, exactly
        gap = math.hypot(*(moved[0] - (peg.x, peg.y))) - 2 * RR
        assert -1e-12 < gap < 1e-8
        assert legal_origin(at(moved[0]), *moved[0])[0]
    assert not legal_origin(at(ring), *ring)[0]  # (before: the overlap refused)
