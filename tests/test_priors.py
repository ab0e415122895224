"""Uncertain physics: parameters drawn per shot from a prior and vmapped with the shots."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carromlab.analysis import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.sensitivity import binned_rate, physics_draws
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError
from carromlab.physics import Physics
from carromlab.physics.priors import normal, uniform, vary_physics
from carromlab.registry import standard_position
from carromlab.shots import Shot, skill

POS = standard_position("icf-midgame")
CUT = Shot(x=-0.05, y=-0.2526, angle=math.radians(65.94), speed=2.0)


def _chunks(physics, n=300, seed=3):
    va = analysis_for(POS.variant)
    runner = ShotRunner(va.table_position(POS), va.shooter_kind, physics=physics)
    return list(runner.run(CUT, n, va.noise(skill("club")), seed))


@pytest.mark.heavy  # a point prior against fixed physics (the prior tests run by default)
def test_a_point_prior_is_the_fixed_physics_shot_for_shot():
    """A prior that can only draw mu = 0.13 gives, shot for shot, the outcomes of the fixed
    Physics(mu=0.13) (the same captures; positions to float32 rounding, 1e-6 m: the
    per-shot parameters compile to a differently fused program), and the execution noise is
    the same with and without a prior."""
    fixed = _chunks(Physics(mu=0.13))
    drawn = _chunks(vary_physics(mu=uniform(0.13, 0.13)))
    for a, b in zip(fixed, drawn, strict=True):
        for k in ("x", "y", "angle", "speed"):
            np.testing.assert_array_equal(a.shots[k], b.shots[k])
        np.testing.assert_array_equal(a.outcome["capture"], b.outcome["capture"])
        for k in ("x", "y"):
            np.testing.assert_allclose(a.outcome[k], b.outcome[k], rtol=0, atol=1e-6)
        assert np.all(b.physics["mu"] == np.float32(0.13))
    assert fixed[0].physics == {}


def test_draws_follow_the_prior_and_change_the_outcomes():
    prior = vary_physics(mu=uniform(0.06, 0.2), e_cushion=normal(0.7, 0.05))
    chunks = _chunks(prior, n=2000)
    mu = np.concatenate([c.physics["mu"] for c in chunks])
    ec = np.concatenate([c.physics["e_cushion"] for c in chunks])
    assert mu.min() >= 0.06 and mu.max() <= 0.2 and abs(mu.mean() - 0.13) < 0.005
    assert abs(ec.mean() - 0.7) < 0.005 and abs(ec.std() - 0.05) < 0.005
    assert abs(np.corrcoef(mu, ec)[0, 1]) < 0.1  # independent streams
    fixed = _chunks(Physics(), n=2000)
    x_fixed = np.concatenate([c.outcome["x"] for c in fixed])
    x_drawn = np.concatenate([c.outcome["x"] for c in chunks])
    assert not np.array_equal(x_fixed, x_drawn)


def test_estimate_and_sensitivity_with_a_prior():
    """A slow shot that just reaches the pocket on a slick board: the pot rate falls as the
    friction rises, seen in the binned rates with their intervals; the estimate under the
    prior is the rate of the same shots, and its configuration records the prior."""
    prior = vary_physics(mu=uniform(0.05, 0.2))
    slow = Shot(x=CUT.x, y=CUT.y, angle=CUT.angle, speed=1.3)
    df = estimate(POS, slow, n=3000, seed=4, physics=prior)
    draws = physics_draws(POS, slow, prior, n=3000, seed=4, pieces=("w1",))
    p = df.loc[df["quantity"] == "capture:w1", "estimate"].iloc[0]
    assert p == pytest.approx(draws["capture:w1"].mean(), abs=1e-12)
    assert df.attrs["config"]["physics"]["vary"]["mu"] == {
        "kind": "uniform",
        "low": 0.05,
        "high": 0.2,
    }
    assert "points" in draws.columns and len(draws) == 3000
    bins = binned_rate(draws, "mu", "capture:w1", bins=5)
    assert bins["n"].sum() == 3000
    assert (bins["rate_lo"] <= bins["rate"]).all() and (bins["rate"] <= bins["rate_hi"]).all()
    assert bins["rate"].iloc[0] > bins["rate"].iloc[-1] + 0.1, bins


def test_bad_priors_are_one_line_errors():
    with pytest.raises(CarromlabError, match="unknown Physics field 'muu'"):
        vary_physics(muu=uniform(0, 1))
    with pytest.raises(CarromlabError, match="mu: uniform needs 0 <= low <= high"):
        vary_physics(mu=uniform(0.2, 0.1))
    with pytest.raises(CarromlabError, match="e_piece: give uniform"):
        vary_physics(e_piece=0.9)
    with pytest.raises(CarromlabError, match="needs a prior"):
        physics_draws(POS, CUT, Physics(), n=10)
    draws = physics_draws(POS, CUT, vary_physics(mu=uniform(0.1, 0.2)), n=20, pieces=("w1",))
    with pytest.raises(CarromlabError, match="no column 'e_post'"):
        binned_rate(draws, "e_post", "capture:w1")
