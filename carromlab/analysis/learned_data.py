"""The learned screen's data (:mod:`carromlab.analysis.learned`): the features of one decision,
the search's decisions recorded as they are made (:class:`Recorder`), the recorded batches
joined (:func:`load_data`) and the validation split (:func:`split`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carromlab.analysis.screen import (
    STROKE_FEATURES,
    piece_features,
    stroke_features,
    turn_features,
)
from carromlab.analysis.search import Candidates
from carromlab.errors import CarromlabError
from carromlab.shots import Shot, take_shots

#: Random legal strokes executed at every recorded decision, and the executions of each.
EXPLORE, N_EXPLORE = 192, 4
#: The fastest stroke explored or ranked (m/s): a hard flick is 4-6 m/s (docs/equipment.md).
MAX_SPEED = 6.5
#: At most this many labels of one ask are kept (a random subset: a screen of thousands of
#: cells at two executions each says little per cell).
KEEP_PER_ASK = 512
#: Validation share of the decisions.
VALIDATION = 0.15


# ---------------------------------------------------------------------------------------------
# features of one decision


def decision_features(player, view, turn, turn_size: int | None = None):
    """``(pieces, mask, turn)`` features of the position ``view`` under ``turn`` as ``player``
    (a greedy player with ``targets``) sees it."""
    shooter = getattr(turn, "shooter", None)
    if hasattr(player, "screen_targets"):
        targets = player.screen_targets(view, turn)
    else:
        targets = player.targets(view, turn) if hasattr(player, "targets") else ()
    pieces, mask = piece_features(view, targets, shooter)
    return pieces, mask, turn_features(turn, turn_size)


def shot_features(shots: Shot) -> np.ndarray:
    return stroke_features(shots.x, shots.y, shots.angle, shots.speed)


# ---------------------------------------------------------------------------------------------
# recording the search


@dataclass
class Records:
    """Decisions and their labels as they are recorded (lists of arrays)."""

    pieces: list = field(default_factory=list)
    mask: list = field(default_factory=list)
    turn: list = field(default_factory=list)
    chosen: list = field(default_factory=list)  # (STROKE_FEATURES,) the played stroke
    pos: list = field(default_factory=list)
    stroke: list = field(default_factory=list)
    n: list = field(default_factory=list)
    value: list = field(default_factory=list)
    foul: list = field(default_factory=list)

    def arrays(self) -> dict[str, np.ndarray]:
        def cat(v, shape, dtype):
            return np.concatenate(v).astype(dtype) if v else np.zeros(shape, dtype)

        return {
            "pieces": np.asarray(self.pieces, np.float32),
            "mask": np.asarray(self.mask, bool),
            "turn": np.asarray(self.turn, np.float32),
            "chosen": np.asarray(self.chosen, np.float32).reshape(-1, STROKE_FEATURES),
            "pos": cat(self.pos, (0,), np.int32),
            "stroke": cat(self.stroke, (0, STROKE_FEATURES), np.float32),
            "n": cat(self.n, (0,), np.int32),
            "value": cat(self.value, (0,), np.float32),
            "foul": cat(self.foul, (0,), np.float32),
        }


@dataclass(frozen=True, repr=False)
class Recorder:
    """A player that plays as ``inner`` (a greedy search player) and records every decision
    it makes into ``records`` (module docstring); ``turn_size``: the game's turn features."""

    inner: Any
    records: Records
    turn_size: int
    explore: int = EXPLORE

    def __repr__(self) -> str:
        return f"Recorder({self.inner!r})"

    def plan(self, view, turn=None, seed: int = 0):
        inner = self.inner
        if turn is None:
            from carromlab.analysis.variants import analysis_for

            turn = analysis_for(view.variant).default_turn()
        plan = inner.plan(view, turn, seed)
        if getattr(inner, "break_decision", lambda v, t: None)(view, turn) is not None:
            return (yield from plan)
        rng = np.random.default_rng(np.random.SeedSequence([seed, 23]))
        explore = self._explore_ask(view, turn, seed, rng)
        asks_log: list = []
        try:
            asks = next(plan)
        except StopIteration as stop:
            return stop.value
        first = True
        while True:
            many = isinstance(asks, (list, tuple))
            batch = list(asks) if many else [asks]
            if first and explore is not None:
                answers = yield [explore, *batch]
                asks_log.append((explore, answers[0]))
                answers = answers[1:]
                first = False
            else:
                answers = yield batch
            asks_log += list(zip(batch, answers, strict=True))
            try:
                asks = plan.send(answers if many else answers[0])
            except StopIteration as stop:
                decision = stop.value
                self._record(view, turn, asks_log, decision, rng)
                return decision

    def _explore_ask(self, view, turn, seed: int, rng):
        """The ask of :data:`EXPLORE` random legal strokes: the player's own
        ``explore_group(view, turn, count, rng)`` (a :class:`Candidates` group) where it has
        one, else from anywhere on the shooting line (the line boards)."""
        if not self.explore or not hasattr(self.inner, "group"):
            return None
        try:
            if hasattr(self.inner, "explore_group"):
                g = self.inner.explore_group(view, turn, self.explore, rng)
            else:
                g = self._line_explore(view, turn, rng)
        except CarromlabError:
            return None
        return g.ask(g.shots, N_EXPLORE, int(seed) % (2**31))

    def _line_explore(self, view, turn, rng) -> Candidates:
        from carromlab.analysis.policies import random_legal_shots
        from carromlab.analysis.variants import analysis_for

        rows = random_legal_shots(view, self.explore, rng, (5.0, 175.0), (0.3, MAX_SPEED))
        y0 = analysis_for(view.variant).shot_y(view.board)
        shots = Shot(rows[:, 0], np.full(len(rows), y0), np.radians(rows[:, 1]), rows[:, 2])
        return self.inner.group(view, shots, turn)

    def _record(self, view, turn, asks_log, decision, rng) -> None:
        """One recorded decision for every turn the search valued strokes under at the
        decision's position (one for most games; Carrooka's colours each have theirs); the
        played stroke is kept with the decision of the turn it was played under."""
        r = self.records
        position = getattr(view, "position", view)
        shot = getattr(decision, "shot", decision)
        played = getattr(decision, "turn", None)
        value = getattr(self.inner, "value", "points")
        index: dict[Any, int] = {}
        for ask, answer in asks_log:
            if ask.position is not position:
                continue  # a reply's, a leave's or a Carrooka'd option's position
            ev = answer.evaluate()
            n = np.bincount(answer.cell, minlength=len(answer.legal))
            keep = np.flatnonzero(answer.legal & (n > 0))
            if len(keep) > KEEP_PER_ASK:
                keep = np.sort(rng.choice(keep, KEEP_PER_ASK, replace=False))
            if not len(keep):
                continue
            if ask.turn not in index:
                index[ask.turn] = len(r.pieces)
                pieces, mask, tv = decision_features(self.inner, position, ask.turn, self.turn_size)
                r.pieces.append(pieces)
                r.mask.append(mask)
                r.turn.append(tv)
                mine = shot is not None and (played is None or played == ask.turn)
                chosen = shot_features(shot)[0] if mine else np.full(STROKE_FEATURES, np.nan)
                r.chosen.append(chosen)
            means = answer.cell_means(ev[value])[keep]
            fouls = answer.cell_means(np.asarray(ev.get("foul", np.zeros(len(answer.cell)))))[keep]
            r.pos.append(np.full(len(keep), index[ask.turn]))
            r.stroke.append(shot_features(take_shots(answer.ask.shots, keep)))
            r.n.append(n[keep])
            r.value.append(means)
            r.foul.append(fouls)


def load_data(folder: Path) -> dict[str, np.ndarray]:
    """Every batch file of ``folder`` joined (positions renumbered)."""
    files = sorted(Path(folder).glob("batch-*.npz"))
    files = [f for f in files if not f.name.endswith(".tmp.npz")]
    if not files:
        raise CarromlabError(f"no training data in {folder} (batch-*.npz)")
    parts: dict[str, list] = {}
    offset = 0
    for f in files:
        with np.load(f) as z:
            for k in ("pieces", "mask", "turn", "chosen", "stroke", "n", "value", "foul"):
                parts.setdefault(k, []).append(z[k])
            parts.setdefault("pos", []).append(z["pos"] + offset)
            offset += len(z["pieces"])
    return {k: np.concatenate(v) for k, v in parts.items()}


def split(n_decisions: int, share: float = VALIDATION) -> np.ndarray:
    """True for the validation decisions: a hash of the decision's index (stable whatever the
    data's size)."""
    h = np.array(
        [int(hashlib.sha256(str(d).encode()).hexdigest()[:8], 16) for d in range(n_decisions)]
    )
    return (h % 10_000) < share * 10_000
