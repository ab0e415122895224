"""What the explorer computes, apart from any widget: a position's board as a picture with its
coordinates, the shooter's legal track, and for one shot (placement, angle, speed) its odds
with intervals, a few executions' paths, the expected points over the aim angle, and the best
shot from the position.

A game's model answers :class:`ExplorerModel`. Every game with shot analysis shares
:class:`ShotModel`; a game whose play is something else (throws aimed at a point) names its
own class in its registration (``Game.explorer``, imported on first use), so nothing here
names a game. :func:`model_for` finds a position's model; :func:`odds_table` turns a
model's estimate into the odds table.

Every answer is the analysis layer's own (:func:`~carromlab.analysis.shotmap.evaluate_cells`,
:func:`~carromlab.analysis.best.best_shots`, :func:`~carromlab.analysis.executions.
record_executions`) on one :class:`~carromlab.analysis.runner.ShotRunner` kept for the
position, so a move costs the shots only (no compile with a warm cache). An answer of ``n``
shots uses shot numbers ``0 .. n - 1`` of its cell: the quick first answer's shots are the
first of the full one's.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from carromlab.errors import CarromlabError

#: The odds table's rows, in order, where the game's rules give them: (column, label).
HEADLINE = (
    ("p_continues", "keeps the strike"),
    ("own_pocketed", "own coins pocketed (mean)"),
    ("p_potted", "a piece on pocketed"),
    ("p_queen_pocketed", "queen pocketed"),
    ("p_foul", "foul"),
    ("p_striker_pocketed", "striker pocketed"),
    ("points", "expected points"),
)
#: Pixels of the board picture's longer side.
PICTURE_PX = 560
#: Shots per angle of the strip.
STRIP_N = 64
#: Angles of the strip computed at a time (a moved control waits for one part at most: about
#: 0.25 s of shots on 2 cores).
STRIP_PART = 16


@dataclass(frozen=True)
class ShotControls:
    """One shot as the explorer's controls give it: ``placement`` (the variant's placement
    number, m on a baseline or degrees on an arc), ``angle`` (degrees counter-clockwise from
    +x), ``speed`` (m/s)."""

    placement: float
    angle: float
    speed: float


def board_picture(position, px: int = PICTURE_PX) -> dict:
    """The board and its pieces drawn to scale (matplotlib, the plots' own drawing) as a PNG
    data URL with the world extent it covers: ``{"image", "extent": [xmin, xmax, ymin,
    ymax], "px": [w, h]}``. The axes fill the figure, so a point (x, y) in metres sits at
    pixel ``((x - xmin) / (xmax - xmin) * w, (ymax - y) / (ymax - ymin) * h)``."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from carromlab.plot import board_plot

    plot = board_plot(position.board)
    fig = plt.figure(figsize=(px / 100, px / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    plot.draw(ax, legend=False)
    plot.draw_pieces(position, ax=ax, labels=True)
    xmin, xmax = ax.get_xlim()
    ymin, ymax = ax.get_ylim()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return {
        "image": f"data:image/png;base64,{data}",
        "extent": [float(xmin), float(xmax), float(ymin), float(ymax)],
        "px": [px, px],
    }


def piece_table(position) -> list[dict]:
    """The pieces as plain data for the page: id, kind, owner, x, y, radius."""
    specs = position.board.piece_specs()
    return [
        {
            "id": p.id,
            "kind": p.kind,
            "owner": p.owner,
            "x": float(p.x),
            "y": float(p.y),
            "r": float(specs[p.kind].radius),
        }
        for p in position.pieces
    ]


#: Rows the odds table fills up to with the game's other chances (its headline rows first).
MIN_ROWS = 5


def odds_rows(row, headline=HEADLINE) -> list[dict]:
    """The odds table: one dict per headline quantity the row has (label, estimate, lo, hi,
    kind "probability" or "mean"); where the game's rules give fewer than :data:`MIN_ROWS`
    of those, its other chances and means follow (by their column names), expected points
    last."""
    present = [(c, label) for c, label in headline if c in row.index]
    if len(present) < MIN_ROWS:
        named = {c for c, _ in headline}
        skip = {"placement", "angle", "speed", "x0", "y0", "n", "p_truncated"}
        others = [
            c
            for c in row.index
            if isinstance(c, str)
            and f"{c}_lo" in row.index
            and "." not in c
            and c not in named
            and c not in skip
        ]
        extra = [
            (c, c[2:].replace("_", " ") if c.startswith("p_") else f"{c.replace('_', ' ')} (mean)")
            for c in others
        ]
        last = [r for r in present if r[0] == "points"]
        present = [r for r in present if r[0] != "points"]
        present = present + extra[: max(0, MIN_ROWS - len(present) - len(last))] + last
    headline = present
    out = []
    for col, label in headline:
        if col in row and math.isfinite(float(row[col])):
            out.append(
                {
                    "quantity": col,
                    "label": label,
                    "estimate": float(row[col]),
                    "lo": float(row[f"{col}_lo"]),
                    "hi": float(row[f"{col}_hi"]),
                    "kind": "probability" if col.startswith("p_") else "mean",
                }
            )
    return out


class ExplorerModel(Protocol):
    """What the explorer asks of a game's model (built as ``cls(position, skill=..., n=...,
    seed=..., turn=...)``). ``c`` is the page's controls: :class:`ShotControls` where
    ``kind`` is "shot" (a shooter placed, aimed and sped), the aim point ``[x, y]`` (m) where
    it is "throw"."""

    #: The page's controls: "shot" or "throw".
    kind: ClassVar[str]
    #: The odds table's rows, in order, where the estimate has them: (column, label).
    headline: ClassVar[Sequence[tuple[str, str]]]
    #: The odds' error where the controls cannot be played (the estimate's ``n`` is 0).
    unplayable: ClassVar[str]
    #: Why there is no best-shot search (the page's answer to "best shot"); None: ``best()``.
    best_note: ClassVar[str | None]
    #: The shooter's radius (m) the page draws its handle with (0: none).
    shooter_radius: float

    @staticmethod
    def skill_names(variant: str) -> list[str]:
        """The skills the model takes, by name (the first is the default)."""
        ...

    def picture(self) -> dict:
        """What the board picture adds to the board: ``track`` (rows ``[placement, x, y]``)
        or ``thrower`` (``[x, y]``)."""
        ...

    def start(self) -> dict:
        """The controls' first values, by the widget's names (placement, angle, speed; aim)."""
        ...

    def limits(self) -> dict:
        """The controls' ranges by name (``[lo, hi]``), and labels."""
        ...

    def estimate(self, c: Any, n: int | None = None, skill: str | None = None) -> Any:
        """One row (a pandas Series) of ``n`` shots: ``n`` (0: ``c`` cannot be played) and
        every chance or mean with its ``_lo`` / ``_hi``."""
        ...

    def paths(self, c: Any, count: int = 20, skill: str | None = None) -> list[dict]:
        """What ``count`` executions leave on the board: ``{"pieces": {id: [xs, ys]},
        "captured": [ids]}`` (paths) or ``{"landing": [x, y]}`` each."""
        ...

    def story(self, c: Any, skill: str | None = None) -> dict:
        """What the shot does: ``text`` and one typical execution's ``path``; {} for none."""
        ...

    def strip(
        self, c: Any, skill: str | None = None, stale: Callable[[], bool] | None = None
    ) -> dict | None:
        """One quantity over one control (``angle``: its values, ``value`` / ``lo`` / ``hi``,
        ``n``, ``label``); None where ``stale()`` said True on the way."""
        ...

    def best(self, skill: str | None = None) -> dict:
        """The best shot's controls, place and value, where ``best_note`` is None."""
        ...


class ShotModel:
    """The explorer's answers for a shooter game's position (every game with shot analysis):
    the shooter placed on its line or arc (or where it lies), aimed and sped."""

    kind = "shot"
    headline = HEADLINE
    unplayable = "the shooter cannot be placed there"
    best_note = None

    def __init__(self, position, skill="club", n: int = 2000, seed: int = 0, turn=None):
        from carromlab.analysis.runner import ShotRunner
        from carromlab.analysis.shotmap import default_grid
        from carromlab.analysis.variants import analysis_for

        position.check()
        if int(n) <= 0:
            raise CarromlabError(f"n must be a positive number of shots, not {n}")
        self.position, self.skill, self.n, self.seed, self.turn = (
            position,
            skill,
            int(n),
            int(seed),
            turn,
        )
        self.va = analysis_for(position.variant)
        self.runner = ShotRunner(self.va.table_position(position), self.va.shooter_kind)
        self.grid = default_grid(position.variant)
        self.shooter_radius = float(position.board.piece_specs()[self.va.shooter_kind].radius)

    @staticmethod
    def skill_names(variant: str) -> list[str]:
        """The variant's own skills where its analysis names them, else every shot skill
        (:data:`carromlab.shots.SKILLS`)."""
        from carromlab.analysis.variants import analysis_for
        from carromlab.shots import SKILLS

        own = analysis_for(variant).skills
        return list(own) if own else list(SKILLS)

    # -- the page's fixed parts -------------------------------------------------------------
    def picture(self) -> dict:
        """What the board picture adds: the shooter's track (:meth:`track`)."""
        return {"track": self.track()}

    def track(self, samples: int = 121) -> list[list[float]]:
        """The shooter's legal starting places: ``[placement, x, y]`` rows along its line or
        arc (one row where it is played from where it lies)."""
        ps = []
        for lo, hi in self.va.placement_intervals(self.position.board):
            ps.extend(np.linspace(lo, hi, max(2, samples // 2)).tolist())
        ps = np.asarray(sorted(set(ps)), float)
        xs, ys = self.va.origin(self.position, ps)
        if np.ptp(xs) == 0 and np.ptp(ys) == 0:  # it is played from where it lies
            return [[float(ps[0]), float(xs[0]), float(ys[0])]]
        legal = self.va.legal_origin(self.position, xs, ys)
        return [[float(p), float(x), float(y)] for p, x, y, ok in zip(ps, xs, ys, legal) if ok]

    def start(self) -> dict:
        """A first shot: the default map's middle placement that is legal, straight up the
        board at its middle speed (placement, angle, speed)."""
        track = self.track()
        if not track:
            raise CarromlabError(
                f"position {self.position.name!r} leaves the shooter no legal place"
            )
        placements, _angles, speeds = self.grid
        mid = float(np.median(placements))
        p = min(track, key=lambda r: abs(r[0] - mid))[0]
        return {"placement": p, "angle": 90.0, "speed": float(np.median(speeds))}

    def limits(self) -> dict:
        """The controls' ranges: placement (the track's), angle 0-360 deg, speed 0.3-8 m/s."""
        track = self.track()
        ps = [r[0] for r in track]
        if len(track) == 1:
            label = "the striker is played from where it lies"
        elif self.va.origin_of is None:
            label = "Placement (m)"
        else:
            label = "Placement (deg)"  # a point of an arc, by its angle
        return {
            "placement": [min(ps), max(ps)],
            "placement_label": label,
            "angle": [0.0, 360.0],
            "speed": [0.3, 8.0],
        }

    def origin(self, c: ShotControls) -> tuple[float, float]:
        xs, ys = self.va.origin(self.position, [c.placement])
        return float(xs[0]), float(ys[0])

    # -- answers ------------------------------------------------------------------------------
    def _cells(self, cells, n: int, skill=None, key_ids=None):
        from carromlab.analysis.shotmap import evaluate_cells

        return evaluate_cells(
            self.position,
            cells,
            skill=skill or self.skill,
            n=int(n),
            seed=self.seed,
            turn=self.turn,
            runner=self.runner,
            key_ids=key_ids,
        )

    def estimate(self, c: ShotControls, n: int | None = None, skill=None):
        """The shot's row of ``n`` shots (default the model's ``n``): its chances and means
        with their intervals (``n`` 0 where the placement is not legal)."""
        df = self._cells([(c.placement, c.angle, c.speed)], n or self.n, skill)
        return df.iloc[0]

    def strip(
        self, c: ShotControls, skill=None, angles=None, n: int = STRIP_N, stale=None
    ) -> dict | None:
        """Expected points (with intervals) over the aim angle at this placement and speed:
        at ``angles`` (default: the default shot map's, so the strip is a row of that map).
        Computed :data:`STRIP_PART` angles at a time (each angle keyed by its index, so the
        numbers do not depend on the parts); ``stale()`` is asked between parts, and a True
        answer abandons the strip (None)."""
        import pandas as pd

        angles = self.grid[1] if angles is None else angles
        cells = [(c.placement, float(a), c.speed) for a in angles]
        parts = []
        for k in range(0, len(cells), STRIP_PART):
            if stale is not None and stale():
                return None
            ids = list(range(k, min(k + STRIP_PART, len(cells))))
            parts.append(self._cells(cells[k : k + STRIP_PART], n, skill, key_ids=ids))
        df = pd.concat(parts, ignore_index=True)
        col = "points"

        def clean(v):
            return [None if not math.isfinite(float(x)) else float(x) for x in v]

        return {
            "angle": [float(a) for a in angles],
            "value": clean(df[col]),
            "lo": clean(df[f"{col}_lo"]),
            "hi": clean(df[f"{col}_hi"]),
            "n": int(n),
            "label": "expected points",
        }

    def paths(self, c: ShotControls, count: int = 20, skill=None) -> list[dict]:
        """The executions' paths (:meth:`executions`)."""
        return self.executions(c, count, skill=skill)

    def executions(self, c: ShotControls, count: int = 20, skill=None) -> list[dict]:
        """The paths of the shot's first ``count`` noisy executions (recorded again):
        one dict per execution, ``{"pieces": {id: [[x...], [y...]]}, "captured": [ids]}``
        with the pieces that moved only."""
        from carromlab.analysis.estimate import prepare
        from carromlab.analysis.executions import record_executions
        from carromlab.shots import Shot

        sk, va, _turn = prepare(self.position, count, skill or self.skill, self.turn)
        x, y = self.origin(c)
        cell = Shot(x=x, y=y, angle=math.radians(c.angle), speed=c.speed)
        outcome, paths = record_executions(
            self.runner, cell, int(self.n), va.noise(sk), self.seed, np.arange(count), points=1
        )
        out = []
        for k, one in enumerate(paths):
            moved = {}
            for pid, (xs, ys) in one.items():
                ok = np.isfinite(xs)
                if ok.sum() < 2:
                    continue
                px, py = xs[ok], ys[ok]
                keep = np.r_[True, (np.diff(px) != 0) | (np.diff(py) != 0)]  # one point a stop
                px, py = px[keep], py[keep]
                if np.hypot(px[-1] - px[0], py[-1] - py[0]) < 1e-4 and np.ptp(px) < 1e-4:
                    continue
                moved[pid] = [np.round(px, 4).tolist(), np.round(py, 4).tolist()]
            captured = [
                pid for j, pid in enumerate(self.runner.ids) if outcome["capture"][k, j] >= 0
            ]
            out.append({"pieces": moved, "captured": captured})
        return out

    def story(self, c: ShotControls, skill=None) -> dict:
        """What the shot does (:func:`~carromlab.analysis.story.shot_story` on the odds' own
        executions): the sentence, the first piece hit, the likeliest outcome and one typical
        execution's path (the pieces that moved)."""
        from carromlab.analysis.story import shot_story
        from carromlab.shots import Shot

        x, y = self.origin(c)
        st = shot_story(
            self.position,
            Shot(x=x, y=y, angle=math.radians(c.angle), speed=c.speed),
            skill=skill or self.skill,
            n=self.n,
            seed=self.seed,
            turn=self.turn,
            runner=self.runner,
        )
        paths = {}
        for pid, (xs, ys) in st.paths.items():
            ok = np.isfinite(xs)
            if ok.sum() >= 2:
                paths[pid] = [np.round(xs[ok], 4).tolist(), np.round(ys[ok], 4).tolist()]
        return {
            "text": st.text(),
            "first_hit": st.first_hit,
            "p_first_hit": float(st.p_first_hit),
            "p_outcome": float(st.p_outcome),
            "path": paths,
        }

    def best(self, skill=None, **kw) -> dict:
        """The best shot from the position (:func:`~carromlab.analysis.best.best_shots` at a
        small budget): placement, angle, speed, expected points with its interval."""
        from carromlab.analysis.best import best_shots

        opts = {"n_grid": 16, "iterations": 2, "n_cem": 32, "top_k": 1, "n_final": 1000}
        opts.update(kw)
        top = best_shots(
            self.position, skill=skill or self.skill, seed=self.seed, turn=self.turn, **opts
        ).iloc[0]
        c = ShotControls(float(top["placement"]), float(top["angle"]), float(top["speed"]))
        x, y = self.origin(c)
        return {
            "placement": c.placement,
            "angle": c.angle,
            "speed": c.speed,
            "x": x,
            "y": y,
            "value": float(top["points"]),
            "lo": float(top["points_lo"]),
            "hi": float(top["points_hi"]),
            "label": "expected points",
        }


def explorable_variants() -> list[str]:
    """The variants the explorer opens: every game's with a model of its own or with shot
    analysis."""
    from carromlab.registry import GAMES

    return [
        v
        for g in GAMES.values()
        if g.explorer is not None or g.analysis is not None
        for v in g.variants
    ]


def model_class(variant: str) -> type:
    """The class of ``variant``'s model: its game's own (``Game.explorer``), else
    :class:`ShotModel` where the game has shot analysis; a variant the explorer does not open
    is refused in one line."""
    from carromlab.registry import get_game

    game = get_game(variant)
    if game.explorer is not None:
        return game.explorer()
    if game.analysis is None:
        raise CarromlabError(
            f"the explorer does not open {variant!r} positions "
            f"(it opens {', '.join(explorable_variants())})"
        )
    return ShotModel


def model_for(position, **kw) -> ExplorerModel:
    """The explorer's model for ``position`` (:func:`model_class` of its variant), with
    ``kw`` (skill, n, seed, turn)."""
    return model_class(position.variant)(position, **kw)


def odds_table(model: ExplorerModel, c, n: int | None = None, skill=None) -> dict:
    """The odds table of ``model``'s controls ``c`` from ``n`` shots (default the model's):
    ``{"rows": [...], "n": n}`` (:func:`odds_rows` on the model's headline), or ``{"rows": [],
    "n": 0, "error": model.unplayable}`` where ``c`` cannot be played."""
    row = model.estimate(c, n, skill)
    if int(row["n"]) == 0:
        return {"rows": [], "n": 0, "error": model.unplayable}
    return {"rows": odds_rows(row, model.headline), "n": int(row["n"])}


def turn_text(position, turn=None) -> str:
    """The turn the explorer values the position's shots under, in words ("white to play, 6
    own coins down, 4 opponent's, queen on the board"): ``turn`` where given, else the
    position's (its ``turn`` fields, or the rules' default); "" for a game without a turn
    state. A turn the game does not take is refused in one line."""
    from carromlab.registry import position_turn
    from carromlab.rules.turns import describe_turn

    return describe_turn(turn if turn is not None else position_turn(position), position)
