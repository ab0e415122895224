"""Sweeps: the TOML declaration, identical tables on every executor and device count, and a
sweep killed with SIGKILL that resumes to the same table."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from carromlab.analysis.results import read_parquet
from carromlab.errors import CarromlabError
from carromlab.sweeps import load_sweep, make_jobs, parse_sweep, run_sweep

SMALL = """
name = "small"
seed = 5
n = 48
[grid]
variant = "icf"
skill = ["club", "pro"]
angle = [85.0, 95.0]
speed = 2.0
[grid.physics]
mu = [0.08, 0.12]
"""


def _write(tmp_path: Path, text: str, name: str = "sweep.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The small sweep run serially in this process, one job of every group."""
    tmp = tmp_path_factory.mktemp("ref")
    sweep = load_sweep(_write(tmp, SMALL))
    return sweep, run_sweep(sweep, tmp / "out", progress=False)


def test_tasks_are_the_grid_in_a_documented_order():
    raw = {
        "n": 10,
        "grid": {
            "position": ["icf-midgame"],
            "skill": ["club", "pro"],
            "physics": {"mu": [0.1, 0.2], "e_piece": 0.9},
            "angle": {"start": 80, "stop": 100, "count": 3},
        },
    }
    sweep = parse_sweep(raw)
    tasks = sweep.tasks()
    assert len(tasks) == 2 * 2 * 1 * 3
    assert [t.id for t in tasks] == list(range(12))
    assert tasks[0].variant == "icf" and tasks[0].placement == 0.0 and tasks[0].speed == 2.0
    assert [t.angle for t in tasks[:3]] == [80.0, 90.0, 100.0]  # the last axis fastest
    assert tasks[3].physics == (("mu", 0.2), ("e_piece", 0.9))
    assert tasks[6].skill == "pro"
    assert tasks[5].columns()["physics.mu"] == 0.2
    jobs = make_jobs(tasks, 2)
    assert [len(j) for j in jobs] == [2, 1, 2, 1, 2, 1, 2, 1]
    assert all(len({t.group for t in j}) == 1 for j in jobs)
    # a circle board's default placement; a turn axis
    crok = parse_sweep({"grid": {"variant": ["carrooka"], "turn": {"on": ["red", "blue"]}}})
    assert {t.placement for t in crok.tasks()} == {-90.0}
    assert [dict(t.turn)["on"] for t in crok.tasks()] == ["red", "blue"]
    assert sweep.digest == parse_sweep(raw).digest != crok.digest


