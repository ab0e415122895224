"""What the shot commands print: an estimate's table (the pot rate, foul risk and points
first), a shot map's summary, best's shots with units, and the line that gives a long shot
map's size before it starts."""

from __future__ import annotations

import json

import typer

from carromlab.cli.app import console
from carromlab.input_checks import fixed_origin, line_origin


def estimate_cells(r) -> tuple[str, str]:
    """An estimate and its interval for the terminal: probabilities in per cent, means with
    three decimals (``r``: a row of the table, or of a report's summary)."""
    kind, est, lo, hi = (r[k] for k in ("kind", "estimate", "lo", "hi"))
    if kind == "probability":
        return f"{100 * est:.1f} %", f"[{100 * lo:.1f}, {100 * hi:.1f}] %"
    return f"{est:.3f}", f"[{lo:.3f}, {hi:.3f}]"


def print_estimate(report, show_all: bool = False) -> None:
    """An estimate (an :class:`~carromlab.reports.EstimateReport`) as a table: its summary's
    rows (the pot rate, foul risk and points first, each with its 95 % interval, and the
    pieces most often pocketed); every quantity with ``show_all``; then the turn the shot
    was valued under (``turn: white to play, ...``), where it has one."""
    from rich.table import Table

    df, summary = report.table, report.summary()
    table = Table("", "estimate", "95% interval", title=summary["title"], title_justify="left")
    if show_all:
        shown = df[
            (df["kind"] == "mean")
            | (df["estimate"] > 0)
            | ~df["quantity"].str.startswith("capture:")
        ]
        for r in shown.to_dict("records"):
            table.add_row(r["quantity"], *estimate_cells(r))
    else:
        for r in summary["rows"]:
            table.add_row(r["label"], *estimate_cells(r))
        if summary["more"] > 0:
            table.caption = f"{summary['more']} more quantities: --all (or --json)"
            table.caption_justify = "left"
    console().print(table)
    if summary.get("turn"):
        console().print(f"turn: {summary['turn']}", highlight=False)


def value_text(value: str, v: float, interval) -> tuple[str, str]:
    """A value and its interval for the terminal: a probability (``p_...``) in per cent,
    a mean with three decimals."""
    if value.startswith("p_"):
        return f"{100 * v:.1f} %", f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}] %"
    return f"{v:.3f}", f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def cell_words(best: dict, value: str, placement_unit: str | None) -> str:
    """A shot map's best cell in words with units (placement, aim, speed, or the spot the
    shooter lies on)."""
    parts = []
    for k, v in best.items():
        if k == value:
            continue
        if isinstance(v, (list, tuple)) and len(v) == 2:
            parts.append(f"{k} at ({v[0]:.3f}, {v[1]:.3f}) m")
        elif k == "placement":
            unit = placement_unit or ""
            parts.append(f"placement {v:.3f} m" if unit == "m" else f"placement {v:.1f} {unit}")
        elif k == "angle":
            parts.append(f"angle {v:.1f} deg")
        elif k == "speed":
            parts.append(f"speed {v:.2f} m/s")
        elif k in ("aim_x", "aim_y"):
            parts.append(f"{k.replace('_', ' ')} {v:.3f} m")
        else:
            parts.append(f"{k} {v:g}" if isinstance(v, (int, float)) else f"{k} {v}")
    return ", ".join(parts)


def print_summary(
    summary: dict, as_json: bool = False, placement_unit: str | None = None, title="shot map"
) -> None:
    """A map's summary: JSON, or a short table (folder, size, truncated shots, the best cell
    with units and its value with the interval)."""
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    from rich import box
    from rich.table import Table

    table = Table(
        show_header=False, box=box.SIMPLE, title=title, title_justify="left", pad_edge=False
    )
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    value = summary.get("value")
    for k, v in summary.items():
        if k in ("value", "best_interval", "p_truncated"):
            continue
        if k == "best" and isinstance(v, dict):
            table.add_row("best cell", cell_words(v, value, placement_unit))
            if value in v:
                interval = summary.get("best_interval") or (v[value], v[value])
                table.add_row(value, " ".join(value_text(value, v[value], interval)))
        elif k == "truncated":
            shots = summary.get("shots") or 0
            share = f" ({100 * v / shots:.2f} %)" if shots else ""
            table.add_row("truncated", f"{v:,} shots{share}")
        elif isinstance(v, int) and not isinstance(v, bool):
            table.add_row(k, f"{v:,}")
        else:
            table.add_row(k, str(v))
    console().print(table)


