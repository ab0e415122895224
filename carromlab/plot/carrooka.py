"""The Carrooka board."""

from __future__ import annotations

from typing import ClassVar

from carromlab.equipment.carrooka import COLOUR_VALUES
from carromlab.plot.board_parts import LegendEntry, _disc, line_entry
from carromlab.plot.boards import BoardPlot

#: Drawing colours of the Carrooka pucks and spots.
CARROOKA_COLORS = {
    "red": "#c62828",
    "yellow": "#f4c20d",
    "green": "#2e7d32",
    "brown": "#7b4a22",
    "blue": "#1e5bb8",
    "pink": "#f48fb1",
    "black": "#151515",
}


class CarrookaBoardPlot(BoardPlot):
    """Draws the round Carrooka board: the circular rail, 6 rim pockets, the break line, the
    margin line and the six colour spots in their colours. Red pucks red, colour pucks in
    their colours, the striker pale blue."""

    family = "carrooka"

    frame_color = "#4a2a14"
    surface_color = "#ecd7a6"
    line_color = "#1a1a1a"
    piece_colors: ClassVar[dict[str, str]] = {**CARROOKA_COLORS, "striker": "#bfe0f5"}
    piece_labels: ClassVar[dict[str, str]] = {
        "red": "reds (1 point)",
        **{c: f"{c} ({v})" for c, v in COLOUR_VALUES.items() if c != "red"},
        "striker": "striker",
    }

    def feature_entries(self) -> list[LegendEntry]:
        """Pockets, the break line (the striker in hand is placed on it) and the spots."""
        return [
            *super().feature_entries(),
            line_entry(self.line_color, "break line: the striker in hand", width=1.2),
            (_disc("#ffffff", self.line_color, 6), "colour spots (in their colours)"),
        ]

    def zone_color(self, name: str, zone) -> str:
        if name.startswith("spot."):
            return CARROOKA_COLORS.get(name.split(".", 1)[1], self.fill_color)
        return super().zone_color(name, zone)
