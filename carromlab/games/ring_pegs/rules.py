"""Ring Pegs (the Carrom Company's rule book, crokinole side; seed 002, cut short):
shot origins and one stroke vectorised over a batch of shots (the game-state machine:
``machine.py``).

Seed 002: "Place 8 rings over the pegs ... The first player places the Shooting Ring outside
the large outer circle midway between the pockets and attempts to shoot the ring through and
outside the pegged circle. [...] He next shoots to land his ring in the center hole to
complete his play. A player continues shooting until he fails to pass between 2 rings or hits
a ring. If an opponent's Shooting Ring obstructs his passage, a player can hit his opponent as
often as necessary to clear the way. However, if in hitting the opponent's ring he also
strikes a spot ring he loses his turn."

Pegged rings are static discs in the kernel (the peg holds them). In a position the shooting
ring of the player on turn is the piece with id ``"shooter"`` (the kernel's disc 0, the
origin of the shot); the opponent's ring, if it lies on the board, is a ``shooter`` piece
with another id and is an ordinary moving disc.

Decisions where the text is cut short (each documented; the digest proposed passing all 8
gaps in turn - this reads the surviving text more literally):

1. The start: the ring's centre on the large outer circle midway between the pockets on the
   player's side (there is no room between the circle and the frame for a whole ring); if the
   opponent's ring lies there, the nearest point of the circle clear of it. A shot starts
   where the active ring lies; an origin on which the ring would overlap another piece (a
   pegged ring, the opponent's ring; touching allowed) is refused with the piece's name
   (``legal_origin``, ``check_origin``), as the other games refuse theirs, never simulated.
2. Stage 1, the *pass*: from the start, the ring must go in through a gap of the pegged
   circle and out through another on one straight run, and no pegged ring may be touched
   during the stroke. Judged from the stroke: the ring's first straight leg (from the origin
   to its first contact - the kernel's ``first_x``, ``first_y`` - or to where it stopped)
   passes inside the pegged circle and ends outside it. From the start only the run straight
   up through the two axis gaps fits (about +-1 deg), and it crosses the centre hole: the
   ring must be faster than the hole's skip speed there. What it does after the first leg
   (the far frame, back through the circle, even into the hole) does not matter unless it
   touches a pegged ring.
3. Stage 2, the *finish*: from where the ring lies, it must fall into the centre hole without
   a pegged ring being touched (a contact with the opponent's ring is allowed: "clear the
   way"). Finishing wins the game; progress is kept between turns.
4. The turn continues after a pass (the next shot is the finish, from where the ring lies,
   or from the start if it fell into the hole or left the board), and after a *clearing hit*:
   a stroke that hits the opponent's shooting ring and touches no pegged ring ("a player can
   hit his opponent as often as necessary to clear the way. However, if in hitting the
   opponent's ring he also strikes a spot ring he loses his turn"), bounded by
   ``max_strokes``. Anything else ends it. A failed pass (a clearing hit included) puts the
   ring back to the start for the next attempt; after a failed finish the ring stays where it
   lies (back to the start if it left the board or fell into the hole while a pegged ring was
   touched). Before this reading, every stroke that did not pass or finish ended the turn,
   which left the text's "however" sentence without effect.
5. A game ends when a player finishes, or after ``max_strokes`` strokes (unfinished).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from carromlab.errors import CarromlabError
from carromlab.rules.crokinole import hole_code
from carromlab.rules.outcome import VariantRules, check_discs, outcome_field

VARIANTS = ("ring-pegs",)
#: The shooting rings' owners: the game set's (equipment/sets.py), so positions validate.
PLAYERS = ("p1", "p2")
#: The 8 gaps of the pegged circle, gap k centred at 45 k degrees (between the pegs at
#: 45 k - 22.5 and 45 k + 22.5 on the default board).
N_GAPS = 8
PROBABILITIES = (
    "passed",
    "finished",
    "touched_pegged",
    "cleared",
    "continues",
    *(f"gap.{k}" for k in range(N_GAPS)),
)
MEANS = ("points",)
ACTIVE = "shooter"
#: A shot origin is at the active ring's spot when within this (m).
ORIGIN_TOL = 1e-6
#: Touching is allowed: an origin overlapping a piece by at most this (m, rounding) is legal,
#: as for the other games' origins (rules/crokinole.py, games/icf/striker.py).
TOUCH_TOL = 1e-9


# --------------------------------------------------------------------------- origins


def start_spot(board) -> tuple[float, float]:
    """Decision 1: the South start (views put the player on turn South)."""
    return 0.0, -board.outer_radius


def active_spot(position) -> tuple[float, float]:
    for p in position.pieces:
        if p.id == ACTIVE:
            return p.x, p.y
    return start_spot(position.board)


def table_position(position):
    """The kernel's view: every piece but the active shooting ring (disc 0)."""
    if not any(p.id == ACTIVE for p in position.pieces):
        return position
    return position.replace(pieces=tuple(p for p in position.pieces if p.id != ACTIVE))


