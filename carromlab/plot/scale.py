"""What a drawn value means and how it is coloured: :class:`ColourScale` (one object for a
value's colour map and range, fitted to the data or fixed) and :class:`MapContext` (what a map
was made with, for its title).

Colour scales are **fitted to the data** by default, so one map reads at a glance:

- probabilities (``p``, ``p_*`` and their ``_lo``/``_hi`` bounds): ``Normalize(0, max)``, the
  data's largest value, with the sequential colour map ``viridis``;
- points-like values (``points*``, ``ev*``, ``score*``, ``gain*``, ``margin*``): symmetric
  about 0, ``Normalize(-m, m)`` with ``m`` the largest absolute value, with the diverging
  colour map ``RdBu`` (red: losing points, white: nothing, blue: gaining);
- any other column: ``Normalize`` over the data's range.

``fixed=True`` gives the fixed scales for comparing maps of different positions or skills
(probabilities 0..1, points ±``POINTS_LIMIT``; values beyond saturate and the colour bar shows
an arrow end); ``vmin``/``vmax`` set either end by hand, and ``norm`` replaces the range.

Two panels share one scale by fitting it once and passing it to both::

    scale = ColourScale("points").fit(df["points"])
    draw_shotmap(df, "points", ax=left, scale=scale)
    PositionPlot(position).shotmap(df, "points", ax=right, scale=scale)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.colors import Normalize

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.colors import Colormap

#: Half-range of the fixed colour scale of points-like values (points per shot).
POINTS_LIMIT = 3.0
#: The colour scales by name: fitted to the data (the default) or fixed (for comparisons).
SCALES = ("fitted", "fixed")
#: Default colour maps: probabilities (and other one-signed values), signed values.
PROB_CMAP = "viridis"
SIGNED_CMAP = "RdBu"

#: What a stroke's ``points`` count in each variant (the rules' default scoring weights;
#: tests/test_plot_shotmap.py checks them against the rules and against each game's declared
#: ``Game.points_notes``: the plots sit below the registry and cannot ask it).
POINTS_NOTES = {
    "icf": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
    "icf-doubles": "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1",
    "carrooka": "legal pots score red 1, yellow 2 … black 7; a foul 0",
    "carroms": "own ring +1, the black +5, opponent's ring −1, forfeited ring −1",
    "force-out": "opponent's ring forced out +5, own ring forced out −5, ring brought back −5",
    "force-out-fast": (
        "opponent's ring forced out +5, own ring forced out −5, ring brought back −5"
    ),
}
#: Plain words for some values (the others: :func:`value_label`).
VALUE_MEANINGS = {
    "points": "expected points per stroke",
    "p_continue": "P(the turn continues)",
    "p_continues": "P(the turn continues)",
    "p_foul": "P(a foul)",
    "p_penalty": "P(a penalty)",
}

_PROB_BOUNDS = ("_lo", "_hi", "_se")
_SIGNED_PREFIXES = ("points", "ev", "score", "gain", "margin")


def value_kind(value: str) -> str:
    """``"probability"``, ``"signed"`` (points-like) or ``"other"``, from the column name."""
    base = value
    for suffix in _PROB_BOUNDS:
        if base.endswith(suffix):
            base = base[: -len(suffix)]
            break
    if base == "p" or base.startswith("p_"):
        return "probability"
    if any(base == p or base.startswith(p + "_") for p in _SIGNED_PREFIXES):
        return "signed"
    return "other"


def finite(data) -> np.ndarray:
    """The finite values of ``data`` (any array-like, masked arrays too), flat."""
    a = np.ma.filled(np.ma.asarray(data, dtype=float), np.nan).ravel() if data is not None else []
    a = np.asarray(a, dtype=float)
    return a[np.isfinite(a)]


def default_norm(
    value: str,
    data=None,
    scale: str = "fitted",
    vmin: float | None = None,
    vmax: float | None = None,
) -> Normalize:
    """The colour range of column ``value`` over ``data``.

    ``scale="fitted"`` (default): probabilities ``Normalize(0, max(data))``; points-like values
    symmetric about 0, ``Normalize(-m, m)`` with ``m = max(|data|)``; others the data's range.
    ``scale="fixed"``: probabilities ``Normalize(0, 1)``, points-like values
    ``Normalize(-POINTS_LIMIT, POINTS_LIMIT)``, others the data's range. ``vmin``/``vmax``
    replace either end. Without finite data: 0..1 (points: -1..1)."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, not {scale!r}")
    kind = value_kind(value)
    values = finite(data)
    if scale == "fixed" and kind == "probability":
        lo, hi = 0.0, 1.0
    elif scale == "fixed" and kind == "signed":
        lo, hi = -POINTS_LIMIT, POINTS_LIMIT
    elif values.size == 0:
        lo, hi = (-1.0, 1.0) if kind == "signed" else (0.0, 1.0)
    elif kind == "probability":
        top = float(values.max())
        lo, hi = 0.0, (top if top > 0 else 1.0)
    elif kind == "signed":
        m = float(np.abs(values).max())
        lo, hi = (-m, m) if m > 0 else (-1.0, 1.0)
    else:
        lo, hi = float(values.min()), float(values.max())
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
    return Normalize(lo if vmin is None else float(vmin), hi if vmax is None else float(vmax))


