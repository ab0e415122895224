"""Behaviour-unchanged check: replay the first games of every committed study arm, and the
demo's shot map, and compare them exactly with what is on disk.

Studies: the arms are those of the study files and of the one study script left:

- every arm of every ``studies/*.toml`` (:func:`carromlab.studies.load_study`), committed
  under ``data/studies/specs/<stem>/arms/<arm>/`` (the committed run of
  ``studies/<stem>.toml``), replayed as ``carromlab study run`` plays it
  (:func:`carromlab.studies.run.play_block` with the study's seed) into a game log claimed
  for the arm's settings as the run claims it;
- the KOOBA attack-timing arms (``experiments/kooba_balance.py``'s ``TIMING``: player
  options a study file cannot set), committed under ``data/studies/kooba/<arm>/`` (greedy)
  and ``data/studies/kooba/<player>/<arm>/``, replayed through the script's ``run_arm`` with
  the committed run's seed, skill and player (the script is
  loaded by file path, so this check does not depend on the package's module layout).

An arm with no committed folder is skipped; a committed folder no arm names is listed, not
checked. Each arm's games ``0..K-1`` are replayed into a temporary folder, and the rows of
``games.csv`` (and ``boards.csv``) of those games are compared, every column, exactly (values
as read back from CSV), with

- the committed rows (``data/studies/...``), and, with ``--against-baseline``,
- the rows replayed at the baseline (``data/reference/replay/<arm>/``, written by
  ``--write-baseline``), which shows the behaviour unchanged even for an arm whose committed
  rows came from older code.

``data/reference/unchanged_baseline.json`` (``--write-baseline``) records which arms
reproduced their committed rows at the baseline: an arm that did must still do, and one that
did not is reported but not counted as a failure (``--strict`` counts it). Arms the baseline
names that no study file or script defines any more are listed, not checked.

Demo: ``--demo`` runs the demo's shot map through the command line (``carromlab shotmap`` with
the arguments of ``carromlab demo``; ``--demo-command demo`` runs ``carromlab demo`` itself)
and compares ``shotmap.parquet`` (every column, exactly) with ``--demo-ref`` (written by
``--write-demo-ref``).

One line per check, ``same`` or ``DIFFERENT: ...``, then a JSON summary line; exit status 1
when anything differs, 2 on bad arguments.

    python experiments/check_unchanged.py --demo --write-baseline --write-demo-ref \\
        data/reference/demo_shotmap.parquet              # once, on the unchanged code
    python experiments/check_unchanged.py --demo --against-baseline   # after the change
    python experiments/check_unchanged.py --only specs/kooba-seats,kooba/2p-attack-at-1 --games 4
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "data" / "studies"
REFERENCE = ROOT / "data" / "reference"
#: Run-metadata keys that describe the software and how it ran, not the run (not compared:
#: lanes and cores change no number).
VERSION_KEYS = ("carromlab", "jax", "numpy", "pandas", "device", "devices", "lanes", "cores")
#: ``carromlab demo``'s shot map (carromlab/cli/shots.py: demo -> run_shotmap), as
#: ``carromlab shotmap`` options.
DEMO_SHOTMAP = [
    "--position",
    "icf-midgame",
    "--variant",
    "icf",
    "--placements=-0.18:0.18:13",
    "--angles=30:150:61",
    "--speeds=2.0",
    "--skill",
    "club",
    "--n",
    "200",
    "--seed",
    "0",
    "--chunk",
    "4096",
    "--value",
    "points",
]
TABLES = ("games.csv", "boards.csv")


def say(*parts) -> None:
    print(*parts, flush=True)


# --------------------------------------------------------------------------- arms


def _script(name: str):
    """An experiment script as a module, loaded by file path."""
    path = ROOT / "experiments" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_check_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look the module up
    spec.loader.exec_module(module)
    return module


@dataclass
class Arm:
    """One arm: its path under data/studies, what defines it, and how to replay its games
    ``0..n-1`` into a folder."""

    path: str  # e.g. "specs/icf-queen/arms/queen-3"
    source: str  # e.g. "studies/icf-queen.toml"
    replay: Callable[[Path, int], None]  # (folder, n) -> None

    @property
    def committed(self) -> Path:
        return STUDIES / self.path


def replay_study_arm(study, arm, folder: Path, games: int) -> None:
    """Games ``0..games-1`` of a study file's arm, played as ``carromlab study run`` plays
    them, written to a game log at ``folder`` claimed as the run claims the arm's."""
    from carromlab.play.log import GameLog
    from carromlab.studies.run import add_rows, arm_meta, play_block

    log = GameLog(folder, arm_meta(study, arm))
    add_rows(log, play_block(arm.settings(), study.seed, list(range(games))))
    log.export_csv()