def origin(position, placement):
    p = np.atleast_1d(np.asarray(placement, dtype=float))
    x, y = active_spot(position)
    return np.full(p.shape, x), np.full(p.shape, y)


def origin_gaps(position, x, y) -> list[tuple[object, np.ndarray]]:
    """For each piece but the active ring (the pegged rings, the opponent's ring): the piece
    and the gap (m, negative: overlap) between it and an active ring centred at (x, y)."""
    x = np.atleast_1d(np.asarray(x, float))
    y = np.atleast_1d(np.asarray(y, float))
    specs = position.board.piece_specs()
    r = specs["shooter"].radius
    return [
        (p, np.hypot(p.x - x, p.y - y) - r - specs[p.kind].radius)
        for p in table_position(position).pieces
    ]


def legal_origin(position, x, y) -> np.ndarray:
    """At the active ring's spot (within ``ORIGIN_TOL``) and overlapping no other piece -
    a pegged ring or the opponent's ring (touching allowed, ``TOUCH_TOL``), as the other
    games' origins (``rules/crokinole.legal_origin``, ``games/carrooka/striker.py``)."""
    sx, sy = active_spot(position)
    x = np.atleast_1d(np.asarray(x, float))
    y = np.atleast_1d(np.asarray(y, float))
    ok = np.isfinite(x) & np.isfinite(y) & (np.hypot(x - sx, y - sy) <= ORIGIN_TOL)
    for _, gap in origin_gaps(position, x, y):
        ok &= gap >= -TOUCH_TOL
    return ok


def check_origin(position, x: float, y: float) -> None:
    """Refuse a shot origin that :func:`legal_origin` refuses, with one line: off the active
    ring's spot, or overlapping a piece (named, with the overlap), as the ICF striker's
    placement check does (``games/icf/striker.py``)."""
    x, y = float(x), float(y)
    sx, sy = active_spot(position)
    if not math.hypot(x - sx, y - sy) <= ORIGIN_TOL:  # NaN refused too
        raise CarromlabError(
            f"a Ring Pegs shot starts where the shooting ring lies, ({sx:.4f}, {sy:.4f}) m, "
            f"not at ({x:.4f}, {y:.4f}) m"
        )
    for p, gap in origin_gaps(position, x, y):
        if gap[0] < -TOUCH_TOL:
            raise CarromlabError(
                f"shooting ring at ({x:.4f}, {y:.4f}) m overlaps {p.label()} by "
                f"{-gap[0] * 1000:.3g} mm"
            )


def no_line(board) -> float:
    raise CarromlabError("Ring Pegs shots start where the shooting ring lies (origin())")


def placement_intervals(board) -> list[tuple[float, float]]:
    return [(0.0, 0.0)]


# --------------------------------------------------------------------------- one stroke


@dataclass(frozen=True)
class RingPegsTurn:
    """The stage of the player on turn: 1 (pass through the pegged circle) or 2 (finish in
    the hole)."""

    stage: int = 1

    def __post_init__(self):
        if self.stage not in (1, 2) or isinstance(self.stage, bool):
            raise CarromlabError(f"the Ring Pegs stage is 1 or 2, not {self.stage!r}")

    def describe(self, position=None) -> str:
        """The turn in words: "stage 1: through the pegged circle"."""
        if self.stage == 1:
            return "stage 1: through the pegged circle"
        return "stage 2: into the hole"