def default_cmap(value: str) -> str:
    """``SIGNED_CMAP`` (diverging) for points-like values, else ``PROB_CMAP``."""
    return SIGNED_CMAP if value_kind(value) == "signed" else PROB_CMAP


def value_label(value: str) -> str:
    """A readable label: ``p_continue`` -> ``P(continue)``, ``points_lo`` -> ``points (lower
    bound)``."""
    suffix = ""
    base = value
    for s, words in (("_lo", " (lower bound)"), ("_hi", " (upper bound)"), ("_se", " (s.e.)")):
        if base.endswith(s):
            base, suffix = base[: -len(s)], words
            break
    if base.startswith("p_"):
        base = f"P({base[2:].replace('_', ' ')})"
    return base + suffix


def value_meaning(value: str, variant: str | None = None) -> str:
    """What ``value`` means in plain words; for points also what a stroke scores in
    ``variant`` (:data:`POINTS_NOTES`), e.g. ``"expected points per stroke: own coin +1,
    ..."``."""
    words = VALUE_MEANINGS.get(value, value_label(value))
    if value == "points" and variant in POINTS_NOTES:
        words += f": {POINTS_NOTES[variant]}"
    return words


def colour_label(value: str) -> str:
    """A colour bar's label: ``points per stroke`` for points, else :func:`value_label`."""
    return "points per stroke" if value == "points" else value_label(value)


# ---------------------------------------------------------------------- the colour scale


@dataclass(frozen=True)
class ColourScale:
    """How the values of column ``value`` are coloured: a colour map and a range.

    ``norm`` (a matplotlib ``Normalize``) is the range; when it is None the scale is fitted to
    the data a drawing is given (:meth:`fit`; ``fixed=True``: the fixed range of the value's
    kind), with ``vmin``/``vmax`` replacing either end. ``cmap`` (a name or a Colormap)
    defaults to ``viridis``, or the diverging ``RdBu`` for points-like values. A scale is
    immutable: :meth:`fit` returns a fitted copy, which draws every panel it is passed to on
    one range."""

    value: str = "points"
    norm: Normalize | None = None
    cmap: str | Colormap | None = None
    vmin: float | None = None
    vmax: float | None = None
    fixed: bool = False

    @classmethod
    def of(cls, value: str, scale: ColourScale | Normalize | str | None = None) -> ColourScale:
        """The scale a drawing of ``value`` uses: ``scale`` itself when it is a ColourScale,
        else a new one: fitted (None or ``"fitted"``), ``"fixed"``, or on a given ``Normalize``."""
        if isinstance(scale, ColourScale):
            return scale
        if scale is None:
            return cls(value)
        if isinstance(scale, Normalize):
            return cls(value, norm=scale)
        if isinstance(scale, str):
            if scale not in SCALES:
                raise ValueError(f"scale must be one of {SCALES}, not {scale!r}")
            return cls(value, fixed=scale == "fixed")
        raise TypeError(
            f"scale: a ColourScale, a Normalize, 'fitted' or 'fixed', not {type(scale).__name__}"
        )

    @property
    def kind(self) -> str:
        """``"probability"``, ``"signed"`` or ``"other"`` (:func:`value_kind`)."""
        return value_kind(self.value)

    @property
    def fitted(self) -> bool:
        """Whether the range is set (a ``norm``)."""
        return self.norm is not None

    def fit(self, data=None) -> ColourScale:
        """This scale with its range fitted to ``data`` (its own ``norm`` kept if it has one):
        see :func:`default_norm`."""
        if self.norm is not None:
            return self
        scale = "fixed" if self.fixed else "fitted"
        return replace(self, norm=default_norm(self.value, data, scale, self.vmin, self.vmax))

    @property
    def colormap(self) -> Colormap:
        """The colour map (``cmap``, or the value kind's default)."""
        import matplotlib as mpl

        cmap = default_cmap(self.value) if self.cmap is None else self.cmap
        return mpl.colormaps[cmap] if isinstance(cmap, str) else cmap

    def colour(self, v: float):
        """The colour of one value (the scale must be fitted)."""
        return self.colormap(self._norm(v))

    def _norm(self, v):
        if self.norm is None:
            raise ValueError("the colour scale is not fitted: call .fit(data) first")
        return self.norm(v)

    def extend(self, data) -> str:
        """The colour bar's ``extend`` for ``data``: which ends lie beyond the range."""
        values = finite(data)
        norm = self.norm
        if values.size == 0 or norm is None or norm.vmin is None or norm.vmax is None:
            return "neither"
        low, high = values.min() < norm.vmin, values.max() > norm.vmax
        return {(False, False): "neither", (True, False): "min", (False, True): "max"}.get(
            (low, high), "both"
        )

    @property
    def label(self) -> str:
        """The colour bar's label (:func:`colour_label`)."""
        return colour_label(self.value)


