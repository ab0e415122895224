"""Whole Carroms games (checker side): the default player and the game driver of
:func:`~carromlab.analysis.games.play_games`.

The player on turn shoots from the South shooting line of a turned view (player 1 sits
North), as in standard carrom. :class:`CarromsGreedy` is the ICF greedy player aimed at the
shooter's own rings and the black (direct cuts and one-cushion banks from every 5 cm of the
line, screened, the best re-estimated), valued by the Carroms stroke value (own ring +1,
black +5, opponent's ring -1, a forfeited ring -1). It screens every stroke, the break too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from carromlab.analysis.asks import Ask
from carromlab.analysis.games import SEAT_ANGLE, GameRecord, one_shot, settled, turned
from carromlab.analysis.policies import Greedy
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.company import CheckerBoard
from carromlab.equipment.geometry import rotate
from carromlab.errors import CarromlabError
from carromlab.rules.carroms_game import CarromsConfig, apply_stroke, new_game

#: The shooting ring, 24 rings and the black.
CAPACITY = 26


@dataclass
class CarromsGreedy(Greedy):
    """:class:`~carromlab.analysis.policies.Greedy` aimed at own rings and the black."""

    capacity: int = CAPACITY
    break_shot: tuple[float, float, float] | None = None

    def targets(self, position, turn) -> list[str]:
        return [
            p.id
            for p in position.pieces
            if (p.kind == "ring" and p.owner == turn.shooter) or p.kind == "black"
        ]


class CarromsDriver:
    """Whole Carroms games for :func:`~carromlab.analysis.games.play_games`."""

    capacity = CAPACITY
    n_seats = 2

    def __init__(self, config: CarromsConfig):
        self.config = config
        self.layout = (config.board or CheckerBoard()).layout
        self.va = analysis_for("carroms")

    def new_state(self, g: int):
        return new_game(self.config)

    def _angle(self, seat: int) -> float:
        return SEAT_ANGLE[self.config.seats[seat]]

    def plan(self, gm, policies):
        gm.seat = gm.state.player
        gm.view = turned(gm.state.position, -self._angle(gm.seat))
        gm.turn = gm.state.turn_state()
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm, shot, skills) -> Ask:
        noise = self.va.noise(skills[gm.seat])
        return Ask(gm.view, one_shot(shot), 1, gm.stroke_seed, noise, gm.turn)

    def over(self, gm) -> bool:
        return gm.state.over

    def finish(self, gm, answer, on_stroke) -> None:
        if not answer.legal[0]:
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: illegal placement "
                f"x = {float(answer.ask.shots.x[0]):.4f} m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        angle = self._angle(gm.seat)
        xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
        xy = settled(gm.view, out, xy)
        before = gm.state
        gm.state = apply_stroke(before, out["capture"], xy, self.config)
        last = gm.state.history[-1]
        gm.strokes.append(
            {
                "game": gm.index,
                "board": before.boards,
                "stroke": gm.k,
                "player": last.player,
                "own": last.own,
                "opponent": last.opponent,
                "black": last.black,
                "foul": last.foul,
                "forfeit": last.forfeited is not None,
                "continues": last.continues,
                "truncated": bool(out["truncated"]),
            }
        )
        if on_stroke is not None:
            on_stroke(gm.state)

    def record(self, gm) -> GameRecord:
        st = gm.state
        strokes = pd.DataFrame(gm.strokes)
        n = len(strokes)
        row = {
            "game": gm.index,
            "winner": -1 if st.winner is None else int(st.winner),
            "score_0": int(st.scores[0]),
            "score_1": int(st.scores[1]),
            "turns_0": int(st.turns[0]),
            "turns_1": int(st.turns[1]),
            "strokes": n,
            "boards": int(st.boards) + (0 if st.board_strokes == 0 else 1),
            "fouls": int(strokes["foul"].sum()) if n else 0,
            "truncated_strokes": int(strokes["truncated"].sum()) if n else 0,
            "finished": bool(st.over and not st.unfinished),
        }
        return GameRecord(st, strokes, pd.DataFrame(), row=row)
