"""What the explorer computes, apart from any widget: a position's board as a picture with its
coordinates, the shooter's legal track, and for one shot (placement, angle, speed) its odds
with intervals, a few executions' paths, the expected points over the aim angle, and the best
shot from the position. KOOBA's throws: an aim point, the landings of a few throws, and the
chance of each tag.

Every answer is the analysis layer's own (:func:`~carromlab.analysis.shotmap.evaluate_cells`,
:func:`~carromlab.analysis.best.best_shots`, :func:`~carromlab.analysis.executions.
record_executions`, KOOBA's :func:`~carromlab.games.kooba.maps.aim_map`) on one
:class:`~carromlab.analysis.runner.ShotRunner` kept for the position, so a move costs the
shots only (no compile with a warm cache). An answer of ``n`` shots uses shot numbers
``0 .. n - 1`` of its cell: the quick first answer's shots are the first of the full one's.
"""

from __future__ import annotations

import base64
import io
import math
from dataclasses import dataclass

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
#: KOOBA's odds rows: (tag column, label).
KOOBA_HEADLINE = (
    ("p_eye", "in the eye"),
    ("p_inner_eye", "in the inner eye"),
    ("p_kooba", "a KOOBA"),
    ("p_ring", "in a ring"),
    ("p_penalty", "penalty"),
    ("p_off", "off the board"),
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


class ShotModel:
    """The explorer's answers for a shooter game's position (every variant but KOOBA)."""

    kind = "shot"

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

    # -- the page's fixed parts -------------------------------------------------------------
    def track(self, samples: int = 121) -> list[list[float]]:
        """The shooter's legal starting places: ``[placement, x, y]`` rows along its line or
        arc (one row where it is played from where it lies)."""
        ps = []
        for lo, hi in self.va.placement_intervals(self.position.board):
            ps.extend(np.linspace(lo, hi, max(2, samples // 2)).tolist())
        ps = np.asarray(sorted(set(ps)), float)
        xs, ys = self.va.origin(self.position, ps)
        if np.ptp(xs) == 0 and np.ptp(ys) == 0:  # it lies where it is (Carrooka's striker)
            return [[float(ps[0]), float(xs[0]), float(ys[0])]]
        legal = self.va.legal_origin(self.position, xs, ys)
        return [[float(p), float(x), float(y)] for p, x, y, ok in zip(ps, xs, ys, legal) if ok]

    def start(self) -> ShotControls:
        """A first shot: the default map's middle placement that is legal, straight up the
        board at its middle speed."""
        track = self.track()
        if not track:
            raise CarromlabError(
                f"position {self.position.name!r} leaves the shooter no legal place"
            )
        placements, _angles, speeds = self.grid
        mid = float(np.median(placements))
        p = min(track, key=lambda r: abs(r[0] - mid))[0]
        return ShotControls(p, 90.0, float(np.median(speeds)))

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

    def odds(self, c: ShotControls, n: int | None = None, skill=None) -> dict:
        """The shot's odds from ``n`` shots (default the model's ``n``): ``{"rows": [...],
        "n": n}``, or ``{"rows": [], "error": "..."}`` where the placement is not legal."""
        df = self._cells([(c.placement, c.angle, c.speed)], n or self.n, skill)
        row = df.iloc[0]
        if int(row["n"]) == 0:
            return {"rows": [], "n": 0, "error": "the shooter cannot be placed there"}
        return {"rows": odds_rows(row), "n": int(row["n"])}

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


class ThrowModel:
    """KOOBA: a throw from the seat's spot aimed at a point; its tags' chances, and where a
    few throws land."""

    kind = "throw"

    def __init__(self, position, skill="club", n: int = 2000, seed: int = 0, seat: str = "S"):
        from carromlab.equipment.kooba import KoobaBoard

        if int(n) <= 0:
            raise CarromlabError(f"n must be a positive number of throws, not {n}")
        self.position, self.skill, self.n, self.seed, self.seat = (
            position,
            skill,
            int(n),
            int(seed),
            seat,
        )
        board = position.board
        self.board = board if isinstance(board, KoobaBoard) else KoobaBoard()
        self.shooter_radius = 0.0

    def start(self) -> dict:
        return {"aim": [0.0, 0.0]}

    def thrower(self) -> tuple[float, float]:
        from carromlab.games.kooba.maps import thrower_spot

        x, y = thrower_spot(self.board, self.seat, 4)
        return float(x), float(y)

    def odds(self, aim, n: int | None = None, skill=None) -> dict:
        from carromlab.games.kooba.maps import aim_map

        df = aim_map(
            [float(aim[0])],
            [float(aim[1])],
            skill=skill or self.skill,
            n=int(n or self.n),
            seed=self.seed,
            seat=self.seat,
            board=self.board,
        )
        return {"rows": odds_rows(df.iloc[0], KOOBA_HEADLINE), "n": int(df["n"].iloc[0])}

    def landings(self, aim, count: int = 20, skill=None) -> list[list[float]]:
        """Where ``count`` throws at ``aim`` land (the map's own first throws)."""
        import jax
        import jax.numpy as jnp

        from carromlab.physics.throw import throw_batch
        from carromlab.shots import THROW_SKILLS

        sk = THROW_SKILLS[skill or self.skill]
        fx, fy = self.thrower()
        cell = jax.random.fold_in(jax.random.key(self.seed), 0)
        keys = jax.vmap(lambda i: jax.random.fold_in(cell, i))(jnp.arange(count))
        x, y, _rot = throw_batch(
            keys,
            jnp.full(count, float(aim[0])),
            jnp.full(count, float(aim[1])),
            jnp.full(count, fx),
            jnp.full(count, fy),
            sk.angle,
            sk.length,
            sk.release,
            0.0,
        )
        return [[float(a), float(b)] for a, b in zip(np.asarray(x), np.asarray(y))]

    def strip(self, aim, skill=None, n: int = STRIP_N) -> dict:
        """The chance of the inner eye along the seat's line of flight (the aim's distance
        from the centre, m)."""
        from carromlab.games.kooba.maps import aim_map

        ds = np.linspace(-0.3, 0.3, 31)
        df = aim_map(
            [float(aim[0])],
            ds.tolist(),
            skill=skill or self.skill,
            n=int(n),
            seed=self.seed,
            seat=self.seat,
            board=self.board,
        )
        return {
            "angle": ds.tolist(),
            "value": df["p_inner_eye"].astype(float).tolist(),
            "lo": df["p_inner_eye_lo"].astype(float).tolist(),
            "hi": df["p_inner_eye_hi"].astype(float).tolist(),
            "n": int(n),
            "label": "chance of the inner eye over the aim's y (m)",
        }


def model_for(position, **kw):
    """The explorer's model for ``position``: :class:`ThrowModel` for KOOBA, else
    :class:`ShotModel`."""
    if position.variant == "kooba":
        return ThrowModel(position, **{k: v for k, v in kw.items() if k != "turn"})
    return ShotModel(position, **kw)


def turn_text(position, turn=None) -> str:
    """The turn the explorer values the position's shots under, in words ("white to play, 6
    own coins down, 4 opponent's, queen on the board"): ``turn`` where given, else the
    position's (its ``turn`` fields, or the rules' default); "" for a game without a turn
    state (KOOBA). A turn the game does not take is refused in one line."""
    from carromlab.registry import position_turn
    from carromlab.rules.turns import describe_turn

    return describe_turn(turn if turn is not None else position_turn(position), position)
