"""An interrupted shot map keeps its finished cells and resumes to the same map (issue 22)."""

import json

import pandas as pd
import pytest

from carromlab.analysis import shotmap
from carromlab.analysis.shotmap import PARTIAL, ShotMapInterrupted, shot_map
from carromlab.errors import CarromlabError
from carromlab.registry import standard_position

#: A tiny grid: 4 placements (0.25 m is off the legal baseline: n = 0) x 5 angles, 32 shots a
#: cell, 64-shot chunks (the smallest chunk size), so blocks of 8 cells (4 chunks).
GRID = ([-0.1, 0.0, 0.1, 0.25], [60.0, 75.0, 90.0, 105.0, 120.0], [2.0])
KW = dict(skill="club", n=32, seed=3, chunk=64, pieces=("w1",), per_pocket=True)


def _interrupt_after(monkeypatch, chunks: int) -> list[int]:
    """Ctrl-C in the middle of the run: KeyboardInterrupt at the chunk after ``chunks``."""
    seen = [0]
    tally = shotmap.tally_chunk

    def tally_then_stop(*a, **k):
        if seen[0] == chunks:
            raise KeyboardInterrupt
        seen[0] += 1
        return tally(*a, **k)

    monkeypatch.setattr(shotmap, "tally_chunk", tally_then_stop)
    return seen


def test_an_interrupted_map_resumes_to_the_uninterrupted_one(monkeypatch, tmp_path):
    pos = standard_position("icf-midgame")
    whole = shot_map(pos, *GRID, **KW)
    folder = tmp_path / PARTIAL
    _interrupt_after(monkeypatch, 6)  # the first block (4 chunks) done, the second cut short
    with pytest.raises(ShotMapInterrupted) as stop:
        shot_map(pos, *GRID, store=folder, **KW)
    assert (stop.value.kept, stop.value.total) == (8, 15)
    assert isinstance(stop.value, KeyboardInterrupt)
    assert len(list(folder.glob("cells-*.parquet"))) == 1
    assert not list(folder.glob("*.tmp"))
    monkeypatch.undo()
    # the rerun computes only the 7 missing cells
    calls, resumed = [], []
    evaluate = shotmap.evaluate_cells
    monkeypatch.setattr(
        shotmap,
        "evaluate_cells",
        lambda p, cells, **k: calls.append(len(cells)) or evaluate(p, cells, **k),
    )
    again = shot_map(pos, *GRID, store=folder, on_resume=lambda *a: resumed.append(a), **KW)
    assert calls == [7] and resumed == [(8, 15)]
    pd.testing.assert_frame_equal(again, whole, check_exact=True)
    assert again.attrs["config"]["kind"] == "shot_map"
    assert (again["placement"] == 0.25).sum() == 5 and (
        again.loc[again["placement"] == 0.25, "n"] == 0
    ).all()
    # other blocks: the same numbers
    other = shot_map(pos, *GRID, store=tmp_path / "other", block=3, **KW)
    pd.testing.assert_frame_equal(other, whole, check_exact=True)


def test_a_stored_map_with_other_settings_is_refused(monkeypatch, tmp_path):
    pos = standard_position("icf-midgame")
    folder = tmp_path / PARTIAL
    _interrupt_after(monkeypatch, 4)
    with pytest.raises(ShotMapInterrupted):
        shot_map(pos, *GRID, store=folder, **KW)
    monkeypatch.undo()
    with pytest.raises(CarromlabError, match=r"another --n \(32 there, 16 here\)") as e:
        shot_map(pos, *GRID, store=folder, **{**KW, "n": 16})
    assert len(str(e.value).splitlines()) == 1 and str(folder) in str(e.value)
    with pytest.raises(CarromlabError, match="another --angles"):
        shot_map(pos, GRID[0], [60.0, 90.0], GRID[2], store=folder, **KW)
    held = json.loads((folder / "config.json").read_text())
    assert held["n"] == 32 and held["seed"] == 3


def test_the_command_line_keeps_the_cells_on_ctrl_c_and_resumes(capsys, monkeypatch, tmp_path):
    """Ctrl-C: one line, exit code 130, the cells kept; other options refused with one line;
    the same command resumes and the finished map leaves no partial folder behind."""
    from cli_run import run

    from carromlab.analysis.results import read_parquet

    args = ["shotmap", "--position", "icf-midgame", "--placements=-0.1,0,0.1,0.25"]
    args += ["--angles", "60:120:5", "--n", "32", "--seed", "3", "--chunk", "64"]
    args += ["--out", str(tmp_path)]
    _interrupt_after(monkeypatch, 5)
    code, _, err = run(capsys, *args)
    lines = [x for x in err.splitlines() if "shot map:" not in x]
    assert code == 130
    assert lines[-1] == (
        f"interrupted: 8 of 15 cells kept in {tmp_path / PARTIAL}; rerun the same command to resume"
    )
    monkeypatch.undo()
    code, _, err = run(capsys, *args, "--seed", "4")
    assert code == 2 and err.count("\n") == 1 and "another --seed (3 there, 4 here)" in err
    code, _, err = run(capsys, *args)
    assert code == 0 and f"resuming: 8 of 15 cells kept in {tmp_path / PARTIAL}" in err
    assert not (tmp_path / PARTIAL).exists()
    pos = standard_position("icf-midgame")
    ids = tuple(p.id for p in pos.pieces)
    whole = shot_map(pos, *GRID, **{**KW, "pieces": ids})
    got = read_parquet(tmp_path / "shotmap.parquet")
    pd.testing.assert_frame_equal(got, whole, check_exact=True)
