"""The game log (carromlab.play.log): one SQLite transaction per finished game, resumable,
claimed by its configuration, exported to CSV atomically, rebuilt from committed CSVs, and
whole after a SIGKILL at any point. Fake game records only: no kernel runs here."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from carromlab.errors import CarromlabError
from carromlab.play import log as game_log
from carromlab.play.log import GameLog, game_row, read_log

ROOT = Path(__file__).resolve().parents[1]
CONFIG = {"kind": "test", "seed": 0, "rules": {"max_boards": 3, "tie": "sudden"}, "jax": "0.1"}


def record(g: int, rows: bool = True) -> SimpleNamespace:
    """A finished game with awkward values: floats, NaN, bools, quotes and commas."""
    boards = pd.DataFrame(
        [
            {
                "game": g,
                "board": b,
                "winner": (g + b) % 2,
                "points": (g * 3 + b) / 7,
                "queen_covered": b % 2 == 0,
                "note": 'a,"b"' if g % 4 == 0 else None,
                "neg": -b,
            }
            for b in range(1 + g % 3)
        ]
    )
    row = {
        "game": g,
        "winner": g % 2 - (g % 7 == 0),
        "score_0": g * 1.5,
        "finished": g % 5 != 0,
        "label": f"g{g}",
        "maybe": np.nan if g % 2 else 0.1 + 0.2,
    }
    return SimpleNamespace(row=row if rows else None, boards=boards, strokes=pd.DataFrame())


def old_add(folder: Path, rec) -> None:
    """What GameLog.add did before the database: append the boards, then the game's row."""
    for name, rows in (("boards.csv", rec.boards), ("games.csv", pd.DataFrame([game_row(rec)]))):
        if not len(rows):
            continue
        path = folder / name
        header = not path.exists() or path.stat().st_size == 0
        with path.open("a") as fh:
            fh.write(rows.to_csv(index=False, header=header))