def study_arms() -> list[Arm]:
    """Every arm of every study file, as ``specs/<stem>/arms/<arm>``, in file-name order."""
    from carromlab.studies import load_study

    out = []
    for path in sorted((ROOT / "studies").glob("*.toml")):
        study = load_study(path)
        for arm in study.arms:
            out.append(
                Arm(
                    f"specs/{path.stem}/arms/{arm.name}",
                    str(path.relative_to(ROOT)),
                    partial(replay_study_arm, study, arm),
                )
            )
    return out


def replay_timing_arm(kooba, path: str, name: str, folder: Path, games: int) -> None:
    """Games ``0..games-1`` of a KOOBA timing arm, with its committed run's seed, skill and
    player."""
    meta = json.loads((STUDIES / path / "config.json").read_text())
    seed, skill = int(meta.get("seed", 0)), meta.get("skill", "club")
    kooba.run_arm(folder, name, games, seed, skill, meta.get("player", "greedy"))


def timing_arms() -> list[Arm]:
    """The KOOBA attack-timing arms, as ``kooba/<arm>`` (greedy) and ``kooba/<player>/<arm>``."""
    kooba = _script("kooba_balance")
    arms = []
    for player in kooba.PLAYERS:
        for name in kooba.TIMING:
            path = str((kooba.player_folder(player) / name).relative_to("data/studies"))
            replay = partial(replay_timing_arm, kooba, path, name)
            arms.append(Arm(path, "experiments/kooba_balance.py", replay))
    return arms


def all_arms() -> list[Arm]:
    """Every arm the study files and the timing script define (whether or not it is
    committed), in their order."""
    return [*study_arms(), *timing_arms()]


def committed_folders() -> set[str]:
    return {
        str(p.parent.relative_to(STUDIES))
        for p in STUDIES.rglob("config.json")
        if (p.parent / "games.csv").exists()
    }


# --------------------------------------------------------------------------- comparing


def read_rows(path: Path, games: int) -> pd.DataFrame:
    """Rows of games ``0..games-1`` of a GameLog CSV as text, sorted by game (and board); a
    line cut short at the end is dropped, as GameLog does."""
    import io

    if not path.exists():
        return pd.DataFrame()
    text = path.read_text()
    text = text[: text.rfind("\n") + 1]
    if not text.strip():
        return pd.DataFrame()
    df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    df["_order"] = [
        tuple(int(r[k]) for k in ("game", "board") if k in df.columns)
        for r in df.to_dict("records")
    ]
    df = df[[o[0] < games for o in df["_order"]]]
    return df.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)


def same_value(a: str, b: str) -> bool:
    """Two CSV fields hold the same value: the same text, or numbers equal exactly."""
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return x == y or (math.isnan(x) and math.isnan(y))


def first_difference(got: pd.DataFrame, want: pd.DataFrame, what: str) -> str | None:
    """None when the tables (as text, :func:`read_rows`) hold the same values; else a short
    description of the first difference (``got`` is the replay, ``want`` the reference)."""
    if list(got.columns) != list(want.columns):
        extra = [c for c in got.columns if c not in want.columns]
        missing = [c for c in want.columns if c not in got.columns]
        if extra or missing:
            return f"{what}: columns differ (replay has {extra} extra, lacks {missing})"
        return f"{what}: column order differs ({list(got.columns)} vs {list(want.columns)})"
    g_games, w_games = list(got["game"]), list(want["game"])
    if g_games != w_games:
        gs, ws = set(g_games), set(w_games)
        if gs != ws:
            return (
                f"{what}: games differ (replay only {sorted(gs - ws, key=int)}, "
                f"reference only {sorted(ws - gs, key=int)})"
            )
        for g in sorted(gs, key=int):
            gn, wn = g_games.count(g), w_games.count(g)
            if gn != wn:
                return f"{what}: game {g} has {gn} rows in the replay, {wn} in the reference"
    for gr, wr in zip(got.to_dict("records"), want.to_dict("records")):
        for col in got.columns:
            if not same_value(gr[col], wr[col]):
                where = f"game {gr['game']}" + (f" board {gr['board']}" if "board" in gr else "")
                return f"{what}: {where} column {col!r}: replay {gr[col]!r}, reference {wr[col]!r}"
    return None


