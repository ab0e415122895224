"""Kill tests for a sweep's folder (store.py, run.py): SIGKILL at ten random points of a sweep
(seeded steps of the run: in a job, while a file is written, before or after its rename), then
a resume: the table equals an uninterrupted run's row for row, with every task once and no file
left over; kills between writing a file and renaming it (the folder's claim, a shard, the
table); shards cut short, recomputed on resume and refused in one line by ``collect``.
Every kill is placed by the run's progress, never by a time: each run is killed whatever the
machine's speed.

The kernel is not run: ``run_sweep``'s ``compute`` gets a stand-in (:func:`fake_job`), and one
server process (this file run as a script) imports carromlab once and forks a child for each
run, which the server kills. So a dozen runs cost one import of JAX, not a dozen.
"""

from __future__ import annotations

import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

SPEC = {
    "name": "kills",
    "seed": 11,
    "n": 100,
    "grid": {
        "variant": "icf",
        "skill": ["club", "pro"],
        "angle": {"start": 60, "stop": 120, "count": 25},
        "physics": {"mu": [0.08, 0.12]},
    },
}
TASKS = 2 * 25 * 2
JOB_SIZE = 3  # jobs of 3, 3, ..., 1 in each group of 25
SLEEP = 0.003  # seconds of "kernel" a task (a kill in a job lands in it)
SHARD = re.compile(r"^task-(\d{7})\.parquet$")
TMP = re.compile(r"^task-(\d{7})\.parquet\.tmp$")


def fake_job(sweep, tasks, chunk):
    """A job's frame as ``jobs.run_job`` makes it (the tasks' columns, ``n``, quantities with
    intervals, a NaN here and there), from the seed and the task ids alone."""
    time.sleep(SLEEP * len(tasks))
    rows = []
    for t in tasks:
        rng = np.random.default_rng([sweep.seed, t.id])
        p, points = float(rng.random()), float(rng.normal())
        rows.append(
            {
                **t.columns(),
                "n": sweep.n,
                "p_pocket": p,
                "p_pocket_lo": p * 0.9,
                "p_pocket_hi": min(1.0, p * 1.1),
                "points": np.nan if t.id % 7 == 3 else points,
                "points_lo": points - 0.5,
                "points_hi": points + 0.5,
            }
        )
    return pd.DataFrame(rows)


# ---- the server: this file run as a script ------------------------------------------------


def _serve() -> None:
    """Read a JSON command a line; fork a child that runs it; answer a JSON line with its
    exit code."""
    from carromlab.sweeps import parse_sweep

    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        sweep = parse_sweep(cmd["spec"])
        pid = os.fork()
        if pid == 0:
            _child(cmd, sweep)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"exit": os.waitstatus_to_exitcode(status)}), flush=True)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _dying_at_step(k: int, u: float):
    """Hooks that SIGKILL the child at its ``k``-th step, a step being a job or a rename (of
    the folder's claim, a shard, the table); ``u`` in [0, 1) places the kill in that step: a
    job killed after ``u`` of its work; a rename killed before it with the file written whole
    (u < 1/3), killed while the file was written (its first bytes only), or killed just after
    it. Returns the job function and the ``os.replace`` to use."""
    steps = [0]
    real = os.replace

    def reached() -> bool:
        steps[0] += 1
        return steps[0] == k

    def job(sweep, tasks, chunk):
        if reached():
            time.sleep(SLEEP * len(tasks) * u)
            _die()
        return fake_job(sweep, tasks, chunk)

    def replace(src, dst, *args, **kwargs):
        if reached():
            if 1 / 3 <= u < 2 / 3:  # cut short while written
                size = os.path.getsize(src)
                os.truncate(src, int(size * (3 * u - 1)))
            elif u >= 2 / 3:
                real(src, dst, *args, **kwargs)
            _die()
        return real(src, dst, *args, **kwargs)

    return job, replace


