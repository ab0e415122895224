"""Drawing recorded shots: exact paths on the board, and animations.

A :class:`~carromlab.physics.kernel.Trace` (from ``make_simulator(..., record=True)``) holds
the state just after every event; between two rows every disc slides straight, decelerating
at ``deceleration`` (``Physics().deceleration``, mu * g) until it stops. Disc 0 is the shooting
piece (the striker); discs 1.. are ``position.pieces`` in order.

Every function takes ``ax=`` (a new figure when None) and returns what it drew; nothing here
calls ``plt.show()``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from matplotlib import patheffects
from matplotlib.lines import Line2D
from matplotlib.transforms import Affine2D

from carromlab.physics.sliding import slide
from carromlab.plot.boards import Z_LABEL, Z_PIECE, Z_PIECE_TOP, board_plot, draw_position
from carromlab.position import Piece

if TYPE_CHECKING:
    from matplotlib.animation import FuncAnimation
    from matplotlib.axes import Axes

    from carromlab.plot.boards import BoardPlot
    from carromlab.position import Position

#: Colour of the striker's path (and its outline at the start spot).
STRIKER_PATH_COLOR = "#1565c0"
#: Colour of the capture marks.
CAPTURE_COLOR = "#d81b60"
#: Paths lie over the pieces (they cross them), capture marks over the paths.
Z_PATH = Z_PIECE_TOP + 0.5
Z_CAPTURE_MARK = Z_PATH + 0.5
#: Most frames an animation makes (its frame rate drops for long shots).
MAX_FRAMES = 200
#: Seconds an animation holds the final position (by default).
HOLD = 0.5


# ---------------------------------------------------------------------- traces


class _Rows:
    """A Trace's valid rows as float64 numpy arrays (one shot)."""

    def __init__(self, trace):
        t = np.asarray(trace.t, dtype=float)
        if t.ndim != 1:
            raise ValueError("one shot's Trace expected; split a batched Trace first")
        n = int(trace.n)
        # A truncated shot (event cap reached) counts one row it never wrote (all zeros).
        if n >= 2 and t[n - 1] < t[n - 2]:
            n -= 1
        self.n = n
        self.t = t[:n]
        self.x = np.asarray(trace.x, dtype=float)[:n]
        self.y = np.asarray(trace.y, dtype=float)[:n]
        self.vx = np.asarray(trace.vx, dtype=float)[:n]
        self.vy = np.asarray(trace.vy, dtype=float)[:n]
        self.alive = np.asarray(trace.alive, dtype=bool)[:n]
        self.trace = trace

    @property
    def t_end(self) -> float:
        return float(self.t[-1])

    def moved(self) -> np.ndarray:
        """[N] discs that moved (had a speed, or were captured) during the shot."""
        speed = np.hypot(self.vx, self.vy)
        return (speed > 0).any(axis=0) | (self.alive[0] & ~self.alive[-1])

    def captures(self) -> list[tuple[int, float, float]]:
        """(disc, x, y) of each disc captured during the shot, where it was captured."""
        out = []
        gone = self.alive[:-1] & ~self.alive[1:]
        for row, disc in zip(*np.nonzero(gone)):
            out.append((int(disc), self.x[row + 1, disc], self.y[row + 1, disc]))
        return out


def _as_list(traces) -> list:
    """One Trace, a batched Trace (leading shot axis) or a sequence of Traces -> a list."""
    if isinstance(traces, list | tuple):
        return [t for tr in traces for t in _as_list(tr)]
    if np.ndim(traces.t) == 2:
        import jax

        return [jax.tree_util.tree_map(lambda a, k=k: a[k], traces) for k in range(len(traces.t))]
    return [traces]