def old_frames(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The frames the CSV path gave (read_log before the database)."""
    import io

    def rows(path):
        if not path.exists():
            return pd.DataFrame()
        text = path.read_text()
        text = text[: text.rfind("\n") + 1]
        return pd.read_csv(io.StringIO(text)) if text.strip() else pd.DataFrame()

    games, boards = rows(folder / "games.csv"), rows(folder / "boards.csv")
    if len(boards):
        done = set(games["game"]) if len(games) else set()
        boards = boards[boards["game"].isin(done)].reset_index(drop=True)
    return boards, games


def assert_same(got, want) -> None:
    for a, b in zip(got, want):
        pd.testing.assert_frame_equal(a, b, check_dtype=True, check_exact=True)


ORDER = [3, 0, 5, 1, 4, 2, 8, 6, 7]  # games end out of order


def test_round_trip_equals_the_csv_path(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    log = GameLog(new, CONFIG)
    for g in ORDER:
        old_add(old, record(g))
        log.add(record(g))
    assert_same(log.frames(), old_frames(old))
    assert_same(read_log(new), old_frames(old))
    assert_same(read_log(old), old_frames(old))  # a folder without a database: its CSVs
    for name in ("boards.csv", "games.csv"):  # the exports are the same bytes
        assert (new / name).read_bytes() == (old / name).read_bytes()
    assert log.done() == set(ORDER)
    assert sorted(os.listdir(new)) == ["boards.csv", "config.json", "games.csv", "log.sqlite"]
    assert json.loads((new / "config.json").read_text()) == CONFIG
    # rows built from the games' states (no row of their own) go the same way
    old, new = tmp_path / "old-state", tmp_path / "new-state"
    old.mkdir()
    log = GameLog(new, CONFIG)
    for g in (1, 0):
        state = SimpleNamespace(winner=None if g else 1, scores=(3, 11), boards_played=2, over=g)
        strokes = pd.DataFrame({"game": [g] * 3, "truncated": [False, True, bool(g)]})
        rec = SimpleNamespace(row=None, state=state, strokes=strokes, boards=record(g).boards)
        log.add(rec)
        old_add(old, rec)
    assert log.frames()[1]["truncated_strokes"].tolist() == [2, 1]
    assert log.frames()[1]["winner"].tolist() == [-1, 1]
    assert_same(log.frames(), old_frames(old))
    assert (new / "games.csv").read_bytes() == (old / "games.csv").read_bytes()


def test_columns_that_change_between_games_keep_their_values(tmp_path):
    log = GameLog(tmp_path, CONFIG)
    log.add(SimpleNamespace(row={"game": 0, "a": 1}, boards=pd.DataFrame()))
    log.add(SimpleNamespace(row={"game": 1, "b": "x", "a": 2}, boards=pd.DataFrame()))
    boards, games = log.frames()
    assert list(games.columns) == ["game", "a", "b"] and games["a"].tolist() == [1, 2]
    assert games["b"].isna().tolist() == [True, False] and boards.empty
    assert not (tmp_path / "boards.csv").exists()  # no boards, no boards.csv


def test_rerun_with_the_same_config_skips_and_never_duplicates(tmp_path):
    log = GameLog(tmp_path, CONFIG)
    for g in range(4):
        log.add(record(g))
    want = log.frames()
    again = GameLog(tmp_path, {**CONFIG, "jax": "9.9", "carromlab": "2"})  # versions may differ
    assert again.done() == {0, 1, 2, 3}
    again.add(record(2))  # a game added twice replaces its rows
    boards, games = again.frames()
    assert len(games) == 4 and games["game"].is_unique
    assert not boards.duplicated(["game", "board"]).any() and len(boards) == len(want[0])
    assert json.loads((tmp_path / "config.json").read_text())["jax"] == "0.1"  # the first's


def test_another_configuration_is_refused_naming_the_keys(tmp_path):
    GameLog(tmp_path, CONFIG)
    other = {**CONFIG, "seed": 1, "rules": {**CONFIG["rules"], "max_boards": 8}}
    with pytest.raises(CarromlabError) as err:
        GameLog(tmp_path, other)
    msg = str(err.value)
    assert "\n" not in msg and str(tmp_path) in msg and "another configuration" in msg
    assert "seed: 1 here, 0 there" in msg and "rules.max_boards: 8 here, 3 there" in msg
    with pytest.raises(CarromlabError, match='policy: "x" here, absent there'):
        GameLog(tmp_path, CONFIG | {"policy": "x"})
    # a folder claimed only by its config.json (written before the database) is refused too
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "config.json").write_text(json.dumps(CONFIG))
    with pytest.raises(CarromlabError, match="seed: 1 here, 0 there"):
        GameLog(legacy, other)
    assert not (legacy / "log.sqlite").exists()


def test_foreign_folders_are_refused(tmp_path):
    sweep = tmp_path / "sweep"
    (sweep / "shards").mkdir(parents=True)
    (sweep / "sweep.json").write_text("{}")
    with pytest.raises(CarromlabError, match=r"sweep's folder \(it holds sweep.json\)"):
        GameLog(sweep, CONFIG)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(CarromlabError, match=r"holds notes\.txt, not a game log's file"):
        GameLog(other, CONFIG)
    assert sorted(os.listdir(other)) == ["notes.txt"]  # nothing written
    rows = tmp_path / "rows"  # another run's rows without their configuration
    rows.mkdir()
    old_add(rows, record(0))
    with pytest.raises(CarromlabError, match=r"no config\.json"):
        GameLog(rows, CONFIG)
    ok = tmp_path / "ok"  # the cost notes an experiment writes beside its log are the log's
    ok.mkdir()
    (ok / "cost-2026-01-01-0.json").write_text("{}")
    GameLog(ok, CONFIG).add(record(0))
    log = GameLog(tmp_path / "nested", CONFIG)
    (log.folder / "sub").mkdir()
    with pytest.raises(CarromlabError, match="holds sub/"):
        GameLog(log.folder, CONFIG)


def test_a_legacy_csv_folder_is_rebuilt_and_resumes(tmp_path):
    ref = tmp_path / "ref"
    GameLog(ref, CONFIG)
    for g in range(10):
        GameLog(ref, CONFIG).add(record(g))
    # the old code: games 0-5, then a kill between game 6's boards and its row, a rerun
    # that logged game 6 again, then a kill in the middle of game 7's row
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "config.json").write_text(json.dumps(CONFIG, indent=1, sort_keys=True))
    for g in range(6):
        old_add(legacy, record(g))
    record(6).boards.to_csv(legacy / "boards.csv", mode="a", header=False, index=False)
    old_add(legacy, record(6))
    record(7).boards.to_csv(legacy / "boards.csv", mode="a", header=False, index=False)
    with (legacy / "games.csv").open("a") as fh:
        fh.write("7,1,10.")
    clean = tmp_path / "clean"
    clean.mkdir()
    for g in range(7):
        old_add(clean, record(g))
    assert_same(read_log(legacy), old_frames(clean))  # read as is: no duplicate, no orphan
    log = GameLog(legacy, CONFIG)
    assert log.done() == set(range(7))
    assert_same(log.frames(), old_frames(clean))
    for name in ("boards.csv", "games.csv"):  # the CSVs are rewritten whole
        assert (legacy / name).read_bytes() == (clean / name).read_bytes()
    for g in range(10):
        if g not in log.done():
            log.add(record(g))
    assert_same(read_log(legacy), read_log(ref))
    # a whole legacy folder: rebuilt, its committed CSVs left byte for byte
    whole = tmp_path / "whole"
    whole.mkdir()
    (whole / "config.json").write_text(json.dumps(CONFIG))
    for g in ORDER:
        old_add(whole, record(g))
    before = {n: (whole / n).read_bytes() for n in ("boards.csv", "games.csv", "config.json")}
    assert GameLog(whole, CONFIG).done() == set(ORDER)
    assert {n: (whole / n).read_bytes() for n in before} == before


def test_exports_are_atomic_and_throttled(tmp_path, monkeypatch):
    log = GameLog(tmp_path, CONFIG)
    log.add(record(0))
    before = (tmp_path / "games.csv").read_bytes()

    def fail(stage, game):
        if stage == "export":
            raise KeyboardInterrupt

    monkeypatch.setattr(game_log, "_test_hook", fail)
    with pytest.raises(KeyboardInterrupt):
        log.add(record(1))  # committed; its export stops after the temporary file
    monkeypatch.setattr(game_log, "_test_hook", None)
    assert (tmp_path / "boards.csv.tmp").exists()
    assert (tmp_path / "games.csv").read_bytes() == before  # the old state, whole
    log = GameLog(tmp_path, CONFIG)  # a stray temporary file is removed on opening
    assert log.done() == {0, 1}
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    monkeypatch.setattr(game_log, "EXPORT_EVERY_GAME_UP_TO", 3)
    monkeypatch.setattr(game_log, "EXPORT_INTERVAL_S", 1e9)
    for g in range(2, 6):
        log.add(record(g))
    assert set(old_frames(tmp_path)[1]["game"]) == {0, 1, 2}  # then not before a while
    log.export_csv()
    assert_same(old_frames(tmp_path), log.frames())
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_csv_from_elsewhere_ahead_of_the_database_is_refused(tmp_path):
    log = GameLog(tmp_path / "log", CONFIG)
    log.add(record(0))
    other = tmp_path / "other"
    other.mkdir()
    old_add(other, record(0))
    old_add(other, record(1))
    (log.folder / "games.csv").write_bytes((other / "games.csv").read_bytes())
    with pytest.raises(CarromlabError, match=r"1 game\(s\) that log.sqlite lacks \(e.g. game 1"):
        GameLog(log.folder, CONFIG)


def test_a_broken_database_is_one_line(tmp_path):
    (tmp_path / "log.sqlite").write_bytes(b"not a database, " * 100)
    with pytest.raises(CarromlabError, match=r"log\.sqlite cannot be read as a game log"):
        GameLog(tmp_path, CONFIG)


@pytest.mark.parametrize("cut", [b'{"seed": 0, "rul', b"", b"[1, 2]", b"\xff\xfe"])
def test_a_config_file_cut_short_is_one_line_with_or_without_the_database(tmp_path, cut):
    """A ``config.json`` cut short (or emptied, not an object, not UTF-8) is refused naming
    the file, whether the database holds the run (it used to play on beside it) or not (it
    used to stop with a traceback)."""
    log = GameLog(tmp_path, CONFIG)
    log.add(record(0))
    (tmp_path / "config.json").write_bytes(cut)
    with pytest.raises(CarromlabError, match=r"config\.json"):
        GameLog(tmp_path, CONFIG)
    (tmp_path / "log.sqlite").unlink()
    with pytest.raises(CarromlabError, match=r"config\.json"):
        GameLog(tmp_path, CONFIG)


def test_the_database_is_not_committed():
    for name in ("log.sqlite", "log.sqlite-journal", "log.sqlite-wal", "log.sqlite-shm"):
        path = f"data/studies/any/{name}"
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


# --------------------------------------------------------------------------- kill tests

DRIVER = """
import importlib.util, os, signal, sys
import pandas as pd

spec = importlib.util.spec_from_file_location("carromlab_game_log", sys.argv[1])
log = importlib.util.module_from_spec(spec)
spec.loader.exec_module(log)
folder, games, die = sys.argv[2], int(sys.argv[3]), sys.argv[4]
assert "jax" not in sys.modules

def record(g):
    boards = pd.DataFrame(
        [{"game": g, "board": b, "winner": (g + b) % 2, "points": (g * 3 + b) / 7,
          "note": 'a,"b"' if g % 4 == 0 else None} for b in range(2 + g % 3)]
    )
    row = {"game": g, "winner": g % 2, "score_0": g * 1.5, "finished": g % 5 != 0}
    return type("Rec", (), {"row": row, "boards": boards, "strokes": pd.DataFrame()})()

stage, _, at = die.partition(":")
calls = []
def hook(where, game):
    calls.append(where)
    if stage == "step":  # the at-th step: a game's play, its boards' insert, an export
        hit = len(calls) == int(at)
    else:
        hit = where == stage and (game == int(at) if where == "boards" else len(calls) == int(at))
    if hit:
        os.kill(os.getpid(), signal.SIGKILL)
log._test_hook = hook if stage else None
gl = log.GameLog(folder, {"kind": "kill-test", "seed": 5})
print("ready", flush=True)
done = gl.done()
for g in range(games):
    if g not in done:
        if stage == "step":
            hook("play", g)  # a game's play: kills land between games as well as in adds
        gl.add(record(g))
gl.export_csv()
print("finished", flush=True)
"""

GAMES = 30


def drive(tmp_path: Path, folder: Path, die: str = ""):
    script = tmp_path / "driver.py"
    if not script.exists():
        script.write_text(DRIVER)
    args = [sys.executable, str(script), str(ROOT / "carromlab/play/log.py"), str(folder)]
    with (tmp_path / "driver.err").open("w") as err:
        proc = subprocess.Popen(
            [*args, str(GAMES), die], stdout=subprocess.PIPE, stderr=err, text=True
        )
        ready = proc.stdout.readline().strip()
        out = proc.stdout.read()
        proc.wait(timeout=60)
    assert ready == "ready", (tmp_path / "driver.err").read_text()
    if not die:
        assert proc.returncode == 0 and "finished" in out, (tmp_path / "driver.err").read_text()
    return proc.returncode


def check_whole(folder: Path, reference) -> None:
    """Whatever committed is whole: each game logged has all its boards, once; the CSVs hold
    a committed state (a prefix of the games, each with all its boards; boards.csv, replaced
    first, may also hold the next game's, dropped on reading) and parse."""
    boards, games = read_log(folder)
    ref_boards, ref_games = reference
    if games.empty:  # killed before its first game committed
        assert boards.empty
        return
    assert games["game"].is_unique and not boards.duplicated(["game", "board"]).any()
    n = len(games)
    assert games["game"].tolist() == list(range(n))
    assert_same((boards, games), (ref_boards[ref_boards["game"] < n], ref_games.iloc[:n]))
    csv_boards, csv_games = old_frames(folder)
    if len(csv_games):
        m = len(csv_games)
        assert m <= n and csv_games["game"].tolist() == list(range(m))
        want = ref_boards[ref_boards["game"] < m].reset_index(drop=True)
        pd.testing.assert_frame_equal(csv_boards, want, check_exact=True)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """An uninterrupted run's folder and its tables."""
    tmp = tmp_path_factory.mktemp("uninterrupted")
    drive(tmp, tmp / "ref")
    reference = read_log(tmp / "ref")
    assert len(reference[1]) == GAMES and len(reference[0]) > GAMES
    return tmp / "ref", reference


def test_sigkill_at_random_steps_then_resume_equals_an_uninterrupted_run(tmp_path, uninterrupted):
    """Ten runs, each killed at a seeded random step (a game's play, its boards' insert inside
    the transaction, an export's file written and not renamed): placed by the run's progress,
    not by a time, so every run is cut short whatever the machine's speed."""
    ref, reference = uninterrupted
    folder = tmp_path / "killed"
    rng = np.random.default_rng(2024)
    for _ in range(10):
        logged = len(read_log(folder)[1]) if (folder / "log.sqlite").exists() else 0
        # a run has at least two steps a game left (its play and its boards' insert): any of
        # the first 2 x left is reached before the run ends
        step = int(rng.integers(1, 2 * (GAMES - logged) + 1))
        assert drive(tmp_path, folder, die=f"step:{step}") == -signal.SIGKILL, step
        check_whole(folder, reference)
    assert len(read_log(folder)[1]) < GAMES
    drive(tmp_path, folder)
    assert_same(read_log(folder), reference)
    for name in ("boards.csv", "games.csv"):
        assert (folder / name).read_bytes() == (ref / name).read_bytes()
    assert sorted(os.listdir(folder)) == sorted(os.listdir(ref))


def test_sigkill_between_a_games_boards_and_its_row(tmp_path, uninterrupted):
    ref, reference = uninterrupted
    folder = tmp_path / "killed"
    assert drive(tmp_path, folder, die="boards:7") == -signal.SIGKILL
    with sqlite3.connect(folder / "log.sqlite") as con:  # the hot journal rolls back
        assert con.execute("SELECT count(*) FROM boards WHERE game = 7").fetchone() == (0,)
        assert con.execute("SELECT max(game) FROM games").fetchone() == (6,)
    check_whole(folder, reference)
    assert drive(tmp_path, folder, die="export:9") == -signal.SIGKILL  # mid-export
    assert any(p.endswith(".tmp") for p in os.listdir(folder))
    check_whole(folder, reference)
    drive(tmp_path, folder)
    assert_same(read_log(folder), reference)
    assert sorted(os.listdir(folder)) == ["boards.csv", "config.json", "games.csv", "log.sqlite"]
    for name in ("boards.csv", "games.csv"):
        assert (folder / name).read_bytes() == (ref / name).read_bytes()
