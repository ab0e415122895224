"""Cross-check of the kernel against pymunk (docs/validation.md; experiments/validate_pymunk.py).

Each :class:`Case` is a standard position and a base shot chosen so that something happens (a
pot, a ring into the hole, a peg, rail or frame bounce). For each case:

- **deterministic**: the base shot in both engines: the shooter's first contact and first
  piece, every capture (which piece in which pocket or hole), and the distance between the
  engines' final places of the pieces that stay on the board in both (max and mean);
- **Monte-Carlo**: ``n`` noisy executions drawn by the kernel's own noise (the runner's keys,
  the variant's noise at the case's skill); the very same executed shots run in both engines.
  For each key event: its probability in each engine, the difference, the two-sample standard
  error ``sqrt(p1 q1 / n + p2 q2 / n)`` and whether ``|diff| <= 3 SE``. The shots are the
  same, so the paired view is given too: the shots the engines call differently
  (``discordant``), how many of those are chaotic in the kernel itself (:func:`turn_unstable`)
  and the paired standard error;
- **time-step convergence** (:func:`convergence`): the deterministic shot in pymunk at several
  steps, to show the distance to the kernel shrinking with the step;
- **labelling** (:func:`labelling`): for the cases that strike a packed cluster, the same shots
  with the position's pieces listed in another order (the physics is the same; only the
  indices change), in the kernel and in pymunk.

The kernel runs as the analysis layer runs it (float32, :class:`ShotRunner`); pymunk runs
:func:`carromlab.bench.pymunk_peer.simulate_pymunk`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from carromlab.bench.pymunk_peer import DT, place_shot, simulate_pymunk
from carromlab.bench.validation_cases import CASES, Case
from carromlab.bench.validation_cases import case_named as case_named
from carromlab.bench.validation_figures import (
    KEY_FIELDS,
    _captures,
    _deterministic,
    _distances,
    _n_captured,
    _verdict,
    key_hits,
    two_sample,
)
from carromlab.bench.validation_figures import Z_AGREE as Z_AGREE
from carromlab.bench.validation_report import markdown as markdown
from carromlab.physics import Physics
from carromlab.shots import SKILLS, Shot

#: Kernel event cap for these shots: far above the longest noisy shot of any case (the breaks
#: take 80-200 events), so no shot is truncated (the rows count truncated shots anyway).
MAX_EVENTS = 2048
#: Default noisy executions per case: the whole default run (8 cases, pymunk at the default
#: step, with the convergence and labelling checks) takes 10-11 minutes on one core of the
#: development machine (583-644 s measured; docs/validation.md).
N_DEFAULT = 200
#: Key events per case at most (every row of the table has this many ``key{k}_*`` columns).
MAX_KEYS = 3
#: Time steps (s) of the convergence check, from pymunk's usual 2e-4 s down to 1e-5 s.
CONVERGENCE_DTS = (2e-4, 1e-4, 5e-5, 2e-5, 1e-5)
#: Orders of the position's pieces in the labelling check (the shooter stays disc 0).
LABELLINGS = ("original", "reversed", "shuffled")
#: The pymunk side of the labelling check runs this fraction of ``n`` (pymunk is slow on
#: breaks, and one order against another is all it has to show).
LABEL_PYMUNK_FRACTION = 0.25


# --------------------------------------------------------------------------- set-up


@dataclass
class Prepared:
    """A case made ready: the kernel's runner (its ``table`` and ``pieces``), the shot's
    origin, the base shot, the noise and the skill it comes from (the variant's preset of the
    case's skill name, as the analysis layer plays it), and the outer-circle radius (``inf``
    off the crokinole side) that ``out`` keys need."""

    case: Case
    runner: object
    x: float
    y: float
    base: Shot
    noise: object
    skill: object
    out_radius: float

    @property
    def table(self):
        return self.runner.table

    @property
    def pieces(self):
        return self.runner.pieces

    @property
    def ids(self) -> tuple[str, ...]:
        return self.runner.ids


def prepare(
    case: Case,
    n: int,
    physics: Physics = Physics(),
    order: str = "original",
    seed: int = 0,
    hand_set: float | None = None,
) -> Prepared:
    """The kernel's runner for ``case`` (chunks of ``n`` shots, so every run of the case has
    one shape and the kernel compiles once), with the position's pieces in ``order``
    (``original``, ``reversed``, or ``shuffled`` by a generator seeded with ``seed``);
    ``hand_set``: the runner's (None: the default; 0: an opening exactly as placed)."""
    from carromlab.analysis.runner import ShotRunner
    from carromlab.analysis.variants import analysis_for
    from carromlab.registry import standard_position

    pos = standard_position(case.position)
    va = analysis_for(pos.variant)
    ox, oy = va.origin(pos, case.placement)
    tp = va.table_position(pos)
    if len(case.keys) > MAX_KEYS:
        raise ValueError(f"case {case.name!r}: at most {MAX_KEYS} key events")
    if order == "reversed":
        tp = tp.replace(pieces=tuple(reversed(tp.pieces)))
    elif order == "shuffled":
        perm = np.random.default_rng(seed).permutation(len(tp.pieces))
        tp = tp.replace(pieces=tuple(tp.pieces[k] for k in perm))
    elif order != "original":
        raise ValueError(f"unknown order {order!r}; known: {', '.join(LABELLINGS)}")
    runner = ShotRunner(
        tp, va.shooter_kind, max_events=MAX_EVENTS, physics=physics, hand_set=hand_set
    )
    base = Shot(
        np.array([float(ox[0])]),
        np.array([float(oy[0])]),
        np.array([math.radians(case.angle_deg)]),
        np.array([case.speed]),
    )
    skill = SKILLS[case.skill]
    if hasattr(va, "preset"):  # the variant's own preset of that name (crokinole side)
        skill = va.preset(skill)
    if not va.hand_placed:
        skill = replace(skill, placement=0.0)
    return Prepared(
        case=case,
        runner=runner,
        x=float(ox[0]),
        y=float(oy[0]),
        base=base,
        noise=va.noise(SKILLS[case.skill]),
        skill=skill,
        out_radius=float(getattr(pos.board, "outer_radius", math.inf)),
    )


