"""Every core busy, the same numbers: the chunk dispatcher, and estimate tables that are the
same, bit for bit, on one core and two, and with the refilling lanes on and off."""

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.variants import analysis_for
from carromlab.bench import scenario
from carromlab.errors import CarromlabError
from carromlab.physics.devices import map_chunks, requested_cores
from carromlab.registry import standard_position
from carromlab.shots import skill


def test_map_chunks_returns_results_in_order_from_every_device():
    seen = set()
    lock = threading.Lock()

    def fn(k, dev):
        time.sleep(0.002 * ((k * 7) % 5))  # finish out of order
        with lock:
            seen.add(dev)
        return k * k

    out = list(map_chunks(fn, range(40), devices=["a", "b", "c"], ahead=2))
    assert out == [k * k for k in range(40)]
    assert seen == {"a", "b", "c"}


def test_map_chunks_raises_the_workers_error_and_stops():
    def fn(k, dev):
        if k == 5:
            raise ValueError("chunk 5")
        return k

    got = []
    with pytest.raises(ValueError, match="chunk 5"):
        for r in map_chunks(fn, range(100), devices=[0, 1]):
            got.append(r)
    assert got == [0, 1, 2, 3, 4]


def test_one_device_runs_in_the_calling_thread():
    me = threading.get_ident()
    assert list(map_chunks(lambda k, d: (threading.get_ident(), d), [1], devices=["x"])) == [
        (me, "x")
    ]


def test_a_bad_core_count_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("CARROMLAB_CORES", "two")
    with pytest.raises(CarromlabError, match="CARROMLAB_CORES='two'"):
        requested_cores()
    monkeypatch.setenv("CARROMLAB_CORES", "\uff12")  # a full-width 2: ASCII digits only
    with pytest.raises(CarromlabError, match="CARROMLAB_CORES="):
        requested_cores()
    monkeypatch.setenv("CARROMLAB_CORES", "3")
    assert requested_cores() == 3


#: The estimate both sides compute: the rosette broken, set by hand (every shot's rack moved
#: a little: chaotic, the hardest case for equal numbers), in chunks of 96 shots (7 chunks).
BREAK = "icf-opening", scenario("break").shot, 640, 64

ESTIMATE_SCRIPT = """
import sys
from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.variants import analysis_for
from carromlab.registry import standard_position
from carromlab.shots import Shot
import jax
name, x, y, a, v, n, chunk, out = sys.argv[1:]
pos = standard_position(name)
va = analysis_for(pos.variant)
runner = ShotRunner(va.table_position(pos), va.shooter_kind, chunk=int(chunk))
assert len(runner.devices) == len(jax.devices()) == 2, jax.devices()
df = estimate(pos, Shot(float(x), float(y), float(a), float(v)), "club", int(n), seed=7,
              runner=runner)
df.to_pickle(out)
"""


def _estimate_here(lanes=None, cores=1, chunk=None):
    name, shot, n, break_chunk = BREAK
    # the default lanes in the runner's default chunk (its program); the others in 64s
    chunk = chunk or (break_chunk if lanes is not None else 4096)
    pos = standard_position(name)
    va = analysis_for(pos.variant)
    runner = ShotRunner(
        va.table_position(pos), va.shooter_kind, chunk=chunk, lanes=lanes, cores=cores
    )
    return estimate(pos, shot, "club", n, seed=7, runner=runner)


@pytest.fixture(scope="module")
def one_core_table():
    return _estimate_here()


@pytest.mark.heavy  # two devices in fresh processes (the chunk-order invariance runs by default)
def test_two_cores_give_the_one_core_table_exactly(one_core_table, tmp_path):
    """A fresh process with two CPU devices: its chunks run on both, and the estimate table
    is the one-core table, every number equal."""
    name, shot, n, chunk = BREAK
    out = tmp_path / "two.pkl"
    args = [name, shot.x, shot.y, shot.angle, shot.speed, n, chunk, out]
    env = dict(os.environ, CARROMLAB_CORES="2")
    subprocess.run(
        [sys.executable, "-c", ESTIMATE_SCRIPT, *map(str, args)], env=env, check=True, timeout=900
    )
    two = pd.read_pickle(out)
    assert two.attrs["config"]["cores"] == 2 and one_core_table.attrs["config"]["cores"] == 1
    pd.testing.assert_frame_equal(one_core_table, two, check_exact=True)
    probs = one_core_table[one_core_table["kind"] == "probability"]["estimate"]
    assert probs.between(0.01, 0.99).any()  # the break pockets, sometimes


def test_lanes_on_and_off_give_the_same_table(one_core_table):
    """The plain batch simulator (lanes 0, chunks of 64) gives the default lanes' table (one
    chunk of 640 shots in 128 lanes, refilled five times) exactly."""
    other = _estimate_here(lanes=0)
    assert other.attrs["config"]["lanes"] == 0 and one_core_table.attrs["config"]["lanes"] > 0
    pd.testing.assert_frame_equal(one_core_table, other, check_exact=True)


def test_runner_refuses_negative_lanes():
    pos = standard_position("icf-midgame")
    with pytest.raises(CarromlabError, match="lanes"):
        ShotRunner(pos, lanes=-1)


def test_every_outcome_array_is_the_same_with_lanes_on_and_off():
    """Below the tables: every outcome array of every shot (final places included) equal."""
    name, shot, _n, chunk = BREAK
    pos = standard_position(name)
    va = analysis_for(pos.variant)
    runs = []
    for lanes in (None, 0):
        r = ShotRunner(va.table_position(pos), va.shooter_kind, chunk=chunk, lanes=lanes)
        noise = va.noise(va.preset(skill("club")))
        chunks = list(r.run(shot, 200, noise, 3))
        runs.append({k: np.concatenate([c.outcome[k] for c in chunks]) for k in chunks[0].outcome})
    for k, v in runs[0].items():
        np.testing.assert_array_equal(v, runs[1][k], err_msg=k)
