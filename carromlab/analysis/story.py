"""The shot's story: what a shot does, said in one sentence and drawn as one path.

A shot map or a best-shot search gives a shot a number; its story says what the shot does.
``shot_story(position, shot)`` plays the shot ``n`` times with a skill's noise (the runner's
keys: the same executions as an :func:`~carromlab.analysis.estimate` with that seed) and
tells:

- ``first_hit``: the piece the shooter touches first most often (after any walls: a bank's
  object piece), with ``p_first_hit``; None when it most often touches none;
- ``outcome``: the likeliest outcome, the set of captures that occurs most often among the
  executions, as ``(piece id, capture name)`` pairs (the shooter among them as its id,
  ``"striker"`` or ``"shooter"``; a disc over a crokinole board's edge as ``"ditch"``), with
  ``p_outcome``; the empty tuple: nothing falls. Ties go to the fewer captures, then to the
  first in the pairs' order (never to the order the position lists its pieces);
- ``paths``: the exact path of one typical execution, {piece id: (xs, ys)} in metres for the
  pieces that moved (rebounds and all), each captured piece's ending where it fell. The
  typical execution is, among the executions whose captures are the likeliest outcome and
  whose first piece touched is ``first_hit`` (failing any, those with the likeliest outcome),
  the one whose executed shot (origin x, y, angle, speed, each in units of its spread over all
  ``n`` executions) lies nearest the median of theirs (ties: the first; an execution that hit
  the event cap only when all did).

The estimate runs on the runner's own kernel program (``runner``, or a new runner of the
same board and disc bucket: the cached program every runner of that board shares). The
typical execution is then replayed with the event recording on
(:func:`~carromlab.analysis.executions.record_executions`): the same key, so the same noise,
the same hand-set jitter and physics draws, through the batch kernel with ``record=True`` at
the runner's padded disc count, in batches of :data:`REPLAY_BATCH` executions: one recorded
program per board and disc bucket serves every story (and the explorer's paths). The lane
and batch kernels agree bit for bit, so the replay ends as the runner's execution did;
``reproduced`` checks it (captures and first piece; a warning when not).

Every shooter-based variant has a story (ICF, Carrooka, Carroms, the crokinole side).
KOOBA is a throw game: an Aero lands where it is thrown and its aim map (``carromlab
shotmap --variant kooba``) already shows what a throw does, so it has none (refused with one
line, as every shot analysis of KOOBA is).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

import numpy as np

from carromlab.analysis.estimate import prepare
from carromlab.analysis.executions import RECORD_BATCH, record_executions
from carromlab.analysis.runner import ShotRunner
from carromlab.errors import CarromlabError
from carromlab.shots import Shot

#: Executions a story is told from by default.
STORY_N = 2000
#: Executions replayed at once with the event recording on: the recording program's batch
#: (:data:`~carromlab.analysis.executions.RECORD_BATCH`, shared with the explorer), so one
#: recorded program per board and disc bucket serves every story.
REPLAY_BATCH = RECORD_BATCH
#: A capture code past the table's captures: the disc left the surface (a crokinole ditch).
DITCH = "ditch"
#: One execution's captures: (piece id, capture name) pairs.
Outcome = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ShotStory:
    """What a shot does (module docstring): ``first_hit`` and ``p_first_hit``, ``outcome``
    and ``p_outcome`` over ``n`` executions, and one typical execution's ``paths``
    ({piece id: (xs, ys)}, metres; the shooter's under its id ``shooter``, starting at
    ``shooter_start``).

    Also: ``shot`` (the base shot), ``rebound`` (the shooter most often reaches
    ``first_hit`` after a wall), ``outcomes`` (every outcome seen with its probability,
    likeliest first), ``execution`` (the typical execution's index among the ``n``,
    on the runner's keys of ``seed`` and ``key_id``) and ``executed`` (its shot: x, y,
    angle in radians, speed), ``typical_first_hit`` (its first piece: ``first_hit`` unless no
    execution of the likeliest outcome touched that piece first), ``reproduced`` (the
    recorded replay ended with the runner's captures and first piece), ``p_truncated`` (the
    executions that hit the event cap)."""

    shot: Shot
    first_hit: str | None
    p_first_hit: float
    outcome: Outcome
    p_outcome: float
    n: int
    paths: dict[str, tuple[np.ndarray, np.ndarray]] = field(compare=False, repr=False)
    shooter_start: tuple[float, float]
    shooter: str = "striker"
    rebound: bool = False
    outcomes: tuple[tuple[Outcome, float], ...] = field(default=(), repr=False)
    execution: int = 0
    executed: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    typical_first_hit: str | None = None
    reproduced: bool = True
    p_truncated: float = 0.0
    seed: int = 0
    key_id: int = 0

    def first_hit_text(self) -> str:
        """The first contact in words: "first hits b3 (87 %)", "first hits r2 after a
        rebound (61 %)", "hits no piece (70 %)"."""
        if self.first_hit is None:
            return f"hits no piece ({percent(self.p_first_hit)})"
        after = " after a rebound" if self.rebound else ""
        return f"first hits {self.first_hit}{after} ({percent(self.p_first_hit)})"

    def outcome_text(self) -> str:
        """The likeliest outcome in words: "w4 into pocket.NW", "nothing falls"."""
        return outcome_words(self.outcome)

    def text(self) -> str:
        """One sentence: "first hits b3 (87 %); likeliest: w4 into pocket.NW (41 %)"."""
        return (
            f"{self.first_hit_text()}; likeliest: {self.outcome_text()} ({percent(self.p_outcome)})"
        )

    def __str__(self) -> str:
        return self.text()

    @property
    def captured(self) -> dict[str, str]:
        """The typical execution's captures: {piece id: capture name} (its paths end there)."""
        return dict(self.outcome)

    def row(self) -> dict:
        """The story as a table's columns: ``first_hit`` (None: no piece), ``p_first_hit``,
        ``outcome`` (in words), ``p_outcome`` and ``story`` (:meth:`text`)."""
        return {
            "first_hit": self.first_hit,
            "p_first_hit": float(self.p_first_hit),
            "outcome": self.outcome_text(),
            "p_outcome": float(self.p_outcome),
            "story": self.text(),
        }


