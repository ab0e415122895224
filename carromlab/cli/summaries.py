"""What ``play`` and ``sweep`` end with for a person to read: a run's results as tables (the
wins by seat with their intervals, what each seat scored, what the games counted: drawn by
:class:`~carromlab.reports.PlayReport`; a sweep's best cells, its spread and its best shot
under each condition), or the same as JSON."""

from __future__ import annotations

import math

from carromlab.cli.app import console


def print_play_summary(summary: dict, title: str, seat_word: str = "seat") -> None:
    """A run of whole games (:func:`carromlab.play.summary.play_summary`) as the report
    draws it (:func:`carromlab.reports.play.results_tables`): the title, the table by
    ``seat_word`` (seat, or side where partners share one: ICF doubles) and the games'
    counts."""
    from carromlab.reports.play import results_tables

    out = console()
    head, *tables = results_tables(summary, title, seat_word)
    out.print(head, highlight=False)
    for table in tables:
        out.print(table)


# ---------------------------------------------------------------------- a sweep's answer


def _level(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _value_text(value: str, v: float) -> str:
    if v is None or not math.isfinite(v):
        return "-"
    return f"{100 * v:.1f} %" if value.startswith("p_") else f"{v:.3f}"


def _interval_text(value: str, lo: float, hi: float) -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return ""
    if value.startswith("p_"):
        return f"[{100 * lo:.1f}, {100 * hi:.1f}] %"
    return f"[{lo:.3f}, {hi:.3f}]"


def _where(task: dict, axes: list[str]) -> str:
    where = ", ".join(f"{a} {_level(task[a])}" for a in axes)
    return f"task {task['task']}" + (f": {where}" if where else "")


#: Conditions listed in the table at most (the JSON has them all).
MOST_CONDITIONS = 20


def print_sweep_answer(answer: dict, confidence: float = 0.95) -> None:
    """A sweep's answer (:func:`carromlab.sweeps.answer.sweep_answer`) as tables: the best
    task with its interval and the tasks within its noise, the lowest and the spread; the
    value's mean at each value of each varying axis; the best shot under each condition."""
    from rich import box
    from rich.table import Table

    out = console()
    value, axes = answer["value"], answer["axes"]
    best, lowest = answer["best"], answer["lowest"]
    head = f"{100 * confidence:.0f}% interval"
    from carromlab.plot.scale import value_meaning

    out.print(
        f"the grid's answer for {value} ({value_meaning(value)}) over {answer['tasks']:,} "
        "tasks; best: the highest",
        highlight=False,
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("")
    table.add_column(value, justify="right")
    table.add_column(head, justify="right")
    table.add_column("where", overflow="fold")
    table.add_row(
        "best",
        _value_text(value, best[value]),
        _interval_text(value, best["lo"], best["hi"]),
        _where(best, axes),
    )
    others = answer["within"] - 1
    if others > 0:
        listed = ", ".join(str(t) for t in answer["within_tasks"][1:])
        more = "" if len(answer["within_tasks"]) >= answer["within"] else ", ..."
        table.add_row(
            "as good",
            "",
            "",
            f"{others:,} more task{'s' * (others > 1)} whose interval reaches the best's "
            f"(tasks {listed}{more}): the grid does not tell them apart",
        )
    table.add_row(
        "lowest",
        _value_text(value, lowest[value]),
        _interval_text(value, lowest["lo"], lowest["hi"]),
        _where(lowest, axes),
    )
    spread = answer["spread"]
    table.add_row(
        "spread",
        f"{100 * spread:.1f} pts" if value.startswith("p_") else f"{spread:.3f}",
        "",
        "best minus lowest",
    )
    if answer.get("on_edge"):
        edges = "; ".join(f"{a}: its {side} value" for a, side in answer["on_edge"])
        table.caption = f"the best task lies on the grid's edge ({edges}): the best shot may lie outside; widen the grid"
        table.caption_justify = "left"
    out.print(table)
    if answer["by_axis"]:
        _print_by_axis(out, answer, value)
    if answer.get("by_condition"):
        _print_by_condition(out, answer, value, head)


def _print_by_axis(out, answer: dict, value: str) -> None:
    """The value's mean at each value of each varying axis, the widest range first."""
    from rich import box
    from rich.table import Table

    out.print(f"mean {value} at each value of an axis, over the rest of the grid:", highlight=False)
    by = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    by.add_column("axis", no_wrap=True)
    by.add_column("values: mean", overflow="fold")
    by.add_column("range", justify="right")
    for a in sorted(answer["by_axis"], key=lambda a: -a["range"]):
        levels = ", ".join(f"{_level(k)}: {_value_text(value, v)}" for k, v in a["levels"])
        rng = a["range"]
        by.add_row(
            a["axis"], levels, f"{100 * rng:.1f} pts" if value.startswith("p_") else f"{rng:.3f}"
        )
    out.print(by)


def _print_by_condition(out, answer: dict, value: str, head: str) -> None:
    """The best shot under each condition (at most :data:`MOST_CONDITIONS` of them)."""
    from rich import box
    from rich.table import Table

    conditions, axes = answer["by_condition"], answer["axes"]
    cond, shot = answer["conditions"], [a for a in axes if a not in answer["conditions"]]
    out.print("the best shot under each condition:", highlight=False)
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for a in cond + shot:
        t.add_column(a, justify="right")
    t.add_column(value, justify="right")
    t.add_column(head, justify="right")
    t.add_column("as good", justify="right")
    for c in conditions[:MOST_CONDITIONS]:
        t.add_row(
            *(_level(c[a]) for a in cond + shot),
            _value_text(value, c[value]),
            _interval_text(value, c["lo"], c["hi"]),
            f"{c['within']} of {c['of']}",
        )
    notes = ["as good: the condition's tasks whose interval reaches its best's"]
    if len(conditions) > MOST_CONDITIONS:
        notes.append(f"{len(conditions) - MOST_CONDITIONS:,} more conditions: --json")
    t.caption = "\n".join(notes)
    t.caption_justify = "left"
    out.print(t)
