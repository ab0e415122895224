"""ICF players beyond the shared greedy one: the leave of a stroke under the laws, for the
depth-2 :class:`~carromlab.analysis.lookahead.Lookahead` player.

:func:`icf_leave` turns one execution of a stroke into the position the next stroke is played
from: the pieces where they came to rest (the pocketed ones gone), the pieces the laws bring
back placed by the opponent as the game machine does by default (the free spot nearest the
centre: a returned queen, own coins returned with the striker, penalty coins paid), and the
next turn's state from the rules' evaluation of the stroke (``own_down_after``,
``dues_after``, ``queen_awaits_cover``, ``continues``). When the turn passes, the view is
turned to the next seat (singles: the opposite side; doubles: the seat to the right) and the
opponent's turn state is built from the two sides' coins down; the opponent's own dues are not
in the shooter's turn state and are taken as 0 (decision).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.analysis.lookahead import Leave, Lookahead
from carromlab.games.icf.machine import place_returned
from carromlab.games.icf.rules import IcfTurn
from carromlab.play.drivers import settled, turned
from carromlab.position import Piece


def icf_leave(view, turn: IcfTurn, outcome: dict, evaluated: dict, next_seat: float = math.pi):
    """The :class:`~carromlab.analysis.lookahead.Leave` of one execution (module docstring);
    ``next_seat``: the angle from the shooter's seat to the next seat on strike (singles
    pi, doubles pi / 2). None when the stroke ends the board."""
    if bool(evaluated["board_won"]) or bool(evaluated["board_lost"]):
        return None
    capture = np.asarray(outcome["capture"])
    xy = np.column_stack([np.asarray(outcome["x"], float), np.asarray(outcome["y"], float)])
    xy = settled(view, {"capture": capture}, xy)
    pieces = [
        Piece(p.id, p.kind, p.owner, float(xy[k + 1, 0]), float(xy[k + 1, 1]), p.rotation)
        for k, p in enumerate(view.pieces)
        if capture[k + 1] < 0
    ]
    back: list[tuple[str, str | None]] = []
    if bool(evaluated["queen_returned"]) and not any(p.kind == "queen" for p in pieces):
        back.append(("queen", None))
    paid = int(turn.dues + evaluated["dues"] - evaluated["dues_after"])
    back += [("coin", turn.shooter)] * (int(evaluated["own_returned"]) + paid)
    leave = view.replace(pieces=tuple(pieces))
    for kind, owner in back:
        x, y = place_returned(leave, kind, owner)
        pid = _free_id(leave, kind, owner)
        leave = leave.replace(pieces=(*leave.pieces, Piece(pid, kind, owner, x, y)))
    if bool(evaluated["continues"]):
        nxt = IcfTurn(
            shooter=turn.shooter,
            own_down=int(evaluated["own_down_after"]),
            opponent_down=int(evaluated["opponent_down_after"]),
            queen_pending=bool(evaluated["queen_awaits_cover"]),
            dues=int(evaluated["dues_after"]),
        )
        return Leave(leave, nxt, 1.0)
    nxt = IcfTurn(
        shooter=turn.opponent,
        own_down=int(evaluated["opponent_down_after"]),
        opponent_down=int(evaluated["own_down_after"]),
    )
    return Leave(turned(leave, -next_seat), nxt, -1.0)


def _free_id(position, kind: str, owner: str | None) -> str:
    used = {p.id for p in position.pieces}
    prefix = "q" if kind == "queen" else f"{owner}-back-"
    if kind == "queen" and "q" not in used:
        return "q"
    k = 1
    while f"{prefix}{k}" in used:
        k += 1
    return f"{prefix}{k}"


@dataclass
class IcfLeave:
    """:func:`icf_leave` for one seating (a picklable hook: players travel to sweep
    workers)."""

    next_seat: float = math.pi

    def __call__(self, view, turn, outcome, evaluated):
        return icf_leave(view, turn, outcome, evaluated, self.next_seat)


def icf_lookahead(skill: str = "club", doubles: bool = False, **options) -> Lookahead:
    """The depth-2 lookahead player for ICF singles (doubles: the opponent sits to the
    right)."""
    return Lookahead(skill=skill, leave=IcfLeave(math.pi / 2 if doubles else math.pi), **options)


__all__ = ["IcfLeave", "icf_leave", "icf_lookahead"]
