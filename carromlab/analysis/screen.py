"""A learned screen: a small network that predicts a candidate stroke's value at a position.

The network (:class:`ScreenNet`, equinox) reads a position as a *set* of pieces, so its
answer never depends on the order the pieces are listed in, and values many strokes of one
position in one batched call (:func:`predict`):

1. each piece's own features (:func:`piece_features`: where it lies; whether it is one of the
   shooter's targets, the shooter's, the other side's, the queen) go through one linear map,
   once for the position;
2. each stroke's features (:func:`stroke_features`: where the shooter starts, the aim's cosine
   and sine, the speed) through another, once per stroke;
3. for every (stroke, piece) pair, the piece's place in the stroke's frame (how far along the
   aim, how far off its line, whether it is the first piece on it) and, for a piece struck
   directly, how well the line it leaves along points at a pocket (:func:`pair_features`)
   through a third; the three sums pass a ReLU and one more layer;
4. the pairs of a stroke are pooled over the position's live pieces (mean and max: the set
   encoder), joined with the stroke's and the turn's features (:func:`turn_features`) and
   those of the piece it strikes first (:func:`struck_features`: the cut, its pocket, the
   pieces in the way), and a small MLP gives two numbers: the stroke's expected value under the game's rules (its
   ``points``) and the logit of its foul risk.

Steps 1-2 cost one matrix product per piece or stroke; the pairs cost two small ones
(``hidden`` wide) for every (stroke, piece) pair, which is most of the cost: about 9,700
strokes of a 19-piece position at 64 units take 0.1-0.4 s on one CPU core
(docs/benchmarks.md). Weights are stored as ``.npz`` with their provenance in a JSON file
beside them (:func:`save_screen`, :func:`load_screen`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from carromlab.errors import CarromlabError

#: The weight files' format: 2 since the stroke head reads the struck piece's features.
FORMAT = 2
#: Pieces a position may hold for the network (padded with masked rows to this many: one
#: compiled program for every position of a game). Carroms' 25 pieces are the most.
MAX_PIECES = 32
#: A prediction's piece rows are cut to a multiple of this past the live pieces (a position
#: of 19 pieces costs 24 rows, not 32).
PIECE_BLOCK = 8
#: Features of a piece (:func:`piece_features`).
PIECE_FEATURES = 6
#: Features of a stroke (:func:`stroke_features`).
STROKE_FEATURES = 5
#: Features of a (stroke, piece) pair, computed inside the network (:func:`pair_features`).
PAIR_FEATURES = 7
#: Features of the piece a stroke strikes first (:func:`struck_features`).
STRUCK_FEATURES = 11
#: A piece this close to the line a struck piece leaves along blocks its way to the pocket
#: (m): two ICF coin radii, 2 x 0.0159 m (docs/equipment.md).
BLOCK = 0.0318
#: Strokes per call are padded to a multiple of this (a few compiled programs a game).
STROKE_BLOCK = 1024
#: Length scale of positions and offsets (m): about half an ICF board's playing surface.
LENGTH = 0.37
#: Speed scale (m/s): a hard flick (docs/equipment.md).
SPEED = 5.0
#: Offsets off the aim line are measured in this many metres (about a striker's and a coin's
#: radii together, 0.0206 + 0.0159 m on an ICF board).
REACH = 0.0365


def piece_features(view, targets, shooter) -> tuple[np.ndarray, np.ndarray]:
    """``(features, mask)`` of ``view``'s pieces: (MAX_PIECES, PIECE_FEATURES) and
    (MAX_PIECES,): x and y (scaled by :data:`LENGTH`), then flags: a target of the shooter,
    the shooter's own, another side's, the queen. Rows past the pieces are zero and masked."""
    # a striker lying on the board (Carrooka's, on its spot) is the stroke's start, not a
    # piece of the set
    pieces = [p for p in view.pieces if p.kind != "striker"]
    if len(pieces) > MAX_PIECES:
        raise CarromlabError(
            f"the learned screen takes at most {MAX_PIECES} pieces, not {len(pieces)}"
        )
    want = set(targets)
    out = np.zeros((MAX_PIECES, PIECE_FEATURES), np.float32)
    for k, p in enumerate(pieces):
        owner = getattr(p, "owner", None)
        out[k] = (
            p.x / LENGTH,
            p.y / LENGTH,
            p.id in want,
            owner is not None and owner == shooter,
            owner is not None and owner != shooter,
            p.kind == "queen",
        )
    mask = np.zeros(MAX_PIECES, bool)
    mask[: len(pieces)] = True
    return out, mask


def stroke_features(x, y, angle, speed) -> np.ndarray:
    """(N, STROKE_FEATURES): the shooter's start (x, y scaled by :data:`LENGTH`), the aim's
    cosine and sine, the speed (scaled by :data:`SPEED`)."""
    x, y, a, v = (np.asarray(t, np.float32).reshape(-1) for t in (x, y, angle, speed))
    return np.stack([x / LENGTH, y / LENGTH, np.cos(a), np.sin(a), v / SPEED], axis=1)


def turn_features(turn, size: int | None = None) -> np.ndarray:
    """The turn state's numbers: every bool, int or float field of a dataclass turn, in field
    order (ints over 9, the most coins a side has on an ICF board); a string field (who is on
    strike) is not a number and is left out. ``size``: pad or check to this length."""
    vals: list[float] = []
    if dataclasses.is_dataclass(turn):
        for f in dataclasses.fields(turn):
            v = getattr(turn, f.name)
            if isinstance(v, bool):
                vals.append(float(v))
            elif isinstance(v, (int, np.integer)):
                vals.append(float(v) / 9.0)
            elif isinstance(v, (float, np.floating)):
                vals.append(float(v))
    out = np.asarray(vals, np.float32)
    if size is not None:
        if len(out) > size:
            raise CarromlabError(f"the turn has {len(out)} numbers; the screen reads {size}")
        out = np.pad(out, (0, size - len(out)))
    return out


@dataclass(frozen=True)
class ScreenSpec:
    """The network's shape: ``hidden`` (the pair layers), ``head`` (the stroke MLP), the
    turn's feature count and the board's pockets (a game's own)."""

    turn_size: int
    hidden: int = 32
    head: int = 64
    #: The board's pockets (x, y in metres), where the struck pieces are headed.
    pockets: tuple[tuple[float, float], ...] = ()


def _eqx():
    import equinox as eqx

    return eqx


@functools.cache
def _module_class():
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    class ScreenNet(eqx.Module):
        """The set encoder over pieces and the stroke head (module docstring)."""

        piece_in: eqx.nn.Linear
        stroke_in: eqx.nn.Linear
        pair_in: eqx.nn.Linear
        pair_mid: eqx.nn.Linear
        head: eqx.nn.MLP
        pockets: tuple = eqx.field(static=True)

        def __init__(self, spec: ScreenSpec, key):
            k = jax.random.split(key, 5)
            h = spec.hidden
            self.pockets = tuple(tuple(float(v) / LENGTH for v in q) for q in spec.pockets)
            self.piece_in = eqx.nn.Linear(PIECE_FEATURES, h, key=k[0])
            self.stroke_in = eqx.nn.Linear(STROKE_FEATURES, h, use_bias=False, key=k[1])
            self.pair_in = eqx.nn.Linear(PAIR_FEATURES, h, use_bias=False, key=k[2])
            self.pair_mid = eqx.nn.Linear(h, h, key=k[3])
            self.head = eqx.nn.MLP(
                2 * h + STROKE_FEATURES + STRUCK_FEATURES + spec.turn_size,
                2,
                spec.head,
                2,
                key=k[4],
            )

        def __call__(self, pieces, mask, strokes, turn):
            """``pieces`` (P, F), ``mask`` (P,), ``strokes`` (N, S), ``turn`` (T,) -> (N, 2):
            the value and the foul logit of every stroke."""
            ph = jax.vmap(self.piece_in)(pieces)  # (P, H)
            sh = jax.vmap(self.stroke_in)(strokes)  # (N, H)
            pockets = jnp.asarray(self.pockets, pieces.dtype).reshape(-1, 2)
            pair = pair_features(pieces, strokes, pockets, mask)  # (N, P, PAIR_FEATURES)
            h = jax.nn.relu(ph[None] + sh[:, None] + pair @ self.pair_in.weight.T)
            h = jax.nn.relu(h @ self.pair_mid.weight.T + self.pair_mid.bias)  # (N, P, H)
            m = mask[None, :, None]
            count = jnp.maximum(mask.sum(), 1)
            mean = jnp.where(m, h, 0.0).sum(axis=1) / count
            top = jnp.where(m, h, 0.0).max(axis=1)  # h >= 0: a masked row never wins
            struck = struck_features(pieces, mask, strokes, pair, pockets)
            both = jnp.concatenate(
                [
                    mean,
                    top,
                    strokes,
                    struck,
                    jnp.broadcast_to(turn, (strokes.shape[0], turn.shape[0])),
                ],
                axis=1,
            )
            return jax.vmap(self.head)(both)

    return ScreenNet


def pair_features(pieces, strokes, pockets, mask=None):
    """(N, P, PAIR_FEATURES): each piece in each stroke's frame, with the geometry of a
    direct hit (the ghost-ball model: a struck piece leaves along the line of centres):

    - the distance along the aim and off its line (over :data:`REACH`, clipped to +-4);
    - whether the piece lies ahead on the line (within :data:`REACH` of it, in front), and
      whether it is the first such piece (the one a straight stroke strikes: the nearest of
      the set, so still free of the pieces' order);
    - for a piece the stroke strikes, how far (radians, over 0.2, clipped at 5) the line it
      leaves along misses the best of ``pockets`` (an array (C, 2) in :data:`LENGTH`
      units), and how far that pocket is (5 and 0 for a piece not struck, or no pockets);
    - the distance from the start.

    ``mask``: the live pieces (the padding rows are never ahead).
    """
    import jax.numpy as jnp

    dx = pieces[None, :, 0] - strokes[:, None, 0]
    dy = pieces[None, :, 1] - strokes[:, None, 1]
    c, s = strokes[:, None, 2], strokes[:, None, 3]
    along = dx * c + dy * s
    off = (dy * c - dx * s) * (LENGTH / REACH)
    ahead = (jnp.abs(off) < 1.0) & (along > 0)
    if mask is not None:
        ahead = ahead & mask[None, :]
    nearest = jnp.where(ahead, along, jnp.inf).min(axis=1, keepdims=True)
    first = ahead & (along <= nearest)
    # the struck piece's direction: the aim turned by asin(offset / reach)
    leave = jnp.arctan2(s, c) + jnp.arcsin(jnp.clip(off, -1.0, 1.0))
    if pockets.shape[0]:
        px, py = pieces[None, :, 0, None], pieces[None, :, 1, None]
        to = jnp.arctan2(pockets[:, 1] - py, pockets[:, 0] - px)  # (1, P, C)
        turn = jnp.mod(to - leave[..., None] + jnp.pi, 2 * jnp.pi) - jnp.pi
        miss = jnp.abs(turn)
        best = jnp.argmin(miss, axis=-1)
        miss = jnp.take_along_axis(miss, best[..., None], -1)[..., 0]
        dist = jnp.hypot(pockets[best, 0] - px[..., 0], pockets[best, 1] - py[..., 0])
        miss = jnp.where(ahead, jnp.minimum(miss / 0.2, 5.0), 5.0)
        dist = jnp.where(ahead, dist, 0.0)
    else:
        miss, dist = jnp.full_like(along, 5.0), jnp.zeros_like(along)
    clipped = jnp.clip(off, -4.0, 4.0)
    f = pieces.dtype
    return jnp.stack(
        [along, clipped, ahead.astype(f), first.astype(f), miss, dist, jnp.hypot(dx, dy)],
        axis=-1,
    )


def struck_features(pieces, mask, strokes, pair, pockets):
    """(N, STRUCK_FEATURES): the piece each stroke strikes first, by :func:`pair_features`'
    ``pair`` (N, P, PAIR_FEATURES): whether it strikes one; that piece's flags (a target, the
    shooter's, another side's, the queen); the distance to it, the cut (its offset off the
    aim, over :data:`REACH`), how far the line it leaves along misses its best pocket and how
    far that pocket is; how many live pieces lie within :data:`BLOCK` of the way from the
    piece to that pocket, and the nearest of them along it (in :data:`LENGTH`, 5 when none).
    Zero (5 for the nearest blocker) for a stroke that strikes nothing straight."""
    import jax.numpy as jnp

    first = pair[..., 3]  # (N, P): one where a piece is struck first
    idx = jnp.argmax(first, axis=1)  # (N,)
    hit = first.max(axis=1)

    def take(a):
        return jnp.take_along_axis(a, idx[:, None], axis=1)[:, 0]

    flags = pieces[idx, 2:6] * hit[:, None]
    along, off, miss, dist = (take(pair[..., k]) for k in (0, 1, 4, 5))
    if pockets.shape[0]:
        sx, sy = pieces[idx, 0], pieces[idx, 1]
        # the way the struck piece leaves (the ghost-ball line) and its best pocket
        leave = jnp.arctan2(strokes[:, 3], strokes[:, 2]) + jnp.arcsin(jnp.clip(off, -1.0, 1.0))
        to = jnp.arctan2(pockets[None, :, 1] - sy[:, None], pockets[None, :, 0] - sx[:, None])
        turn = jnp.abs(jnp.mod(to - leave[:, None] + jnp.pi, 2 * jnp.pi) - jnp.pi)
        best = jnp.argmin(turn, axis=1)
        ux, uy = pockets[best, 0] - sx, pockets[best, 1] - sy
        length = jnp.maximum(jnp.hypot(ux, uy), 1e-6)
        ux, uy = ux / length, uy / length
        rx = pieces[None, :, 0] - sx[:, None]
        ry = pieces[None, :, 1] - sy[:, None]
        a = rx * ux[:, None] + ry * uy[:, None]
        o = jnp.abs(ry * ux[:, None] - rx * uy[:, None])
        others = mask[None, :] & (jnp.arange(pieces.shape[0])[None, :] != idx[:, None])
        way = others & (a > 0) & (a < length[:, None]) & (o < BLOCK / LENGTH)
        blockers = way.sum(axis=1).astype(pieces.dtype) * hit
        nearest = jnp.where(way, a, 5.0).min(axis=1) * hit + 5.0 * (1 - hit)
    else:
        blockers, nearest = jnp.zeros_like(hit), jnp.full_like(hit, 5.0)
    numbers = [along * hit, jnp.abs(off) * hit, miss, dist, blockers, nearest]
    return jnp.concatenate([hit[:, None], flags, jnp.stack(numbers, axis=1)], axis=1)


def board_pockets(position) -> tuple[tuple[float, float], ...]:
    """The pockets (or holes) of ``position``'s board: their centres (m)."""
    from carromlab.physics.table import Table

    captures = Table.from_layout(position.board.layout).captures
    return tuple((float(x), float(y)) for x, y in np.asarray(captures)[:, :2])


def new_screen(spec: ScreenSpec, seed: int = 0):
    """A freshly initialised network of ``spec``."""
    import jax

    return _module_class()(spec, jax.random.key(seed))


@functools.cache
def _predict_fn():
    import equinox as eqx

    @eqx.filter_jit
    def run(net, pieces, mask, strokes, turn):
        return net(pieces, mask, strokes, turn)

    return run


def predict(net, pieces, mask, strokes, turn) -> np.ndarray:
    """(N, 2) for N strokes of one position: the predicted value and foul probability. The
    strokes are padded to a multiple of :data:`STROKE_BLOCK` (one program per size)."""
    n = len(strokes)
    size = max(1, math.ceil(n / STROKE_BLOCK)) * STROKE_BLOCK
    padded = np.zeros((size, STROKE_FEATURES), np.float32)
    padded[:n] = strokes
    # the live pieces come first: the rows past them are cut to the next multiple of
    # PIECE_BLOCK (the answer is the same: masked rows count in neither pooling)
    rows = min(len(mask), max(PIECE_BLOCK, math.ceil(int(mask.sum()) / PIECE_BLOCK) * PIECE_BLOCK))
    pieces, mask = np.asarray(pieces)[:rows], np.asarray(mask)[:rows]
    out = np.asarray(_predict_fn()(net, pieces, mask, padded, turn))[:n]
    return np.column_stack([out[:, 0], 1.0 / (1.0 + np.exp(-out[:, 1]))])


def save_screen(net, spec: ScreenSpec, path: Path, provenance: dict) -> None:
    """The weights as ``path`` (``.npz``) and ``path`` with ``.json``: the spec and the
    provenance (data, training, validation figures, carromlab's version)."""
    import jax

    leaves = jax.tree_util.tree_leaves(_eqx().filter(net, _eqx().is_array))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, *[np.asarray(v, np.float32) for v in leaves])
    meta = {"format": FORMAT, "spec": dataclasses.asdict(spec), **provenance}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1, default=str) + "\n")


