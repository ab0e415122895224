"""What every report shares: its table and position, the warnings its figures raise, and
how a figure is written."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from carromlab.errors import CarromlabError

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd
    from matplotlib.figure import Figure

    from carromlab.position import Position

#: A report's pictures: their resolution (dots per inch), cropped to what is drawn (the
#: command line's since its first maps).
DPI = 120


class Report:
    """A result table with what it was computed from (``position``) and what can be said and
    drawn of it. ``warnings``: one line for each warning its figures raised (the best cell on
    the grid's edge), each once, for a command line to print; ``out``: the folder it was last
    saved to (None before :meth:`save`)."""

    def __init__(self, table: pd.DataFrame, position: Position | None = None):
        self.table = table
        self.position = position
        self.warnings: list[str] = []
        self.out: Path | None = None

    @property
    def config(self) -> dict:
        """The run's configuration, seed and versions (the table's ``attrs["config"]``)."""
        return self.table.attrs.get("config") or {}

    @property
    def turn_text(self) -> str:
        """The turn the shots were valued under, in words ("white to play, 6 own coins down,
        4 opponent's, queen on the board"), from the run's configuration (``turn``: the
        turn's fields, as every estimate, shot map and search stores them); "" where the
        run has none (KOOBA's throws)."""
        from carromlab.registry import rules_class
        from carromlab.rules.turns import turn_words

        fields, variant = self.config.get("turn"), self.config.get("variant")
        if not isinstance(fields, dict) or not variant:
            return ""
        try:
            rules = rules_class(str(variant))
        except CarromlabError:
            return ""
        turn_type = None if rules is None else rules.turn_type
        return turn_words(turn_type, fields, self.position)

    def __repr__(self) -> str:
        where = self.position.name if self.position is not None else self.config.get("variant")
        return f"{type(self).__name__}({where!r}, {len(self.table)} rows)"

    def _needs_position(self, what: str) -> Position:
        if self.position is None:
            raise CarromlabError(f"{type(self).__name__}: {what} needs the position it was run in")
        return self.position

    def _drawn(self, draw: Callable[[], Figure]) -> Figure:
        """``draw()``'s figure, the warnings it raised kept in :attr:`warnings` (one line
        each, each once) instead of shown."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fig = draw()
        for w in caught:
            line = " ".join(str(w.message).split())
            if line not in self.warnings:
                self.warnings.append(line)
        return fig

    @staticmethod
    def _write(fig: Figure, path: Path) -> Path:
        """Write ``fig`` as a PNG at ``path`` and close it."""
        import matplotlib.pyplot as plt

        fig.savefig(path, dpi=DPI, bbox_inches="tight")
        plt.close(fig)
        return path

    def _folder(self, out) -> Path:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        return out