def test_scoring_weights_reach_the_rules(tmp_path):
    """A scoring axis: with every weight 0 the points are 0; with the defaults they are not."""
    zero = {k: 0.0 for k in ("own_coin", "opponent_coin", "queen_covered", "due", "board_lost")}
    grid = {"variant": "icf", "placement": -0.05, "angle": [65.5, 66.0]}  # the mid-game cut
    grid["scoring"] = {"own_coin": [1.0, 0.0]}
    plain = run_sweep(parse_sweep({"n": 64, "grid": grid}), tmp_path / "a", progress=False)
    assert plain["scoring.own_coin"].tolist() == [1.0, 1.0, 0.0, 0.0]
    assert plain["points"].iloc[:2].abs().sum() > 0
    grid["scoring"] = {k: [v] for k, v in zero.items()}
    flat = run_sweep(parse_sweep({"n": 64, "grid": grid}), tmp_path / "b", progress=False)
    assert (flat["points"] == 0).all() and (flat["own_pocketed"] > 0.3).all()
    with pytest.raises(CarromlabError, match=r"grid.scoring.own_coin: not a field of carrooka"):
        parse_sweep({"grid": {"variant": "carrooka", "scoring": {"own_coin": 1.0}}})
    with pytest.raises(CarromlabError, match=r"grid.scoring: ring-pegs has no scoring options"):
        parse_sweep({"grid": {"variant": "ring-pegs", "scoring": {"x": 1.0}}})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"grid": {"variant": "icf"}, "speed": 2}, "speed: unknown key"),
        ({"grid": {"variant": "kooba"}}, "grid.variant = 'kooba': has no shot analysis"),
        ({"grid": {}}, "grid: give a variant or a position axis"),
        ({"grid": {"variant": "icf", "skill": "master"}}, "grid.skill = 'master': unknown skill"),
        ({"grid": {"variant": "icf", "physics": {"muu": 0.1}}}, "grid.physics.muu: unknown"),
        (
            {"grid": {"variant": "icf", "physics": {"mu": -1}}},
            "grid.physics.mu = -1: must be at least 0",
        ),
        ({"grid": {"variant": "icf", "angle": {"start": 1}}}, "grid.angle: a range is"),
        ({"grid": {"variant": "icf", "speed": [2, 2]}}, "grid.speed = 2: a value is given twice"),
        ({"grid": {"variant": "icf", "speed": [0]}}, "grid.speed = 0: must be positive"),
        ({"grid": {"variant": "icf", "spin": [1]}}, "grid.spin: unknown axis"),
        ({"n": 0, "grid": {"variant": "icf"}}, "n = 0: must be at least 1"),
        (
            {"grid": {"variant": "icf", "position": "carrooka-opening"}},
            "grid.position = 'carrooka-opening': is a carrooka position",
        ),
        ({"grid": {"position": "nowhere.json"}}, "grid.position = 'nowhere.json': is neither"),
        (
            {"grid": {"variant": "icf", "equipment": {"coin_diameter": 0.2}}},
            "grid.equipment.coin_diameter = 0.2: makes 'icf-midgame' invalid",
        ),
        ({"grid": {"variant": "icf", "turn": {"nominate": ["red"]}}}, "grid.turn.nominate"),
        (
            {"grid": {"variant": "carrooka", "turn": {"on": ["purple"]}}},
            "grid.turn.on = 'purple': not a valid value",
        ),
    ],
)
def test_bad_sweeps_get_one_line_naming_the_key(raw, message):
    with pytest.raises(CarromlabError, match="sweep: " + message.replace("(", r"\(")) as e:
        parse_sweep(raw)
    assert "\n" not in str(e.value)


def test_chunk_and_job_size_do_not_change_the_table(reference, tmp_path):
    sweep, ref = reference
    assert len(ref) == 8 and ref["task"].tolist() == list(range(8))
    assert (ref["n"] == 48).all() and ref["points"].notna().all()
    # every task has its own numbers: the aim, the friction and the skill change them
    assert ref["points"].nunique() == 8
    other = run_sweep(sweep, tmp_path / "o", job_size=1, chunk=37, progress=False)
    pd.testing.assert_frame_equal(ref, other)
    stored = read_parquet(tmp_path / "o" / "results.parquet")
    pd.testing.assert_frame_equal(ref, stored)
    meta = stored.attrs["config"]
    assert meta["digest"] == sweep.digest and meta["seed"] == 5 and "jax" in meta
    shard = read_parquet(tmp_path / "o" / "shards" / "task-0000003.parquet")
    assert shard.attrs["config"]["task"]["task"] == 3 and shard.attrs["config"]["spec"]["n"] == 48


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_executors_give_the_serial_table(reference, tmp_path, executor):
    sweep, ref = reference
    stats: dict = {}
    df = run_sweep(
        sweep, tmp_path / executor, executor, workers=2, job_size=2, progress=False, stats=stats
    )
    pd.testing.assert_frame_equal(ref, df)
    assert stats["computed"] == 8


# heavy: two devices in a fresh process (tests/test_devices.py checks the one-core table on two
# devices too, in the heavy group; the sweep's executors run by default)
@pytest.mark.heavy
def test_two_jax_devices_give_the_serial_table(reference, tmp_path):
    """In a fresh process with two CPU devices (one a core), chunks run on both and the table
    is the serial one."""
    _sweep, ref = reference
    config = _write(tmp_path, SMALL)
    code = (
        "import jax, sys;"
        "from carromlab.sweeps import load_sweep, run_sweep;"
        "assert len(jax.devices()) == 2;"
        "run_sweep(load_sweep(sys.argv[1]), sys.argv[2], chunk=50, progress=False)"
    )
    out = tmp_path / "devices"
    env = dict(os.environ, CARROMLAB_CORES="2")
    subprocess.run(
        [sys.executable, "-c", code, str(config), str(out)], check=True, timeout=600, env=env
    )
    df = read_parquet(out / "results.parquet")
    assert df.attrs["config"]["devices"] == 2
    pd.testing.assert_frame_equal(ref, df)