def percent(p: float) -> str:
    """A probability in whole per cent, never rounded to a certainty it is not ("<1 %",
    ">99 %")."""
    p = float(p)
    if 0 < p < 0.005:
        return "<1 %"
    if 0.995 <= p < 1:
        return ">99 %"
    return f"{100 * p:.0f} %"


def outcome_words(outcome: Outcome) -> str:
    """Captures in words: "w4 into pocket.NW, striker into pocket.SW"; "nothing falls"."""
    if not outcome:
        return "nothing falls"
    return ", ".join(f"{pid} into {where}" for pid, where in outcome)


def shot_story(
    position,
    shot: Shot,
    skill="club",
    n: int = STORY_N,
    seed: int = 0,
    turn=None,
    runner: ShotRunner | None = None,
    physics=None,
    key_id: int = 0,
    hand_set: float | None = None,
) -> ShotStory:
    """The story of ``shot`` from ``position`` (module docstring): ``n`` executions by a
    ``skill`` player on the runner's keys of ``seed`` and ``key_id`` (an estimate's cell is
    key id 0; a shot map's cell its index among the map's legal cells, so a story extends
    that cell's own executions), then one typical execution replayed with its path recorded.

    ``runner``: a :class:`ShotRunner` of the position (as the variant's analysis builds it)
    to reuse; else one is made with ``physics`` and ``hand_set``. ``turn``: the rules' turn
    state, checked as an estimate checks it. KOOBA, a throw game, has no story (refused)."""
    return shot_stories(
        position,
        [shot],
        skill=skill,
        n=n,
        seed=seed,
        turn=turn,
        runner=runner,
        physics=physics,
        key_ids=[key_id],
        hand_set=hand_set,
    )[0]


def shot_stories(
    position,
    shots,
    skill="club",
    n: int = STORY_N,
    seed: int = 0,
    turn=None,
    runner: ShotRunner | None = None,
    physics=None,
    key_ids=None,
    hand_set: float | None = None,
    paths: bool = True,
) -> list[ShotStory]:
    """:func:`shot_story` of several shots at once: their executions in one run of the
    runner (``key_ids``: one per shot, default 0, 1, ...), their typical executions replayed
    together (:data:`REPLAY_BATCH` at a time). ``paths=False`` tells the stories without the
    replay (their ``paths`` empty): for a caller that draws none (``carromlab best``), which
    then needs no recording program."""
    try:
        sk, va, turn = prepare(position, n, skill, turn)
    except CarromlabError as e:
        if "shot analysis" not in str(e):
            raise
        raise CarromlabError(f"no shot story in {position.variant!r}: {e}") from None
    shots = [_plain(s) for s in shots]
    if not shots:
        raise CarromlabError("no shot to tell the story of")
    for s in shots:
        va.check_shot(position, s)
    key_ids = list(range(len(shots))) if key_ids is None else [int(k) for k in key_ids]
    if len(key_ids) != len(shots):
        raise CarromlabError(f"key_ids: one per shot ({len(shots)}), got {len(key_ids)}")
    if runner is None:
        runner = ShotRunner(
            va.table_position(position), va.shooter_kind, physics=physics, hand_set=hand_set
        )
    _check_runner(runner, va, position)
    noise = va.noise(sk)
    runs = _executions(runner, shots, int(n), noise, int(seed), key_ids)
    names = (*runner.table.capture_names, DITCH)
    told = [_tell(run, runner.ids, names) for run in runs]
    picks = [(c, t["execution"]) for c, t in enumerate(told)]
    if paths:
        replays = _replay(runner, _base(shots), int(n), noise, int(seed), key_ids, picks)
    else:
        replays = [None] * len(told)
    stories = []
    for c, (t, rep) in enumerate(zip(told, replays)):  # (a loop: the warning's stack level)
        stories.append(
            _story(shots[c], t, runs[c], rep, runner.ids[0], int(n), int(seed), key_ids[c])
        )
    return stories