# ---------------------------------------------------------------------- what a map shows


@dataclass(frozen=True)
class MapContext:
    """What a map was made with, for its title: the position's name, the variant, the skill
    (its name) and ``n``, the shots per cell (a number, or a range as text). A drawing fills
    the fields left None from what it draws (:meth:`of`)."""

    position: str | None = None
    variant: str | None = None
    skill: str | None = None
    n: int | str | None = None

    @classmethod
    def of(
        cls,
        df: pd.DataFrame,
        context: MapContext | None = None,
        position: str | None = None,
        variant: str | None = None,
    ) -> MapContext:
        """The context of map ``df``: ``context``'s fields first, then ``position`` and
        ``variant`` (of the position drawn), then the map's ``attrs["config"]``, then (``n``)
        the ``n`` column: one number, or a range as text."""
        given = context or cls()
        config = df.attrs.get("config") or {}
        sk = given.skill if given.skill is not None else config.get("skill")
        if isinstance(sk, dict):
            sk = sk.get("name")
        elif sk is not None and not isinstance(sk, str):
            sk = getattr(sk, "name", str(sk))
        n = given.n if given.n is not None else config.get("n")
        if n is None and "n" in df.columns and len(df):
            counts = df["n"].to_numpy()
            counts = counts[counts > 0]
            if counts.size:
                lo, hi = int(counts.min()), int(counts.max())
                n = lo if lo == hi else f"{lo}–{hi}"

        def first(*values):
            return next((v for v in values if v is not None), None)

        return cls(
            position=first(given.position, position, config.get("position")),
            variant=first(given.variant, variant, config.get("variant")),
            skill=sk,
            n=n,
        )

    def who(self, speed: float | None = None, per: str = "per cell") -> str:
        """``"club player, n = 200 shots per cell, 2 m/s"`` (the parts that are known)."""
        parts = []
        if self.skill:
            parts.append(f"{self.skill} player")
        if self.n is not None:
            parts.append(f"n = {self.n} shots {per}")
        if speed is not None:
            parts.append(f"{speed:g} m/s")
        return ", ".join(parts)

    def points_note(self, value: str) -> str:
        """What a stroke's points count in this variant, for a points map (else "")."""
        return POINTS_NOTES.get(self.variant or "", "") if value == "points" else ""


#: The keywords of the drawing functions' earlier signatures, folded into a scale and a
#: context (:func:`scale_and_context`).
LEGACY_SCALE = ("norm", "cmap", "vmin", "vmax")
LEGACY_CONTEXT = ("skill", "n")


def scale_and_context(
    value: str,
    scale: ColourScale | Normalize | str | None,
    context: MapContext | None,
    legacy: dict,
    what: str,
) -> tuple[ColourScale, MapContext | None]:
    """A drawing's scale and context from its ``scale`` and ``context`` arguments and the
    keywords of its earlier signature (``norm``, ``cmap``, ``vmin``, ``vmax``, ``skill``,
    ``n``), which still work: they fill the scale's and the context's fields."""
    unknown = sorted(set(legacy) - {*LEGACY_SCALE, *LEGACY_CONTEXT})
    if unknown:
        raise TypeError(f"{what}() got an unexpected keyword argument {unknown[0]!r}")
    out = ColourScale.of(value, scale)
    fields = {k: legacy[k] for k in LEGACY_SCALE if legacy.get(k) is not None}
    if fields:
        out = replace(out, **fields)
    who = {k: legacy[k] for k in LEGACY_CONTEXT if legacy.get(k) is not None}
    if who:
        context = replace(context or MapContext(), **who)
    return out, context
