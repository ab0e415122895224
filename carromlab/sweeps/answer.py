"""What a sweep's grid answers, for a person to read (docs/decisions.md, "What a sweep
answers").

A sweep estimates every quantity of every task; its answer is read for one value (``points``
by default: every variant's rules give it, and it is what a shot map and ``best`` maximise):

- **the best task** (its varying axes, the value and its interval), and **the tasks within
  its noise**: those whose interval reaches the best's lower end (their intervals overlap
  the best's, so the grid does not tell them apart: the best cells, plural);
  when the best task lies on the edge of a shot axis, the answer says so (the best shot may
  lie outside the grid);
- **the lowest task** and **the spread** (best minus lowest): how much the grid's settings
  matter at all;
- **by axis**: for each axis with more than one value, the value's mean at each of its
  values over the rest of the grid, and the range of those means (which setting moves the
  value most);
- **by condition**: when the grid varies both the shot (placement, angle, speed) and what
  the shot is played under (variant, position, skill, equipment, physics, turn, scoring),
  the best shot under each condition: what a friction or a skill does to the best aim.

:func:`sweep_answer` returns it as plain JSON data; ``carromlab sweep`` prints it as tables
(``--json``: in its JSON object, under ``answer``).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from carromlab.errors import CarromlabError

#: The axes of the base shot, fastest-varying last (a task's last columns).
SHOT_AXES = ("placement", "angle", "speed")
#: The task's own columns before the shot's (docs/sweeps.md, "Task ids").
CONDITION_PREFIXES = ("equipment.", "physics.", "turn.", "scoring.")
CONDITION_AXES = ("variant", "position", "skill")


def task_axes(df: pd.DataFrame) -> list[str]:
    """The task's own columns of a sweep's table, in the table's order (condition axes, then
    the shot's)."""
    return [
        c
        for c in df.columns
        if c in CONDITION_AXES or c in SHOT_AXES or str(c).startswith(CONDITION_PREFIXES)
    ]


def varying_axes(df: pd.DataFrame) -> list[str]:
    """The task axes that take more than one value in ``df``."""
    return [c for c in task_axes(df) if df[c].nunique(dropna=False) > 1]


def _plain(v):
    if isinstance(v, np.generic):
        v = v.item()
    return v


def _task(row: pd.Series, axes: list[str], value: str) -> dict:
    out = {"task": int(row["task"]) if "task" in row else None}
    out.update({a: _plain(row[a]) for a in axes})
    out[value] = float(row[value])
    lo, hi = f"{value}_lo", f"{value}_hi"
    out["lo"] = float(row[lo]) if lo in row else math.nan
    out["hi"] = float(row[hi]) if hi in row else math.nan
    return out


def _within(df: pd.DataFrame, best: pd.Series, value: str) -> pd.DataFrame:
    """The rows whose interval reaches the best's lower end (the best among them)."""
    hi = f"{value}_hi"
    if hi not in df.columns or not math.isfinite(float(best[f"{value}_lo"])):
        return df[df[value] == best[value]]
    return df[df[hi] >= float(best[f"{value}_lo"])]


def on_edge(rows: pd.DataFrame, best: pd.Series, axes: list[str]) -> list[list]:
    """The shot axes on whose edge the best task lies: ``[axis, "lowest" | "highest"]`` (an
    angle axis that goes all the way round has no edge): the best shot may lie outside."""
    out = []
    for a in axes:
        if a not in SHOT_AXES:
            continue
        values = np.sort(rows[a].unique().astype(float))
        step = float(np.min(np.diff(values)))
        if a == "angle" and values[-1] - values[0] + step >= 360.0 - 1e-6:
            continue
        if float(best[a]) == values[0]:
            out.append([a, "lowest"])
        elif float(best[a]) == values[-1]:
            out.append([a, "highest"])
    return out


def sweep_answer(df: pd.DataFrame, value: str = "points", most_listed: int = 10) -> dict:
    """The grid's answer for ``value`` (module docstring) from a sweep's table ``df``.

    Keys: ``value``, ``tasks`` (with a value: a quantity that does not apply to a variant is
    NaN there), ``axes`` (the varying ones), ``best`` and ``lowest`` (a task each: ``task``,
    its varying axes, the value, ``lo``, ``hi``), ``within`` (how many tasks lie within the
    best's noise) and ``within_tasks`` (their ids, best first, at most ``most_listed``),
    ``on_edge`` (the shot axes whose lowest or highest value the best task has: the best shot
    may lie outside the grid), ``spread`` (best minus lowest), ``by_axis`` (per varying axis: ``axis``, ``levels``
    [[value, mean], ...], ``range``) and, when the grid varies both the shot and its
    conditions, ``conditions`` (the condition axes) and ``by_condition`` (the best task
    under each, with ``within`` and ``of``: how many of the condition's tasks are within its
    noise)."""
    if value not in df.columns:
        raise CarromlabError(f"the sweep's table has no column {value!r}")
    rows = df[np.isfinite(df[value].to_numpy(dtype=float))].reset_index(drop=True)
    if not len(rows):
        raise CarromlabError(f"no task of the sweep has a value of {value!r}")
    axes = varying_axes(rows)
    order = rows.sort_values(value, ascending=False, kind="stable")  # ties: in task order
    best, lowest = order.iloc[0], rows.loc[rows[value].idxmin()]  # ties: the first task
    within = order[order.index.isin(_within(rows, best, value).index)]
    out: dict = {
        "value": value,
        "tasks": len(rows),
        "axes": axes,
        "best": _task(best, axes, value),
        "within": len(within),
        "within_tasks": [int(t) for t in within["task"].head(most_listed)]
        if "task" in within
        else [],
        "on_edge": on_edge(rows, best, axes),
        "lowest": _task(lowest, axes, value),
        "spread": float(best[value] - lowest[value]),
        "by_axis": [],
    }
    for a in axes:
        means = rows.groupby(a, sort=True, dropna=False)[value].mean()
        out["by_axis"].append(
            {
                "axis": a,
                "levels": [[_plain(k), float(v)] for k, v in means.items()],
                "range": float(means.max() - means.min()),
            }
        )
    shot = [a for a in axes if a in SHOT_AXES]
    conditions = [a for a in axes if a not in SHOT_AXES]
    if shot and conditions:
        out["conditions"] = conditions
        by = []
        for _, group in rows.groupby(conditions, sort=False, dropna=False):
            g = group.sort_values(value, ascending=False, kind="stable")
            top = g.iloc[0]
            entry = _task(top, axes, value)
            entry["within"] = len(_within(g, top, value))
            entry["of"] = len(g)
            by.append(entry)
        out["by_condition"] = by
    return out