def kernel_shots(prep: Prepared, n: int, seed: int, exact: bool = False) -> tuple[dict, dict]:
    """``n`` executions of the case's shot in the kernel; returns (the executed shots: arrays
    ``x``, ``y``, ``angle``, ``speed``, and ``start_x``, ``start_y``: every disc's start, (n,
    discs), a hand-set position's gaps included; the outcome: arrays of the kernel's
    ``ShotOutcome`` fields, one row per shot). ``exact``: no noise (every execution is the
    base shot)."""
    noise = SKILLS["exact"].noise() if exact else prep.noise
    shots, outs = [], []
    for ch in prep.runner.run(prep.base, n, noise, seed):
        shots.append({**ch.shots, **{f"start_{k}": v for k, v in ch.start.items()}})
        outs.append(ch.outcome)
    return (
        {k: np.concatenate([s[k] for s in shots]) for k in shots[0]},
        {k: np.concatenate([o[k] for o in outs]) for k in outs[0]},
    )


def start_layout(prep: Prepared, shots: dict, s: int):
    """The pieces of shot ``s`` where the kernel started them (``shots``' ``start_x``,
    ``start_y``: a hand-set position's gaps drawn for that shot), else as placed."""
    if "start_x" not in shots:
        return prep.pieces
    from dataclasses import replace as _replace

    x = np.asarray(shots["start_x"][s], float)
    y = np.asarray(shots["start_y"][s], float)
    n = len(prep.pieces.x)
    px, py = prep.pieces.x.copy(), prep.pieces.y.copy()
    px[: len(x)], py[: len(y)] = x[:n], y[:n]
    return _replace(prep.pieces, x=px, y=py)


def pymunk_shots(prep: Prepared, shots: dict, physics: Physics = Physics(), dt: float = DT) -> dict:
    """The executed ``shots`` (as :func:`kernel_shots` returns them) in pymunk, each from the
    layout the kernel started it from (:func:`start_layout`: the same hand-set gaps); returns
    the outcome arrays stacked one row per shot (the keys of :func:`simulate_pymunk`)."""
    outs = [
        simulate_pymunk(
            prep.table,
            place_shot(
                start_layout(prep, shots, s),
                *(float(shots[k][s]) for k in ("x", "y", "angle", "speed")),
            ),
            physics,
            dt=dt,
        )
        for s in range(len(shots["x"]))
    ]
    return {k: np.stack([np.asarray(o[k]) for o in outs]) for k in outs[0]}


# --------------------------------------------------------------------------- comparisons

#: The chaos test's turn of the shot (rad): the project's criterion (docs/physics.md) turns
#: the shooter by +-1e-6 rad, a few float32 ulps of an angle, about a micrometre of aim over
#: the board.
CHAOS_TURN = 1e-6