def _story(
    shot, t: dict, run: dict, rep, shooter: str, n: int, seed: int, key_id: int
) -> ShotStory:
    """One shot's :class:`ShotStory` from its told executions ``t`` (:func:`_tell`), its run
    and its typical execution's replay ``rep`` (None: not replayed); a replay that did not
    end as the run did is said in a warning and drawn as it ran."""
    i = t["execution"]
    same = rep is None or bool(
        np.array_equal(rep["capture"], run["capture"][i])
        and rep["first_piece"] == run["first_piece"][i]
    )
    if not same:
        warnings.warn(
            f"the recorded replay of execution {i} did not end as the runner's did: "
            "its path is drawn as the replay ran",
            stacklevel=3,  # the caller of shot_stories
        )
    ex = run["shots"][i]
    return ShotStory(
        shot=shot,
        first_hit=t["first_hit"],
        p_first_hit=t["p_first_hit"],
        outcome=t["outcome"],
        p_outcome=t["p_outcome"],
        n=n,
        paths={} if rep is None else rep["paths"],
        shooter_start=(float(ex[0]), float(ex[1])),
        shooter=shooter,
        rebound=t["rebound"],
        outcomes=t["outcomes"],
        execution=int(i),
        executed=tuple(float(v) for v in ex),
        typical_first_hit=t["typical_first_hit"],
        reproduced=same,
        p_truncated=float(run["truncated"].mean()),
        seed=seed,
        key_id=key_id,
    )


def _plain(shot: Shot) -> Shot:
    return Shot(*(float(np.asarray(getattr(shot, k))) for k in ("x", "y", "angle", "speed")))


def _check_runner(runner: ShotRunner, va, position) -> None:
    """A runner given must simulate this position with the variant's shooting piece."""
    table = va.table_position(position)
    want = (va.shooter_kind, *(p.id for p in table.pieces))
    if tuple(runner.ids) != want:
        raise CarromlabError(
            f"the runner simulates other pieces ({', '.join(runner.ids[:6])}, ...) than "
            f"position {position.name!r} with its {va.shooter_kind}"
        )


def _executions(runner: ShotRunner, shots, n: int, noise, seed: int, key_ids) -> list[dict]:
    """Every execution of every shot: captures (n, discs), first piece, first contact kind,
    truncated, the executed shots (n, 4: x, y, angle, speed, the kernel's dtype)."""
    cells = len(shots)
    d = runner.n_real
    dtype = np.asarray(runner.template.x).dtype
    runs = [
        {
            "capture": np.full((n, d), -1, np.int32),
            "first_piece": np.full(n, -1, np.int32),
            "first_kind": np.zeros(n, np.int32),
            "truncated": np.zeros(n, bool),
            "shots": np.zeros((n, 4), dtype),
        }
        for _ in range(cells)
    ]
    for ch in runner.run(_base(shots), n, noise, seed, key_ids=key_ids, desc="story"):
        out = ch.outcome
        executed = np.stack([ch.shots[k] for k in _SHOT], axis=1)
        for c in np.unique(ch.cell):
            rows = ch.cell == c
            idx = ch.index[rows]
            run = runs[int(c)]
            run["capture"][idx] = out["capture"][rows]
            run["first_piece"][idx] = out["first_piece"][rows]
            run["first_kind"][idx] = out["first_contact_kind"][rows]
            run["truncated"][idx] = out["truncated"][rows]
            run["shots"][idx] = executed[rows]
    return runs


_SHOT = ("x", "y", "angle", "speed")


def _base(shots) -> Shot:
    """The shots as one Shot of arrays (the runner's cells)."""
    return Shot(*(np.array([float(getattr(s, k)) for s in shots]) for k in _SHOT))