def load_screen(path: Path) -> tuple[Any, ScreenSpec, dict]:
    """``(net, spec, provenance)`` read back from :func:`save_screen`'s files."""
    import jax

    path = Path(path)
    meta_path = path.with_suffix(".json")
    if not path.exists() or not meta_path.exists():
        raise CarromlabError(f"no learned screen at {path} (and {meta_path.name} beside it)")
    meta = json.loads(meta_path.read_text())
    if meta.get("format") != FORMAT:
        raise CarromlabError(f"{meta_path}: an unknown screen format {meta.get('format')!r}")
    spec = ScreenSpec(**{**meta["spec"], "pockets": tuple(map(tuple, meta["spec"]["pockets"]))})
    eqx = _eqx()
    net = new_screen(spec)
    params, rest = eqx.partition(net, eqx.is_array)
    leaves, tree = jax.tree_util.tree_flatten(params)
    with np.load(path) as z:
        stored = [z[f"arr_{k}"] for k in range(len(z.files))]
    if len(stored) != len(leaves) or any(a.shape != b.shape for a, b in zip(stored, leaves)):
        raise CarromlabError(f"{path}: the weights do not fit the network of {meta_path.name}")
    params = jax.tree_util.tree_unflatten(tree, [jax.numpy.asarray(a) for a in stored])
    return eqx.combine(params, rest), spec, meta


__all__ = [
    "MAX_PIECES",
    "ScreenSpec",
    "board_pockets",
    "load_screen",
    "new_screen",
    "pair_features",
    "piece_features",
    "predict",
    "save_screen",
    "stroke_features",
    "struck_features",
    "turn_features",
]