def turn_unstable(prep: Prepared, shots: dict, which, seed: int = 0) -> dict[int, list[bool]]:
    """For the executed shots ``which`` (indices into ``shots``), whether each key event of
    the case changes in the kernel itself when the shot is turned by -CHAOS_TURN or
    +CHAOS_TURN (or re-run as it is): such a shot is chaotic, and no second engine can be
    expected to call it the same. Returns {shot index: [changed, per key]}; runs the turned
    copies in chunks of the runner's size, so the kernel does not compile again."""
    which = [int(s) for s in which]
    if not which:
        return {}
    if "start_x" in shots and prep.runner.hand_set > 0:
        # a hand-set position: each shot's copies start from that shot's own gaps
        out = {}
        for s in which:
            one = {k: v[[s]] for k, v in shots.items()}
            out[s] = turn_unstable(_at_layout(prep, shots, s), one, [0], seed)[0]
        return out
    turns = np.array([-CHAOS_TURN, 0.0, CHAOS_TURN])
    sel = np.repeat(np.asarray(which), len(turns))
    angle = shots["angle"][sel] + np.tile(turns, len(which))
    # pad to whole chunks (repeating the last copy): one chunk shape, no new compile
    chunk = prep.runner.chunk
    pad = -len(sel) % chunk
    sel = np.concatenate([sel, np.full(pad, sel[-1])])
    angle = np.concatenate([angle, np.full(pad, angle[-1])])
    cells = Shot(shots["x"][sel], shots["y"][sel], angle, shots["speed"][sel])
    outs = [ch.outcome for ch in prep.runner.run(cells, 1, SKILLS["exact"].noise(), seed)]
    m = len(which) * len(turns)
    out = {k: np.concatenate([o[k] for o in outs])[:m] for k in outs[0]}
    changed = {}
    for col, key in enumerate(prep.case.keys):
        h = key_hits(out, prep.ids, prep.table, key, prep.out_radius).reshape(len(which), -1)
        for s, row in zip(which, h):
            changed.setdefault(s, [False] * len(prep.case.keys))[col] = bool(row.min() != row.max())
    return changed


def _at_layout(prep: Prepared, shots: dict, s: int) -> Prepared:
    """``prep`` with its pieces where shot ``s`` started them (a position that is no longer
    set by hand: its copies move nothing again), on a runner of the same shape."""
    from dataclasses import replace as _replace

    from carromlab.analysis.runner import ShotRunner

    r = prep.runner
    ids = r.pieces.ids
    x, y = shots["start_x"][s], shots["start_y"][s]
    where = {ids[k]: (float(x[k]), float(y[k])) for k in range(1, len(x)) if ids[k]}
    pieces = tuple(
        _replace(p, x=where[p.id][0], y=where[p.id][1]) if p.id in where else p
        for p in r.position.pieces
    )
    moved = r.position.replace(pieces=pieces)
    runner = ShotRunner(moved, r.shooter_kind, chunk=r.chunk, max_events=r.max_events,
                        physics=r.physics, contacts=r.contacts)  # fmt: skip
    return _replace(prep, runner=runner)


def _key_events(
    case: Case, prep: Prepared, shots: dict, ko: dict, po: dict, n: int, seed: int
) -> dict:
    """Each key event's Monte-Carlo comparison (``key{k}_*``; the columns of the keys a case
    does not have are None, so that every row has the same), from the kernel's (``ko``) and
    pymunk's (``po``) outcomes of the same ``shots``."""
    ids, table = prep.ids, prep.table
    hits = {
        k: (
            key_hits(ko, ids, table, key, prep.out_radius),
            key_hits(po, ids, table, key, prep.out_radius),
        )
        for k, key in enumerate(case.keys, start=1)
    }
    discordant = np.zeros(n, dtype=bool)
    for a, b in hits.values():
        discordant |= a != b
    unstable = turn_unstable(prep, shots, np.nonzero(discordant)[0], seed)
    row: dict = {}
    for k, key in enumerate(case.keys, start=1):
        a, b = hits[k]
        diff, se, ok = two_sample(int(a.sum()), int(b.sum()), n)
        d = a.astype(float) - b.astype(float)
        chaotic = [s for s in np.nonzero(a != b)[0] if unstable[int(s)][k - 1]]
        row.update(
            {
                f"key{k}": f"{key[0]}->{key[1]}",
                f"key{k}_p_kernel": float(a.mean()),
                f"key{k}_p_pymunk": float(b.mean()),
                f"key{k}_diff": diff,
                f"key{k}_se": se,
                f"key{k}_z": diff / se if se > 0 else (0.0 if diff == 0 else math.inf),
                f"key{k}_within_3se": ok,
                f"key{k}_verdict": _verdict(ok, case),
                f"key{k}_discordant": int((a != b).sum()),
                f"key{k}_discordant_chaotic": len(chaotic),
                f"key{k}_paired_se": float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0,
            }
        )
    for k in range(len(case.keys) + 1, MAX_KEYS + 1):  # the same columns in every row
        for f in KEY_FIELDS:
            row[f"key{k}{f}"] = None
    return row


