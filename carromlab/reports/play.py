"""Whole games as one object: the games played, what they come to, and their files.

``PlayReport.run(options, out)`` plays the games a :class:`~carromlab.run_options.PlayOptions`
describes between the game's players into the game log ``out`` (one transaction a finished
game in ``out/log.sqlite``, the CSVs as it goes, parquet at the end; a rerun with the same
options resumes: :mod:`carromlab.play.log`), with the run's configuration (variant, policy,
the player's detail, skill, rules, seed, versions, the kernel's contact model and hand-set
size) as the log's metadata. ``PlayReport.from_folder(out)`` reads a log played before, and
``PlayReport.from_table(games, boards)`` wraps game rows made elsewhere.

``.table`` holds the game rows (one per game), ``.boards`` carrom's board rows (empty for a
game without boards); ``.results()`` what they come to
(:func:`~carromlab.play.summary.play_summary`: the wins by seat with their intervals, each
seat's means, the games' counts); ``.summary()`` what ``carromlab play --json`` prints;
``.lines()`` and ``.tables()`` what ``carromlab play`` prints (the files written, the
truncated strokes, then the results as two tables); ``.save(out)`` writes
``games.parquet`` (and ``boards.parquet``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carromlab.errors import CarromlabError
from carromlab.reports.base import Report

if TYPE_CHECKING:
    import pandas as pd

    from carromlab.analysis.truncation import Truncation
    from carromlab.run_options import PlayOptions


class PlayReport(Report):
    """Whole games (``table``: one row per game; ``boards``: one per board, where the game
    has boards) with the run's configuration (``meta``). ``players``: the seats at the table
    (ICF doubles: 4, whose game rows count 2 sides; None: as many as the rows' seats);
    ``resumed``: the games a rerun found in its folder already; ``out``: the log's
    folder."""

    def __init__(
        self,
        games: pd.DataFrame,
        boards: pd.DataFrame | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        players: int | None = None,
        resumed: int = 0,
        out=None,
    ):
        import pandas as pd

        super().__init__(games)
        self.boards = boards if boards is not None else pd.DataFrame()
        self.meta = dict(meta if meta is not None else games.attrs.get("config") or {})
        self.players = players
        self.resumed = int(resumed)
        self.out = None if out is None else Path(out)
        self._results: dict | None = None

    # ------------------------------------------------------------------ making one
    @classmethod
    def run(
        cls,
        options: PlayOptions,
        out,
        *,
        game_options: Mapping[str, Any] | None = None,
        progress: bool = False,
        on_resume: Callable[[int, int], None] | None = None,
    ) -> PlayReport:
        """Play ``options.games`` games (those the log ``out`` holds already are kept, and
        ``on_resume(kept, games)`` is told of them before play starts) of
        ``options.variant`` under its rule configuration with ``game_options`` (the game's
        own ``play`` options, by key), every seat the game's ``options.policy`` player at
        ``options.skill``. A folder whose ``config.json`` cannot be read, or that holds a
        run of other options, is refused before any game."""
        from carromlab.analysis.estimate import run_metadata
        from carromlab.play import GameLog, driver_for, play_logged
        from carromlab.play.log import kernel_meta, read_config_file
        from carromlab.registry import get_game

        variant, games = options.variant, options.games
        game = get_game(variant)
        if game.driver is None or not game.players:
            raise CarromlabError(f"whole games are not available for {variant!r}")
        policy = game.policy_name(options.policy)  # "strongest": the game's
        read_config_file(out)  # a config.json cut short: refused before any work
        config = game.make_config(variant, **dict(game_options or {}))
        chooser = game.make_player(policy, skill=options.skill, variant=variant)
        meta = run_metadata(
            kind="play",
            variant=variant,
            policy=policy,
            policy_detail=repr(chooser),
            skill=options.skill,
            rules={k: v for k, v in vars(config).items() if k != "board"},
            seed=options.seed,
        )
        done = GameLog(out, kernel_meta(meta)).done()
        resumed = len(done & set(range(games)))
        if resumed and on_resume is not None:
            on_resume(resumed, games)
        driver = driver_for(config)
        log, _ = play_logged(
            out,
            meta,
            [chooser] * driver.n_seats,
            config,
            options.skill,
            options.seed,
            games,
            slots=options.slots,
            progress=progress,
        )
        boards, rows = log.frames()
        rows = rows[rows["game"] < games]
        if len(boards):
            boards = boards[boards["game"] < games]
        return cls(rows, boards, meta=log.config, players=driver.n_seats, resumed=resumed, out=out)

    @classmethod
    def from_folder(cls, out, games: int | None = None, players: int | None = None) -> PlayReport:
        """A report of the game log in the folder ``out`` (its first ``games`` games; None:
        every one), with the run's configuration from its ``config.json``."""
        from carromlab.play.log import read_config_file, read_log

        meta = read_config_file(out) or {}
        boards, rows = read_log(out)
        if games is not None:
            rows = rows[rows["game"] < games] if len(rows) else rows
            boards = boards[boards["game"] < games] if len(boards) else boards
        return cls(rows, boards, meta=meta, players=players, out=out)

    @classmethod
    def from_table(
        cls,
        games: pd.DataFrame,
        boards: pd.DataFrame | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        players: int | None = None,
    ) -> PlayReport:
        """A report of game rows (and board rows) made before (``games.parquet``'s, read
        back with :func:`~carromlab.analysis.results.read_parquet`: its configuration comes
        with it)."""
        return cls(games, boards, meta=meta, players=players)

    # ------------------------------------------------------------------ what it says
    @property
    def config(self) -> dict:
        """The run's configuration (the log's metadata)."""
        return self.meta

    @property
    def truncation(self) -> Truncation | None:
        """The strokes that hit the kernel's event cap (None where none are counted)."""
        from carromlab.analysis.truncation import truncation

        return truncation(self.table)

    def results(self) -> dict:
        """What the games come to (:func:`~carromlab.play.summary.play_summary`, plain JSON
        data): the wins by seat with their 95 % intervals, each seat's means per game, the
        games' counts, and carrom's boards."""
        if self._results is None:
            from carromlab.play.summary import play_summary

            boards = self.boards if len(self.boards) else None
            self._results = play_summary(self.table, boards)
        return self._results

    @property
    def seat_word(self) -> str:
        """``side`` where partners share one (ICF doubles: the rows' winner and scores are
        the sides'), else ``seat``."""
        players = self.players or 0
        return "side" if players > self.results()["seats"] else "seat"

    @property
    def title(self) -> str:
        """The results' title: the variant, the games, the players and their skill."""
        m = self.meta
        return (
            f"results: {m.get('variant', '')}, {len(self.table):,} games, "
            f"{m.get('policy', '')} players ({m.get('skill', '')})"
        )

    def summary(self) -> dict:
        """What ``carromlab play --json`` prints: the folder (``out``), ``variant``,
        ``policy``, ``skill``, the games found played already (``resumed``), the rows
        written (``wrote``: games, boards), the truncated strokes (``truncated``,
        ``p_truncated``), ``by`` (seat or side) and the :meth:`results`."""
        cut = self.truncation
        return {
            "out": None if self.out is None else str(self.out),
            "variant": self.meta.get("variant"),
            "policy": self.meta.get("policy"),
            "skill": self.meta.get("skill"),
            "resumed": self.resumed,
            "wrote": {"games": len(self.table), "boards": len(self.boards)},
            **(cut.as_dict() if cut is not None else {}),
            "by": self.seat_word,
            **self.results(),
        }

    def lines(self) -> list[str]:
        """What ``carromlab play`` prints before the results: the rows written and where,
        and the truncated strokes."""
        where = f" to {self.out}" if self.out is not None else ""
        if not len(self.boards):
            out = [f"wrote {len(self.table)} games{where}"]
        else:
            out = [f"wrote {len(self.boards)} boards and {len(self.table)} games{where}"]
        cut = self.truncation
        if cut is not None:
            out.append(f"truncated: {cut.counts()}")
        return out

    def tables(self) -> list:
        """The results as ``carromlab play`` ends with them (:func:`results_tables`): the
        title, the table by seat (or side) and the table of counts."""
        return results_tables(self.results(), self.title, self.seat_word)

    # ------------------------------------------------------------------ its files
    def save(self, out) -> list[Path]:
        """Write ``games.parquet`` and, where the game has boards, ``boards.parquet`` (each
        with the run's configuration) to the folder ``out``. Returns the paths written."""
        from carromlab.analysis.results import write_parquet

        folder = self._folder(out)
        written = []
        for df, name in ((self.boards, "boards.parquet"), (self.table, "games.parquet")):
            if name == "boards.parquet" and not len(df.columns):
                continue  # a variant without boards (Carrooka): one row per game only
            df = df.copy()
            df.attrs["config"] = self.meta
            written.append(write_parquet(df, folder / name))
        return written


# ---------------------------------------------------------------------- the results' tables


def pct(v: float) -> str:
    return "-" if v is None or not math.isfinite(v) else f"{100 * v:.1f} %"


def interval_pct(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}, {100 * hi:.1f}] %"