def test_a_killed_sweep_resumes_to_the_same_table(tmp_path):
    """SIGKILL mid-way, then rerun: only the missing tasks are computed, and the table equals
    an uninterrupted run's, with every task once."""
    text = SMALL.replace("n = 48", "n = 800").replace(
        "angle = [85.0, 95.0]", "angle = [80, 90, 100]"
    )
    config = _write(tmp_path, text)
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "carromlab", "sweep", str(config), "--out", str(out)]
    cmd += ["--job-size", "1", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    shards = out / "shards"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if shards.exists() and len(list(shards.glob("*.parquet"))) >= 2:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(list(shards.glob("*.parquet")))
    assert 2 <= done < 12, done
    assert not (out / "results.parquet").exists()
    (shards / f"task-{11:07d}.parquet.tmp").write_bytes(b"half a file")  # as a kill can leave
    res = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=600)
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["done_before"] == done and summary["computed"] == 12 - done
    resumed = read_parquet(out / "results.parquet")
    whole = run_sweep(load_sweep(config), tmp_path / "whole", progress=False)
    pd.testing.assert_frame_equal(whole, resumed)
    assert resumed["task"].is_unique and len(resumed) == 12
    again = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=600)
    assert json.loads(again.stdout.strip().splitlines()[-1])["computed"] == 0


def test_a_folder_holds_one_sweep_and_cli_errors_are_one_line(reference, tmp_path, capsys):
    from carromlab.cli import main

    sweep, _ = reference
    out = tmp_path / "one"
    run_sweep(sweep, out, progress=False)
    other = parse_sweep({"seed": 6, "n": 48, "grid": {"variant": "icf"}})
    # the refusal names what differs (the spec's keys), not only the two digests
    with pytest.raises(CarromlabError, match=r"holds another sweep \(axes\..* here, .* there"):
        run_sweep(other, out, progress=False)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x.txt").write_text("x")
    with pytest.raises(CarromlabError, match="not empty and holds no sweep"):
        run_sweep(sweep, tmp_path / "full", progress=False)
    config = _write(tmp_path, SMALL)
    for args, message in [
        ([str(tmp_path / "none.toml")], "no such sweep file"),
        ([str(_write(tmp_path, "n = [", "bad.toml"))], "not valid TOML"),
        ([str(config), "--executor", "threads"], "unknown executor 'threads'"),
        ([str(config), "--scheduler", "tcp://x:1"], "--scheduler is for the dask executor"),
        ([str(config), "--value", "p_foull"], "not a sweep value for icf; did you mean p_foul"),
    ]:
        with pytest.raises(SystemExit) as e:
            main(["sweep", *args, "--out", str(tmp_path / "cli")])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err


def _grid_table():
    """A sweep's table without the kernel: skill x mu x angle, points known by construction
    (pro better, the best aim 95 deg for club and 100 deg for pro), intervals +-0.05."""
    rows = []
    for skill, mu, angle in itertools.product(["club", "pro"], [0.08, 0.12], [90.0, 95.0, 100.0]):
        best = 95.0 if skill == "club" else 100.0
        v = (0.3 if skill == "pro" else 0.0) + (0.02 if mu == 0.12 else 0.0)
        v += 0.5 - 0.04 * abs(angle - best)
        rows.append(
            {
                "task": len(rows),
                "variant": "icf",
                "position": "icf-midgame",
                "skill": skill,
                "physics.mu": mu,
                "placement": -0.05,
                "angle": angle,
                "speed": 2.0,
                "n": 100,
                "points": v,
                "points_lo": v - 0.05,
                "points_hi": v + 0.05,
            }
        )
    return pd.DataFrame(rows)


