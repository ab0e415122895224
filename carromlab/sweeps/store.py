"""A sweep's folder: ``sweep.json`` (the sweep's spec and digest), ``shards/task-NNNNNNN.parquet``
(one finished task each, written to a temporary name and renamed, with the sweep's spec, seed,
digest, the task and the package versions in its metadata) and ``results.parquet`` (every
task, in id order, once all are done).

A folder belongs to one sweep: running another sweep into it is refused. A killed run leaves
only whole shards (and perhaps a ``.tmp`` file, ignored and overwritten), so a rerun computes
exactly the missing tasks.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.results import read_parquet, write_parquet
from carromlab.errors import CarromlabError
from carromlab.sweeps.config import Sweep, Task

SHARD = re.compile(r"^task-(\d+)\.parquet$")


def shard_path(out: Path, task_id: int) -> Path:
    return Path(out) / "shards" / f"task-{task_id:07d}.parquet"


def open_folder(out: Path, sweep: Sweep) -> None:
    """Claim ``out`` for ``sweep``, or check that it already holds this sweep."""
    out = Path(out)
    marker = out / "sweep.json"
    if marker.exists():
        held = json.loads(marker.read_text()).get("digest")
        if held != sweep.digest:
            raise CarromlabError(
                f"{out} holds another sweep (digest {held}, this one {sweep.digest}); "
                "use a new folder or delete it"
            )
        return
    if out.exists() and any(out.iterdir()):
        raise CarromlabError(f"{out} is not empty and holds no sweep; use a new folder")
    out.mkdir(parents=True, exist_ok=True)
    tmp = marker.with_name("sweep.json.tmp")
    tmp.write_text(json.dumps({"digest": sweep.digest, "spec": sweep.spec}, indent=1, default=str))
    tmp.replace(marker)


def done_ids(out: Path) -> set[int]:
    """The ids of the tasks whose shards are on disk."""
    folder = Path(out) / "shards"
    if not folder.exists():
        return set()
    return {int(m.group(1)) for p in folder.iterdir() if (m := SHARD.match(p.name))}


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
    rows = [read_parquet(shard_path(out, i)) for i in want]
    df = pd.concat(rows, ignore_index=True)
    if df["task"].tolist() != want:
        raise CarromlabError(f"{out}: a shard holds the wrong task")
    df.attrs["config"] = _metadata(sweep, "sweep", tasks=len(want))
    write_parquet(df, Path(out) / "results.parquet")
    return df
