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
