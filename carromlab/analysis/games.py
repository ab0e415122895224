"""Whole ICF games on the real kernel, one stroke at a time (sequential; batching strokes
across many games is the next step for speed).

Each stroke: the board is turned so that the player on strike sits South (the analysis layer
always shoots from the South line), the seat's policy chooses a shot, one noisy execution at
the seat's skill runs through the kernel, the resting places are turned back, and
:func:`carromlab.rules.icf_game.apply_stroke` applies the laws. Keys: stroke ``k`` of game
``g`` executes with ``fold_in(fold_in(key(seed), g), k)`` and the policy gets its own seed
from the same pair, so a game depends only on the seed and its index.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from carromlab.analysis.runner import ShotRunner
from carromlab.equipment.geometry import rotate
from carromlab.position import Piece
from carromlab.rules.icf_game import IcfGameConfig, apply_stroke, new_game
from carromlab.shots import skill as skill_named

#: Rotation that carries South to each seat's side.
SEAT_ANGLE = {"S": 0.0, "E": math.pi / 2, "N": math.pi, "W": 3 * math.pi / 2}
CAPACITY = 20  # the striker and the 19 pieces of a board


def turned(position, angle: float):
    """``position`` with every piece rotated by ``angle`` about the centre."""
    pieces = tuple(
        Piece(p.id, p.kind, p.owner, *rotate(p.x, p.y, angle), p.rotation) for p in position.pieces
    )
    return position.replace(pieces=pieces)


@dataclass
class GameRecord:
    state: object
    strokes: pd.DataFrame
    boards: pd.DataFrame


def play_game(
    policies,
    config: IcfGameConfig | None = None,
    skill="club",
    seed: int = 0,
    game: int = 0,
    max_strokes: int = 5000,
    on_stroke=None,
) -> GameRecord:
    """Play one game; ``policies`` has one policy per seat (``choose(position, turn, seed)``).
    ``on_stroke(state)`` is called after every stroke (for checks and progress)."""
    config = config or IcfGameConfig()
    state = new_game(config)
    noise = skill_named(skill).noise() if isinstance(skill, str) else skill.noise()
    rng = np.random.default_rng(np.random.SeedSequence([seed, game]))
    strokes, boards = [], []
    for k in range(max_strokes):
        if state.over:
            break
        board = state.board
        seat = board.turn
        angle = SEAT_ANGLE[config.seats[seat]]
        view = turned(board.position, -angle)
        turn = board.turn_state(config.due_rule)
        stroke_seed = int(np.random.SeedSequence([seed, game, k]).generate_state(1)[0] >> 1)
        shot = policies[seat].choose(view, turn, seed=stroke_seed)
        runner = ShotRunner(view, "striker", chunk=1, capacity=CAPACITY)
        chunk = next(iter(runner.run(shot, 1, noise, seed=stroke_seed)))
        out = {key: v[0] for key, v in chunk.outcome.items()}
        xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
        before = state.boards_played
        state = apply_stroke(
            state,
            out["capture"],
            out["first_contact_kind"],
            out["first_contact"],
            out["contacts"],
            config=config,
            placement=rng if config.placement == "random" else None,
            final_xy=xy,
        )
        if on_stroke is not None:
            on_stroke(state)
        strokes.append(
            {
                "game": game,
                "stroke": k,
                "seat": seat,
                "pocketed": int((out["capture"][1:] >= 0).sum()),
                "striker_pocketed": bool(out["capture"][0] >= 0),
                "truncated": bool(out["truncated"]),
            }
        )
        if state.boards_played > before:
            last = state.last_board
            boards.append(
                {
                    "game": game,
                    "board": before,
                    "breaker": last.breaker,
                    "winner": last.winner,
                    "points": last.points,
                    "strokes": last.strokes,
                }
            )
    return GameRecord(state, pd.DataFrame(strokes), pd.DataFrame(boards))
