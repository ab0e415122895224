"""Whole ICF games for the game loop: the board is turned so that the player on strike sits
South, and the ICF machine applies the laws."""

from __future__ import annotations

import numpy as np
import pandas as pd

from carromlab.analysis.asks import Ask
from carromlab.equipment.geometry import rotate
from carromlab.errors import CarromlabError
from carromlab.games.icf.machine import IcfGameConfig, apply, new_game
from carromlab.play.drivers import SEAT_ANGLE, one_shot, settled, turned
from carromlab.play.loop import GameInPlay, GameRecord
from carromlab.rules.interfaces import StrokeOutcome

CAPACITY = 20  # the striker and the 19 pieces of a board


class IcfDriver:
    """Whole ICF games for :func:`play_games`: the board is turned so that the player on
    strike sits South, and :func:`~carromlab.games.icf.machine.apply_stroke` applies the laws."""

    capacity = CAPACITY

    def __init__(self, config: IcfGameConfig):
        self.config = config
        self.n_seats = config.n_seats
        self.layout = new_game(config).board.position.board.layout

    def new_state(self, g: int):
        return new_game(self.config)

    def plan(self, gm: GameInPlay, policies):
        gm.policies = policies  # the placer's policy is asked at the stroke's end
        board = gm.state.board
        gm.seat = board.turn
        gm.view = turned(board.position, -SEAT_ANGLE[self.config.seats[gm.seat]])
        gm.turn = board.turn_state(self.config.due_rule)
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm: GameInPlay, decision, skills) -> Ask:
        noise = skills[gm.seat].noise()
        return Ask(gm.view, one_shot(decision.shot), 1, gm.stroke_seed, noise, gm.turn)

    def placement(self, gm: GameInPlay):
        """The placement policy of the seat that places returned and penalty coins (the next
        seat: an opponent of the shooter, singles or doubles), when its player offers one
        (``placement_for``); None: the game's rule."""
        board = gm.state.board
        placer = (gm.seat + 1) % self.n_seats
        offer = getattr(gm.policies[placer], "placement_for", None)
        if offer is None:
            return None
        seats = self.config.seats
        angle = {}
        for seat in (gm.seat, placer):  # the shooter's side and the placer's side
            angle[board.colour(seat % 2)] = SEAT_ANGLE[seats[seat]]
        return offer(angle, board.colour(placer % 2), gm.stroke_seed)

    def over(self, gm: GameInPlay) -> bool:
        return gm.state.over

    def record(self, gm: GameInPlay) -> GameRecord:
        return GameRecord(gm.state, pd.DataFrame(gm.strokes), pd.DataFrame(gm.boards))

    def finish(self, gm: GameInPlay, answer, on_stroke) -> None:
        config = self.config
        if not answer.legal[0]:
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: seat {gm.seat}'s policy chose an illegal "
                f"placement x = {float(answer.ask.shots.x[0]):.4f} m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        angle = SEAT_ANGLE[config.seats[gm.seat]]
        xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
        xy = settled(gm.view, out, xy)
        before = gm.state.boards_played
        gm.state = apply(
            gm.state,
            StrokeOutcome.from_kernel(out, xy),
            config,
            gm.rng,
            placement=self.placement(gm),
        )
        if on_stroke is not None:
            on_stroke(gm.state)
        gm.strokes.append(
            {
                "game": gm.index,
                "board": before,
                "stroke": gm.k,
                "seat": gm.seat,
                "pocketed": int((out["capture"][1:] >= 0).sum()),
                "striker_pocketed": bool(out["capture"][0] >= 0),
                "truncated": bool(out["truncated"]),
            }
        )
        if gm.state.boards_played > before:
            last = gm.state.last_board
            fouls = sum(1 for r in gm.strokes if r["board"] == before and r["striker_pocketed"])
            gm.boards.append(
                {
                    "game": gm.index,
                    "board": before,
                    "breaker": last.breaker,  # seat
                    "breaker_side": last.breaker % 2,
                    "winner": last.winner,  # side
                    "points": last.points,
                    "strokes": last.strokes,
                    "queen_side": -1 if last.queen_side is None else last.queen_side,
                    "queen_covered": last.queen == "covered",
                    "striker_pocketed": fouls,
                }
            )