def crosses_circle(ax, ay, bx, by, radius) -> np.ndarray:
    """The segments A-B (arrays) pass strictly inside the circle of ``radius`` round the
    centre."""
    ax, ay, bx, by = (np.asarray(v, float) for v in (ax, ay, bx, by))
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(ll > 0, np.clip(-(ax * dx + ay * dy) / ll, 0.0, 1.0), 0.0)
    return np.hypot(ax + t * dx, ay + t * dy) < radius


def entry_gap(sx, sy, ex, ey, radius) -> np.ndarray:
    """The gap (0..7, by the angle of the point where the segment S-E first enters the circle
    of ``radius``) through which each segment goes in; -1 if it does not enter (or starts
    inside)."""
    ex, ey = np.asarray(ex, float), np.asarray(ey, float)
    dx, dy = ex - sx, ey - sy
    ll = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        ux, uy = dx / ll, dy / ll
        b = sx * ux + sy * uy
        c = sx * sx + sy * sy - radius * radius
        disc = b * b - c
        t = -b - np.sqrt(np.maximum(disc, 0.0))
    ok = (c > 0) & (disc > 0) & (t >= 0) & (t <= ll)
    ang = np.degrees(np.arctan2(sy + t * uy, sx + t * ux))
    gap = np.round(np.mod(ang, 360.0) / (360.0 / N_GAPS)).astype(int) % N_GAPS
    return np.where(ok, gap, -1)


def evaluate_ring_pegs(
    capture, x, y, contacts, position, turn=None, first_x=None, first_y=None
) -> dict:
    """Per shot: ``capture``, ``x``, ``y``, ``contacts`` are the kernel's [B, 1 + pieces]
    arrays for ``position`` (whose active ring is the origin); ``first_x``, ``first_y`` [B]
    where the ring made its first contact (NaN: none)."""
    turn = turn or RingPegsTurn()
    capture = np.atleast_2d(np.asarray(capture))
    x, y = np.atleast_2d(np.asarray(x, float)), np.atleast_2d(np.asarray(y, float))
    contacts = np.atleast_2d(np.asarray(contacts))
    table = table_position(position)
    check_discs(capture, table.pieces, position, "pieces and the shooting ring")
    board = position.board
    pegged = np.array([p.kind == "ring" for p in table.pieces], bool)
    touched = (contacts[:, 1:][:, pegged] > 0).any(axis=1)
    r = board.ring_diameter / 2
    sx, sy = active_spot(position)
    n = len(capture)
    fx = np.full(n, np.nan) if first_x is None else np.atleast_1d(np.asarray(first_x, float))
    fy = np.full(n, np.nan) if first_y is None else np.atleast_1d(np.asarray(first_y, float))
    ex = np.where(np.isfinite(fx), fx, x[:, 0])  # the end of the first straight leg
    ey = np.where(np.isfinite(fy), fy, y[:, 0])
    through = crosses_circle(sx, sy, ex, ey, board.small_radius)
    through &= np.hypot(ex, ey) > board.small_radius + r
    passed = through & ~touched
    gap = entry_gap(sx, sy, ex, ey, board.small_radius)
    finished = (capture[:, 0] == hole_code(board)) & ~touched
    success = passed if turn.stage == 1 else finished
    opponent = np.array([p.kind == "shooter" for p in table.pieces], bool)
    hit_opponent = (contacts[:, 1:][:, opponent] > 0).any(axis=1)
    cleared = hit_opponent & ~touched & ~success  # decision 4: the turn continues
    return {
        "passed": passed,
        "finished": finished,
        "touched_pegged": touched,
        "cleared": cleared,
        "continues": success | cleared,
        **{f"gap.{k}": (gap == k) & ~touched for k in range(N_GAPS)},
        "points": success.astype(float),
    }


class RingPegsRules(VariantRules):
    variant = "ring-pegs"
    variants = VARIANTS
    turn_type = RingPegsTurn
    scoring_type = None
    foul_kinds = ()
    probabilities = PROBABILITIES
    means = MEANS

    def evaluate(self, position, outcome_arrays, turn=None, scoring=None) -> dict:
        return evaluate_ring_pegs(
            outcome_field(outcome_arrays, "capture"),
            outcome_field(outcome_arrays, "x"),
            outcome_field(outcome_arrays, "y"),
            outcome_field(outcome_arrays, "contacts"),
            position,
            turn,
            outcome_field(outcome_arrays, "first_x", required=False),
            outcome_field(outcome_arrays, "first_y", required=False),
        )
