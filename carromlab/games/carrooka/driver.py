"""Whole Carrooka games for the game loop (:func:`~carromlab.play.play_games`).

The player on strike sees the game's state (the phase and the Carrooka'd options matter, not
only the pieces) and the rule configuration; the board is not turned (the striker is played
from where it lies, or from the break line). A decision may take a Carrooka'd option before
its shot (or instead of it: the pass). Stroke rows record the target, the points, fouls, the
bonus shot and any Carrooka'd option with the values the player weighed; the game's row adds
each player's fouls, the bonus shots, the Carrooka'd decisions, the tie-break and the turns'
points (:func:`turn_summary`).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pandas as pd

from carromlab.analysis.players import Decision
from carromlab.equipment.carrooka import CarrookaBoard
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import machine
from carromlab.games.carrooka.machine import OPTIONS, apply_option, shot_turns
from carromlab.play.drivers import HEAD_COLUMNS, TAIL_COLUMNS, BaseDriver, RowColumns
from carromlab.play.loop import GameInPlay, GameRecord

#: The striker and the 21 pucks.
CAPACITY = 22


class CarrookaDriver(BaseDriver):
    """Whole Carrooka games for :func:`~carromlab.play.play_games` (see the module's
    docstring). Player 0 breaks."""

    capacity = CAPACITY
    board_type = CarrookaBoard
    totals: ClassVar[dict[str, tuple[str, ...]]] = {"bonus_shots": ("bonus_shot",)}
    #: what :meth:`_extra` returns (:meth:`record` adds :data:`TURN_COLUMNS` after the
    #: base's last columns)
    extra_columns = ("fouls_0", "fouls_1", "bonus_shots", "carrookad", "tie_break")
    lies = True  # the striker is played from where it comes to rest
    state_machine = machine

    def execution(self, gm: GameInPlay, decision: Decision, skills):
        st = gm.state
        if decision.option is not None:
            gm.note = {
                "option": decision.option,
                **{f"value_{k}": v for k, v in decision.values.items()},
            }
            st = apply_option(
                st, decision.option, decision.params.get("angle"), decision.params.get("counter")
            )
            gm.state = st
            if decision.option == "pass":
                return None
        if decision.turn not in shot_turns(st):
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: the player chose target {decision.turn}, "
                f"not open in phase {st.phase!r}"
            )
        gm.turn = decision.turn
        gm.view = st.position
        return super().execution(gm, decision, skills)

    def stroke_row(self, gm: GameInPlay, before) -> dict:
        last = gm.state.last
        note = gm.note or {}
        gm.note = None
        return {
            "player": last.player,
            "phase": last.phase,
            "on": gm.turn.on,
            "counter": gm.turn.counter or "",
            "points": last.points,
            "foul": last.foul,
            "potted": last.potted,
            "bonus_shot": last.bonus_shot,
            "pocketed": len(last.pocketed),
            "respotted": len(last.respotted),
            "carrookad": note.get("option", ""),
            **{f"value_{o}": note.get(f"value_{o}", np.nan) for o in OPTIONS},
        }

    def _extra(self, st, strokes: pd.DataFrame) -> dict:
        fouls = strokes.groupby("player")["foul"].sum() if len(strokes) else pd.Series(dtype=int)
        return {
            "fouls_0": int(fouls.get(0, 0)),
            "fouls_1": int(fouls.get(1, 0)),
            **super()._extra(st, strokes),
            "carrookad": int((strokes["carrookad"] != "").sum()) if len(strokes) else 0,
            "tie_break": any(r.phase == "black_respotted" for r in st.history),
        }

    def row_columns(self) -> RowColumns:
        """The base's game row with :data:`TURN_COLUMNS` after it; no board rows."""
        return RowColumns((*HEAD_COLUMNS, *self.extra_columns, *TAIL_COLUMNS, *TURN_COLUMNS))

    def record(self, gm: GameInPlay) -> GameRecord:
        rec = super().record(gm)
        rec.row = {**(rec.row or {}), **turn_summary(rec.strokes)}
        return rec


#: The columns :func:`turn_summary` adds to a game's row, in order.
TURN_COLUMNS = (
    "turn_points",
    "turns_after_foul",
    "points_after_foul",
    *(f"best_{o}" for o in OPTIONS),
)


def turn_summary(strokes: pd.DataFrame) -> dict:
    """A game's turns from its stroke rows: the points of every turn in order
    (``turn_points``, space-separated: a turn is a run of strokes by one player), the
    turns that follow a foul and their points, and for the Carrooka'd decisions how often
    each option was valued best (``best_<option>``)."""
    out = {"turn_points": "", "turns_after_foul": 0, "points_after_foul": 0}
    out.update({f"best_{o}": 0 for o in OPTIONS})
    if not len(strokes):
        return out
    player = strokes["player"].to_numpy()
    new_turn = np.r_[True, player[1:] != player[:-1]]
    turn_id = np.cumsum(new_turn) - 1
    points = np.bincount(turn_id, weights=strokes["points"].to_numpy(float)).astype(int)
    # a turn follows a foul when the stroke before its first stroke was a foul
    foul = strokes["foul"].to_numpy(bool)
    starts = np.flatnonzero(new_turn)
    after = np.array([k > 0 and foul[k - 1] for k in starts], bool)
    out["turn_points"] = " ".join(str(int(p)) for p in points)
    out["turns_after_foul"] = int(after.sum())
    out["points_after_foul"] = int(points[after].sum())
    vals = strokes[[f"value_{o}" for o in OPTIONS]].to_numpy(float)
    weighed = np.isfinite(vals).sum(axis=1) > 1
    if weighed.any():
        best = np.nanargmax(np.where(np.isfinite(vals[weighed]), vals[weighed], -np.inf), axis=1)
        for k, o in enumerate(OPTIONS):
            out[f"best_{o}"] = int((best == k).sum())
    return out