def test_the_grids_answer_is_its_table_read():
    from carromlab.sweeps.answer import sweep_answer

    df = _grid_table()
    a = sweep_answer(df, "points")
    assert a["tasks"] == 12 and a["axes"] == ["skill", "physics.mu", "angle"]
    top = df.loc[df["points"].idxmax()]
    assert a["best"]["task"] == top["task"] == 11  # pro, mu 0.12, 100 deg
    assert (a["best"]["points"], a["best"]["lo"], a["best"]["hi"]) == pytest.approx(
        (top["points"], top["points_lo"], top["points_hi"])
    )
    assert a["best"]["skill"] == "pro" and a["best"]["angle"] == 100.0
    # as good: the tasks whose interval reaches the best's lower end (pro, mu 0.08, 100 deg,
    # task 8, is 0.02 below: within; pro at 95 deg is 0.2 below: not)
    near = df[df["points_hi"] >= top["points_lo"]]
    assert a["within"] == len(near) and set(a["within_tasks"]) == set(near["task"])
    assert a["within_tasks"] == [11, 8]
    low = df.loc[df["points"].idxmin()]
    assert a["lowest"]["task"] == low["task"]
    assert a["spread"] == pytest.approx(top["points"] - low["points"])
    assert a["on_edge"] == [["angle", "highest"]]  # the best aim is the grid's last
    axes = {b["axis"]: b for b in a["by_axis"]}
    skill = dict(map(tuple, axes["skill"]["levels"]))
    assert skill == pytest.approx(df.groupby("skill")["points"].mean().to_dict())
    means = df.groupby("skill")["points"].mean()
    assert axes["skill"]["range"] == pytest.approx(means.max() - means.min())
    assert axes["physics.mu"]["range"] == pytest.approx(0.02)
    # the best shot under each condition: 95 deg for club, 100 for pro, whatever mu
    assert a["conditions"] == ["skill", "physics.mu"]
    best_aim = {(c["skill"], c["physics.mu"]): c["angle"] for c in a["by_condition"]}
    assert best_aim == {
        ("club", 0.08): 95.0,
        ("club", 0.12): 95.0,
        ("pro", 0.08): 100.0,
        ("pro", 0.12): 100.0,
    }
    assert all(c["of"] == 3 and c["within"] == 1 for c in a["by_condition"])
    # a quantity that does not apply to a variant (NaN there) is left out; no value, refused
    mixed = pd.concat([df, df.assign(task=df["task"] + 12, variant="carrooka", points=np.nan)])
    assert sweep_answer(mixed, "points")["tasks"] == 12
    with pytest.raises(CarromlabError, match="no column 'p_wins'"):
        sweep_answer(df, "p_wins")
    # one condition only: no table by condition; one task: no spread
    one = sweep_answer(df[(df["skill"] == "pro") & (df["physics.mu"] == 0.12)], "points")
    assert one["axes"] == ["angle"] and "by_condition" not in one
    assert sweep_answer(df.head(1), "points")["spread"] == 0.0


def test_the_sweep_command_ends_with_the_grids_answer(tmp_path, capsys):
    from carromlab.cli import main

    config = _write(tmp_path, SMALL)
    out = tmp_path / "cli"
    main(["sweep", str(config), "--out", str(out), "--json"])
    doc = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    df = read_parquet(out / "results.parquet")
    a = doc["answer"]
    top = df.loc[df["points"].idxmax()]
    assert a["value"] == "points" and a["best"]["task"] == top["task"]
    assert (a["best"]["lo"], a["best"]["hi"]) == pytest.approx((top["points_lo"], top["points_hi"]))
    assert a["spread"] == pytest.approx(df["points"].max() - df["points"].min())
    # the tables: the best task with its interval, the axes, the best aim per condition
    main(["sweep", str(config), "--out", str(out), "--value", "p_continues"])
    text = capsys.readouterr().out
    top = df.loc[df["p_continues"].idxmax()]
    assert "the grid's answer for p_continues" in text
    best = f"{100 * top['p_continues']:.1f} %"
    interval = f"[{100 * top['p_continues_lo']:.1f}, {100 * top['p_continues_hi']:.1f}] %"
    assert re.search(
        rf"best\s+{re.escape(best)}\s+{re.escape(interval)}\s+task {top['task']}:", text
    )
    assert "the best shot under each condition" in text
    rows = [ln for ln in text.splitlines() if re.match(r"^\s+(club|pro)\s+0\.(08|12)\s", ln)]
    assert len(rows) == 4
