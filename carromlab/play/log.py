"""The game log: rows of finished games, one transaction per game in SQLite, resumable.

See :class:`GameLog`. This module imports nothing of the game loop at import time (the loop
and the kernel load with :func:`play_logged`), so a log can be read or written without JAX.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from carromlab.errors import CarromlabError
from carromlab.rules.interfaces import GameState

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.analysis.players import Player
    from carromlab.play.loop import GameRecord, Row, Skills
    from carromlab.rules.interfaces import GameConfig

#: A run's configuration as JSON (the values of any JSON type).
Config = Mapping[str, object]
#: A row as the log stores it: its column names and its fields as pandas writes them to CSV.
CsvRow = tuple[list[str], list[str]]
#: The database's games, ``{game: (game row, [board rows])}``.
DbGames = dict[int, tuple[CsvRow, list[CsvRow]]]

#: The log's database, and the files a log folder may hold beside it (anything else there
#: is foreign and the folder is refused): its exports, its configuration, the temporary names
#: those are written under, SQLite's own journal files, and the cost notes
#: (``cost-<date>-<first game>.json``) that the retired ICF study script wrote beside its arms
#: (the committed folders under ``data/studies/icf_balance/`` hold them; nothing writes them now).
DB = "log.sqlite"
EXPORTS = ("boards.csv", "games.csv", "boards.parquet", "games.parquet")
TEMPORARY = tuple(f"{name}.tmp" for name in (*EXPORTS, "config.json"))
OWN_FILES = frozenset(
    (DB, *(DB + s for s in ("-journal", "-wal", "-shm")), "config.json", *EXPORTS, *TEMPORARY)
)
OWN_PATTERN = re.compile(r"^cost-.*\.json$")

#: Exports: after every committed game while the log holds at most this many games, then at
#: most every EXPORT_INTERVAL_S seconds (a game ending sooner goes out with a later one), and
#: always at the end (:meth:`GameLog.write_parquet`, :meth:`GameLog.export_csv`).
EXPORT_EVERY_GAME_UP_TO = 1000
EXPORT_INTERVAL_S = 5.0

#: Test-only: called as ``_test_hook(stage, game)`` at ``"boards"`` (a game's board rows
#: inserted, its game row not yet: inside the transaction) and ``"export"`` (an export's
#: temporary file written, not yet renamed). None in normal use.
_test_hook: Callable[[str, int], None] | None = None

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL UNIQUE,
    columns TEXT NOT NULL,
    row TEXT NOT NULL,
    board_columns TEXT
);
CREATE TABLE IF NOT EXISTS boards (
    game INTEGER NOT NULL,
    board INTEGER NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (game, board)
);
"""


@runtime_checkable
class BoardsState(GameState, Protocol):
    """A game state that keeps scores per side and counts its boards: what :func:`game_row`
    reads of a record whose driver builds no row of its own."""

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def boards_played(self) -> int: ...


#: The columns of :func:`game_row`'s own row (a record whose driver builds none: ICF's),
#: declared for the driver's ``row_columns`` (:class:`~carromlab.play.drivers.RowColumns`).
GAME_ROW_COLUMNS = (
    "game",
    "winner",
    "score_0",
    "score_1",
    "boards",
    "strokes",
    "truncated_strokes",
    "finished",
)


def game_row(rec: GameRecord) -> Row:
    """One row for a finished game: winner (side; -1 for a draw or an unfinished game),
    scores per side, boards, strokes, the truncated strokes (:data:`GAME_ROW_COLUMNS`)."""
    if rec.row is not None:
        return dict(rec.row)
    st = rec.state
    if not isinstance(st, BoardsState):
        raise CarromlabError(
            f"a {type(st).__name__} keeps no scores and boards: its driver must build the row"
        )
    return {
        "game": int(rec.strokes["game"].iloc[0]) if len(rec.strokes) else -1,
        "winner": -1 if st.winner is None else int(st.winner),
        "score_0": int(st.scores[0]),
        "score_1": int(st.scores[1]),
        "boards": int(st.boards_played),
        "strokes": len(rec.strokes),
        "truncated_strokes": int(rec.strokes["truncated"].sum()) if len(rec.strokes) else 0,
        "finished": bool(st.over),
    }