def number(v) -> str:
    """A count as a whole number with separators, a mean with two decimals."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if v is None or not math.isfinite(v):
        return "-"
    return f"{v:,.2f}"


#: Column heads of a seat's means per game (``play_summary``'s per-seat names).
SEAT_HEADS = {
    "score": "points\n(mean)",
    "fouls": "fouls\n(mean)",
    "turns": "turns\n(mean)",
    "marker": "marker's\nlast step",
    "attacked": "attack\nused",
}


def results_tables(summary: dict, title: str, seat_word: str = "seat") -> list:
    """A run of whole games (:func:`carromlab.play.summary.play_summary`) as what a console
    prints (rich): the ``title``; by ``seat_word`` (seat, or side where partners share one:
    ICF doubles) the wins out of every game with the 95 % interval and the means per game
    of the seat's columns; then the games' counts, total and per game (and carrom's
    boards)."""
    return [title, _seat_table(summary, seat_word), _counts_table(summary)]


def _seat_table(summary: dict, seat_word: str):
    from rich import box
    from rich.table import Table

    n, seats = summary["games"], summary["seats"]
    share = summary["confidence"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(seat_word, justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column(f"{100 * share:.0f}% interval", justify="right")
    for name in summary["per_seat"]:
        table.add_column(SEAT_HEADS.get(name, f"{name.replace('_', ' ')}\n(mean)"), justify="right")
    for row in summary["by_seat"]:
        cells = [str(row["seat"]), f"{row['wins']:,}", pct(row["win_rate"])]
        cells.append(interval_pct(row["win_lo"], row["win_hi"]))
        for name in summary["per_seat"]:
            v = row[name]
            cells.append(pct(v) if name == "attacked" else number(v))
        table.add_row(*cells)
    notes = [
        f"{seat_word} 0 plays first; fair share {pct(summary['fair_share'])} "
        f"(1 in {seats}); win rate: wins out of all {n:,} games"
    ]
    if summary["draws"] or summary["unfinished"]:
        notes.append(
            f"{summary['draws']:,} drawn, {summary['unfinished']:,} unfinished (no winner)"
        )
    table.caption = "\n".join(notes)
    table.caption_justify = "left"
    return table


def _counts_table(summary: dict):
    from rich import box
    from rich.table import Table

    n = summary["games"]
    counts = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    counts.add_column("counted", no_wrap=True)
    counts.add_column("total", justify="right")
    counts.add_column("per game", justify="right")
    counts.add_column("", justify="left")
    for c in summary["counts"]:
        extra = f"{100 * c['share']:.2f} % of strokes" if "share" in c else ""
        counts.add_row(c["label"], number(c["total"]), number(c["per_game"]), extra)
    b = summary.get("boards")
    if b:
        won = ", ".join(f"side {s} {w:,}" for s, w in enumerate(b["won"]))
        counts.add_row("boards won", "", "", f"{won} (of {b['boards']:,})")
        if "breaker_wins" in b:
            bw = b["breaker_wins"]
            counts.add_row(
                "breaker won the board",
                f"{bw['wins']:,}",
                "",
                f"{pct(bw['rate'])} of boards {interval_pct(bw['lo'], bw['hi'])}",
            )
        if "striker_pocketed" in b:
            k = b["striker_pocketed"]
            per = k / n if n else math.nan
            counts.add_row("striker pocketed (fouls)", f"{k:,}", number(per), "")
        if "queen_covered" in b:
            k = b["queen_covered"]
            counts.add_row("queen covered", f"{k:,}", number(k / n if n else math.nan), "")
    return counts


__all__ = ["PlayReport", "results_tables"]
