"""What `carromlab play` ends with: the wins by seat with Wilson intervals, each seat's means
and the games' counts, checked against the game rows they are read from (the studies'
committed logs of every game; a run through the command line in tests/test_cli.py and
tests/test_conformance.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest

from carromlab.analysis.results import read_parquet
from carromlab.play.summary import n_seats, play_summary, seat_columns

STUDIES = Path(__file__).resolve().parents[1] / "data" / "studies"
#: One committed log of every game with whole-game rows (ICF's with its boards).
LOGS = {
    "icf": "icf_balance/queen/queen-3",
    "carrooka": "carrooka/club",
    "carroms": "company/carroms",
    "force-out": "company/force-out",
    "circle-scores": "company/circle-scores",  # with draws (and Force Out)
    "ring-pegs": "company/ring-pegs-club",
    "kooba": "kooba/3p",  # three seats
}


def _log(name):
    folder = STUDIES / LOGS[name]
    games = read_parquet(folder / "games.parquet")
    boards = folder / "boards.parquet"
    return games, read_parquet(boards) if boards.exists() else None


@pytest.mark.parametrize("name", list(LOGS))
def test_the_summary_is_the_game_rows_counted(name):
    games, boards = _log(name)
    s = play_summary(games, boards)
    n = len(games)
    seats = 3 if name == "kooba" else 2
    assert s["games"] == n and s["seats"] == seats == n_seats(games)
    assert s["fair_share"] == pytest.approx(1 / seats)
    assert s["finished"] == int(games["finished"].sum())
    draws = int(((games["winner"] == -1) & games["finished"]).sum())
    assert s["draws"] == draws and (draws > 0 or name not in ("circle-scores", "force-out"))
    # every game is one seat's win, a draw or unfinished
    assert sum(r["wins"] for r in s["by_seat"]) + draws + s["unfinished"] == n
    for r in s["by_seat"]:
        k = int((games["winner"] == r["seat"]).sum())
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert r["wins"] == k and r["win_rate"] == pytest.approx(k / n)
        assert (r["win_lo"], r["win_hi"]) == pytest.approx((ci.low, ci.high), abs=1e-9)
        for col, cols in seat_columns(games).items():
            if col in s["per_seat"]:
                mean = games[cols[r["seat"]]].astype(float).mean()
                assert r[col] == pytest.approx(mean)
    if name != "kooba":
        assert s["per_seat"][0] == "score"
        assert [r["score"] for r in s["by_seat"]] == pytest.approx(
            [games["score_0"].mean(), games["score_1"].mean()]
        )
    else:  # the entrants are who sat where, not a result
        assert "entrant" not in s["per_seat"] and {"marker", "attacked"} <= set(s["per_seat"])
    counts = {c["name"]: c for c in s["counts"]}
    for col, c in counts.items():
        assert c["total"] == pytest.approx(games[col].astype(float).sum())
        assert c["per_game"] == pytest.approx(games[col].astype(float).mean())
    assert not {"game", "winner", "winner_entrant", "finished", "players"} & set(counts)
    assert "turn_points" not in counts  # Carrooka's turns as text: not a count
    if "truncated_strokes" in counts:
        t = counts["truncated_strokes"]
        assert t["share"] == pytest.approx(t["total"] / games["strokes"].sum())
    if name == "icf":
        b = s["boards"]
        assert b["boards"] == len(boards) == games["boards"].sum()
        assert sum(b["won"]) == len(boards)
        assert b["striker_pocketed"] == boards["striker_pocketed"].sum()
        assert b["breaker_wins"]["wins"] == (boards["winner"] == boards["breaker_side"]).sum()
        assert b["queen_covered"] == boards["queen_covered"].sum()
    else:
        assert "boards" not in s


def test_a_seat_without_wins_and_unfinished_games():
    """Unfinished games (no winner) count among the games a seat could have won; a seat that
    never won has the interval from 0."""
    games, _ = _log("ring-pegs")
    games = games.head(10).copy()
    games.loc[games.index[:4], ["winner", "finished"]] = [-1, False]
    games.loc[games.index[4:], "winner"] = 1
    s = play_summary(games)
    assert s["unfinished"] == 4 and s["draws"] == 0
    zero, six = s["by_seat"]
    assert zero["wins"] == 0 and zero["win_lo"] == 0.0 and 0.2 < zero["win_hi"] < 0.35
    assert six["wins"] == 6 and six["win_rate"] == pytest.approx(0.6)


#: A seat's row of the printed table: seat, wins, win rate, interval, then its means.
SEAT_ROW = re.compile(
    r"^\s*(\d+)\s+([\d,]+)\s+([\d.]+) %\s+\[([\d.]+), ([\d.]+)\] %((?:\s+[\d.,%-]+)*)\s*$"
)


def seat_rows(text: str) -> list[tuple]:
    """The seat rows of `carromlab play`'s results table: (seat, wins, rate %, lo %, hi %,
    [the means as printed])."""
    rows = []
    for line in text.splitlines():
        m = SEAT_ROW.match(line)
        if m:
            s, w, r, lo, hi, rest = m.groups()
            rows.append((int(s), int(w.replace(",", "")), float(r), float(lo), float(hi), rest))
    return rows


def check_printed(text: str, games, boards=None) -> None:
    """The printed results agree with the game rows: each seat's wins, rate and interval
    (to the printed 0.1 %) and its mean points (to the printed 0.01)."""
    rows = seat_rows(text)
    n = len(games)
    assert [r[0] for r in rows] == list(range(n_seats(games))), text
    for seat, wins, rate, lo, hi, rest in rows:
        k = int((games["winner"] == seat).sum())
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert wins == k and rate == pytest.approx(100 * k / n, abs=0.051)
        assert (lo, hi) == pytest.approx((100 * ci.low, 100 * ci.high), abs=0.051)
        if "score_0" in games.columns:
            points = float(rest.split()[0])
            assert points == pytest.approx(games[f"score_{seat}"].mean(), abs=0.0051)
    assert f"fair share {100 / n_seats(games):.1f} %" in text
    if boards is not None:
        fouls = int(boards["striker_pocketed"].sum())
        assert re.search(rf"striker pocketed \(fouls\)\s+{fouls:,}\s", text), text
        assert re.search(rf"boards\s+{len(boards):,}\s", text), text


def test_seat_rows_read_what_the_table_prints(capsys):
    from carromlab.cli.summaries import print_play_summary

    for name in ("icf", "kooba"):
        games, boards = _log(name)
        print_play_summary(play_summary(games, boards), "results")
        text = capsys.readouterr().out
        check_printed(text, games, boards)
        # the check fails on a table that is not the rows'
        other = games.assign(winner=np.where(games["winner"] == 0, 1, games["winner"]))
        with pytest.raises(AssertionError):
            check_printed(text, other, boards)
