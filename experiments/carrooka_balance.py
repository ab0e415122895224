"""Carrooka: the two summaries of the Carrooka studies that a study file cannot ask.

The studies are study files (``studies/carrooka-first-player.toml``: the breaker's advantage
by skill; ``studies/carrooka-bonus.toml``: the bonus shot after a foul), played by
``carromlab study run`` into ``data/studies/specs/<stem>/`` and reported by ``carromlab study
report``. A study file asks counts and means of the game rows' columns; these two summaries
read inside a column's lists or across the arms, so this script reads the arms' logs
(``<study folder>/arms/<arm>/games.csv``, finished games; it plays no games) and writes, each
as a CSV and a figure with 95 % intervals in ``--out``:

- ``breaks``: break sizes of every arm (the first-player study's arms are the skills), from
  each game's ``turn_points`` (the points of every turn, space-separated): the points of a
  turn (mean, t interval over turns), the share of turns that score (Wilson) and the game's
  longest break (mean, t interval over games);
- ``carrookad``: for every Carrooka'd decision of every arm read, which option the greedy
  player valued best (the columns ``best_break_line``, ``best_counter``, ``best_pass``), as
  shares with Wilson intervals.

The arms read are those played as written (greedy players; ``--copies``: the strength and
prior copies too, the breaks' figure then clustered by strength and prior), each set of games
once: an arm alike in its settings and seed to one read before (the first-player file's
``club`` is the bonus file's) is left out.

An arm is labelled ``<study folder's name>/<arm>``. A study folder that is missing (or holds
no ``arms/``) is refused in one line (exit status 2).

    python experiments/carrooka_balance.py
    python experiments/carrooka_balance.py --copies --out data/studies/carrooka/copies
    python experiments/carrooka_balance.py --study-dir data/studies/specs/carrooka-bonus \\
        --out /tmp/carrooka
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis.intervals import rate, sample_mean
from carromlab.games.carrooka.machine import OPTIONS
from carromlab.play import read_log
from carromlab.plot.intervals import save_study_figure
from carromlab.studies.run import ARMS, STUDY_JSON, arm_folder, read_study

OUT = Path("data/studies/carrooka")
STUDY_DIRS = (
    Path("data/studies/specs/carrooka-first-player"),
    Path("data/studies/specs/carrooka-bonus"),
)


def arm_names(folder: Path) -> list[str]:
    """The arms of a study folder that have games logged: in the study's order when the
    folder holds its ``study.json``, else by name."""
    logged = {p.parent.name for p in (folder / ARMS).glob("*/games.csv")}
    if (folder / STUDY_JSON).exists():
        return [a.name for a in read_study(folder).arms if a.name in logged]
    return sorted(logged)


def _played_as(study, folder: Path, arm: str) -> str:
    """What decides an arm's games: its settings but its names, and the study's seed (two
    folders' arms alike in these are the same games: the first-player file's ``club`` is the
    bonus file's ``club``); ``study`` None (a folder without its ``study.json``): the arm's
    folder."""
    if study is None:
        return f"{folder}/{arm}"
    settings = {k: v for k, v in study.arm(arm).settings().items() if k not in ("name", "base")}
    settings.pop("games", None)
    return repr((study.game, study.seed, sorted(settings.items())))


def load(folders: list[Path], copies: bool = False) -> dict[str, pd.DataFrame]:
    """``<folder name>/<arm>`` -> the arm's finished games, for every arm of every folder
    played as written (with ``copies``, the strength and prior copies too: other players),
    each set of games once (an arm alike in everything to one read before is left out)."""
    frames, seen = {}, set()
    for folder in folders:
        study = read_study(folder) if (folder / STUDY_JSON).exists() else None
        for arm in arm_names(folder):
            if not copies and ("@" in arm or "~" in arm):
                continue
            key = _played_as(study, folder, arm)
            if key in seen:
                continue
            seen.add(key)
            games = read_log(arm_folder(folder, arm))[1]
            finished = games[games["finished"].astype(bool)].reset_index(drop=True)
            frames[f"{folder.name}/{arm}"] = finished
    return frames


def _turns(value) -> np.ndarray:
    """The points of a game's turns from its ``turn_points`` field (empty: none)."""
    return np.array(str(value).split(), dtype=float) if pd.notna(value) else np.zeros(0)


def _cols(row: dict, name: str, est) -> None:
    row[name], row[f"{name}_lo"], row[f"{name}_hi"] = est


def breaks(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per arm: the points of a turn, the share of turns that score, the longest break."""
    rows = []
    for arm, g in frames.items():
        turns = [_turns(v) for v in g["turn_points"]]
        t = np.concatenate(turns) if turns else np.zeros(0)
        row = {"arm": arm, "games": len(g), "turns": len(t)}
        _cols(row, "break", sample_mean(t))
        _cols(row, "scoring_turns", rate(int((t > 0).sum()), len(t)))
        _cols(row, "longest", sample_mean([max(p, default=0) for p in turns]))
        rows.append(row)
    return pd.DataFrame(rows)


def carrookad(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Over every arm: how often each option was valued best in a Carrooka'd decision."""
    counts = {o: sum(int(g[f"best_{o}"].sum()) for g in frames.values()) for o in OPTIONS}
    total = sum(counts.values())
    rows = []
    for o in OPTIONS:
        row = {"option": o, "best": counts[o], "decisions": total}
        _cols(row, "share", rate(counts[o], total))
        rows.append(row)
    return pd.DataFrame(rows)


TABLES = {
    "breaks": (
        breaks,
        "arm",
        [("break", "points a turn", None), ("longest", "longest break", None)],
        "auto",
    ),
    # every option's share is of the same decisions (all arms'): their count, not an option's
    "carrookad": (carrookad, "option", [("share", "share valued best", None)], None),
}


def settings(arms) -> pd.DataFrame:
    """Each ``<folder>/<arm>`` label split into the arm as written it copies (``series``) and
    where it was played (``setting``: ``as written (greedy)``, the strength, and the prior's
    end under it), from the copies' names (``base@strength~field-end``; an arm's own name
    holds neither sign)."""
    rows = []
    for label in arms:
        copied, _, prior = label.partition("~")
        series, _, strength = copied.partition("@")
        setting = strength or "as written (greedy)"
        rows.append({"series": series, "setting": f"{setting}\n{prior}" if prior else setting})
    return pd.DataFrame(rows)


def draw_by_setting(table: pd.DataFrame, panels, title: str, path: Path) -> None:
    """The breaks of the arms and their copies: one panel per ``(value, ylabel)``, a cluster
    of points per setting (as written, each strength, each prior's end), an arm as written a
    colour (:func:`~carromlab.plot.intervals.draw_grouped_intervals`)."""
    import matplotlib.pyplot as plt

    from carromlab.plot.intervals import draw_grouped_intervals

    t = pd.concat([table.reset_index(drop=True), settings(table["arm"])], axis=1)
    groups, series = t["setting"].nunique(), t["series"].nunique()
    width = max(6.0, groups * (0.4 * series + 0.6) + 3.0)
    fig, axes = plt.subplots(len(panels), 1, figsize=(width, 3.6 * len(panels)), squeeze=False)
    for ax, (col, ylabel) in zip(axes[:, 0], panels):
        draw_grouped_intervals(t, col, f"{col}_lo", f"{col}_hi", "setting", "series", ax=ax,
                               ylabel=ylabel, n="games", unit="games")  # fmt: skip
        ax.tick_params(axis="x", labelsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def summarise(folders: list[Path], out: Path, copies: bool = False) -> dict[str, pd.DataFrame]:
    """Both tables from the arms of ``folders`` (:func:`load`), each written to ``out`` as a
    CSV and a figure (a table without rows writes neither). With ``copies`` the breaks'
    figure clusters the arms by strength and prior (:func:`draw_by_setting`)."""
    frames = load(folders, copies)
    out.mkdir(parents=True, exist_ok=True)
    tables = {}
    players = "every strength and prior" if copies else "greedy players"
    for name, (fn, label, panels, per) in TABLES.items():
        table = fn(frames)
        tables[name] = table
        if not len(table):
            continue
        table.to_csv(out / f"{name}.csv", index=False, float_format="%.4f")
        by = "by study arm" if label == "arm" else f"every arm's decisions, by {label}"
        title = f"Carrooka {name}: {players}, {by}"
        if copies and label == "arm":
            draw_by_setting(table, [(c, what) for c, what, _ in panels], title,
                            out / f"{name}.png")  # fmt: skip
            continue
        panels = [(c, f"{c}_lo", f"{c}_hi", what, ref) for c, what, ref in panels]
        save_study_figure(table, panels, title, out / f"{name}.png", label=label, per=per)
    return tables


def missing_folders(folders: list[Path]) -> list[Path]:
    """The folders that are not a study's (no ``arms/`` folder)."""
    return [f for f in folders if not (f / ARMS).is_dir()]


def refusal(missing: list[Path]) -> str:
    """One line naming the first missing folder (by the convention, the run of
    ``studies/<its name>.toml``) and how to play it."""
    first = missing[0]
    more = f" (and {len(missing) - 1} more missing)" if len(missing) > 1 else ""
    return (
        f"error: {first}: no study run there (no {ARMS}/){more}; play it with: "
        f"carromlab study run studies/{first.name}.toml --out {first}"
    )


def main(argv: list[str] | None = None) -> int:
    import matplotlib

    matplotlib.use("Agg")  # figures are files
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--study-dir",
        type=Path,
        action="append",
        metavar="DIR",
        help="a study's folder (carromlab study run --out); repeatable "
        f"(default: {', '.join(map(str, STUDY_DIRS))})",
    )
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--copies",
        action="store_true",
        help="read the strength and prior copies too (default: the arms as written, greedy)",
    )
    args = ap.parse_args(argv)
    folders = args.study_dir or list(STUDY_DIRS)
    missing = missing_folders(folders)
    if missing:
        print(refusal(missing), file=sys.stderr)
        return 2
    for name, table in summarise(folders, args.out, args.copies).items():
        print(f"\n{name}\n{table.to_string(index=False)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