def compare_case(
    case: Case,
    n: int,
    seed: int = 0,
    physics: Physics = Physics(),
    dt: float = DT,
    raw: bool = False,
):
    """Run ``case`` in both engines; returns one flat row (dict) of every figure: the base
    shot, the deterministic comparison (``det_*``), each key event's Monte-Carlo comparison
    (``key{k}_*``), whole-shot agreement (``mc_*``) and the timings (s). With ``raw``, returns
    ``(row, shots, kernel outcome, pymunk outcome)`` of the Monte-Carlo shots."""
    prep = prepare(case, n, physics)
    ids, table, static = prep.ids, prep.table, prep.pieces.static
    row: dict = {
        "case": case.name,
        "position": case.position,
        "family": case.family,
        "cluster": case.cluster,
        "skill": case.skill,
        "noise_placement_m": prep.skill.placement,
        "noise_angle_rad": prep.skill.angle,
        "noise_speed_rel": prep.skill.speed,
        "x": prep.x,
        "y": prep.y,
        "angle_deg": case.angle_deg,
        "speed": case.speed,
        "n": int(n),
        "seed": int(seed),
        "dt": dt,
    }
    # ---------------------------------------------------------------- deterministic
    t0 = time.perf_counter()
    sd, kd = kernel_shots(prep, n, seed, exact=True)
    kd = {k: v[:1] for k, v in kd.items()}
    kernel_s = time.perf_counter() - t0
    # pymunk from the layout the kernel started the shot from (a hand-set opening's moves)
    pd_ = pymunk_shots(prep, {k: v[:1] for k, v in sd.items()}, physics, dt)
    row.update(_deterministic(kd, pd_, ids, table, static))
    # ---------------------------------------------------------------- Monte-Carlo
    t0 = time.perf_counter()
    shots, ko = kernel_shots(prep, n, seed)
    kernel_s += time.perf_counter() - t0
    t0 = time.perf_counter()
    po = pymunk_shots(prep, shots, physics, dt)
    pymunk_s = time.perf_counter() - t0
    row.update(_key_events(case, prep, shots, ko, po, n, seed))
    nk, npm = _n_captured(ko).astype(float), _n_captured(po).astype(float)
    same_caps = np.all(np.asarray(ko["capture"]) == po["capture"], axis=1)
    pos_max = np.array([_distances(ko, po, s, static).max(initial=0.0) for s in range(n)])
    row.update(
        mc_captured_mean_kernel=float(nk.mean()),
        mc_captured_mean_pymunk=float(npm.mean()),
        mc_captured_diff=float(nk.mean() - npm.mean()),
        mc_captured_se=float(math.sqrt(nk.var(ddof=1) / n + npm.var(ddof=1) / n))
        if n > 1
        else math.nan,
        mc_same_first_piece=float(np.mean(np.asarray(ko["first_piece"]) == po["first_piece"])),
        mc_same_captures=float(same_caps.mean()),
        mc_pos_max_mm_median=1e3 * float(np.median(pos_max[same_caps]))
        if same_caps.any()
        else math.nan,
        mc_truncated_kernel=int(np.sum(ko["truncated"])),
        mc_truncated_pymunk=int(np.sum(po["truncated"])),
        kernel_s=kernel_s,
        pymunk_s=pymunk_s,
        pymunk_shots_per_s=n / pymunk_s if pymunk_s > 0 else math.nan,
    )
    return (row, shots, ko, po) if raw else row


def convergence(
    case: Case, physics: Physics = Physics(), dts: tuple[float, ...] = CONVERGENCE_DTS
) -> list[dict]:
    """The case's deterministic shot in pymunk at each step of ``dts`` against the kernel;
    returns one row per step: whether the captures and first piece agree, the max and mean
    final-place distance (mm), and pymunk's time (s)."""
    prep = prepare(case, 1, physics)
    ids, table, static = prep.ids, prep.table, prep.pieces.static
    base, kd = kernel_shots(prep, 1, 0, exact=True)  # pymunk starts where the kernel did
    rows = []
    for dt in dts:
        t0 = time.perf_counter()
        pd_ = pymunk_shots(prep, base, physics, dt)
        elapsed = time.perf_counter() - t0
        dist = _distances(kd, pd_, 0, static)
        rows.append(
            {
                "case": case.name,
                "dt": dt,
                "captures_same": _captures(kd["capture"][0], ids, table)
                == _captures(pd_["capture"][0], ids, table),
                "first_piece_same": int(kd["first_piece"][0]) == int(pd_["first_piece"][0]),
                "pos_max_mm": 1e3 * float(dist.max(initial=0.0)),
                "pos_mean_mm": 1e3 * float(dist.mean()) if dist.size else 0.0,
                "pymunk_s": elapsed,
            }
        )
    return rows