def positions_at(trace, times, deceleration: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact positions of every disc at ``times`` (s): arrays x, y, alive, each [T, N].

    Closed form, vectorised: at time t the state is the last row with ``trace.t <= t`` (after
    all the events of that instant), moved on by straight sliding at ``deceleration`` until the
    disc stops. Times are clamped to [0, t_end], so t <= 0 gives the initial positions and
    t >= t_end the final ones. A captured disc keeps the spot where it was captured, with
    ``alive`` False from its capture time on.
    """
    rows = _Rows(trace)
    tt = np.clip(np.atleast_1d(np.asarray(times, dtype=float)), 0.0, rows.t_end)
    k = np.clip(np.searchsorted(rows.t, tt, side="right") - 1, 0, rows.n - 1)
    tau = (tt - rows.t[k])[:, None]
    x0, y0, vx, vy = rows.x[k], rows.y[k], rows.vx[k], rows.vy[k]
    v = np.hypot(vx, vy)
    safe = np.where(v > 0, v, 1.0)
    s, _ = slide(v, deceleration, tau)
    return x0 + vx / safe * s, y0 + vy / safe * s, rows.alive[k]


# ---------------------------------------------------------------------- still pictures


def _shooter_kind(board) -> str | None:
    specs = board.piece_specs()
    return next((k for k in ("striker", "shooter") if k in specs), None)


def _shooter_piece(position: Position, x: float, y: float, kind: str | None) -> Piece | None:
    kind = kind or _shooter_kind(position.board)
    if kind is None:
        return None
    return Piece("striker", kind, None, float(x), float(y))


def _disc_ids(position: Position, n_discs: int) -> list[str]:
    if n_discs != len(position.pieces) + 1:
        raise ValueError(
            f"the trace has {n_discs} discs; position {position.name!r} has "
            f"{len(position.pieces)} pieces plus the striker"
        )
    return ["striker", *(p.id for p in position.pieces)]


def _path_color(plot, position: Position, disc: int) -> str:
    if disc == 0:
        return STRIKER_PATH_COLOR
    face, _ = plot.piece_color(position.pieces[disc - 1])
    return face


def _draw_path(ax: Axes, x, y, color, disc: int, k: int, pid: str, alpha: float) -> Line2D:
    """Disc ``disc``'s path in trace ``k``: its colour with a dark outline (the shooter's
    wider, outlined in white, above the others), labelled with its id in the first trace."""
    outline = "#ffffff" if disc == 0 else _outline_for(color)
    (line,) = ax.plot(
        x,
        y,
        color=color,
        linewidth=1.6 if disc == 0 else 1.3,
        alpha=alpha,
        solid_capstyle="round",
        zorder=Z_PATH + (0.1 if disc == 0 else 0.0),
        label=pid if k == 0 else f"_{pid}",
        gid=f"path:{k}:{pid}",
    )
    line.set_path_effects(
        [
            patheffects.Stroke(linewidth=3.0, foreground=outline, alpha=0.6 * alpha),
            patheffects.Normal(),
        ]
    )
    return line


def draw_trajectories(
    position: Position,
    traces,
    deceleration: float,
    ax: Axes | None = None,
    pieces="moved",
    striker_spot=None,
    alpha: float = 0.8,
    shooter: str | None = None,
    points: int = 16,
    legend: bool = True,
    zoom: bool | float = False,
    plot: BoardPlot | None = None,
) -> list[Line2D]:
    """The board with ``position``'s pieces (where they stood before the shot) and the exact
    paths of the discs in each trace (:func:`~carromlab.physics.trace.sample_paths`).

    ``traces``: one Trace, a batched Trace, or a list (one per sample shot). ``pieces``:
    ``"moved"`` (the discs that moved, default), ``"all"``, or a collection of ids (the striker
    is ``"striker"``). Each path is drawn in its piece's colour with a dark outline, the
    striker's in ``STRIKER_PATH_COLOR``; a captured disc's path ends at its capture point,
    marked with an x. ``striker_spot``: None draws the striker's outline at its starting spot
    in each trace, an (x, y) pair there only, False nowhere. ``shooter`` is the shooting
    piece's kind (default: the board's ``striker``, else ``shooter``). ``legend`` adds the
    legend below the board: the pieces, the striker's path and the capture mark. ``zoom``
    (True, or a margin in metres; True: 0.06) narrows the view to the drawn paths and the
    striker's spot plus that margin, so one execution reads in a small panel.

    Returns the Line2D objects: the paths (``gid`` ``"path:<shot>:<id>"``, labelled with the
    id for the first shot), then the capture marks (``gid`` ``"capture:<shot>:<id>"``).
    """
    from matplotlib.patches import Circle

    from carromlab.physics.trace import sample_paths  # (imports jax: only when drawing)

    plot = board_plot(position.board) if plot is None else plot
    ax = draw_position(position, ax=ax, legend=False, plot=plot)
    specs = position.board.piece_specs()
    kind = shooter or _shooter_kind(position.board)
    paths, marks = [], []
    spots = []
    for k, trace in enumerate(_as_list(traces)):
        rows = _Rows(trace)
        ids = _disc_ids(position, rows.x.shape[1])
        if isinstance(pieces, str):
            if pieces not in ("moved", "all"):
                raise ValueError(f"pieces must be 'moved', 'all' or a collection of ids: {pieces}")
            keep = rows.moved() if pieces == "moved" else np.ones(len(ids), bool)
        else:
            wanted = set(pieces)
            keep = np.array([pid in wanted for pid in ids])
        # sample_paths on the valid rows; close each captured path at its capture point
        xs, ys = sample_paths(_Trimmed(rows), deceleration, points)
        captured = rows.captures()
        for disc, cx, cy in captured:
            row = int(np.argmax(~rows.alive[:, disc]))
            xs[row * points, disc], ys[row * points, disc] = cx, cy
        for disc in np.nonzero(keep)[0]:
            color = _path_color(plot, position, disc)
            paths.append(_draw_path(ax, xs[:, disc], ys[:, disc], color, disc, k, ids[disc], alpha))
        for disc, cx, cy in captured:
            if not keep[disc]:
                continue
            marks.append(capture_mark(ax, cx, cy, ids[disc], f"capture:{k}:{ids[disc]}"))
        spots.append((rows.x[0, 0], rows.y[0, 0]))
    if striker_spot is not False and kind in specs:
        where = spots if striker_spot is None else [tuple(striker_spot)]
        for sx, sy in dict.fromkeys((float(a), float(b)) for a, b in where):
            face = plot.piece_color(_shooter_piece(position, sx, sy, kind))[0]
            ax.add_patch(Circle((sx, sy), specs[kind].radius, facecolor=face,
                                edgecolor=STRIKER_PATH_COLOR, linewidth=1.0, alpha=0.7,
                                zorder=Z_PIECE, gid="striker_spot"))  # fmt: skip
    if zoom:
        _zoom(ax, paths, spots, 0.06 if zoom is True else float(zoom))
    if legend:
        extra = path_legend_entries(STRIKER_PATH_COLOR, "striker's path", "a piece's path")
        plot.draw_legend(ax, position, extra=extra)
    return paths + marks


def path_legend_entries(
    shooter_color: str, shooter_label: str, piece_label: str
) -> list[tuple[Line2D, str]]:
    """The legend's entries for drawn paths: the shooter's (``shooter_label``), a piece's
    (``piece_label``, "(its colour)" added) and the capture mark."""
    return [
        (Line2D([], [], color=shooter_color, linewidth=1.6), shooter_label),
        (Line2D([], [], color="#777777", linewidth=1.3), f"{piece_label} (its colour)"),
        (
            Line2D(
                [],
                [],
                marker="x",
                markersize=7,
                markeredgewidth=2.0,
                color=CAPTURE_COLOR,
                linestyle="none",
            ),
            "pocketed here",
        ),
    ]


def _zoom(ax: Axes, paths: list, spots: list, margin: float) -> None:
    """Square limits around the paths and the striker's spots, ``margin`` metres out, within
    the axes' limits."""
    pts = [line.get_xydata() for line in paths] + [np.asarray(spots, dtype=float).reshape(-1, 2)]
    xy = np.concatenate(pts)
    xy = xy[np.isfinite(xy).all(axis=1)]
    if not len(xy):
        return
    (x0, y0), (x1, y1) = xy.min(axis=0) - margin, xy.max(axis=0) + margin
    half = max(x1 - x0, y1 - y0) / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    (lx0, lx1), (ly0, ly1) = ax.get_xlim(), ax.get_ylim()
    ax.set_xlim(max(lx0, cx - half), min(lx1, cx + half))
    ax.set_ylim(max(ly0, cy - half), min(ly1, cy + half))


