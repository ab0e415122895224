"""The shot runner: padding with dead discs changes nothing; simulators are shared."""

import numpy as np

from carromlab.analysis.runner import ShotRunner
from carromlab.bench.scenarios import scenario
from carromlab.shots import SKILLS


def test_padding_with_dead_discs_changes_nothing_and_simulators_are_shared():
    sc = scenario("cut")
    few = sc.position.replace(pieces=sc.position.pieces[:7])  # 8 discs: the 8-disc bucket
    plain = ShotRunner(few)
    padded = ShotRunner(few, capacity=20)  # the full board's program
    assert plain.template.x.shape == (8,) and padded.template.x.shape == (20,)
    a = next(iter(plain.run(sc.shot, 64, SKILLS["club"].noise(), seed=2)))
    b = next(iter(padded.run(sc.shot, 64, SKILLS["club"].noise(), seed=2)))
    assert b.outcome["capture"].shape == a.outcome["capture"].shape == (64, 8)
    for key in ("capture", "first_contact", "n_events"):
        assert np.array_equal(a.outcome[key], b.outcome[key]), key
    np.testing.assert_allclose(a.outcome["x"], b.outcome["x"], atol=1e-6)
    # positions of any smaller count padded to the same capacity share the compiled simulator,
    # and without a capacity every position rounds up to its bucket's (DISC_BUCKETS)
    fewer = sc.position.replace(pieces=sc.position.pieces[:10])
    assert ShotRunner(fewer, capacity=20)._sim is padded._sim
    assert ShotRunner(sc.position)._sim is padded._sim  # 20 discs: its own bucket
    assert ShotRunner(sc.position.replace(pieces=sc.position.pieces[:3]))._sim is (plain._sim)
