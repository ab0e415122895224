"""Run a benchmark scenario through the kernel in fixed-size chunks and time it."""

from __future__ import annotations

import platform
import time

import jax
import jax.numpy as jnp
import numpy as np

from carromlab.bench.scenarios import scenario as get_scenario
from carromlab.physics import Physics
from carromlab.physics.simulate import DEFAULT_CONTACTS, Discs, make_batch_simulator
from carromlab.physics.table import Pieces, Table
from carromlab.shots import noisy_shots, place_shooter, shot_keys


def scenario_template(sc) -> tuple[Table, Discs, Pieces]:
    table = Table.from_layout(sc.position.board.layout)
    pieces = Pieces.from_position(
        sc.position, shooter=("striker", None, float(sc.shot.x), float(sc.shot.y))
    )
    return table, Discs.from_pieces(pieces), pieces


def make_chunk_runner(sc, chunk: int, max_events: int = 512, contacts: str = DEFAULT_CONTACTS):
    """A jitted ``run(keys) -> ShotOutcome`` for one chunk of noisy shots of scenario ``sc``
    (``contacts``: the kernel's contact model)."""
    table, template, pieces = scenario_template(sc)
    batch_sim = make_batch_simulator(table, pieces.n, max_events, contacts=contacts)

    devices = jax.devices()

    @jax.jit
    def discs_for(keys):
        shots = noisy_shots(sc.shot, sc.noise, keys)
        return jax.vmap(place_shooter, in_axes=(None, 0))(template, shots)

    def run(keys, physics=Physics()):
        """Split the chunk evenly over the local devices; each part runs on its own device
        (asynchronously), then the parts are joined on the host."""
        parts = np.array_split(np.arange(keys.shape[0]), len(devices))
        outs = [
            batch_sim(discs_for(jax.device_put(keys[p[0] : p[-1] + 1], dev)), physics)
            for p, dev in zip(parts, devices)
            if len(p)
        ]
        if len(outs) == 1:
            return outs[0]
        return jax.tree_util.tree_map(lambda *a: np.concatenate([np.asarray(x) for x in a]), *outs)

    return run


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
) -> dict:
    """Simulate ``batch`` noisy shots of scenario ``name``; figures as a dict (JSON-ready).

    Shots go through the kernel in equal chunks of at most ``chunk`` (the last one is padded to
    the same shape and trimmed), so memory stays bounded for any ``batch``; ``progress`` shows a bar on
    stderr.
    """
    from tqdm import tqdm

    sc = get_scenario(name)
    # balanced chunks of at most ``chunk`` shots: the padding of the last one stays small
    n_chunks = -(-batch // chunk)
    chunk = -(-batch // n_chunks)
    run = make_chunk_runner(sc, chunk, max_events, contacts)
    t0 = time.perf_counter()
    jax.block_until_ready(run(shot_keys(seed, 0, chunk)))
    compile_s = time.perf_counter() - t0
    events, truncated = [], 0
    t0 = time.perf_counter()
    starts = range(0, batch, chunk)
    for start in tqdm(starts, desc=f"{name} shots", unit="chunk", disable=not progress):
        keys = shot_keys(seed, start, chunk)  # the last chunk is padded and trimmed
        out = run(keys)
        keep = min(chunk, batch - start)
        events.append(np.asarray(out.n_events)[:keep])
        truncated += int(np.asarray(out.truncated)[:keep].sum())
    elapsed = time.perf_counter() - t0
    ev = np.concatenate(events)
    return {
        "scenario": name,
        "batch": batch,
        "chunk": chunk,
        "shots_per_s": batch / elapsed,
        "elapsed_s": elapsed,
        "events_per_shot": {"mean": float(ev.mean()), "max": int(ev.max())},
        "truncated": truncated,
        "compile_s": compile_s,
        "contacts": contacts,
        "device": device_name(),
        "dtype": str(jnp.result_type(float)),
        "jax_version": jax.__version__,
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}",
    }


def bench_with_peer(name: str, batch: int, peer_shots: int = 20, **kw) -> dict:
    """:func:`bench`, plus the first ``peer_shots`` of the same noisy shots in pymunk."""
    from carromlab.bench.pymunk_peer import bench_pymunk

    try:
        import pymunk  # noqa: F401
    except ImportError:
        from carromlab.errors import CarromlabError

        raise CarromlabError("--peer pymunk needs pymunk: pip install pymunk") from None
    out = bench(name, batch, **kw)
    sc = get_scenario(name)
    table, _, pieces = scenario_template(sc)
    keys = shot_keys(kw.get("seed", 0), 0, peer_shots)
    shots = noisy_shots(sc.shot, sc.noise, keys)
    params = list(
        zip(*(np.asarray(v, dtype=float) for v in (shots.x, shots.y, shots.angle, shots.speed)))
    )
    peer = bench_pymunk(table, pieces, params)
    run = make_chunk_runner(sc, peer_shots)
    mine = run(keys)
    same = sum(
        np.array_equal(np.asarray(mine.capture)[k] >= 0, r["capture"] >= 0)
        for k, r in enumerate(peer["results"])
    )
    out["peer"] = {
        "engine": "pymunk",
        "shots": peer_shots,
        "shots_per_s": peer["shots_per_s"],
        "same_pieces_pocketed": int(same),
    }
    out["ratio"] = out["shots_per_s"] / peer["shots_per_s"]
    return out
