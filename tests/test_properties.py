"""Property tests: JSON round-trips exactly; random legal positions validate; perturbed ones
don't, and the problem names the moved piece.

The legal positions are built here by rejection sampling with plain geometry computed from the
board's fields (not with carromlab's validation), with a safety margin of ``MARGIN``.
"""

from __future__ import annotations

import dataclasses
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carromlab.equipment import BOARDS, GAME_SETS
from carromlab.position import Piece, Position
from carromlab.registry import standard_position

VARIANTS = sorted(GAME_SETS)
MARGIN = 1e-3  # m: every placed piece keeps this clear of edges, pockets, holes, pegs, pieces
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

finite = st.floats(allow_nan=False, allow_infinity=False)


# ---------------------------------------------------------------------- (a) JSON round trip


def _board_field_strategy(f: dataclasses.Field):
    default = f.default
    if f.name == "surround":
        return st.sampled_from(["square", "ditch"])
    if default is None:  # an optional positive number (ICF pocket skip speed)
        return st.none() | st.floats(min_value=1e-3, max_value=10.0)
    if isinstance(default, int):
        return st.integers(min_value=1, max_value=12)
    if "angle" in f.name:
        return st.floats(min_value=-10.0, max_value=10.0)
    return st.floats(min_value=1e-4, max_value=5.0)


@st.composite
def boards(draw, family: str):
    cls = BOARDS[family]
    changes = {}
    for f in dataclasses.fields(cls):
        if draw(st.booleans()):
            changes[f.name] = draw(_board_field_strategy(f))
    return cls(**changes)


@st.composite
def any_positions(draw):
    """Random pieces of allowed kinds and owners at random finite coordinates (not legal)."""
    variant = draw(st.sampled_from(VARIANTS))
    gs = GAME_SETS[variant]
    kinds = sorted(gs.kinds)
    pieces = []
    for _ in range(draw(st.integers(min_value=0, max_value=12))):
        kind = draw(st.sampled_from(kinds))
        owner = draw(st.sampled_from(gs.kinds[kind].owners))
        rotation = draw(st.just(0.0) | finite)
        pieces.append(
            Piece(draw(st.text(max_size=6)), kind, owner, draw(finite), draw(finite), rotation)
        )
    board = draw(st.none() | boards(gs.family))
    return Position(
        variant,
        tuple(pieces),
        board,
        name=draw(st.text(max_size=10)),
        description=draw(st.text(max_size=20)),
    )


@SETTINGS
@given(any_positions())
def test_json_round_trip_is_exact(p):
    text = p.to_json()
    q = Position.from_json(text, check=False)
    assert q == p
    assert q.to_json() == text
    assert Position.from_dict(p.to_dict(), check=False) == p
    for a, b in zip(q.pieces, p.pieces, strict=True):
        assert (a.x, a.y, a.rotation) == (b.x, b.y, b.rotation)


@SETTINGS
@given(any_positions())
def test_compact_json_round_trip_is_exact(p):
    assert Position.from_json(p.to_json(indent=None), check=False) == p


# ---------------------------------------------------------------------- legal positions


@dataclasses.dataclass
class Geometry:
    """The board's surface and obstacles, computed here from the board's fields."""

    shape: str  # "square" (half-width size) or "circle" (radius size)
    size: float
    obstacles: list[tuple[float, float, float]]  # pockets, holes and pegs: x, y, radius
    pegs: list[tuple[float, float]]
    radius: dict[str, float]  # piece kind -> radius (circumradius for the Aero)


def _corner_pockets(half: float, diameter: float, inset: float):
    c = half - inset
    return [(sx * c, sy * c, diameter / 2) for sx in (-1, 1) for sy in (-1, 1)]


