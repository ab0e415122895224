"""``carromlab study run|report|check``: a rule-balance study from its file alone
(:mod:`carromlab.studies`, docs/studies-guide.md)."""

from __future__ import annotations

import json
import webbrowser
from pathlib import Path

import typer

from carromlab import interrupt
from carromlab.cli.app import (
    EXECUTOR_OPTION,
    SCHEDULER_OPTION,
    WORKERS_OPTION,
    app,
    check,
    check_out,
    lines,
    out_path,
    select_device,
)

study_app = typer.Typer(
    help="Rule-balance studies: a TOML file of arms and questions, played and reported.",
    no_args_is_help=True,
)
app.add_typer(study_app, name="study")


@study_app.command("run")
def run(
    spec: Path = typer.Argument(..., help="The study's TOML file (docs/studies-guide.md)."),
    out: Path = typer.Option(
        ...,
        help="The study's folder: a game log an arm, then the report.",
        parser=out_path(),
        metavar="PATH",
    ),
    executor: str = EXECUTOR_OPTION,
    workers: int = WORKERS_OPTION,
    scheduler: str = SCHEDULER_OPTION,
    arms: str = typer.Option(
        None,
        help="Only these arms: comma-separated names or shell patterns ('*@greedy,laws').",
        metavar="NAMES",
    ),
    device: str = typer.Option("auto", help="auto, cpu or gpu."),
    report: bool = typer.Option(True, help="Write the report (OUT/report/) at the end."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary."),
) -> None:
    """Play every arm of SPEC into OUT (each arm's games in blocks, written in order as they
    finish; a rerun plays only what is missing), then write the report. Any executor or
    worker count gives the same rows. With a precision target an arm stops at the first
    block where its first question's interval is narrow enough."""
    check_out(out)
    check(workers=workers)
    from carromlab.sweeps.executors import check_executor

    check_executor(executor, workers, scheduler)
    from carromlab.studies import load_study

    study = load_study(spec)  # every refusal before anything is played
    from carromlab.studies.run import run_study, select_arms

    chosen = [p.strip() for p in arms.split(",") if p.strip()] if arms else None
    select_arms(study, chosen)
    select_device(device)

    interrupt.note(f"interrupted: finished games are kept in {out}; rerun the same command")
    used = run_study(study, out, executor, workers, scheduler, progress=not as_json, arms=chosen)
    summary: dict = {"study": study.name, "out": str(out), "games_used": used}
    if report:
        from carromlab.reports import StudyReport

        rep = StudyReport.from_folder(out)
        summary["report"] = str(_save(rep, None, out / "report"))
        summary["verdicts"] = [r["verdict"] for r in rep.verdicts.to_dict("records")]
    if as_json:
        typer.echo(json.dumps(summary, default=str))
    else:
        verdicts = summary.pop("verdicts", [])
        summary["games_used"] = ", ".join(f"{arm} {n:,}" for arm, n in used.items())
        typer.echo(lines(summary))
        for v in verdicts:
            typer.echo(f"- {v}")


@study_app.command("check")
def check_cmd(
    spec: Path = typer.Argument(..., help="The study's TOML file (docs/studies-guide.md)."),
    as_json: bool = typer.Option(False, "--json", help="Print the same as JSON."),
) -> None:
    """Check SPEC as `study run` would, without playing: every check of the file, and every
    question's columns against the columns its arms' rows will have; then the arms as played
    (the file's and their strength and prior copies), the games in all and an estimate of
    the time from each player's measured cost. A failing check: one line, exit 2."""
    from carromlab.studies import load_study
    from carromlab.studies.check import plan, plan_lines, question_columns_check

    study = load_study(spec)  # every check of study run's, the columns' too
    question_columns_check(study.arms, study.questions, str(spec))
    p = plan(study)
    if as_json:
        typer.echo(json.dumps(p, default=str))
    else:
        typer.echo("\n".join(plan_lines(p)))


def _save(rep, out: Path | None, shown: Path) -> Path:
    """``rep.save(out)``, a folder that cannot be written refused in one line."""
    from carromlab.errors import CarromlabError

    try:
        return rep.save(out)
    except OSError as e:
        why = e.strerror or str(e)
        raise CarromlabError(f"cannot write the report into {shown}: {why}") from None


@study_app.command("report")
def report_cmd(
    folder: Path = typer.Argument(..., help="A study's folder (carromlab study run --out)."),
    out: Path = typer.Option(
        None,
        help="Where to write the report (default: FOLDER/report).",
        parser=out_path(),
        metavar="PATH",
    ),
    open_page: bool = typer.Option(False, "--open", help="Open the page in a browser."),
    as_json: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    as_markdown: bool = typer.Option(
        False, "--markdown", help="Print the verdict table as Markdown (verdicts.md)."
    ),
) -> None:
    """Write a study's report from its folder: report.html (self-contained: the figures
    embedded), summary.parquet / summary.csv (each question's estimate per arm with its
    interval), comparisons.csv, verdicts.csv and verdicts.md (each arm against the baseline,
    at every strength and under the physics priors)."""
    from carromlab.reports import StudyReport

    rep = StudyReport.from_folder(folder)
    page = _save(rep, out, out or folder / "report")
    if as_json:
        typer.echo(json.dumps({**rep.summary(), "report": str(page)}, default=str))
    elif as_markdown:
        typer.echo(rep.markdown(), nl=False)
    else:
        typer.echo(f"report: {page}")
        for v in rep.verdicts.to_dict("records"):
            typer.echo(f"- {v['verdict']}")
    if open_page:
        webbrowser.open(page.resolve().as_uri())
