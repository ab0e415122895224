"""Results on disk: parquet files that carry their run's configuration, seed and versions.

The configuration (``df.attrs["config"]``) is stored as JSON under the schema metadata key
``carromlab``; files are written to a temporary name and renamed, so a killed run never leaves
a half-written file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

META_KEY = b"carromlab"


def write_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df.reset_index(drop=True), preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(df.attrs.get("config", {}), default=str).encode()
    table = table.replace_schema_metadata(meta)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)
    return path


def read_parquet(path: str | Path) -> pd.DataFrame:
    table = pq.read_table(path)
    df = table.to_pandas()
    raw = (table.schema.metadata or {}).get(META_KEY)
    df.attrs["config"] = json.loads(raw) if raw else {}
    return df