def with_origin(summary: dict, va, pos) -> dict:
    """A shot map's summary where the shooter lies on the board (a Carrooka striker): its
    spot (``striker``: [x, y] m) instead of the placement, which played no part."""
    spot = fixed_origin(va, pos) if va is not None and pos is not None else None
    if spot is None or "best" not in summary:
        return summary
    best = {k: v for k, v in summary["best"].items() if k != "placement"}
    summary = dict(summary)
    summary["best"] = {va.shooter_kind: [round(spot[0], 6), round(spot[1], 6)], **best}
    return summary


def print_best(df, value: str, va, pos, turn: str = "") -> None:
    """best's shots as a table with units and sensible rounding: the placement in metres
    (to the mm) on a line or in degrees on a circle (or, where the shooter lies on the
    board, its spot in the title), the aim in degrees, the speed in m/s, the value with its
    95 % interval (a probability in per cent); then, where the table tells them, each
    shot's story (what it first hits, its likeliest outcome), one line each. ``turn``: the
    turn the shots were valued under, in words, printed under the title."""
    from rich import box
    from rich.table import Table

    spot = fixed_origin(va, pos)
    line = line_origin(va)
    title = f"best {value} in {pos.name or pos.variant}"
    if spot is not None:
        title += f", from the {va.shooter_kind} at ({spot[0]:.3f}, {spot[1]:.3f}) m"
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    heads = ["#"]
    heads += [] if spot is not None else ["placement\n(m)" if line else "placement\n(deg)"]
    heads += ["angle\n(deg)", "speed\n(m/s)", value, "95% interval", "n"]
    heads += ["p_truncated"] if "p_truncated" in df.columns else []
    for head in heads:
        table.add_column(head, justify="right", no_wrap=True)
    for r in df.to_dict("records"):
        row = [str(int(r["rank"]))]
        if spot is None:
            row.append(f"{r['placement']:.3f}" if line else f"{r['placement']:.1f}")
        row += [f"{r['angle']:.1f}", f"{r['speed']:.2f}"]
        estimate, interval = value_text(value, r[value], (r[f"{value}_lo"], r[f"{value}_hi"]))
        row += [estimate, interval, f"{int(r['n']):,}"]
        if "p_truncated" in df.columns:
            row.append(f"{100 * r['p_truncated']:.2f} %")
        table.add_row(*row)
    out = console()
    out.print(title, highlight=False)
    if turn:
        out.print(f"turn: {turn}", highlight=False)
    out.print(table)
    if "story" in df.columns:  # what each shot does, under the table
        for r in df.to_dict("records"):
            out.print(f"{int(r['rank'])}: {r['story']}", highlight=False)


# ---------------------------------------------------------------------- a long map's size

#: Shot-map shots a second on one CPU core, slow to fast: a Carrooka map of fast shots all
#: round (the README's, 129,600 shots in about 5 minutes on 2 cores: about 200 a core) to
#: ICF breaks (docs/benchmarks.md: 5,130 shots/s on 2 cores, about 2,500 a core).
MAP_RATE_PER_CORE = (200, 2_500)
#: A map whose slow estimate passes this many seconds says its size before it starts.
ANNOUNCE_AFTER_S = 60


def machine_cores() -> int:
    """The cores a run uses: ``CARROMLAB_CORES`` (ASCII digits) or every core."""
    import os

    env = os.environ.get("CARROMLAB_CORES", "")
    ok = env.isascii() and env.isdigit() and int(env) > 0
    return int(env) if ok else (os.cpu_count() or 1)


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def map_size_line(cells: int, n: int, cores: int | None = None) -> str | None:
    """One line giving a long shot map's size and time before it starts (None for a short
    one): the shots, and the time at :data:`MAP_RATE_PER_CORE` on this machine's cores."""
    n_cores = cores or machine_cores()
    shots = cells * n
    slow, fast = (shots / (rate * n_cores) for rate in MAP_RATE_PER_CORE)
    if slow < ANNOUNCE_AFTER_S:
        return None
    lo, hi = (rate * n_cores for rate in MAP_RATE_PER_CORE)
    return (
        f"shot map: {cells:,} cells x {n:,} shots = {shots:,} shots: about "
        f"{duration(fast)} to {duration(slow)} on this machine ({n_cores} cores at "
        f"{lo:,}-{hi:,} shots/s; the bar shows the rate once the kernel is compiled)"
    )