def compare_tables(replay: Path, reference: Path, games: int) -> str | None:
    """First difference between the GameLog tables of two folders, for games ``0..games-1``."""
    for name in TABLES:
        got, want = read_rows(replay / name, games), read_rows(reference / name, games)
        if not len(got) and not len(want):
            continue
        if name == "games.csv" and len(want) and want["game"].nunique() < games:
            return (
                f"{name}: the reference holds only {want['game'].nunique()} of games 0..{games - 1}"
            )
        diff = first_difference(got, want, name)
        if diff:
            return diff
    return None


def config_note(replay: Path, reference: Path) -> str | None:
    """How the replay's run settings (config.json without versions) differ, if they do."""
    try:
        got = json.loads((replay / "config.json").read_text())
        want = json.loads((reference / "config.json").read_text())
    except FileNotFoundError:
        return None
    from carromlab.play.log import same_settings

    drop = set(VERSION_KEYS)
    got_, want_ = ({k: v for k, v in d.items() if k not in drop} for d in (got, want))
    if same_settings(got_, want_):  # players renamed since compare under their current names
        return None
    keys = sorted((set(got) | set(want)) - set(VERSION_KEYS))
    differ = [k for k in keys if got.get(k) != want.get(k)]
    return f"config.json differs in {differ}" if differ else None


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def compare_frames(got: pd.DataFrame, want: pd.DataFrame) -> str | None:
    """First difference of two whole tables (every column, exactly; NaN equals NaN)."""
    if list(got.columns) != list(want.columns):
        return f"columns differ: {list(got.columns)} vs {list(want.columns)}"
    if len(got) != len(want):
        return f"{len(got)} rows vs {len(want)} in the reference"
    for col in got.columns:
        a, b = got[col].to_numpy(), want[col].to_numpy()
        if str(got[col].dtype) != str(want[col].dtype):
            return f"column {col!r}: dtype {got[col].dtype} vs {want[col].dtype}"
        if a.dtype.kind == "f":
            eq = (a == b) | (np.isnan(a) & np.isnan(b))
        else:
            eq = np.array([bool(x == y) or (_missing(x) and _missing(y)) for x, y in zip(a, b)])
        if not eq.all():
            i = int(np.flatnonzero(~eq)[0])
            return f"row {i} column {col!r}: {a[i]!r} vs reference {b[i]!r} ({int((~eq).sum())} rows differ)"
    return None


# --------------------------------------------------------------------------- checks


def carromlab_where() -> str:
    import carromlab

    return str(Path(carromlab.__file__).resolve().parent)


