"""Kernel programs: kept whole across processes, never stale, counted; few shapes; warm-up;
the compile spinner."""

from __future__ import annotations

import io
import json
import uuid
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from carromlab.analysis.runner import QUEUE_SIZES, chunk_size
from carromlab.physics import programs
from carromlab.physics.kernel import DISC_BUCKETS, disc_bucket


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Pair:
    total: jax.Array
    scaled: jax.Array


def _f(x, s):
    """A small stand-in for a kernel: a pytree in, a dataclass pytree out."""
    return Pair(total=jnp.cumsum(x["a"] * s), scaled=x["b"] / (1.0 + s))


def _program(kind):
    return programs.kernel_program(_f, kind, None, board="test board", discs=3)


def _args():
    x = {"a": jnp.arange(5, dtype=jnp.float32) / 7, "b": jnp.linspace(0, 1, 3)}
    return x, 0.3  # (a Python float: weak-typed, as the kernels' physics scalars are)


def _record(kind):
    return [r for r in programs.programs() if r.kind == kind]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CARROMLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(programs.LOG_ENV, raising=False)  # (the suite counts kernels only)
    return tmp_path


def test_a_program_is_stored_and_read_back_the_same_bit_for_bit(cache):
    kind = f"test-{uuid.uuid4().hex[:8]}"
    first = _program(kind)(*_args())
    files = list((cache / programs.PROGRAMS_FOLDER).glob("*.jaxexport"))
    assert len(files) == 1
    assert [r.source for r in _record(kind)] == ["traced"]
    # another process: a new program object, nothing in memory; the file is read back
    programs._seen.clear()
    again = _program(kind)(*_args())
    assert isinstance(again, Pair)
    np.testing.assert_array_equal(np.asarray(again.total), np.asarray(first.total))
    np.testing.assert_array_equal(np.asarray(again.scaled), np.asarray(first.scaled))
    assert [r.source for r in _record(kind)] == ["stored"]
    # equal to the plain function, bit for bit
    plain = jax.jit(_f)(*_args())
    np.testing.assert_array_equal(np.asarray(again.total), np.asarray(plain.total))


def test_a_new_shape_is_a_new_program_and_the_same_shape_is_not(cache):
    kind = f"test-{uuid.uuid4().hex[:8]}"
    prog = _program(kind)
    x, s = _args()
    prog(x, s)
    prog(x, 0.9)  # another value, the same signature
    prog({"a": jnp.ones(9, jnp.float32), "b": x["b"]}, s)
    assert len(_record(kind)) == 2
    assert len(list((cache / programs.PROGRAMS_FOLDER).glob("*.jaxexport"))) == 2


def test_nothing_stale_another_code_digest_is_another_program(cache, monkeypatch):
    kind = f"test-{uuid.uuid4().hex[:8]}"
    _program(kind)(*_args())
    programs._seen.clear()
    monkeypatch.setattr(programs, "code_digest", lambda: "another-kernel-source")
    _program(kind)(*_args())
    assert [r.source for r in _record(kind)] == ["traced"]  # not the stored one
    assert len(list((cache / programs.PROGRAMS_FOLDER).glob("*.jaxexport"))) == 2


def test_a_damaged_file_is_traced_again_and_rewritten(cache):
    kind = f"test-{uuid.uuid4().hex[:8]}"
    want = _program(kind)(*_args())
    (path,) = (cache / programs.PROGRAMS_FOLDER).glob("*.jaxexport")
    path.write_bytes(b"\x05\x00\x00\x00not a program")
    programs._seen.clear()
    got = _program(kind)(*_args())
    assert [r.source for r in _record(kind)] == ["traced"]
    np.testing.assert_array_equal(np.asarray(got.total), np.asarray(want.total))
    assert path.stat().st_size > 100


