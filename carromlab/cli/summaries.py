"""What ``play`` and ``sweep`` end with for a person to read: a run's results as tables (the
wins by seat with their intervals, what each seat scored, what the games counted; a sweep's
best cells, its spread and its best shot under each condition), or the same as JSON."""

from __future__ import annotations

import math

from carromlab.cli.app import console


def pct(v: float) -> str:
    return "-" if v is None or not math.isfinite(v) else f"{100 * v:.1f} %"


def interval_pct(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}, {100 * hi:.1f}] %"


def number(v) -> str:
    """A count as a whole number with separators, a mean with two decimals."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if v is None or not math.isfinite(v):
        return "-"
    return f"{v:,.2f}"


#: Column heads of a seat's means per game (``play_summary``'s per-seat names).
SEAT_HEADS = {
    "score": "points\n(mean)",
    "fouls": "fouls\n(mean)",
    "turns": "turns\n(mean)",
    "marker": "marker's\nlast step",
    "attacked": "attack\nused",
}


def print_play_summary(summary: dict, title: str, seat_word: str = "seat") -> None:
    """A run of whole games (:func:`carromlab.play.summary.play_summary`) as two tables:
    by ``seat_word`` (seat, or side where partners share one: ICF doubles) the wins out of
    every game with the 95 % interval and the means per game of the seat's columns; then the
    games' counts, total and per game (and carrom's boards)."""
    from rich import box
    from rich.table import Table

    out = console()
    n, seats = summary["games"], summary["seats"]
    share = summary["confidence"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(seat_word, justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column(f"{100 * share:.0f}% interval", justify="right")
    for name in summary["per_seat"]:
        table.add_column(SEAT_HEADS.get(name, f"{name.replace('_', ' ')}\n(mean)"), justify="right")
    for row in summary["by_seat"]:
        cells = [str(row["seat"]), f"{row['wins']:,}", pct(row["win_rate"])]
        cells.append(interval_pct(row["win_lo"], row["win_hi"]))
        for name in summary["per_seat"]:
            v = row[name]
            cells.append(pct(v) if name == "attacked" else number(v))
        table.add_row(*cells)
    notes = [
        f"{seat_word} 0 plays first; fair share {pct(summary['fair_share'])} "
        f"(1 in {seats}); win rate: wins out of all {n:,} games"
    ]
    if summary["draws"] or summary["unfinished"]:
        notes.append(
            f"{summary['draws']:,} drawn, {summary['unfinished']:,} unfinished (no winner)"
        )
    table.caption = "\n".join(notes)
    table.caption_justify = "left"
    out.print(title, highlight=False)
    out.print(table)

    counts = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    counts.add_column("counted", no_wrap=True)
    counts.add_column("total", justify="right")
    counts.add_column("per game", justify="right")
    counts.add_column("", justify="left")
    for c in summary["counts"]:
        extra = f"{100 * c['share']:.2f} % of strokes" if "share" in c else ""
        counts.add_row(c["label"], number(c["total"]), number(c["per_game"]), extra)
    b = summary.get("boards")
    if b:
        won = ", ".join(f"side {s} {w:,}" for s, w in enumerate(b["won"]))
        counts.add_row("boards won", "", "", f"{won} (of {b['boards']:,})")
        if "breaker_wins" in b:
            bw = b["breaker_wins"]
            counts.add_row(
                "breaker won the board",
                f"{bw['wins']:,}",
                "",
                f"{pct(bw['rate'])} of boards {interval_pct(bw['lo'], bw['hi'])}",
            )
        if "striker_pocketed" in b:
            k = b["striker_pocketed"]
            per = k / n if n else math.nan
            counts.add_row("striker pocketed (fouls)", f"{k:,}", number(per), "")
        if "queen_covered" in b:
            k = b["queen_covered"]
            counts.add_row("queen covered", f"{k:,}", number(k / n if n else math.nan), "")
    out.print(counts)


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
        out.print(
            f"mean {value} at each value of an axis, over the rest of the grid:", highlight=False
        )
        by = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        by.add_column("axis", no_wrap=True)
        by.add_column("values: mean", overflow="fold")
        by.add_column("range", justify="right")
        for a in sorted(answer["by_axis"], key=lambda a: -a["range"]):
            levels = ", ".join(f"{_level(k)}: {_value_text(value, v)}" for k, v in a["levels"])
            rng = a["range"]
            by.add_row(
                a["axis"],
                levels,
                f"{100 * rng:.1f} pts" if value.startswith("p_") else f"{rng:.3f}",
            )
        out.print(by)
    conditions = answer.get("by_condition")
    if conditions:
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