def geometry(board) -> Geometry:
    fam = board.family
    if fam == "icf":
        half = board.side / 2
        return Geometry(
            "square",
            half,
            _corner_pockets(half, board.pocket_diameter, board.pocket_inset),
            [],
            {
                "coin": board.coin_diameter / 2,
                "queen": board.coin_diameter / 2,
                "striker": board.striker_diameter / 2,
            },
        )
    if fam in ("checker", "crokinole"):
        half = board.side / 2
        obstacles = _corner_pockets(half, board.pocket_diameter, board.pocket_inset)
        pegs = []
        if fam == "crokinole":
            obstacles.append((0.0, 0.0, board.hole_diameter / 2))
            for k in range(board.peg_count):
                a = board.peg_angle_offset + 2 * math.pi * k / board.peg_count
                pegs.append((board.small_radius * math.cos(a), board.small_radius * math.sin(a)))
            obstacles += [(x, y, board.peg_diameter / 2) for x, y in pegs]
        r = board.ring_diameter / 2
        return Geometry("square", half, obstacles, pegs, {"ring": r, "black": r, "shooter": r})
    if fam == "carrooka":
        rad = board.diameter / 2
        rc = rad - board.pocket_diameter / 2
        obstacles = []
        for k in range(board.pocket_count):
            a = board.pocket_angle + 2 * math.pi * k / board.pocket_count
            obstacles.append((rc * math.cos(a), rc * math.sin(a), board.pocket_diameter / 2))
        radius = {k: board.puck_diameter / 2 for k in GAME_SETS["carrooka"].kinds}
        radius["striker"] = board.striker_diameter / 2
        return Geometry("circle", rad, obstacles, [], radius)
    if fam == "kooba":
        return Geometry(
            "square",
            board.side / 2,
            [],
            [],
            {
                "marker": board.marker_diameter / 2,
                "kooba": board.kooba_radius,
                "aero": board.aero_side / math.sqrt(3),
            },
        )
    raise AssertionError(fam)


def _inside(g: Geometry, x: float, y: float, r: float) -> bool:
    lim = g.size - r - MARGIN
    if g.shape == "square":
        return abs(x) <= lim and abs(y) <= lim
    return math.hypot(x, y) <= lim


def _random_point(g: Geometry, rng: random.Random) -> tuple[float, float]:
    return rng.uniform(-g.size, g.size), rng.uniform(-g.size, g.size)


def wanted_pieces(variant: str, rng: random.Random) -> list[tuple[str, str | None]]:
    """A random sub-set of the game set: (kind, owner) pairs within the allowed counts."""
    gs = GAME_SETS[variant]
    out = []
    for kind, rule in gs.kinds.items():
        chosen = []
        for owner in rule.owners:
            chosen += [(kind, owner)] * rng.randint(0, rule.per_owner)
        rng.shuffle(chosen)
        if rule.total is not None:
            chosen = chosen[: rule.total]
        out += chosen
    rng.shuffle(out)
    return out


def legal_position(variant: str, rng: random.Random, tries: int = 300) -> Position:
    gs = GAME_SETS[variant]
    board = gs.default_board()
    g = geometry(board)
    placed: list[Piece] = []
    free_pegs = list(g.pegs)
    rng.shuffle(free_pegs)
    wanted = wanted_pieces(variant, rng)
    wanted.sort(key=lambda ko: ko[0] not in gs.pegged)  # pegged rings first: others avoid them
    for n, (kind, owner) in enumerate(wanted):
        r = g.radius[kind]
        pid = f"{kind}.{n}"
        if kind in gs.pegged:
            if free_pegs:
                placed.append(Piece(pid, kind, owner, *free_pegs.pop()))
            continue
        for _ in range(tries):
            x, y = _random_point(g, rng)
            if not _inside(g, x, y, r):
                continue
            if any(math.hypot(x - ox, y - oy) < orad + r + MARGIN for ox, oy, orad in g.obstacles):
                continue
            if kind not in gs.stackable and any(
                q.kind not in gs.stackable
                and math.hypot(x - q.x, y - q.y) < g.radius[q.kind] + r + MARGIN
                for q in placed
            ):
                continue
            rotation = rng.uniform(-math.pi, math.pi) if kind == "aero" else 0.0
            placed.append(Piece(pid, kind, owner, x, y, rotation))
            break
    return Position(variant, tuple(placed), board)


