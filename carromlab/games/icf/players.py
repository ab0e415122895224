"""ICF players beyond the shared greedy one: the leave of a stroke under the laws, for the
depth-2 :class:`~carromlab.analysis.lookahead.Lookahead` player, and the opponent's placement
of returned and penalty coins by the same valuation (:class:`ValuedPlacement`).

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

import functools
import math
from dataclasses import dataclass

import numpy as np

from carromlab.analysis.asks import Evaluator
from carromlab.analysis.lookahead import Leave, Lookahead, best_mean, reply_ask, reply_cells
from carromlab.errors import CarromlabError
from carromlab.games.icf.machine import _free_id, place_returned
from carromlab.games.icf.rules import COINS_PER_SIDE, IcfTurn
from carromlab.play.drivers import settled, turned
from carromlab.position import Piece
from carromlab.rules.placement import _free
from carromlab.shots import skill as skill_named


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


@dataclass
class IcfLeave:
    """:func:`icf_leave` for one seating (a picklable hook: players travel to sweep
    workers)."""

    next_seat: float = math.pi

    def __call__(self, view, turn, outcome, evaluated):
        return icf_leave(view, turn, outcome, evaluated, self.next_seat)


def free_spots(position, radius: float, count: int, zone: float) -> list[tuple[float, float]]:
    """Up to ``count`` free spots for a piece of ``radius`` with its centre within ``zone`` of
    the centre: the free spot nearest the centre (the fixed rule's), then free points of a
    polar grid (rings a piece's radius apart, 12 directions), nearest the centre first, each
    at least a piece's diameter from the spots already taken."""
    rho = np.arange(0.0, zone + 1e-12, radius)
    angles = np.arange(12) * (2 * math.pi / 12)
    grid = np.array([(r * math.cos(a), r * math.sin(a)) for r in rho for a in angles])
    ok = _free(position, grid, radius) & (np.hypot(grid[:, 0], grid[:, 1]) <= zone)
    spots: list[tuple[float, float]] = []
    first = place_returned(position, "coin", None)
    if math.hypot(*first) <= zone + 1e-9:
        spots.append(first)
    for x, y in grid[ok]:
        if len(spots) >= count:
            break
        if all(math.hypot(x - sx, y - sy) >= 2 * radius for sx, sy in spots):
            spots.append((float(x), float(y)))
    return spots


@functools.lru_cache(maxsize=4)
def _evaluator(layout, capacity: int) -> Evaluator:
    return Evaluator(layout, capacity)


@dataclass
class ValuedPlacement:
    """The opponent places a returned or penalty coin (ICF: "placed by the opponent") by
    valuation: among ``spots`` free spots inside the outer circle (:func:`free_spots`), the
    one that leaves the coin's owner the worst best stroke from their seat when the coin is
    the other side's, or the best when it is the placer's own. A spot's value is the best mean
    shot value of the owner's ``reply_candidates`` straightest candidate cuts, each executed
    ``n_reply`` times (the lookahead's reply search), on keys from ``seed``. The queen keeps
    the laws' "as near the centre as possible". ``seat_angle``: colour -> the angle of that
    side's seat (the owner's view is the board turned by minus it); ``placer``: the placer's
    colour."""

    seat_angle: dict
    placer: str
    seed: int = 0
    skill: str = "club"
    spots: int = 6
    reply_candidates: int = 8
    n_reply: int = 8
    scoring: object = None

    def __call__(self, position, kind: str, owner: str | None) -> tuple[float, float]:
        if kind == "queen" or owner not in self.seat_angle:
            return place_returned(position, kind, owner)
        r = position.board.piece_specs()[kind].radius
        zone = position.board.outer_circle_diameter / 2 - r
        spots = free_spots(position, r, self.spots, zone)
        if len(spots) <= 1:
            return spots[0] if spots else place_returned(position, kind, owner)
        values = self.values(position, kind, owner, spots)
        pick = int(np.argmax(values) if owner == self.placer else np.argmin(values))
        return spots[pick]

    def values(self, position, kind, owner, spots) -> np.ndarray:
        """The owner's best mean shot value with the coin on each spot."""
        noise = skill_named(self.skill).noise()
        pid = _free_id(position, kind, owner)
        asks, owners = [], []
        for k, (x, y) in enumerate(spots):
            there = position.replace(pieces=(*position.pieces, Piece(pid, kind, owner, x, y)))
            view = turned(there, -self.seat_angle[owner])
            own = sum(1 for p in view.pieces if p.kind == "coin" and p.owner == owner)
            other = sum(1 for p in view.pieces if p.kind == "coin" and p.owner not in (owner, None))
            turn = IcfTurn(
                shooter=owner,
                own_down=max(COINS_PER_SIDE - own, 0),
                opponent_down=max(COINS_PER_SIDE - other, 0),
            )
            cells = reply_cells(view, turn, self.reply_candidates)
            ask = reply_ask(
                view, turn, cells, noise, self.scoring, self.n_reply, int(self.seed) + k
            )
            if ask is not None:
                asks.append(ask)
                owners.append(k)
        values = np.zeros(len(spots))
        if asks:
            capacity = max(20, len(position.pieces) + 2)  # the pieces, the coin, the striker
            answers = _evaluator(position.board.layout, capacity).answer(asks)
            for k, ans in zip(owners, answers, strict=True):
                values[k] = best_mean(ans)
        return values


@dataclass(frozen=True, repr=False)
class IcfLookahead(Lookahead):
    """The lookahead player with the laws' leave. ``placement``: how it places the
    opponent's returned and penalty coins, ``"fixed"`` (the game's rule: the free spot
    nearest the centre) or ``"valued"`` (:class:`ValuedPlacement`)."""

    placement: str = "fixed"

    def placement_for(self, seat_angle: dict, placer: str, seed: int):
        """The placement policy the driver hands the game machine (None: the game's rule)."""
        if self.placement == "fixed":
            return None
        if self.placement != "valued":
            raise CarromlabError(f"placement must be 'fixed' or 'valued', not {self.placement!r}")
        return ValuedPlacement(seat_angle, placer, seed, self.skill, scoring=self.scoring)


def icf_lookahead(skill: str = "club", doubles: bool = False, **options) -> IcfLookahead:
    """The depth-2 lookahead player for ICF singles (doubles: the opponent sits to the
    right)."""
    return IcfLookahead(skill=skill, leave=IcfLeave(math.pi / 2 if doubles else math.pi), **options)


__all__ = [
    "IcfLeave",
    "IcfLookahead",
    "ValuedPlacement",
    "free_spots",
    "icf_leave",
    "icf_lookahead",
]