def labelling(
    case: Case,
    n: int,
    seed: int = 0,
    physics: Physics = Physics(),
    dt: float = DT,
    pymunk_n: int | None = None,
    pymunk_original: dict | None = None,
) -> list[dict]:
    """The case's noisy shots with the position's pieces in each order of :data:`LABELLINGS`
    (same positions, same executed shots: only the pieces' indices change), in the kernel
    (``n`` shots) and in pymunk (the first ``pymunk_n`` of them, default ``n``; the original
    and the reversed order only; ``pymunk_original``, pymunk's outcome of these shots in the
    original order if already run, saves running them again). Returns one row per (engine,
    order): each key's probability and its two-sample z against the same engine's original
    order, and the mean number of pieces captured."""
    pymunk_n = n if pymunk_n is None else int(pymunk_n)
    rows = []
    ref: dict = {}
    for order in LABELLINGS:
        prep = prepare(case, n, physics, order=order, seed=seed)
        shots, ko = kernel_shots(prep, n, seed)
        engines = [("kernel", ko, n)]
        if order in ("original", "reversed") and pymunk_n > 0:
            if order == "original" and pymunk_original is not None:
                po = {k: np.asarray(v)[:pymunk_n] for k, v in pymunk_original.items()}
            else:
                sub = {k: v[:pymunk_n] for k, v in shots.items()}
                po = pymunk_shots(prep, sub, physics, dt)
            engines.append(("pymunk", po, pymunk_n))
        for engine, out, m in engines:
            row: dict = {"case": case.name, "engine": engine, "order": order, "n": m}
            for k, key in enumerate(case.keys, start=1):
                hits = key_hits(out, prep.ids, prep.table, key, prep.out_radius)
                row[f"key{k}"] = f"{key[0]}->{key[1]}"
                row[f"key{k}_p"] = float(hits.mean())
                if order == "original":
                    ref[(engine, k)] = (int(hits.sum()), m)
                k0, n0 = ref[(engine, k)]
                diff, se, _ = two_sample(int(hits.sum()), k0, m, n0)
                row[f"key{k}_z_vs_original"] = (
                    diff / se if se > 0 else (0.0 if diff == 0 else math.inf)
                )
            row["captured_mean"] = float(_n_captured(out).mean())
            rows.append(row)
    return rows


def run_validation(
    cases: tuple[Case, ...] = CASES,
    n: int = N_DEFAULT,
    seed: int = 0,
    physics: Physics = Physics(),
    dt: float = DT,
    convergence_dts: tuple[float, ...] = CONVERGENCE_DTS,
    label_n: int | None = None,
    progress=None,
) -> dict:
    """Every comparison for ``cases``; returns ``{"rows": [...], "convergence": [...],
    "labelling": [...]}`` (lists of flat dicts: :func:`compare_case` per case,
    :func:`convergence` per case unless ``convergence_dts`` is empty, :func:`labelling` per
    cluster case with pymunk on ``label_n`` shots, default ``LABEL_PYMUNK_FRACTION * n``).
    ``progress`` (a callable) gets a line of text as each part is done."""
    say = progress or (lambda _msg: None)
    label_n = max(1, int(LABEL_PYMUNK_FRACTION * n)) if label_n is None else int(label_n)
    out: dict = {"rows": [], "convergence": [], "labelling": []}
    pymunk_mc: dict = {}
    for case in cases:
        row, _, _, po = compare_case(case, n, seed, physics, dt, raw=True)
        if case.cluster:
            pymunk_mc[case.name] = po
        out["rows"].append(row)
        say(
            f"{case.name}: {row['key1']} kernel {row['key1_p_kernel']:.3f} pymunk "
            f"{row['key1_p_pymunk']:.3f} ({row['key1_verdict']}); pymunk {row['pymunk_s']:.0f} s"
        )
    for case in cases if convergence_dts else ():
        out["convergence"].extend(convergence(case, physics, tuple(convergence_dts)))
        say(f"{case.name}: convergence in the step done")
    for case in cases:
        if case.cluster:
            out["labelling"].extend(
                labelling(case, n, seed, physics, dt, label_n, pymunk_mc.get(case.name))
            )
            say(f"{case.name}: labelling done")
    return out