def moved(p: Position, piece_id: str, x: float, y: float) -> Position:
    pieces = tuple(dataclasses.replace(q, x=x, y=y) if q.id == piece_id else q for q in p.pieces)
    return p.replace(pieces=pieces)


@SETTINGS
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_random_legal_positions_validate(variant, rng):
    p = legal_position(variant, rng)
    assert p.validate() == [], p.to_json()
    assert p.check() is p


@SETTINGS
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_moving_a_piece_onto_another_is_an_overlap_naming_it(variant, rng):
    p = legal_position(variant, rng)
    gs = GAME_SETS[variant]
    solid = [q for q in p.pieces if q.kind not in gs.stackable]
    if len(solid) < 2:
        return
    a, b = rng.sample(solid, 2)
    bad = moved(p, a.id, b.x, b.y)
    problems = bad.validate()
    assert any(
        "overlaps" in s and f"piece {a.id!r}" in s and f"piece {b.id!r}" in s for s in problems
    ), problems
    # Nothing else was touched: every problem involves the moved piece.
    assert all(a.id in s for s in problems), problems


@SETTINGS
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False), st.booleans())
def test_moving_a_piece_off_the_surface_names_it(variant, rng, along_x):
    p = legal_position(variant, rng)
    if not p.pieces:
        return
    a = rng.choice(p.pieces)
    g = geometry(p.board)
    far = g.size + g.radius[a.kind] + rng.uniform(0.01, 0.5)
    sign = rng.choice((-1.0, 1.0))
    x, y = (sign * far, 0.0) if along_x else (0.0, sign * far)
    problems = moved(p, a.id, x, y).validate()
    assert any(f"piece {a.id!r}" in s and "off the" in s for s in problems), problems
    assert all(a.id in s for s in problems), problems


def test_random_legal_positions_are_not_trivial():
    """The sampler does place pieces (else the properties above would prove nothing)."""
    rng = random.Random(1)
    for variant in VARIANTS:
        p = legal_position(variant, rng)
        total = sum(r.per_owner * len(r.owners) for r in GAME_SETS[variant].kinds.values())
        assert total > 0
        sizes = [len(legal_position(variant, rng).pieces) for _ in range(20)]
        assert max(sizes) >= 3, (variant, sizes)
        assert p.validate() == []


# ---------------------------------------------------------------------- (c) translation


@SETTINGS
@given(
    st.floats(min_value=-0.05, max_value=0.05),
    st.floats(min_value=-0.05, max_value=0.05),
)
def test_translated_icf_opening_stays_legal(dx, dy):
    p = standard_position("icf-opening")
    shifted = p.replace(
        pieces=tuple(dataclasses.replace(q, x=q.x + dx, y=q.y + dy) for q in p.pieces)
    )
    assert shifted.validate() == []


@SETTINGS
@given(
    st.randoms(use_true_random=False),
    st.floats(min_value=-MARGIN / 3, max_value=MARGIN / 3),
    st.floats(min_value=-MARGIN / 3, max_value=MARGIN / 3),
)
def test_tiny_translation_of_a_legal_icf_position_stays_legal(rng, dx, dy):
    p = legal_position("icf", rng)
    shifted = p.replace(
        pieces=tuple(dataclasses.replace(q, x=q.x + dx, y=q.y + dy) for q in p.pieces)
    )
    assert shifted.validate() == []


@SETTINGS
@given(
    st.floats(min_value=0.36, max_value=0.6),
    st.floats(min_value=-0.6, max_value=0.6),
    st.booleans(),
    st.sampled_from([-1.0, 1.0]),
)
def test_translating_the_icf_opening_into_the_frame_is_refused(across, along, swap, sign):
    """The converse: shifted so far that the queen's edge crosses the frame, it is refused."""
    p = standard_position("icf-opening")
    dx, dy = (along, sign * across) if swap else (sign * across, along)
    shifted = p.replace(
        pieces=tuple(dataclasses.replace(q, x=q.x + dx, y=q.y + dy) for q in p.pieces)
    )
    problems = shifted.validate()
    assert any("piece 'q' (queen)" in s for s in problems), problems
