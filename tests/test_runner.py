"""The shot runner: padding with dead discs changes nothing; simulators are shared."""

import numpy as np

from carromlab.analysis.runner import ShotRunner
from carromlab.bench.scenarios import scenario
from carromlab.shots import SKILLS


def test_padding_with_dead_discs_changes_nothing_and_simulators_are_shared():
    sc = scenario("cut")
    plain = ShotRunner(sc.position, chunk=64)
    padded = ShotRunner(sc.position, chunk=64, capacity=24)
    a = next(iter(plain.run(sc.shot, 64, SKILLS["club"].noise(), seed=2)))
    b = next(iter(padded.run(sc.shot, 64, SKILLS["club"].noise(), seed=2)))
    assert b.outcome["capture"].shape == a.outcome["capture"].shape == (64, 20)
    for key in ("capture", "first_contact", "n_events"):
        assert np.array_equal(a.outcome[key], b.outcome[key]), key
    np.testing.assert_allclose(a.outcome["x"], b.outcome["x"], atol=1e-6)
    # a smaller position padded to the same capacity shares the compiled simulator
    fewer = sc.position.replace(pieces=sc.position.pieces[:10])
    assert ShotRunner(fewer, capacity=24)._sim is padded._sim