def git_head() -> str:
    if os.environ.get("CHECK_UNCHANGED_CODE"):  # code outside a checkout, e.g. a git archive
        return os.environ["CHECK_UNCHANGED_CODE"]
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return head + (" (with uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def check_arm(arm: Arm, games: int, tmp: Path, args, baseline: dict) -> dict:
    """Replay one arm and compare; a result dict."""
    folder = tmp / arm.path
    t0 = time.perf_counter()
    arm.replay(folder, games)
    took = time.perf_counter() - t0
    result = {"arm": arm.path, "seconds": round(took, 1)}

    diff = compare_tables(folder, arm.committed, games)
    result["committed"] = "same" if diff is None else "different"
    result["committed_difference"] = diff
    note = config_note(folder, arm.committed)
    if note:
        result["committed_config"] = note
    before = baseline.get("arms", {}).get(arm.path)
    expected = before is not None and before.get("committed") == "different"
    result["counted"] = diff is not None and (args.strict or not expected)
    line = "same" if diff is None else f"DIFFERENT: {diff}"
    if diff is not None and expected and not args.strict:
        line += " [as at the baseline: not counted]"
    if diff is None and before is not None and before.get("committed") == "different":
        line += " [differed at the baseline]"
    say(
        f"  {arm.path} vs committed: {line}"
        + (f" ({note})" if note else "")
        + f" [{result['seconds']} s]"
    )

    if args.against_baseline:
        ref = Path(args.reference) / "replay" / arm.path
        if not (ref / "games.csv").exists():
            bdiff = f"no baseline replay in {ref}"
        else:
            bdiff = compare_tables(folder, ref, games)
        result["baseline"] = "same" if bdiff is None else "different"
        result["baseline_difference"] = bdiff
        bnote = config_note(folder, ref)
        if bnote:
            result["baseline_config"] = bnote
        say(
            f"  {arm.path} vs baseline replay: "
            + ("same" if bdiff is None else f"DIFFERENT: {bdiff}")
            + (f" ({bnote})" if bnote else "")
        )
        result["counted"] = result["counted"] or bdiff is not None

    if args.write_baseline:
        dest = Path(args.reference) / "replay" / arm.path
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        for name in (*TABLES, "config.json"):
            if (folder / name).exists():
                shutil.copy2(folder / name, dest / name)
    return result


def cli_command() -> list[str]:
    """The ``carromlab`` command of this interpreter (its console script, else ``-m``)."""
    script = Path(sys.executable).parent / "carromlab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "carromlab"]


def check_demo(args, tmp: Path) -> dict:
    out = tmp / "demo"
    if args.demo_command == "demo":
        cmd = [*cli_command(), "demo", "--out", str(out)]
    else:
        cmd = [*cli_command(), "shotmap", *DEMO_SHOTMAP, "--out", str(out)]
    say(f"demo shot map: {' '.join(cmd)}")
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT)
    took = round(time.perf_counter() - t0, 1)
    result = {"arm": "demo/shotmap.parquet", "seconds": took, "command": args.demo_command}
    path = out / "shotmap.parquet"
    if proc.returncode != 0 or not path.exists():
        result.update(committed="different", counted=True)
        result["committed_difference"] = f"the command failed (exit status {proc.returncode})"
        say(f"  demo: DIFFERENT: {result['committed_difference']}")
        return result
    got = pd.read_parquet(path)
    if args.write_demo_ref:
        dest = Path(args.write_demo_ref)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest)
        say(f"  demo: wrote the reference {dest} ({len(got)} rows, {len(got.columns)} columns)")
        result["wrote"] = str(dest)
    ref = Path(args.demo_ref)
    if not ref.exists():
        result.update(committed="different", counted=True)
        result["committed_difference"] = f"no reference {ref} (write one with --write-demo-ref)"
    else:
        diff = compare_frames(got, pd.read_parquet(ref))
        result.update(committed="same" if diff is None else "different", counted=diff is not None)
        result["committed_difference"] = diff
    line = (
        "same" if result["committed"] == "same" else f"DIFFERENT: {result['committed_difference']}"
    )
    say(f"  demo shot map vs {ref}: {line} ({took} s)")
    return result


