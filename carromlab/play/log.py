"""The game log: rows of finished games written as they come, resumable."""

from __future__ import annotations

import pandas as pd

from carromlab.errors import CarromlabError
from carromlab.play.loop import GameRecord, play_games


def game_row(rec: GameRecord) -> dict:
    """One row for a finished game: winner (side; -1 for a draw or an unfinished game),
    scores per side, boards, strokes, the truncated strokes."""
    if rec.row is not None:
        return dict(rec.row)
    st = rec.state
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


class GameLog:
    """Rows of finished games, written as they come, so a long run loses nothing and resumes.

    ``folder/boards.csv`` (one row per board) and ``folder/games.csv`` (one per game) are
    appended when a game ends (the game's row last: a game counts as done once its row is
    complete); ``folder/config.json`` holds the run's configuration, and a rerun with another
    configuration in the same folder is refused. :meth:`done` lists the games already there;
    :meth:`frames` reads both tables back (dropping the boards of a game whose row was cut
    short); :meth:`write_parquet` writes them as parquet with the configuration attached.
    """

    def __init__(self, folder, config: dict):
        import json
        from pathlib import Path

        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.config = json.loads(json.dumps(config, default=str))
        path = self.folder / "config.json"
        if path.exists():
            old = json.loads(path.read_text())
            if _settings(old) != _settings(self.config):
                raise CarromlabError(
                    f"{self.folder} holds a run with another configuration; "
                    "use a new folder or delete it"
                )
        else:
            path.write_text(json.dumps(self.config, indent=1, sort_keys=True))

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return read_log(self.folder)

    def done(self) -> set[int]:
        games = _read_rows(self.folder / "games.csv")
        return set(int(g) for g in games["game"]) if len(games) else set()

    def add(self, rec: GameRecord) -> None:
        for name, rows in (
            ("boards.csv", rec.boards),
            ("games.csv", pd.DataFrame([game_row(rec)])),
        ):
            if not len(rows):
                continue
            path = self.folder / name
            header = not path.exists() or path.stat().st_size == 0
            with path.open("a") as fh:
                fh.write(rows.to_csv(index=False, header=header))
                fh.flush()

    def write_parquet(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        from carromlab.analysis.results import write_parquet

        boards, games = self.frames()
        for df, name in ((boards, "boards.parquet"), (games, "games.parquet")):
            if name == "boards.parquet" and not (self.folder / "boards.csv").exists():
                continue  # a variant without boards (Carrooka): one row per game only
            df.attrs["config"] = self.config
            write_parquet(df, self.folder / name)
        return boards, games


def _read_rows(path) -> pd.DataFrame:
    import io

    if not path.exists():
        return pd.DataFrame()
    text = path.read_text()
    text = text[: text.rfind("\n") + 1]  # a line cut short by a crash is dropped
    return pd.read_csv(io.StringIO(text)) if text.strip() else pd.DataFrame()


def read_log(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(boards, games) of a :class:`GameLog` folder; boards of a game whose row is missing
    (cut short by a crash) are dropped."""
    from pathlib import Path

    folder = Path(folder)
    games = _read_rows(folder / "games.csv")
    boards = _read_rows(folder / "boards.csv")
    if len(boards):
        done = set(games["game"]) if len(games) else set()
        boards = boards[boards["game"].isin(done)].reset_index(drop=True)
    return boards, games


#: Keys of run metadata that describe the software, not the run (a resumed run may differ).
VERSION_KEYS = ("carromlab", "jax", "numpy", "pandas", "device")


def _settings(config: dict) -> dict:
    return {k: v for k, v in config.items() if k not in VERSION_KEYS}


def kernel_meta(meta: dict, hand_set=None) -> dict:
    """``meta`` with the kernel's contact model and the hand-set size the games use."""
    from carromlab.physics.simulate import DEFAULT_CONTACTS
    from carromlab.shots import HAND_SET

    return {
        **meta,
        "contacts": DEFAULT_CONTACTS,
        "hand_set": HAND_SET if hand_set is None else float(hand_set),
    }


def play_logged(
    folder, meta: dict, policies, config, skill, seed: int, games: int, **options
) -> tuple[GameLog, list[int]]:
    """Play games ``0..games-1`` into the :class:`GameLog` ``folder`` (run metadata
    ``meta``), skipping those already there; the tables are written as parquet at the end.
    Returns the log and the games played now; ``options`` go to :func:`play_games`. The
    metadata also records the kernel's contact model and the hand-set size in use."""
    log = GameLog(folder, kernel_meta(meta, options.get("hand_set")))
    done = log.done()
    todo = [g for g in range(int(games)) if g not in done]
    if todo:
        play_games(policies, config, skill=skill, seed=seed, games=todo, on_game=log.add, **options)
    log.write_parquet()
    return log, todo
