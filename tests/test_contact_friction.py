"""The switchable contact-friction model (Physics.mu_contact): a cut object disc is thrown off
the line of centres by the closed-form angle, a full hit is untouched, the float32 kernel
agrees with the float64 reference, and off (0) is the smooth model."""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_kernel import (
    COIN,
    POS_TOL,
    TABLES,
    _kernel_first,
    icf_shot,
    moving,
    reference_run,
    resting,
    rot,
    run,
)

from carromlab.physics import Physics

CUTS = [0.1, 0.3, 0.5, 0.7, 0.9]  # b / (2 r): from nearly full to thin


def expected_throw(cut: float, e: float, mu_c: float) -> float:
    """The object disc's angle off the line of centres: the tangential impulse stops the
    contact point's sliding (tan(phi) / (3 (1 + e)) of the normal impulse, phi the cut
    angle, solid discs with no spin) unless Coulomb's mu_c is smaller."""
    phi = math.asin(cut)
    return math.atan(min(mu_c, math.tan(phi) / (3 * (1 + e))))


@pytest.mark.parametrize("mu_c", [0.06, 0.2])
def test_a_cut_object_disc_is_thrown_by_the_closed_form_angle(mu_c):
    """Equal coins: the object disc leaves at the expected angle to the line of centres,
    turned towards the shooter's sideways motion (both regimes: sliding stopped for full
    hits, Coulomb-limited for thin ones)."""
    r = COIN[0]
    e = 0.9
    shots, normals = [], []
    for k, cut in enumerate(CUTS):
        th = 0.7 * k - 1.0
        shots.append(make_cut(cut, th))
        xc = -math.sqrt((2 * r) ** 2 - (cut * 2 * r) ** 2)
        normals.append(rot(th, -xc / (2 * r), cut))
    outs = run("open", shots, Physics(e_piece=e, mu_contact=mu_c, stick_speed=0.0))
    for cut, p, n, o in zip(CUTS, shots, normals, outs, strict=True):
        assert o["n_piece_contacts"] == 1
        db = np.array([o["x"][1] - p.x[1], o["y"][1] - p.y[1]])
        db /= np.linalg.norm(db)
        angle = math.atan2(n[0] * db[1] - n[1] * db[0], n @ db)
        # the shooter passes the object on its +normal-rotated side: thrown the other way
        assert angle == pytest.approx(-expected_throw(cut, e, mu_c), abs=2e-5), cut


def make_cut(cut: float, th: float, v0: float = 1.6, d: float = 0.12):
    r = COIN[0]
    from disc_helpers import make_pieces

    return make_pieces([moving(*rot(th, -d, 0.0), v0, th), resting(*rot(th, 0.0, cut * 2 * r))])


def test_a_full_hit_and_the_smooth_model_are_untouched():
    """Head on there is no sliding to stop: the outcome is the smooth one (to float32
    rounding of the line of centres, 1e-7 m); with mu_contact = 0 a cut is the smooth
    model's cut, bit for bit."""
    full = [make_cut(0.0, th) for th in (0.0, 1.0, -2.0)]
    cuts = [make_cut(c, 0.3) for c in CUTS]
    smooth = run("open", full + cuts, Physics())
    rough = run("open", full, Physics(mu_contact=0.3))
    off = run("open", cuts, Physics(mu_contact=0.0))
    for a, b in zip(smooth[:3], rough, strict=True):
        assert np.hypot(a["x"] - b["x"], a["y"] - b["y"]).max() <= 1e-7
    for a, b in zip(smooth[3:], off, strict=True):
        np.testing.assert_array_equal(a["x"], b["x"])
    thrown = run("open", cuts, Physics(mu_contact=0.1))
    assert all(abs(a["y"][1] - b["y"][1]) > 1e-4 for a, b in zip(off, thrown, strict=True))


def test_kernel_agrees_with_the_reference_with_contact_friction():
    """Random ICF shots with four coins, mu_contact = 0.1: on the non-chaotic ones (as in
    test_kernel) the same captures, first contact and final positions within 1 mm."""
    rng = np.random.default_rng(11)
    shots = [icf_shot(rng, 4, (1.0, 3.5)) for _ in range(12)]
    phys = Physics(mu_contact=0.1)
    table = TABLES["icf"]
    calm = 0
    for p, o in zip(shots, run("icf", shots, phys), strict=True):
        ref, codes, chaotic = reference_run(table, p, phys)
        if chaotic:
            continue
        calm += 1
        assert np.array_equal(o["capture"], codes)
        assert _kernel_first(o) == ref.first_contact
        assert np.hypot(o["x"] - ref.x, o["y"] - ref.y).max() <= POS_TOL
    assert calm >= 8