def select(arms: list[Arm], only: str | None) -> list[Arm]:
    """The arms whose path contains one of the comma-separated patterns (a pattern that is an
    arm's whole path selects that arm alone: ``specs/carrooka-bonus/arms/club`` is not
    ``club-no-bonus``); all of them without patterns."""
    if not only:
        return arms
    paths = {a.path for a in arms}
    patterns = [p for p in only.split(",") if p]
    for p in patterns:
        if not any(p in a.path for a in arms):
            print(
                f"error: --only {p!r} matches no arm; arms: {', '.join(a.path for a in arms)}",
                file=sys.stderr,
            )
            raise SystemExit(2)

    def chosen(path: str) -> bool:
        return any(p == path if p in paths else p in path for p in patterns)

    return [a for a in arms if chosen(a.path)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games 0..K-1 of each arm (default 2)")
    ap.add_argument(
        "--only", help="comma-separated substrings of arm paths, e.g. kooba-seats/arms/2p,queen"
    )
    ap.add_argument("--no-studies", action="store_true", help="skip the study arms")
    ap.add_argument("--list", action="store_true", help="list the arms and exit")
    ap.add_argument("--demo", action="store_true", help="check the demo's shot map too")
    ap.add_argument(
        "--demo-command",
        choices=("shotmap", "demo"),
        default="shotmap",
        help="shotmap: `carromlab shotmap` with the demo's arguments (default, cheaper); "
        "demo: `carromlab demo` itself",
    )
    ap.add_argument("--demo-ref", default=str(REFERENCE / "demo_shotmap.parquet"))
    ap.add_argument("--write-demo-ref", metavar="PATH", help="write the demo's shot map here")
    ap.add_argument(
        "--reference",
        default=str(REFERENCE),
        help="folder of the baseline: unchanged_baseline.json and replay/ (default data/reference)",
    )
    ap.add_argument(
        "--write-baseline",
        action="store_true",
        help="record this run as the baseline (unchanged_baseline.json and the replayed rows)",
    )
    ap.add_argument(
        "--against-baseline",
        action="store_true",
        help="also compare the replays with the baseline's replayed rows",
    )
    ap.add_argument(
        "--strict",
        action="store_true",
        help="count arms that differed from their committed rows at the baseline too",
    )
    ap.add_argument("--keep", metavar="DIR", help="replay into DIR (kept) instead of a temp folder")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")

    import matplotlib

    matplotlib.use("Agg")  # the timing script draws figures; none are drawn here

    arms = all_arms()
    defined = {a.path for a in arms}
    on_disk = committed_folders()
    unknown = sorted(on_disk - defined)
    arms = [a for a in arms if a.path in on_disk]
    if args.list:
        for a in arms:
            say(a.path)
        return 0
    arms = [] if args.no_studies else select(arms, args.only)

    base_path = Path(args.reference) / "unchanged_baseline.json"
    baseline = {}
    if base_path.exists() and not args.write_baseline:
        baseline = json.loads(base_path.read_text())
        if args.against_baseline and args.games > baseline.get("games", 0):
            ap.error(f"--games {args.games} > the baseline's {baseline.get('games')} games")
    gone = sorted(set(baseline.get("arms", {})) - defined)

    say(
        f"check_unchanged: carromlab from {carromlab_where()}, git {git_head()}; "
        f"{len(arms)} arms x {args.games} games" + (", demo" if args.demo else "")
    )
    if unknown:
        say(f"  committed folders no study file or script defines (not checked): {unknown}")
    if gone:
        say(f"  baseline arms no study file or script defines now (not checked): {gone}")
    t_all = time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory(prefix="check_unchanged_") as tmpdir:
        tmp = Path(args.keep) if args.keep else Path(tmpdir)
        for i, arm in enumerate(arms, 1):
            say(f"[{i}/{len(arms)}] {arm.path} ({arm.source}) ...")
            try:
                results.append(check_arm(arm, args.games, tmp, args, baseline))
            except Exception as e:  # a failing replay is a difference, not the end of the check
                say(f"  {arm.path}: DIFFERENT: the replay failed: {type(e).__name__}: {e}")
                results.append(
                    {
                        "arm": arm.path,
                        "committed": "different",
                        "committed_difference": f"replay failed: {type(e).__name__}: {e}",
                        "counted": True,
                    }
                )
        demo = check_demo(args, tmp) if args.demo else None

    differing = [r["arm"] for r in results if r["counted"]]
    if demo is not None and demo["counted"]:
        differing.append(demo["arm"])
    summary = {
        "ok": not differing,
        "games": args.games,
        "arms": len(results),
        "same_as_committed": [r["arm"] for r in results if r["committed"] == "same"],
        "different_from_committed": [r["arm"] for r in results if r["committed"] != "same"],
        "counted_differences": differing,
        "gone_from_baseline": gone,
        "demo": None if demo is None else demo["committed"],
        "seconds": round(time.perf_counter() - t_all, 1),
    }
    if args.against_baseline:
        summary["different_from_baseline"] = [
            r["arm"] for r in results if r.get("baseline", "same") != "same"
        ]
    if args.write_baseline:
        record = {
            "written_by": "experiments/check_unchanged.py --write-baseline",
            "git": git_head(),
            "carromlab": carromlab_where(),
            "games": args.games,
            "when": time.strftime("%Y-%m-%d %H:%M:%S"),
            "arms": {
                r["arm"]: {
                    k: r.get(k)
                    for k in ("committed", "committed_difference", "committed_config", "seconds")
                    if r.get(k) is not None
                }
                for r in results
            },
        }
        if demo is not None:
            record["demo"] = {k: demo.get(k) for k in ("command", "committed", "seconds")}
        if base_path.exists() and args.only:  # a partial run updates the arms it ran
            old = json.loads(base_path.read_text())
            if old.get("games") == args.games:
                record["arms"] = {**old.get("arms", {}), **record["arms"]}
                if demo is None and "demo" in old:  # and keeps the demo it did not run
                    record["demo"] = old["demo"]
        base_path.parent.mkdir(parents=True, exist_ok=True)
        base_path.write_text(json.dumps(record, indent=1) + "\n")
        say(f"wrote the baseline {base_path} and the replayed rows under {base_path.parent}/replay")
    print(json.dumps(summary), flush=True)
    return 1 if differing else 0


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())
