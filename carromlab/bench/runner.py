"""Run a benchmark scenario through the kernel in fixed-size chunks and time it."""

from __future__ import annotations

import platform
import time

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.bench.scenarios import scenario as get_scenario
from carromlab.physics.devices import usable_cores
from carromlab.physics.kernel import DEFAULT_CONTACTS, Discs
from carromlab.physics.table import Pieces, Table

#: The peer's fixed setting for speed comparisons (``bench --peer pymunk``): a 1 ms step, one
#: process per core. It is conservative for the kernel: the step is 20 times the one at which
#: pymunk agrees with the kernel (carromlab/bench/pymunk_peer.py ``DT``, docs/validation.md),
#: which makes pymunk about ten times faster than there; it still misses no contact (at 5 m/s
#: a disc moves 5 mm a step, a third of a coin's radius) but resolves contacts late, so its
#: outcomes drift (``same_pieces_pocketed`` in the report).
PEER_DT = 1e-3
#: Shots each peer process simulates.
PEER_SHOTS = 40


def scenario_template(sc) -> tuple[Table, Discs, Pieces]:
    table = Table.from_layout(sc.position.board.layout)
    pieces = Pieces.from_position(
        sc.position, shooter=("striker", None, float(sc.shot.x), float(sc.shot.y))
    )
    return table, Discs.from_pieces(pieces), pieces


def device_name() -> str:
    dev = jax.devices()[0]
    return f"{dev.platform}:{getattr(dev, 'device_kind', dev.platform)}"


def bench(
    name: str,
    batch: int,
    chunk: int = 4096,
    seed: int = 0,
    max_events: int = 512,
    progress: bool = False,
    contacts: str = DEFAULT_CONTACTS,
    lanes: int | None = None,
    cores: int | None = None,
    keep_first: int = 0,
) -> dict:
    """Simulate ``batch`` noisy shots of scenario ``name``; figures as a dict (JSON-ready).

    The shots run as every analysis runs them (:class:`~carromlab.analysis.runner.ShotRunner`,
    the position as listed: no hand-set moves): in chunks of at most ``chunk`` (bounded
    memory), each in refilling lanes (``lanes``; 0: the plain batch simulator), on every
    core's device (``cores``: the first that many). ``compile_s`` is the first chunk on every
    device (compiled in parallel), not counted in ``shots_per_s``. ``keep_first``: also
    return the first that many shots and their captures (``"_first"``, for the peer).
    ``progress`` shows a bar on stderr.
    """
    from carromlab.analysis.runner import ShotRunner

    sc = get_scenario(name)
    # balanced chunks of at most ``chunk`` shots: the padding of the last one stays small
    n_chunks = -(-batch // chunk)
    chunk = -(-batch // n_chunks)
    runner = ShotRunner(
        sc.position,
        chunk=chunk,
        max_events=max_events,
        contacts=contacts,
        hand_set=0,
        lanes=lanes,
        cores=cores,
    )
    n_dev = len(runner.devices)
    t0 = time.perf_counter()
    for _ in runner.run(sc.shot, chunk * n_dev, sc.noise, seed + 1):  # every device compiles
        pass
    compile_s = time.perf_counter() - t0
    events, truncated, first = [], 0, None
    t0 = time.perf_counter()
    for ch in runner.run(sc.shot, batch, sc.noise, seed, progress=progress, desc=f"{name} shots"):
        events.append(ch.outcome["n_events"])
        truncated += int(ch.outcome["truncated"].sum())
        if first is None and keep_first:
            first = {
                "shots": {k: v[:keep_first] for k, v in ch.shots.items()},
                "capture": ch.outcome["capture"][:keep_first],
            }
    elapsed = time.perf_counter() - t0
    ev = np.concatenate(events)
    out = {
        "scenario": name,
        "batch": batch,
        "chunk": chunk,
        "lanes": runner.lanes,
        "cores": n_dev,
        "shots_per_s": batch / elapsed,
        "elapsed_s": elapsed,
        "events_per_shot": {"mean": float(ev.mean()), "max": int(ev.max())},
        "truncated": truncated,
        "compile_s": compile_s,
        "contacts": contacts,
        "device": device_name(),
        "dtype": str(jnp.result_type(float)),
        "jax_version": jax.__version__,
        "machine": machine_name(),
        "date": time.strftime("%Y-%m-%d"),
    }
    if first is not None:
        out["_first"] = first
    return out


def machine_name() -> str:
    """The CPU model and the usable cores: what a figure was measured on."""
    model = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{platform.machine()}, {model}, {usable_cores()} cores"


def bench_one_core(name: str, batch: int, **kw) -> dict:
    """:func:`bench` in a child process bound to one CPU core with one device (the baseline
    of the scaling figure): ``CARROMLAB_CORES=1`` and the child's affinity set to this
    process's first core before it starts, so every thread of it (XLA's too) shares that
    one core."""
    import json
    import os
    import subprocess
    import sys

    first_core = min(os.sched_getaffinity(0))
    args = [sys.executable, "-m", "carromlab", "bench", "--scenario", name, "--batch", str(batch)]
    for k in ("chunk", "seed", "lanes"):
        if kw.get(k) is not None:
            args += [f"--{k}", str(kw[k])]
    args += ["--contacts", kw.get("contacts", DEFAULT_CONTACTS), "--json"]
    env = dict(os.environ, CARROMLAB_CORES="1")
    res = subprocess.run(
        args,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {first_core}),
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench_with_peer(
    name: str,
    batch: int,
    peer_shots: int = PEER_SHOTS,
    peer_dt: float = PEER_DT,
    peer_cores: int | None = None,
    **kw,
) -> dict:
    """:func:`bench`, plus the same noisy shots in pymunk, at the peer's fixed conservative
    setting (:data:`PEER_DT`, one process per core, each with ``peer_shots`` shots of its
    own): ``ratio_per_machine`` (the kernel on every core against pymunk on every core), and
    under ``"peer"`` each process's own rate."""
    from carromlab.bench.pymunk_peer import bench_pymunk_machine

    try:
        import pymunk  # noqa: F401
    except ImportError:
        from carromlab.errors import CarromlabError

        raise CarromlabError("--peer pymunk needs pymunk: pip install pymunk") from None
    n_proc = peer_cores or usable_cores()
    out = bench(name, batch, keep_first=peer_shots * n_proc, **kw)
    first = out.pop("_first")
    sc = get_scenario(name)
    table, _, pieces = scenario_template(sc)
    sh = first["shots"]
    params = list(
        zip(*(np.asarray(sh[k], dtype=float) for k in ("x", "y", "angle", "speed")), strict=True)
    )
    peer = bench_pymunk_machine(table, pieces, params, processes=n_proc, dt=peer_dt)
    same = sum(
        np.array_equal(first["capture"][k] >= 0, r["capture"] >= 0)
        for k, r in enumerate(peer["results"])
    )
    out["peer"] = {
        "engine": "pymunk",
        "dt_s": peer_dt,
        "processes": n_proc,
        "shots": len(params),
        "shots_per_s_per_core": peer["shots_per_s_per_process"],
        "shots_per_s": peer["shots_per_s"],
        "same_pieces_pocketed": int(same),
    }
    out["ratio_per_machine"] = out["shots_per_s"] / peer["shots_per_s"]
    return out