def _tell(run: dict, ids: tuple[str, ...], names: tuple[str, ...]) -> dict:
    """One shot's first hit, likeliest outcome and typical execution from its executions."""
    from carromlab.physics.kernel import FIRST_WALL

    first, n = run["first_piece"], len(run["first_piece"])
    pieces, counts = np.unique(first, return_counts=True)
    # the most frequent first piece; ties by id (never by the position's order)
    k = min(range(len(pieces)), key=lambda j: (-counts[j], id_order(_label(pieces[j], ids))))
    hit = int(pieces[k])
    first_hit = None if hit < 0 else ids[hit]
    rows, inverse, sizes = np.unique(
        run["capture"], axis=0, return_inverse=True, return_counts=True
    )
    inverse = np.asarray(inverse).reshape(-1)
    found = [(_outcome(r, ids, names), int(s), g) for g, (r, s) in enumerate(zip(rows, sizes))]
    found.sort(key=lambda f: (-f[1], len(f[0]), [(id_order(p), w) for p, w in f[0]]))
    outcome, size, group = found[0]
    same = inverse == group
    typical = same & (first == hit)
    if not typical.any():
        typical = same
    if (typical & ~run["truncated"]).any():
        typical &= ~run["truncated"]
    execution = _central(run["shots"], typical)
    hits = first == hit
    rebound = bool(hit >= 0 and (run["first_kind"][hits] == FIRST_WALL).mean() > 0.5)
    tfp = int(first[execution])
    return {
        "first_hit": first_hit,
        "p_first_hit": float(counts[k] / n),
        "outcome": outcome,
        "p_outcome": float(size / n),
        "outcomes": tuple((o, float(s / n)) for o, s, _ in found),
        "rebound": rebound,
        "execution": execution,
        "typical_first_hit": None if tfp < 0 else ids[tfp],
    }


def _label(disc: int, ids: tuple[str, ...]) -> str:
    return "" if disc < 0 else ids[disc]


def _outcome(capture: np.ndarray, ids: tuple[str, ...], names: tuple[str, ...]) -> Outcome:
    """One execution's captures as (id, capture name) pairs: the pieces in id order (its
    numbers as numbers: r2 before r11), the shooter (disc 0) last."""
    pairs = [(ids[d], names[int(capture[d])]) for d in np.flatnonzero(capture >= 0)]
    return tuple(sorted(pairs, key=lambda p: (p[0] == ids[0], id_order(p[0]), p)))


def id_order(pid: str) -> tuple:
    """A piece id's place in a story: its letters and numbers, the numbers as numbers."""
    return tuple(
        (0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", pid) if t
    )


def _central(executed: np.ndarray, mask: np.ndarray) -> int:
    """The index of the execution of ``mask`` whose shot lies nearest the median of theirs,
    each coordinate in units of its spread over all executions (ties: the first)."""
    x = executed.astype(float)
    spread = x.std(axis=0)
    use = spread > 0
    idx = np.flatnonzero(mask)
    if not use.any():
        return int(idx[0])
    z = x[idx][:, use] / spread[use]
    d = ((z - np.median(z, axis=0)) ** 2).sum(axis=1)
    return int(idx[int(np.argmin(d))])


def _replay(runner: ShotRunner, base: Shot, n: int, noise, seed: int, key_ids, picks):
    """The picked executions ((shot, index) pairs) replayed with their paths recorded
    (:func:`~carromlab.analysis.executions.record_executions`: the runner's own noise, keys,
    hand-set jitter and physics draws); each one's captures, first piece and the paths of the
    discs that moved, a captured disc's ending where it fell."""
    flat = [c * n + i for c, i in picks]
    outcome, paths = record_executions(runner, base, n, noise, seed, flat, key_ids=key_ids)
    out = []
    for k in range(len(picks)):
        capture = np.asarray(outcome["capture"][k])
        ends = (np.asarray(outcome["x"][k], float), np.asarray(outcome["y"][k], float))
        out.append(
            {
                "capture": capture,
                "first_piece": int(outcome["first_piece"][k]),
                "paths": _moved(paths[k], capture, ends, runner.ids),
            }
        )
    return out


def _moved(paths: dict, capture: np.ndarray, ends, ids: tuple[str, ...]) -> dict:
    """The paths of the discs that moved (the shooter always, first), without their samples
    after a capture or repeated at rest; a captured disc's closed at its capture point."""
    out = {}
    for d, pid in enumerate(ids):
        xs, ys = (np.asarray(a, float) for a in paths[pid])
        ok = np.isfinite(xs) & np.isfinite(ys)
        xs, ys = xs[ok], ys[ok]
        if capture[d] >= 0:  # where it fell (the samples stop short of the capture)
            xs, ys = np.append(xs, ends[0][d]), np.append(ys, ends[1][d])
        keep = np.r_[True, (np.diff(xs) != 0) | (np.diff(ys) != 0)] if len(xs) else ok[:0]
        xs, ys = xs[keep], ys[keep]
        if d == 0 or capture[d] >= 0 or len(xs) > 1:
            out[pid] = (xs, ys)
    return out


__all__ = ["REPLAY_BATCH", "STORY_N", "ShotStory", "percent", "shot_stories", "shot_story"]
