"""A sweep's folder: ``sweep.json`` (the sweep's spec and digest), ``shards/task-NNNNNNN.parquet``
(one finished task each, written to a temporary name and renamed, with the sweep's spec, seed,
digest, the task and the package versions in its metadata) and ``results.parquet`` (every
task, in id order, once all are done).

A folder belongs to one sweep: running another sweep into it is refused. A killed run leaves
only whole shards (and perhaps a ``.tmp`` file, ignored and overwritten), so a rerun computes
exactly the missing tasks. A shard cut short (which a kill cannot do, but a full disk or a
crash of the machine before the file reached the disk can) is found when a run starts
(:func:`drop_damaged`: a parquet file ends with its footer's length and ``PAR1``), deleted and
recomputed; :func:`collect` refuses, in one line naming the file, a shard it cannot read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.results import read_parquet, write_parquet
from carromlab.errors import CarromlabError
from carromlab.sweeps.config import Sweep, Task

SHARD = re.compile(r"^task-(\d+)\.parquet$")
MAGIC = b"PAR1"  # a parquet file's first and last four bytes


def shard_path(out: Path, task_id: int) -> Path:
    return Path(out) / "shards" / f"task-{task_id:07d}.parquet"


def open_folder(out: Path, sweep: Sweep) -> None:
    """Claim ``out`` for ``sweep``, or check that it already holds this sweep."""
    out = Path(out)
    marker = out / "sweep.json"
    tmp = marker.with_name("sweep.json.tmp")
    if marker.exists():
        try:
            doc = json.loads(marker.read_text())
            held = doc.get("digest")
        except ValueError:
            raise CarromlabError(
                f"{marker} is damaged (cut short?): it says which sweep the folder holds; "
                "use a new folder"
            ) from None
        if held != sweep.digest:
            from carromlab.play.log import differences

            there = doc.get("spec")
            here = json.loads(json.dumps(sweep.spec, default=str))
            what = differences(here, there) if isinstance(there, dict) else ""
            raise CarromlabError(
                f"{out} holds another sweep ({what or f'digest {held}, this one {sweep.digest}'}"
                "); use a new folder or delete it"
            )
        return
    if out.exists() and any(p.name != tmp.name for p in out.iterdir()):
        # (a sweep.json.tmp alone: a run killed while claiming the folder; overwritten)
        raise CarromlabError(f"{out} is not empty and holds no sweep; use a new folder")
    out.mkdir(parents=True, exist_ok=True)
    tmp.write_text(json.dumps({"digest": sweep.digest, "spec": sweep.spec}, indent=1, default=str))
    tmp.replace(marker)


def done_ids(out: Path) -> set[int]:
    """The ids of the tasks whose shards are on disk."""
    folder = Path(out) / "shards"
    if not folder.exists():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := SHARD.match(p.name))}


def is_whole(path: Path) -> bool:
    """Whether ``path`` is a parquet file that is not cut short: ``PAR1`` at both ends and a
    footer that fits (reads 12 bytes; any truncation loses the last ones)."""
    try:
        size = path.stat().st_size
        if size < 12:
            return False
        with open(path, "rb") as f:
            head = f.read(4)
            f.seek(-8, 2)
            tail = f.read(8)
    except OSError:
        return False
    footer = int.from_bytes(tail[:4], "little")
    return head == MAGIC and tail[4:] == MAGIC and footer + 12 <= size


def drop_damaged(out: Path) -> list[int]:
    """Delete the shards that are not whole (:func:`is_whole`), so that a run recomputes their
    tasks, and return those tasks' ids."""
    folder = Path(out) / "shards"
    if not folder.exists():
        return []
    bad = []
    for p in folder.iterdir():
        if (m := SHARD.match(p.name)) and not is_whole(p):
            p.unlink()
            bad.append(int(m.group(1)))
    return sorted(bad)


def write_shard(out: Path, sweep: Sweep, task: Task, row: pd.DataFrame) -> Path:
    row = row.copy()
    row.attrs["config"] = _metadata(sweep, "sweep_task", task=task.columns())
    return write_parquet(row, shard_path(out, task.id))


def _metadata(sweep: Sweep, kind: str, **extra) -> dict:
    """What a shard or the table stores: the sweep's spec, seed and digest, and versions."""
    return run_metadata(
        kind=kind, sweep=sweep.name, digest=sweep.digest, seed=sweep.seed, spec=sweep.spec, **extra
    )


def collect(out: Path, sweep: Sweep, tasks: list[Task]) -> pd.DataFrame:
    """Every task's row in id order, checked (no gap, no duplicate), written to
    ``results.parquet``."""
    have = sorted(done_ids(out))
    want = [t.id for t in tasks]
    if have != want:
        missing = sorted(set(want) - set(have))
        extra = sorted(set(have) - set(want))
        raise CarromlabError(
            f"{out}: shards do not match the sweep's {len(want)} tasks "
            f"(missing {missing[:5]}, unexpected {extra[:5]})"
        )
    rows = [_read_shard(shard_path(out, i)) for i in want]
    df = pd.concat(rows, ignore_index=True)
    if df["task"].tolist() != want:
        raise CarromlabError(f"{out}: a shard holds the wrong task")
    df.attrs["config"] = _metadata(sweep, "sweep", tasks=len(want))
    write_parquet(df, Path(out) / "results.parquet")
    return df


def _read_shard(path: Path) -> pd.DataFrame:
    try:
        return read_parquet(path)
    except (OSError, pa.ArrowException) as e:
        raise CarromlabError(
            f"{path} is damaged (cut short?): delete it and rerun the sweep to recompute it "
            f"({type(e).__name__})"
        ) from None
