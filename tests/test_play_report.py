"""PlayReport (carromlab/reports/play.py) from Python, without the command line: whole games
played into a game log, their rows, what they come to, what ``carromlab play`` prints and
writes, and the same report read back from the folder. Two random ICF games of one board."""

from __future__ import annotations

import io
import json

import pytest
from cli_run import run
from rich.console import Console
from test_play_summary import check_printed

from carromlab.analysis.results import read_parquet
from carromlab.errors import CarromlabError
from carromlab.play.summary import play_summary
from carromlab.reports import PlayReport
from carromlab.reports.play import results_tables
from carromlab.run_options import PlayOptions

OPTIONS = PlayOptions(variant="icf", games=2, policy="random", seed=3)
RULES = {"max_boards": 1}
#: The same run as the command line's options.
ARGS = ["play", "--policy", "random", "--games", "2", "--boards", "1", "--seed", "3"]


def _text(parts) -> str:
    out = io.StringIO()
    console = Console(file=out, width=80)
    for part in parts:
        console.print(part, highlight=False)
    return out.getvalue()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("play")
    resumed = []
    report = PlayReport.run(
        OPTIONS, folder, game_options=RULES, on_resume=lambda k, n: resumed.append((k, n))
    )
    return folder, report, resumed


def test_games_played_from_python(played):
    folder, report, resumed = played
    assert resumed == []  # a new folder: nothing to resume
    assert len(report.table) == 2 and len(report.boards) == 2
    assert report.players == 2 and report.seat_word == "seat" and report.resumed == 0
    assert report.config["policy"] == "random" and report.config["rules"]["max_boards"] == 1
    # the files the log wrote are the report's rows, with the run's configuration
    games = read_parquet(folder / "games.parquet")
    assert games.equals(report.table) and games.attrs["config"] == report.config
    assert report.results() == play_summary(report.table, report.boards)
    assert report.truncation is not None and report.truncation.unit == "strokes"


def test_what_the_report_says(played):
    folder, report, _ = played
    summary = report.summary()
    assert summary["out"] == str(folder) and summary["variant"] == "icf"
    assert (summary["policy"], summary["skill"], summary["by"]) == ("random", "club", "seat")
    assert summary["wrote"] == {"games": 2, "boards": 2} and summary["games"] == 2
    assert summary["truncated"] == int(report.table["truncated_strokes"].sum())
    lines = report.lines()
    assert lines[0] == f"wrote 2 boards and 2 games to {folder}"
    assert lines[1].startswith("truncated: ") and lines[1].endswith(" %)")
    assert report.title == "results: icf, 2 games, random players (club)"
    text = _text(report.tables())
    assert text.startswith(report.title)
    check_printed(text, report.table, report.boards)
    assert _text(results_tables(report.results(), report.title)) == text


def test_the_command_line_prints_the_report(played, capsys):
    folder, report, _ = played
    code, out, _ = run(capsys, *ARGS, "--out", str(folder))
    assert code == 0
    assert out.startswith(f"resuming: 2 of 2 games already in {folder}\n")
    for line in report.lines():
        assert f"{line}\n" in out
    assert report.title in out
    code, out, _ = run(capsys, *ARGS, "--out", str(folder), "--json")
    again = PlayReport.run(OPTIONS, folder, game_options=RULES)
    assert again.resumed == 2 and json.loads(out) == json.loads(
        json.dumps(again.summary(), default=str)
    )


def test_a_rerun_resumes_and_a_folder_reads_back(played, tmp_path):
    folder, report, _ = played
    told = []
    more = PlayReport.run(
        PlayOptions(variant="icf", games=3, policy="random", seed=3),
        folder,
        game_options=RULES,
        on_resume=lambda k, n: told.append((k, n)),
    )
    assert told == [(2, 3)] and more.resumed == 2 and len(more.table) == 3
    assert more.table.iloc[:2].equals(report.table)
    back = PlayReport.from_folder(folder, games=2)
    assert back.table.equals(report.table) and back.config == report.config
    assert back.results() == report.results()
    # other options in the same folder are refused
    with pytest.raises(CarromlabError, match="another configuration"):
        PlayReport.run(
            PlayOptions(variant="icf", games=2, policy="random", seed=4), folder, game_options=RULES
        )
    # save: the rows and the configuration, elsewhere
    written = report.save(tmp_path / "copy")
    assert sorted(p.name for p in written) == ["boards.parquet", "games.parquet"]
    copy = PlayReport.from_table(
        read_parquet(tmp_path / "copy" / "games.parquet"),
        read_parquet(tmp_path / "copy" / "boards.parquet"),
    )
    assert copy.table.equals(report.table) and copy.config == report.config
    assert copy.results() == report.results()