def _child(cmd: dict, sweep) -> None:
    """Run one command in the forked child, its output in ``cmd["log"]``, its stats or error
    in ``log.json``; SIGKILL itself before its ``die_at_replace``-th rename, or at the step
    ``die_at_step`` gives (:func:`_dying_at_step`), if given."""
    code, result = 1, {}
    try:
        fd = os.open(cmd["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        from carromlab.errors import CarromlabError
        from carromlab.sweeps import run_sweep
        from carromlab.sweeps.store import collect

        if cmd.get("die_at_replace"):
            real, calls = os.replace, []

            def replace(src, dst, *args, **kwargs):
                calls.append(dst)
                if len(calls) == cmd["die_at_replace"]:
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(src, dst, *args, **kwargs)

            os.replace = replace  # write_parquet's and Path.replace's
        compute = fake_job
        if cmd.get("die_at_step"):
            compute, os.replace = _dying_at_step(*cmd["die_at_step"])
        try:
            if cmd["action"] == "collect":
                collect(Path(cmd["out"]), sweep, sweep.tasks())
            else:
                run_sweep(
                    sweep,
                    cmd["out"],
                    job_size=JOB_SIZE,
                    progress=False,
                    stats=result,
                    compute=compute,
                )
            code = 0
        except CarromlabError as e:
            code, result = 3, {"error": str(e)}
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        Path(cmd["log"] + ".json").write_text(json.dumps(result))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


# ---- the tests ----------------------------------------------------------------------------


class Server:
    def __init__(self, logs: Path):
        env = dict(os.environ, JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.logs, self.count = logs, 0
        assert self._read(300) == {"ready": True}

    def _read(self, timeout: float) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "the sweep server did not answer"
        line = self.proc.stdout.readline()
        assert line, f"the sweep server stopped ({self.proc.poll()})"
        return json.loads(line)

    def run(self, out: Path, action: str = "run", spec: dict = SPEC, **options) -> dict:
        """Run a command; its reply with the child's output (``log``) and stats or error."""
        self.count += 1
        log = self.logs / f"run-{self.count}.log"
        cmd = {"action": action, "spec": spec, "out": str(out), "log": str(log), **options}
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        reply = self._read(120)
        reply["log"] = log.read_text() if log.exists() else ""
        res = log.with_name(log.name + ".json")
        reply["result"] = json.loads(res.read_text()) if res.exists() else None
        return reply

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("logs"))
    yield s
    s.close()


@pytest.fixture(scope="module")
def reference(server, tmp_path_factory):
    """An uninterrupted run's table."""
    out = tmp_path_factory.mktemp("whole") / "out"
    r = server.run(out)
    assert r["exit"] == 0, r["log"]
    assert r["result"]["computed"] == TASKS and r["result"]["repaired"] == []
    assert _names(out) == _complete()
    return pd.read_parquet(out / "results.parquet")


def _names(out: Path) -> set[str]:
    """Every file and folder under ``out``, relative."""
    return {str(p.relative_to(out)) for p in out.rglob("*")}


def _complete() -> set[str]:
    shards = {f"shards/task-{i:07d}.parquet" for i in range(TASKS)}
    return {"sweep.json", "results.parquet", "shards"} | shards


def _check_partial(out: Path, ref: pd.DataFrame) -> int:
    """What a killed run may leave: the claim (or its .tmp), whole shards each holding its own
    task's row as the uninterrupted run has it, .tmp files of tasks without a shard only (one
    a kill, overwritten when the task is written), and the table only once every shard is
    there. The number of shards."""
    top = {p.name for p in out.iterdir()} if out.exists() else set()
    allowed = {"sweep.json", "sweep.json.tmp", "shards", "results.parquet", "results.parquet.tmp"}
    assert top <= allowed, top
    assert not {"sweep.json", "sweep.json.tmp"} <= top, top
    folder = out / "shards"
    names = [p.name for p in folder.iterdir()] if folder.exists() else []
    done = sorted(int(m.group(1)) for n in names if (m := SHARD.match(n)))
    tmps = [int(m.group(1)) for n in names if (m := TMP.match(n))]
    assert len(done) + len(tmps) == len(names), names
    assert not set(tmps) & set(done), names
    for i in done:
        row = pd.read_parquet(folder / f"task-{i:07d}.parquet")
        pd.testing.assert_frame_equal(row, ref.iloc[[i]].reset_index(drop=True))
    if "results.parquet" in top or "results.parquet.tmp" in top:
        assert done == list(range(TASKS))
    return len(done)


def _check_final(out: Path, ref: pd.DataFrame) -> None:
    """No file left over; the table equals the uninterrupted run's exactly, in order."""
    assert _names(out) == _complete()
    df = pd.read_parquet(out / "results.parquet")
    pd.testing.assert_frame_equal(df, ref)
    assert df.equals(ref)
    assert df["task"].tolist() == list(range(TASKS))


def test_ten_kills_at_random_steps_resume_to_the_uninterrupted_table(server, reference, tmp_path):
    ref = reference
    out = tmp_path / "killed"
    rng = random.Random(20261202)
    counts = [0]
    for _ in range(10):
        # a run has more steps than tasks left (a rename for each task's shard, the table's,
        # and the jobs): a step drawn among the first ``left`` is always reached
        left = TASKS - counts[-1]
        kill = [rng.randint(1, left), rng.random()]
        r = server.run(out, die_at_step=kill)
        assert r["exit"] == -signal.SIGKILL, (kill, r)
        counts.append(_check_partial(out, ref))
    counts = counts[1:]
    assert counts == sorted(counts), counts  # no shard lost
    r = server.run(out)
    assert r["exit"] == 0, r["log"]
    assert r["result"]["done_before"] == counts[-1]
    assert r["result"]["computed"] == TASKS - counts[-1] and r["result"]["repaired"] == []
    _check_final(out, ref)


def test_kills_between_writing_a_file_and_renaming_it(server, reference, tmp_path):
    """Killed before the claim's rename (sweep.json.tmp alone in the folder), before the first
    shard's, in the middle, before the table's: each run resumes what the last left."""
    ref = reference
    out = tmp_path / "renames"
    # the renames of a run: the claim (a first run only), a shard a task (jobs that finish
    # together are written in any order), then the table
    steps = [(1, r"sweep\.json\.tmp", 0), (2, TMP.pattern, 0), (40, TMP.pattern, 39)]
    steps += [(TASKS - 39 + 1, r"results\.parquet\.tmp", TASKS)]
    for k, left, shards in steps:
        r = server.run(out, die_at_replace=k)
        assert r["exit"] == -signal.SIGKILL, (k, r)
        assert _check_partial(out, ref) == shards
        tmps = [p.name for p in out.rglob("*.tmp")]
        assert len(tmps) == 1 and re.match(left, tmps[0]), (k, tmps)
    r = server.run(out)
    assert r["exit"] == 0, r["log"]
    assert r["result"]["done_before"] == TASKS and r["result"]["computed"] == 0
    _check_final(out, ref)
    again = server.run(out)
    assert again["exit"] == 0 and again["result"]["computed"] == 0
    _check_final(out, ref)


def test_a_shard_cut_short_is_recomputed_or_refused_in_one_line(server, reference, tmp_path):
    ref = reference
    out = tmp_path / "cut"
    assert server.run(out)["exit"] == 0
    cut = {17: 0.5, 60: 0.0, 99: -1}  # half the bytes, none, all but the last
    for i, keep in cut.items():
        path = out / "shards" / f"task-{i:07d}.parquet"
        size = path.stat().st_size
        os.truncate(path, size - 1 if keep == -1 else int(size * keep))
    # collect alone refuses, naming the first damaged file
    r = server.run(out, action="collect")
    assert r["exit"] == 3, r
    message = r["result"]["error"]
    assert "\n" not in message and f"task-{17:07d}.parquet is damaged" in message, message
    # a run recomputes exactly the damaged tasks, naming their files on stderr
    r = server.run(out)
    assert r["exit"] == 0, r["log"]
    assert r["result"]["repaired"] == sorted(cut) and r["result"]["computed"] == len(cut)
    lines = r["log"].splitlines()
    assert len(lines) == len(cut), lines
    for i, line in zip(sorted(cut), lines, strict=True):
        assert line.endswith(f"task-{i:07d}.parquet was cut short; recomputing task {i}")
    _check_final(out, ref)
    # the claim cut short: refused in one line naming it
    marker = out / "sweep.json"
    os.truncate(marker, marker.stat().st_size // 2)
    r = server.run(out)
    assert r["exit"] == 3, r
    message = r["result"]["error"]
    assert "\n" not in message and f"{marker} is damaged" in message, message


if __name__ == "__main__":
    _serve()