def _outline_for(color: str) -> str:
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(color)
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 0.3 else "#000000"


class _Trimmed:
    """A Trace-like view of the valid rows (what :func:`sample_paths` reads)."""

    def __init__(self, rows: _Rows):
        self.t, self.x, self.y = rows.t, rows.x, rows.y
        self.vx, self.vy, self.alive, self.n = rows.vx, rows.vy, rows.alive, rows.n


# ---------------------------------------------------------------------- animation


def animate_shot(
    position: Position,
    trace,
    deceleration: float,
    path=None,
    fps: float = 25,
    duration: float | None = None,
    ax: Axes | None = None,
    shooter: str | None = None,
) -> FuncAnimation:
    """Animate one shot in real time: the discs slide over the board (exact positions at each
    frame's time, :func:`positions_at`); a captured disc disappears at its capture time.

    ``duration`` (s) defaults to the shot's length plus ``HOLD``. At most ``MAX_FRAMES`` frames:
    for a long shot the frame rate drops below ``fps`` so it still plays in real time. With
    ``path`` (e.g. ``"shot.gif"``) the animation is saved with matplotlib's PillowWriter.
    Returns the FuncAnimation (keep a reference while it is displayed).
    """
    from matplotlib.animation import FuncAnimation, PillowWriter
    from matplotlib.patches import Circle

    rows = _Rows(trace)
    _disc_ids(position, rows.x.shape[1])
    duration = rows.t_end + HOLD if duration is None else float(duration)
    if duration < 0:
        raise ValueError(f"duration must be >= 0, not {duration}")
    n_frames = math.floor(duration * fps + 1e-9) + 1
    if n_frames > MAX_FRAMES:
        n_frames = MAX_FRAMES
        fps = (n_frames - 1) / duration
    times = np.arange(n_frames) / fps
    xs, ys, alive = positions_at(trace, times, deceleration)

    plot = board_plot(position.board)
    ax = plot.draw(ax)
    patches = plot.draw_pieces(position, ax=ax)
    striker = _shooter_piece(position, rows.x[0, 0], rows.y[0, 0], shooter)
    if striker is not None:
        spec = position.board.piece_specs()[striker.kind]
        patch = plot.piece_patch(striker, spec, position.board)
        patch.set_zorder(Z_PIECE_TOP)
        ax.add_patch(patch)
    else:  # a board without a striker kind: a plain disc
        patch = Circle((rows.x[0, 0], rows.y[0, 0]), 0.02, color=STRIKER_PATH_COLOR)
        ax.add_patch(patch)
    patches = [patch, *patches]
    # Patches sit at their initial spots; each frame translates them to the trace's positions.
    x0, y0 = rows.x[0], rows.y[0]
    clock = ax.text(
        0.02,
        0.98,
        "",
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=9,
        zorder=Z_LABEL,
        bbox=dict(boxstyle="round", facecolor="white", alpha=0.8, linewidth=0),
    )
    if position.name:
        ax.set_title(position.name)

    def update(f: int):
        for i, p in enumerate(patches):
            p.set_transform(Affine2D().translate(xs[f, i] - x0[i], ys[f, i] - y0[i]) + ax.transData)
            p.set_visible(bool(alive[f, i]))
        clock.set_text(f"t = {times[f]:.2f} s")
        return [*patches, clock]

    update(0)
    anim = FuncAnimation(ax.figure, update, frames=n_frames, interval=1000.0 / fps, blit=False)
    if path is not None:
        anim.save(str(path), writer=PillowWriter(fps=fps))
    return anim


def capture_mark(ax: Axes, x: float, y: float, pid: str, gid: str) -> Line2D:
    """The cross where the piece ``pid`` was captured, at ``(x, y)`` (its artist id ``gid``;
    no legend entry)."""
    (mark,) = ax.plot(
        [x],
        [y],
        marker="x",
        markersize=8,
        markeredgewidth=2.0,
        color=CAPTURE_COLOR,
        linestyle="none",
        zorder=Z_CAPTURE_MARK,
        label=f"_capture {pid}",
        gid=gid,
    )
    return mark