def read_config_file(folder: str | os.PathLike[str]) -> dict[str, object] | None:
    """A play folder's ``config.json`` (the run's configuration, which a rerun is compared
    with), or None where there is none; one line if it is not a whole JSON object (cut short,
    emptied, not UTF-8, not JSON): the log would otherwise stop with a traceback, or play on
    beside a file no rerun can read. Cheap, so a command calls it before any work."""
    path = Path(folder) / "config.json"
    if not path.is_file():
        return None
    try:
        config = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as e:
        raise CarromlabError(f"{path}: cannot read it ({e.strerror or e})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        why = e.msg if isinstance(e, json.JSONDecodeError) else "not UTF-8"
        raise CarromlabError(
            f"{path} is not valid JSON ({why}; cut short?): the run's configuration cannot "
            "be read; restore it, or use a new folder"
        ) from None
    if not isinstance(config, dict):
        raise CarromlabError(
            f"{path} holds JSON that is not an object: not a run's configuration; restore "
            "it, or use a new folder"
        )
    return config


class GameLog:
    """Rows of finished games, written as they come, so a long run loses nothing and resumes.

    **Storage.** ``folder/log.sqlite`` (Python's own ``sqlite3``; rollback journal,
    ``synchronous=FULL``) holds a ``meta`` table (the run's configuration as JSON), a
    ``games`` table (one row per game, keyed by the game's index) and a ``boards`` table (one
    row per board, keyed by the game and the board's place in it). :meth:`add` writes a
    finished game's board rows and its game row in ONE transaction: a game is in the log
    whole or not at all, whenever the process dies. Rows are stored as the fields pandas
    writes to CSV (a JSON list of strings, the column names once per game), so any set of
    columns round-trips, and the frames read back (:meth:`frames`, :func:`read_log`) are
    exactly those the CSV of the same rows gives (same columns, order and dtypes).

    **Resuming.** :meth:`done` lists the games committed; a rerun plays only the others and
    never duplicates a row (a game added again replaces its rows).

    **Claiming.** Opening a folder claims it for ``config`` (stored in the database and in
    ``config.json``). A folder claimed by another configuration (ignoring the software
    versions, :data:`VERSION_KEYS`; its players' reprs read with the game's old names,
    :func:`same_settings`) is refused, naming the keys that differ; so is a folder
    holding anything that is not the log's own: ``log.sqlite`` (and its ``-journal``,
    ``-wal``, ``-shm``), ``config.json``, ``boards.csv``, ``games.csv``, ``boards.parquet``,
    ``games.parquet``, the temporary ``<one of those>.tmp`` names they are written under
    (left by a killed process; removed on opening), and ``cost-*.json`` (what a run cost,
    in the committed folders of the retired ICF study script, ``data/studies/icf_balance/``)
    (:data:`OWN_FILES`, :data:`OWN_PATTERN`).
    A sweep's folder (``sweep.json``, ``shards/``) or any other file or folder there is
    refused. So is a folder with ``games.csv`` or ``boards.csv`` but no configuration.

    **Exports.** ``boards.csv`` and ``games.csv`` are written from the database after a game
    commits (each to a temporary name in the folder, synced, then renamed, ``boards.csv``
    first: they hold a committed state, never half a row, and every game in ``games.csv``
    has its boards in ``boards.csv``, which may already hold the next game's, dropped on
    reading as ever): after every game while the log holds at most
    :data:`EXPORT_EVERY_GAME_UP_TO` games, then at most every :data:`EXPORT_INTERVAL_S`
    seconds, and always at the end (:meth:`write_parquet`, :meth:`export_csv`); so after a
    kill the CSVs may lag the database by a few seconds' games, never lead it. A table with
    no rows has no CSV (a variant without boards writes no ``boards.csv``).
    :meth:`write_parquet` writes both tables as parquet with the configuration attached.

    **Folders without a database** (a clean clone: studies commit their CSVs and
    ``config.json``; ``log.sqlite`` is ignored by git) are rebuilt from the CSVs on opening,
    in one transaction: a last line cut short is dropped, a line with the wrong number of
    fields is dropped, a game's board rows count only if its game row is there (and only the
    last run of them, should a crash have left an earlier copy). A database whose
    ``games.csv`` holds games it lacks (CSVs brought in from elsewhere) is refused rather
    than overwrite them.

    One process writes a folder at a time.
    """

    def __init__(self, folder: str | os.PathLike[str], config: Config):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.config = json.loads(json.dumps(config, default=str))
        self.db = self.folder / DB
        _refuse_foreign(self.folder)
        for name in TEMPORARY:
            tmp = self.folder / name
            if tmp.is_file():
                tmp.unlink()
        held = _held_config(self.db)
        legacy = held is None and _has_csv(self.folder)
        on_disk = read_config_file(self.folder)
        if held is None and on_disk is not None:
            held = on_disk
        elif held is None and legacy:
            raise CarromlabError(
                f"{self.folder} holds game rows (games.csv/boards.csv) but no config.json, so "
                "its run's configuration is unknown; use a new folder or delete them"
            )
        if held is not None and not same_settings(held, self.config):
            raise CarromlabError(
                f"{self.folder} holds a run with another configuration "
                f"({differences(self.config, held)}); use a new folder or delete it"
            )
        if _held_config(self.db) is None:
            self._claim(held if held is not None else self.config, legacy)
        else:
            self._check_csv_not_ahead()
        stored = _held_config(self.db)
        if not (self.folder / "config.json").exists():
            _write_atomic(
                self.folder / "config.json",
                json.dumps(stored, indent=1, sort_keys=True).encode(),
            )
        # what the database holds, read once (this process is the folder's only writer):
        # the exports are rendered from it
        self._rows = _db_games(self.db)
        self._exported = float("-inf")
        if legacy:
            self.export_csv()  # the CSVs as rebuilt (unchanged bytes when they were whole)

    # ------------------------------------------------------------------ claiming

    def _claim(self, config: Config, legacy: bool) -> None:
        """Create the database: its configuration and, from a folder's CSVs, their rows."""
        games, boards = _legacy_rows(self.folder) if legacy else ([], {})
        with closing(_connect(self.db)) as con, _transaction(con):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    con.execute(statement)
            if con.execute("SELECT 1 FROM meta WHERE key = 'config'").fetchone():
                return  # claimed meanwhile
            con.execute(
                "INSERT INTO meta VALUES ('config', ?), ('schema', '1'), ('source', ?)",
                (json.dumps(config, sort_keys=True), "csv" if legacy else "new"),
            )
            for game, columns, row in games:
                bcols, brows = boards.get(game, (None, []))
                _insert(con, game, columns, row, bcols, brows)

    def _check_csv_not_ahead(self) -> None:
        path = self.folder / "games.csv"
        if not path.exists():
            return
        columns, rows = _read_csv_rows(path)
        if "game" not in columns:
            return
        at = columns.index("game")
        in_csv = {g for r in rows if (g := _as_game(r[at])) is not None}
        with closing(_connect(self.db)) as con:
            have = {g for (g,) in con.execute("SELECT game FROM games")}
        ahead = sorted(in_csv - have)
        if ahead:
            raise CarromlabError(
                f"{path} holds {len(ahead)} game(s) that {self.db.name} lacks (e.g. game "
                f"{ahead[0]}), written elsewhere; delete {self.db.name} to rebuild the log "
                "from the CSVs, or games.csv to keep the database's"
            )

    # ------------------------------------------------------------------ reading

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return read_log(self.folder)

    def done(self) -> set[int]:
        with closing(_connect(self.db)) as con:
            return {int(g) for (g,) in con.execute("SELECT game FROM games")}

    # ------------------------------------------------------------------ writing

    def add(self, rec: GameRecord) -> None:
        """Commit one finished game (its board rows and its row together), then perhaps
        export the CSVs (see the class)."""
        row = game_row(rec)
        columns, fields = _csv_fields(pd.DataFrame([row]))
        index = row["game"]
        if not isinstance(index, (int, np.integer)):
            raise CarromlabError(f"a game row's game is a whole number, not {index!r}")
        game = int(index)
        bcols: list[str] | None = None
        brows: list[list[str]] = []
        if len(rec.boards):
            bcols, brows = _csv_fields(rec.boards)
        with closing(_connect(self.db)) as con, _transaction(con):
            _insert(con, game, columns, fields[0], bcols, brows)
        self._rows.pop(game, None)  # a game added again moves to the end, as in the database
        self._rows[game] = ((columns, fields[0]), [(bcols or [], r) for r in brows])
        now = time.monotonic()
        if len(self._rows) <= EXPORT_EVERY_GAME_UP_TO or now - self._exported >= EXPORT_INTERVAL_S:
            self.export_csv()

    def export_csv(self) -> None:
        """Write ``boards.csv`` and ``games.csv`` from the database, atomically; a table
        without rows has no file."""
        boards, games = _flatten(self._rows)
        for name, rows in (("boards.csv", boards), ("games.csv", games)):
            path = self.folder / name
            if rows:
                _write_atomic(path, _render(rows).encode())
            elif path.exists():
                path.unlink()
        self._exported = time.monotonic()

    def write_parquet(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        from carromlab.analysis.results import write_parquet

        self.export_csv()
        boards, games = self.frames()
        for df, name in ((boards, "boards.parquet"), (games, "games.parquet")):
            if name == "boards.parquet" and not len(df.columns):
                continue  # a variant without boards (Carrooka): one row per game only
            df.attrs["config"] = self.config
            write_parquet(df, self.folder / name)
        return boards, games


# ---------------------------------------------------------------------- the database


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=60, isolation_level=None)
    con.execute("PRAGMA synchronous = FULL")
    return con


@contextmanager
def _transaction(con: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def _held_config(db: Path) -> dict[str, Any] | None:
    """The configuration a database holds; None without a database (or an empty one, left
    by a process killed while creating it)."""
    if not db.exists():
        return None
    try:
        with closing(_connect(db)) as con:
            got = con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
    except sqlite3.DatabaseError as e:
        if "no such table" in str(e):  # the creation never committed
            return None
        raise CarromlabError(
            f"{db} cannot be read as a game log ({e}); delete it to rebuild the log from the CSVs"
        ) from None
    if not got:
        return None
    config: dict[str, Any] = json.loads(got[0])  # a JSON object
    return config


def _insert(
    con: sqlite3.Connection,
    game: int,
    columns: list[str],
    row: list[str],
    board_columns: list[str] | None,
    board_rows: list[list[str]],
) -> None:
    con.execute("DELETE FROM boards WHERE game = ?", (game,))
    con.executemany(
        "INSERT INTO boards (game, board, row) VALUES (?, ?, ?)",
        [(game, i, json.dumps(r)) for i, r in enumerate(board_rows)],
    )
    if _test_hook is not None:
        _test_hook("boards", game)
    con.execute("DELETE FROM games WHERE game = ?", (game,))
    con.execute(
        "INSERT INTO games (game, columns, row, board_columns) VALUES (?, ?, ?, ?)",
        (
            game,
            json.dumps(columns),
            json.dumps(row),
            None if board_columns is None else json.dumps(board_columns),
        ),
    )


def _db_games(db: Path) -> DbGames:
    """``{game: (game row, [board rows])}`` in the order the games were committed (boards in
    their game's order), each row a ``(columns, fields)`` pair."""
    with closing(_connect(db)) as con:
        games: dict[int, tuple[CsvRow, list[CsvRow], list[str]]] = {
            game: ((json.loads(columns), json.loads(row)), [], bcols and json.loads(bcols))
            for game, columns, row, bcols in con.execute(
                "SELECT game, columns, row, board_columns FROM games ORDER BY seq"
            )
        }
        for game, row in con.execute("SELECT game, row FROM boards ORDER BY game, board"):
            if game in games:
                games[game][1].append((games[game][2], json.loads(row)))
    return {g: (row, boards) for g, (row, boards, _) in games.items()}


def _flatten(games: DbGames) -> tuple[list[CsvRow], list[CsvRow]]:
    """(board rows, game rows) of :func:`_db_games`."""
    return [b for _, bs in games.values() for b in bs], [row for row, _ in games.values()]


# ---------------------------------------------------------------------- CSV text


def _csv_fields(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """A frame's column names and rows as the fields pandas writes to CSV."""
    reader = csv.reader(io.StringIO(df.to_csv(index=False)))
    columns = next(reader)
    return columns, [r for r in reader]


def _render(rows: Sequence[CsvRow]) -> str:
    """CSV text of ``(columns, fields)`` rows: the columns in order of first appearance, a
    field a row lacks empty."""
    columns: list[str] = []
    seen: set[str] = set()
    for cols, _ in rows:
        if cols != columns:
            for c in cols:
                if c not in seen:
                    seen.add(c)
                    columns.append(c)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for cols, fields in rows:
        if cols == columns:
            writer.writerow(fields)
        else:
            have = dict(zip(cols, fields))
            writer.writerow([have.get(c, "") for c in columns])
    return out.getvalue()


def _frame(rows: Sequence[CsvRow]) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(_render(rows))) if rows else pd.DataFrame()


def _read_csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """A log CSV's header and rows; a last line cut short by a crash is dropped, and so is a
    line with the wrong number of fields (a cut line that a later append ran on)."""
    if not path.exists():
        return [], []
    text = path.read_text()
    text = text[: text.rfind("\n") + 1]
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return [], []
    columns = rows[0]
    return columns, [r for r in rows[1:] if len(r) == len(columns)]


def _as_game(field: str) -> int | None:
    try:
        return int(float(field))
    except (ValueError, OverflowError):
        return None


def _legacy_rows(
    folder: Path,
) -> tuple[list[tuple[int, list[str], list[str]]], dict[int, tuple[list[str], list[list[str]]]]]:
    """The rows of a folder's CSVs: ``[(game, columns, fields)]`` in file order (a game
    twice: its last row) and ``{game: (board columns, [fields])}``, the board rows of the
    games that have a row: a game's last run of them (a run ends where the game changes or
    the board number starts again: a crash between a game's boards and its row, then the
    rerun, leaves two)."""
    columns, rows = _read_csv_rows(folder / "games.csv")
    games: dict[int, list[str]] = {}
    if "game" in columns:
        at = columns.index("game")
        for r in rows:
            g = _as_game(r[at])
            if g is not None:
                games.pop(g, None)
                games[g] = r
    bcols, brows = _read_csv_rows(folder / "boards.csv")
    runs: dict[int, list[list[str]]] = {}
    if "game" in bcols:
        at = bcols.index("game")
        index = bcols.index("board") if "board" in bcols else None
        last: int | None = None
        last_board: int | None = None
        for r in brows:
            g = _as_game(r[at])
            if g is None or g not in games:
                last = None
                continue
            b = _as_game(r[index]) if index is not None else None
            if g != last or (b is not None and last_board is not None and b <= last_board):
                runs[g] = []  # a new run of this game's rows replaces an earlier one
            last, last_board = g, b
            runs[g].append(r)
    return (
        [(g, columns, r) for g, r in games.items()],
        {g: (bcols, rs) for g, rs in runs.items()},
    )


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``path`` through a temporary file in its folder (synced, then renamed); an
    unchanged file is left alone."""
    if path.exists() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    if _test_hook is not None:
        _test_hook("export", -1)
    os.replace(tmp, path)


# ---------------------------------------------------------------------- the folder


def _has_csv(folder: Path) -> bool:
    return (folder / "games.csv").exists() or (folder / "boards.csv").exists()


def _refuse_foreign(folder: Path) -> None:
    foreign = sorted(
        p.name + ("/" if p.is_dir() else "")
        for p in folder.iterdir()
        if p.is_dir() or not (p.name in OWN_FILES or OWN_PATTERN.match(p.name))
    )
    if not foreign:
        return
    if "sweep.json" in foreign or "shards/" in foreign:
        raise CarromlabError(
            f"{folder} is a sweep's folder (it holds "
            f"{'sweep.json' if 'sweep.json' in foreign else 'shards/'}), not a game log; "
            "use a new folder"
        )
    more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
    raise CarromlabError(
        f"{folder} holds {foreign[0]}{more}, not a game log's file; use a new folder"
    )


def read_log(folder: str | os.PathLike[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(boards, games) of a :class:`GameLog` folder: from ``log.sqlite`` when there is one,
    else from the CSVs (a line cut short dropped, and the boards of a game without its row;
    see :class:`GameLog`). Reading changes nothing in the folder."""
    path = Path(folder)
    if _held_config(path / DB) is not None:
        boards, games = _flatten(_db_games(path / DB))
    else:
        rows, runs = _legacy_rows(path)
        games = [(columns, r) for _, columns, r in rows]
        boards = [(runs[g][0], r) for g, _, _ in rows if g in runs for r in runs[g][1]]
    return _frame(boards), _frame(games)


#: Keys of run metadata that describe the software, not the run (a resumed run may differ).
VERSION_KEYS = ("carromlab", "jax", "numpy", "pandas", "device")


#: The keys of run metadata that hold players' reprs (a study's arm: one a seat; a play run).
REPR_KEYS = ("policies", "policy")


def _settings(config: Config) -> dict[str, object]:
    """A run's settings as compared: without the versions, its players' reprs under their
    current class names (:func:`current_repr`)."""
    out = {k: v for k, v in config.items() if k not in VERSION_KEYS}
    aliases = _player_aliases(config)
    for key in REPR_KEYS:
        value = out.get(key)
        if aliases and isinstance(value, str):
            out[key] = current_repr(value, aliases)
        elif aliases and isinstance(value, list):
            out[key] = [current_repr(v, aliases) if isinstance(v, str) else v for v in value]
    return out


def _player_aliases(config: Config) -> Mapping[str, str]:
    """The old class names of the players of the run's game (its ``game``, else its
    ``variant``; :attr:`~carromlab.registry.Game.player_aliases`), {} when it names none or
    no game is registered under it."""
    from carromlab.registry import get_game

    name = config.get("game") or config.get("variant")
    if not isinstance(name, str):
        return {}
    try:
        return get_game(name).player_aliases
    except CarromlabError:
        return {}


def current_repr(text: str, aliases: Mapping[str, str]) -> str:
    """A player's repr with its class name as it is now: ``ForceOutGreedy(skill=...)`` with
    ``{"ForceOutGreedy": "CircleScoresGreedy"}`` is ``CircleScoresGreedy(skill=...)``."""
    name, paren, rest = text.partition("(")
    return f"{aliases[name]}{paren}{rest}" if paren and name in aliases else text


def same_settings(held: Config, config: Config) -> bool:
    """Whether a folder claimed for ``held`` takes a run of ``config``: the same settings but
    for the software versions (:data:`VERSION_KEYS`), the players' reprs compared under their
    current class names (a game's players renamed since, with the old names it declares:
    :attr:`~carromlab.registry.Game.player_aliases`)."""
    return _settings(held) == _settings(config)


_ABSENT = object()


def _flat(d: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def differences(here: Config, there: Config, shown: int = 3) -> str:
    """``key: value here, value there`` for the settings that differ (nested keys dotted)."""
    a, b = _flat(_settings(here)), _flat(_settings(there))
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k, _ABSENT) != b.get(k, _ABSENT)]

    def show(v: object) -> str:
        if v is _ABSENT:
            return "absent"
        s = json.dumps(v, default=str)
        return s if len(s) <= 40 else s[:37] + "..."

    parts = [f"{k}: {show(a.get(k, _ABSENT))} here, {show(b.get(k, _ABSENT))} there" for k in keys]
    more = len(parts) - shown
    return "; ".join(parts[:shown] + ([f"and {more} more"] if more > 0 else []))


def kernel_meta(meta: Config, hand_set: float | None = None) -> dict[str, object]:
    """``meta`` with the kernel's contact model and the hand-set size the games use."""
    from carromlab.physics.kernel import DEFAULT_CONTACTS
    from carromlab.shots import HAND_SET

    return {
        **meta,
        "contacts": DEFAULT_CONTACTS,
        "hand_set": HAND_SET if hand_set is None else float(hand_set),
    }


def play_logged(
    folder: str | os.PathLike[str],
    meta: Config,
    policies: Sequence[Player],
    config: GameConfig,
    skill: Skills,
    seed: int,
    games: int,
    **options: Any,
) -> tuple[GameLog, list[int]]:
    """Play games ``0..games-1`` into the :class:`GameLog` ``folder`` (run metadata
    ``meta``), skipping those already there; the tables are written as parquet at the end.
    Returns the log and the games played now; ``options`` go to :func:`play_games`. The
    metadata also records the kernel's contact model and the hand-set size in use."""
    from carromlab.play.loop import play_games

    log = GameLog(folder, kernel_meta(meta, options.get("hand_set")))
    done = log.done()
    todo = [g for g in range(int(games)) if g not in done]
    if todo:
        play_games(policies, config, skill=skill, seed=seed, games=todo, on_game=log.add, **options)
    log.write_parquet()
    return log, todo