def test_with_the_cache_off_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("CARROMLAB_CACHE_DIR", "off")
    monkeypatch.delenv(programs.LOG_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    assert programs.store_folder() is None
    kind = f"test-{uuid.uuid4().hex[:8]}"
    out = _program(kind)(*_args())
    assert np.isfinite(np.asarray(out.total)).all()
    assert list(tmp_path.rglob("*.jaxexport")) == []


def test_the_program_log_gets_one_json_line_a_program(cache, tmp_path, monkeypatch):
    log = tmp_path / "programs.jsonl"
    monkeypatch.setenv(programs.LOG_ENV, str(log))
    kind = f"test-{uuid.uuid4().hex[:8]}"
    prog = _program(kind)
    prog(*_args())
    prog(*_args())
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    mine = [r for r in rows if r["kind"] == kind]
    assert len(mine) == 1
    assert mine[0]["why"]["board"] == "test board" and mine[0]["why"]["discs"] == "3"
    assert {"key", "compiled", "from_disk", "source", "pid"} <= set(mine[0])


def test_explain_lines_name_each_program_and_what_chose_it(cache):
    kind = f"test-{uuid.uuid4().hex[:8]}"
    _program(kind)(*_args())
    lines = programs.explain_lines()
    assert lines[0].startswith("kernel programs used: ")
    mine = [line for line in lines if kind in line]
    assert len(mine) == 1 and "board test board, discs 3" in mine[0]
    assert lines[-1].startswith("XLA compiles in all")


def test_explain_without_jax_says_so():
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "carromlab", "--explain", "version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0
    assert run.stderr.strip() == "kernel programs used: 0 (JAX was not loaded)"


def test_disc_counts_round_up_to_a_few_buckets():
    ns = (1, 2, 8, 9, 12, 13, 19, 20, 21, 22, 26, 27)
    assert [disc_bucket(n) for n in ns] == [8, 8, 8, 20, 20, 20, 20, 20, 26, 26, 26, 32]
    assert disc_bucket(65) == 96 and DISC_BUCKETS[:3] == (8, 20, 26)


def test_a_chunk_is_kept_up_to_the_queue_and_one_of_its_sizes_above():
    """Up to the queue (4,096 slots) a chunk is what was asked, at least 64 (it shares the
    queue's one program); above it the largest queue size not above it. A chunk of 4,082 (what the
    bench's balanced chunks ask) is not rounded down to 512."""
    assert [chunk_size(c) for c in (0, 1, 64, 100, 4082, 4096, 5000, 10**6)] == [
        64,
        64,
        64,
        100,
        4082,
        4096,
        4096,
        32768,
    ]
    assert QUEUE_SIZES == (4096, 32768)


def test_a_small_chunk_runs_in_the_default_chunks_queue():
    """Chunks below QUEUE run their shots in a queue of QUEUE slots (one lane program for
    every chunk size up to it); each call still runs at most ``chunk`` shots, and the
    outcomes are the same."""
    from carromlab.analysis.runner import QUEUE, ShotRunner
    from carromlab.analysis.variants import analysis_for
    from carromlab.registry import standard_position
    from carromlab.shots import Shot, skill

    pos = standard_position("icf-midgame")
    noise = analysis_for(pos.variant).noise(skill("club"))
    cells = Shot(-0.05, -0.2, 1.15, 2.0)
    calls, outcomes = {}, {}
    for chunk in (64, QUEUE):
        runner = ShotRunner(pos, chunk=chunk)
        real, seen = runner._sim, []

        def recorded(d, p, count, real=real, seen=seen):
            seen.append((d.x.shape, int(count)))
            return real(d, p, count)

        runner._sim = recorded
        chunks = list(runner.run(cells, 300, noise, seed=1))
        calls[chunk] = seen
        outcomes[chunk] = {
            k: np.concatenate([c.outcome[k] for c in chunks]) for k in chunks[0].outcome
        }
    assert {shape for shape, _ in calls[64]} == {shape for shape, _ in calls[QUEUE]}
    assert calls[64][0][0][0] == QUEUE
    assert [n for _, n in calls[64]] == [64, 64, 64, 64, 44]
    assert [n for _, n in calls[QUEUE]] == [300]
    assert "capture" in outcomes[64]
    for k, v in outcomes[QUEUE].items():
        np.testing.assert_array_equal(outcomes[64][k], v, err_msg=k)


def test_warmup_lists_each_program_of_a_game():
    from carromlab.analysis.warmup import warmup_tasks

    whats = [t.what for t in warmup_tasks(["icf"])]
    assert whats == [
        "shot analysis, 8 discs",
        "shot analysis, 20 discs",
        "whole games, 20 discs",
    ]
    assert warmup_tasks(["kooba"]) == []


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_spinner_shows_a_long_compile_on_a_terminal_only():
    import time

    from carromlab.cli.spinner import spinner

    quiet = io.StringIO()
    with spinner("the physics kernel for 20 discs", stream=quiet, delay=0):
        time.sleep(0.3)
    assert quiet.getvalue() == ""
    term = _Terminal()
    with spinner("the physics kernel for 20 discs", stream=term, delay=0):
        time.sleep(0.3)
    text = term.getvalue()
    assert "compiling the physics kernel for 20 discs" in text and "first run only" in text
    assert text.endswith("\r\x1b[2K")  # wiped when done
    assert "\n" not in text  # one line, rewritten in place
    fast = _Terminal()
    with spinner("x", stream=fast, delay=5):
        pass
    assert fast.getvalue() == ""  # a quick one shows nothing


@pytest.mark.skipif(programs.fcntl is None, reason="no fcntl: no lock")
def test_a_program_is_made_ready_by_one_process_at_a_time(cache):
    """The lock a process holds while it makes a program ready: another holder of the same
    key (another process; here another thread, which flock treats alike) waits until it is
    released; other keys do not wait; the lock files are not cache entries."""
    import threading
    import time

    from carromlab.compile_cache import cache_info

    order, trying = [], threading.Event()

    def second():
        trying.set()
        with programs.program_lock("k1"):
            order.append("second")

    with programs.program_lock("k1"):
        with programs.program_lock("k2"):  # another program: no wait
            order.append("other key")
        t = threading.Thread(target=second)
        t.start()
        trying.wait()
        time.sleep(0.2)  # (room for the second to get in, were the lock not held)
        order.append("first")
    t.join(timeout=60)
    assert order == ["other key", "first", "second"]
    assert (cache / programs.PROGRAMS_FOLDER / "k1.lock").exists()
    assert cache_info()["entries"] == 0


def test_every_choice_a_simulator_is_built_with_is_in_its_program_key(monkeypatch):
    """Two simulators built with different static choices (event cap, contact model, lanes,
    steps, cluster steps, per-shot physics...) never share a stored program: each choice is
    in the key's ``why`` (or its kind). Checked by changing one argument at a time. The lane
    simulator's event cap is no choice of its program: it is traced (one program serves every
    cap; tests/test_kernel.py checks it stops the shots)."""
    import inspect

    from carromlab.equipment.icf import IcfBoard
    from carromlab.physics.kernel import batch as batch_module
    from carromlab.physics.kernel import make_batch_simulator, make_lane_simulator
    from carromlab.physics.kernel.spec import CONTACT_MODELS, Table

    built = []

    def fake_program(fun, kind, options, **why):
        built.append((kind, tuple(sorted((k, str(v)) for k, v in why.items()))))
        return lambda *a: None

    monkeypatch.setattr(batch_module, "kernel_program", fake_program)
    table = Table.from_layout(IcfBoard().layout)
    for make in (make_batch_simulator, make_lane_simulator):
        make(table, 4)
        base = built[-1]
        for name, p in inspect.signature(make).parameters.items():
            if name in ("table", "n_pieces"):
                continue
            if make is make_lane_simulator and name == "max_events":
                make(table, 4, max_events=99)
                assert built[-1] == base, "the lane simulator's cap is traced, not in its key"
                continue
            if isinstance(p.default, bool):
                other = not p.default
            elif isinstance(p.default, int):
                other = p.default + 1
            else:
                other = next(c for c in CONTACT_MODELS if c != p.default)
            make(table, 4, **{name: other})
            assert built[-1] != base, f"{make.__name__}({name}=...) is not in the program key"
