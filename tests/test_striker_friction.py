"""Per-piece sliding friction (Physics.striker_friction): the striker's material slides with
its own friction, the coins with ``mu``. A lone striker stops where the closed form says; a
coin it strikes slides on at the coins' friction; 1 (the default) is the one-friction model
bit for bit, the striker listed first or last; and on a pocket board it changes whether the
striker follows a coin in."""

from __future__ import annotations

import math

import numpy as np
import pytest
from disc_helpers import make_pieces
from test_kernel import COIN, STRIKER, moving, resting, run

from carromlab.physics import Physics

MU, G = 0.1, 9.81
#: The one value other than 1 every test here uses: each value of the static field compiles
#: its own kernel program.
ROUGH = 1.7


@pytest.mark.parametrize("k", [1.0, ROUGH])
def test_a_lone_striker_stops_at_v2_over_2_k_mu_g(k):
    """No contact: the striker slides v^2 / (2 k mu g); a lone coin v^2 / (2 mu g) whatever
    ``k``."""
    v = 1.2
    shots = [
        make_pieces([moving(-0.2, 0.0, v, 0.0, STRIKER)]),
        make_pieces([moving(-0.2, 0.0, v, 0.0, COIN)]),
    ]
    striker, coin = run("open", shots, Physics(mu=MU, striker_friction=k))
    assert striker["x"][0] + 0.2 == pytest.approx(v * v / (2 * k * MU * G), rel=1e-5)
    assert coin["x"][0] + 0.2 == pytest.approx(v * v / (2 * MU * G), rel=1e-5)


def test_a_struck_coin_slides_on_at_the_coins_friction():
    """Head on: the coin leaves with the impulse's speed and stops v'^2 / (2 mu g) further,
    whatever the striker's friction; the striker's own rest point moves with ``k``."""
    r_s, r_c = STRIKER[0], COIN[0]
    gap = 0.05
    shot = make_pieces([moving(-gap - r_s - r_c, 0.0, 1.5, 0.0, STRIKER), resting(0.0, 0.0)])
    outs = [run("open", [shot], Physics(mu=MU, striker_friction=k))[0] for k in (1.0, ROUGH)]
    for k, out in zip((1.0, ROUGH), outs, strict=True):
        v_hit = math.sqrt(1.5**2 - 2 * k * MU * G * gap)  # the striker's speed at the contact
        m_s, m_c = STRIKER[1], COIN[1]
        e = Physics().e_striker
        v_coin = (1 + e) * m_s * v_hit / (m_s + m_c)
        assert out["x"][1] == pytest.approx(v_coin**2 / (2 * MU * G), rel=2e-4)
    assert outs[0]["x"][0] > outs[1]["x"][0] + 0.01  # the rougher striker stops shorter


def test_one_friction_is_the_default_bit_for_bit_in_any_order():
    """``striker_friction = 1`` gives every outcome of the default, and listing the striker
    after the coins gives the same result piece for piece."""
    rng = np.random.default_rng(4)
    shots, swapped = [], []
    for _ in range(6):
        y = rng.uniform(-0.01, 0.01)
        a = moving(-0.15, y, rng.uniform(0.8, 2.0), rng.uniform(-0.1, 0.1), STRIKER)
        b = resting(0.0, 0.0)
        shots.append(make_pieces([a, b]))
        swapped.append(make_pieces([b, a]))
    plain = run("open", shots, Physics())
    one = run("open", shots, Physics(striker_friction=1.0))
    rough = run("open", shots, Physics(striker_friction=ROUGH))
    rough_swapped = run("open", swapped, Physics(striker_friction=ROUGH))
    for p, o in zip(plain, one, strict=True):
        for key in ("x", "y", "capture", "contacts"):
            assert np.array_equal(p[key], o[key])
    assert any(not np.allclose(p["x"], r["x"]) for p, r in zip(plain, rough, strict=True))
    for r, s in zip(rough, rough_swapped, strict=True):
        order = [1, 0]  # the striker, then the coin, in the swapped listing
        assert np.allclose(r["x"], s["x"][order], atol=1e-6)
        assert np.allclose(r["y"], s["y"][order], atol=1e-6)


def test_a_prior_cannot_draw_the_static_striker_friction():
    """``striker_friction`` is part of the compiled program: a prior that would draw it per
    shot is refused in one line naming it; a study file's priors do not offer it."""
    from carromlab.errors import CarromlabError
    from carromlab.physics.priors import uniform, vary_physics
    from carromlab.studies.spec import PriorRanges

    with pytest.raises(CarromlabError, match="striker_friction cannot vary shot by shot"):
        vary_physics(striker_friction=uniform(0.5, 1.5))
    assert "striker_friction" not in PriorRanges.model_fields


def test_the_plain_form_names_the_striker_friction_only_where_it_is_set():
    """Results keyed or described by a physics' plain form keep their keys at the default
    (the stored breaks are found: tests/test_breaks.py) and tell a set value apart."""
    from carromlab.physics.params import plain_physics

    assert "striker_friction" not in plain_physics(Physics())
    assert plain_physics(Physics(striker_friction=0.7))["striker_friction"] == 0.7
