"""``carromlab sweep``: every task of a sweep file, written to its folder task by task
(:mod:`carromlab.sweeps`); a rerun computes only the missing tasks."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from carromlab import interrupt
from carromlab.cli.app import (
    EXECUTOR_OPTION,
    INTERRUPTED_EXIT,
    SCHEDULER_OPTION,
    STRICT_HELP,
    WORKERS_OPTION,
    app,
    check,
    check_out,
    lines,
    out_path,
    report_truncation,
    select_device,
)


@app.command()
def sweep(
    config: Path = typer.Argument(..., help="The sweep's TOML file (docs/sweeps.md)."),
    out: Path = typer.Option(
        ...,
        help="The sweep's folder: shards, then results.parquet.",
        parser=out_path(),
        metavar="PATH",
    ),
    executor: str = EXECUTOR_OPTION,
    workers: int = WORKERS_OPTION,
    scheduler: str = SCHEDULER_OPTION,
    job_size: int = typer.Option(
        16,
        help="Tasks at most per job (speed, not results); a job is also at most about 4 "
        "kernel chunks of shots, what Ctrl-C can lose (finished jobs are kept).",
    ),
    chunk: int = typer.Option(4096, help="Shots per kernel batch (speed, not results)."),
    device: str = typer.Option("auto", help="auto, cpu or gpu."),
    value: str = typer.Option(
        "points",
        help="The value the grid's answer is read for (points, p_continues, p_foul, ...).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
    strict: bool = typer.Option(False, "--strict", help=STRICT_HELP),
) -> None:
    """Run a sweep: every task of CONFIG, written to OUT task by task; a rerun computes only
    the missing tasks. Any executor, worker count, job size, chunk or device count gives the
    same table. The summary counts the table's shots and the truncated ones, and ends with
    the grid's answer for --value: the best task with its 95 % interval and the tasks as
    good (their intervals reach the best's), the lowest and the spread, the value's mean at
    each value of each axis, and the best shot under each condition (docs/sweeps.md)."""
    check_out(out)
    check(workers=workers, job_size=job_size, chunk=chunk)
    select_device(device)
    # the run's options before the file is read (importing the sweeps loads JAX: the device
    # is chosen first)
    from carromlab.sweeps.schema import check_run_options

    check_run_options(executor, workers, scheduler, job_size, chunk)
    from carromlab.analysis.truncation import truncation
    from carromlab.sweeps import load_sweep, run_sweep

    sw = load_sweep(config)
    check_sweep_value(sw, value)  # before any work
    from carromlab.sweeps.run import SweepInterrupted

    def on_kept(kept: int, total: int) -> None:
        # the line a Ctrl-C that the run does not see in time gets (carromlab/interrupt.py)
        interrupt.note(kept_line(out, kept, total))

    stats: dict = {}
    try:
        df = run_sweep(sw, out, executor, workers, scheduler, job_size, chunk, not as_json,
                       stats, on_kept=on_kept)  # fmt: skip
    except SweepInterrupted as stop:
        interrupt.say(kept_line(out, stop.kept, stop.total))
        raise typer.Exit(INTERRUPTED_EXIT) from None
    cut = truncation(df)
    summary = {
        "sweep": sw.name,
        "digest": sw.digest,
        **stats,
        "rows": len(df),
        **({"shots": cut.total, **cut.as_dict()} if cut is not None else {}),
        "results": str(out / "results.parquet"),
    }
    from carromlab.sweeps.answer import sweep_answer

    answer = sweep_answer(df, value)
    if as_json:
        typer.echo(json.dumps({**summary, "answer": answer}, default=str))
    else:
        from carromlab.cli.summaries import print_sweep_answer

        typer.echo(lines(summary))
        print_sweep_answer(answer, sw.confidence)
    report_truncation(cut, strict)


def kept_line(out: Path, kept: int, total: int) -> str:
    """What an interrupted sweep says: the tasks kept in ``out`` and how to resume."""
    return (
        f"interrupted: {kept:,} of {total:,} tasks kept in {out}; rerun the same command to resume"
    )


def check_sweep_value(sw, value: str) -> None:
    """Refuse a ``--value`` that no task of the sweep reports (the rules' quantities of its
    variants, ``p_capture:<piece>`` with ``captures = true``), in one line with the closest
    names."""
    from carromlab.cli.checks import refuse_value, value_names

    names: list[str] = []
    for label, pos in sw.positions.items():
        if not any(p == label for _, p in sw._pairs()):
            continue
        got = value_names(pos.variant, pos, per_pocket=False)
        if got is None:
            return
        names += [n for n in got if sw.captures or not n.startswith("p_capture:")]
    if names and value not in names:
        refuse_value(value, dict.fromkeys(names), "sweep", ", ".join(sw.axes["variant"]))
