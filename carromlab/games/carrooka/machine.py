"""The Carrooka game-state machine: turns, phases, re-spotting, the bonus shot, "Carrooka'd"
situations and the end of the game (seed 000, "How to Play Carrooka").

A state holds the position (pucks, and a ``striker`` piece where the striker lies; none at
the start: the first shot is played from anywhere on the break line), whose turn it is, the
phase, the scores, and the bonus-shot bookkeeping. :func:`shot_turns` lists the targets the
player may choose for the next stroke (a nomination in the colour phase),
:func:`apply_stroke` applies one stroke's outcome, :func:`is_carrookad` and
:func:`apply_option` handle a Carrooka'd start after a foul.

Phases: ``red`` (pocket a red), ``colour`` (nominate a colour; it is re-spotted),
``last_colour`` (the colour after the last red), ``sequence`` (yellow -> black, they stay
down), ``black_respotted`` (the tie-break).

Decisions where seed 000 is silent (each documented, options where reasonable people differ):

1. A miss on the colour after the last red, or reds running out on a foul, starts the
   sequence (yellow) for the next shot; in the sequence a miss passes the turn with the same
   colour on.
2. Re-spotting: every colour pocketed outside the sequence (and any colour pocketed on a foul,
   the sequence included) goes back to its own spot; if a piece or the resting striker covers
   the spot, to the highest-value free spot; if every spot is covered, to the nearest free
   point of its own spot (rings of 1 mm). Several colours: those whose own spot is free go
   home; the others are then re-spotted highest value first (snooker's precedence), so a
   colour never loses its free own spot to a higher one. A colour pocketed in the sequence
   that is not the colour on (a free counter) is re-spotted too. A red that leaves the board
   stays out, like a red pocketed on a foul.
3. The bonus shot (``CarrookaConfig.bonus_shot``): after the opponent's foul the player
   plays on as normal; at their first miss they shoot again at the same target (the same
   nomination, and the free counter if one was taken), from where the striker stopped. Only
   one bonus shot a turn. Potting on it continues the turn; a foul ends the turn and the bonus
   passes to the opponent.
4. Carrooka'd: only on the first shot of a turn that follows a foul (the rule's "as a result of
   a foul"), when no piece on has a clear line (:mod:`~carromlab.games.carrooka.striker`, decision 4). The
   options: ``break_line`` (the striker to a break-line point with a clear line; the bonus is
   kept), ``counter`` (any piece as the piece on, for this shot and an immediate bonus shot;
   the bonus is kept), ``pass`` (the fouler plays the position as it is, without a bonus).
   ``CarrookaConfig.carrookad`` forces one option for studies; "choose" leaves it to the
   policy.
5. The end: the black pocketed legally in the sequence ends the game. A tie is broken, by
   default, by re-spotting the black (snooker's convention, ``tie="respot_black"``): the
   player who did not pot the black plays first from the break line; the next legal pot of
   the black wins, a foul loses the game, and there are no bonus shots. ``tie="draw"`` ends
   a tied game as a draw.
6. A foul on the colour of the end sequence re-spots it (the rule's "colour pieces go back to
   their spot"); the same colour stays on.
7. Interference ("Interference (shaking the board excessively, hitting pieces with your
   hand)" is a foul in seed 000): the kernel cannot see it, so a caller declares it on the
   stroke it spoiled (``apply_stroke(declared=("interference",))``, or
   ``StrokeOutcome.declared``), as a referee would when a recorded game is replayed. It is a
   foul with the rule's penalty, whatever the pieces did: "your turn ends immediately, and
   you gain no points for a foul shot"; reds down stay out, colours go back to their spots,
   the striker to the break line; the opponent gets the bonus shot (in the re-spotted-black
   tie-break, the fouler loses).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from carromlab.equipment.carrooka import COLOUR_VALUES, COLOURS, CarrookaBoard
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import striker as st
from carromlab.games.carrooka.rules import CarrookaTurn, evaluate_carrooka, pucks
from carromlab.games.carrooka.setups import carrooka_opening
from carromlab.position import Piece, Position
from carromlab.rules.interfaces import StrokeOutcome, check_declared

PHASES = ("red", "colour", "last_colour", "sequence", "black_respotted")
OPTIONS = ("break_line", "counter", "pass")
#: Fouls a caller declares on a stroke (decision 7); the kernel's fouls are ``FOUL_KINDS``.
DECLARED_FOULS = ("interference",)


@dataclass(frozen=True)
class CarrookaConfig:
    """Rule options of a Carrooka game (see the module's decisions)."""

    #: After the opponent's foul, one shot again at the first miss (decision 3).
    bonus_shot: bool = True
    #: How a tie ends: "respot_black" (the black re-spotted, the next pot wins) or "draw"
    #: (decision 5).
    tie: str = "respot_black"
    #: A striker that lands over the margin line is moved back inside it (striker.py,
    #: decision 3).
    margin_relocation: bool = True
    #: Carrooka'd after a foul: "choose" (the player's choice), or always "break_line",
    #: "counter" or "pass" (decision 4).
    carrookad: str = "choose"
    #: The board (equipment, not a rule; None: the standard Carrooka board).
    board: CarrookaBoard | None = None

    variant = "carrooka"
    n_seats = 2
    seats = ("A", "B")

    def __post_init__(self):
        if self.tie not in ("respot_black", "draw"):
            raise CarromlabError(f"tie must be 'respot_black' or 'draw', not {self.tie!r}")
        if self.carrookad not in ("choose", *OPTIONS):
            raise CarromlabError(
                f"carrookad must be 'choose' or one of {', '.join(OPTIONS)}, not {self.carrookad!r}"
            )


@dataclass(frozen=True)
class CarrookaStroke:
    """What one stroke did, as the machine applied it."""

    player: int
    turn: CarrookaTurn
    phase: str
    points: int
    foul: bool
    potted: bool
    bonus_shot: bool  # this stroke was the bonus re-shot
    pocketed: tuple[str, ...]
    respotted: tuple[str, ...]
    declared: tuple[str, ...] = ()  # fouls the caller declared (DECLARED_FOULS)


@dataclass(frozen=True)
class CarrookaState:
    """The game between two players (0 and 1); see the module's docstring."""

    position: Position
    player: int = 0
    phase: str = "red"
    scores: tuple[int, int] = (0, 0)
    bonus: bool = False  # the player holds an unused bonus shot
    again: CarrookaTurn | None = None  # the next stroke is the bonus re-shot at this target
    counter: str | None = None  # a free counter taken for this shot (and its bonus shot)
    after_foul: bool = False  # first shot of a turn that follows a foul
    turns: tuple[int, int] = (1, 0)  # turns begun by each player
    strokes: int = 0
    over: bool = False
    winner: int | None = None
    sequence_on: str | None = None
    last: CarrookaStroke | None = None
    history: tuple = field(default=(), repr=False)

    @property
    def striker(self) -> tuple[float, float] | None:
        from carromlab.games.carrooka.rules import striker_spot

        return striker_spot(self.position)

    def reds(self) -> int:
        return self.position.count("red")


def new_game(config: CarrookaConfig | None = None, first: int = 0) -> CarrookaState:
    """The opening position, player ``first`` to break from the break line."""
    config = config or CarrookaConfig()
    pos = carrooka_opening(config.board)
    turns = (1, 0) if first == 0 else (0, 1)
    return CarrookaState(position=pos, player=int(first), turns=turns)


def _colours_on_board(position) -> list[str]:
    return [c for c in COLOURS if any(p.kind == c for p in position.pieces)]


def shot_turns(state: CarrookaState) -> list[CarrookaTurn]:
    """The targets the player may choose for the next stroke."""
    if state.over:
        return []
    if state.again is not None:
        return [state.again]
    counter = state.counter
    if state.phase == "red":
        return [CarrookaTurn("red", counter)]
    if state.phase in ("colour", "last_colour"):
        return [CarrookaTurn(c, counter) for c in _colours_on_board(state.position)]
    return [CarrookaTurn(state.sequence_on, counter)]


def _on_mask(state: CarrookaState, turn: CarrookaTurn | None = None) -> np.ndarray:
    ps = pucks(state.position)
    turns = [turn] if turn is not None else shot_turns(state)
    kinds = {t.on for t in turns}
    return np.array([p.kind in kinds for p in ps], dtype=bool)


def is_carrookad(state: CarrookaState) -> bool:
    """Decision 4: the first shot of a turn after a foul, with no clear line at any piece on
    from where the striker lies."""
    if state.over or not state.after_foul or state.striker is None:
        return False
    sx, sy = state.striker
    return not st.clear_lines(state.position, sx, sy, _on_mask(state)).any()


def _with_striker(position: Position, xy) -> Position:
    rest = tuple(p for p in position.pieces if p.kind != "striker")
    if xy is None:
        return position.replace(pieces=rest)
    return position.replace(pieces=(*rest, Piece("striker", "striker", None, *map(float, xy))))


def apply_option(
    state: CarrookaState,
    option: str,
    angle_deg: float | None = None,
    counter: str | None = None,
) -> CarrookaState:
    """Apply a Carrooka'd option (decision 4): ``break_line`` (to the break-line point at
    ``angle_deg``, which must have a clear line at a piece on), ``counter`` (the piece id
    ``counter`` stands in for the piece on) or ``pass``."""
    if not is_carrookad(state):
        raise CarromlabError("the player is not Carrooka'd after a foul: no option applies")
    if option == "break_line":
        if angle_deg is None:
            raise CarromlabError("the break_line option needs the break-line angle (degrees)")
        x, y = (float(v[0]) for v in st.break_point(state.position.board, [angle_deg]))
        pos = _with_striker(state.position, None)
        if not st.free_of_pucks(pos, x, y)[0]:
            raise CarromlabError(f"break-line point at {angle_deg:.1f} deg is covered by a piece")
        if not st.clear_lines(pos, x, y, _on_mask(state)).any():
            raise CarromlabError(
                f"break-line point at {angle_deg:.1f} deg has no clear line at a piece on"
            )
        return replace(state, position=_with_striker(pos, (x, y)), after_foul=False)
    if option == "counter":
        ids = [p.id for p in pucks(state.position)]
        if counter not in ids:
            raise CarromlabError(f"free counter {counter!r} is not a piece on the board")
        return replace(state, counter=counter, after_foul=False)
    if option == "pass":
        return _hand_over(state, 1 - state.player)
    raise CarromlabError(f"unknown Carrooka'd option {option!r} (one of {', '.join(OPTIONS)})")


def _spot_free(position: Position, xy, skip: str | None = None) -> bool:
    specs = position.board.piece_specs()
    r = specs["red"].radius
    for p in position.pieces:
        if p.id == skip:
            continue
        if math.hypot(p.x - xy[0], p.y - xy[1]) < r + specs[p.kind].radius - 1e-9:
            return False
    return True


def respot(position: Position, colour: str) -> Position:
    """Decision 2: ``position`` with the colour ``colour`` put back (it must not be on the
    board): its own spot, else the highest-value free spot, else the nearest free point to
    its own spot."""
    if any(p.kind == colour for p in position.pieces):
        raise CarromlabError(f"{colour} is on the board already: it cannot be re-spotted")
    spots = position.board.spots()
    order = [colour] + [c for c in reversed(COLOURS) if c != colour]
    for c in order:
        if _spot_free(position, spots[c]):
            xy = spots[c]
            break
    else:
        x0, y0 = spots[colour]
        xy = None
        for ring in np.arange(0.001, position.board.radius, 0.001):
            for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
                cand = (x0 + ring * math.cos(a), y0 + ring * math.sin(a))
                lim = position.board.radius - position.board.puck_diameter / 2
                if math.hypot(*cand) <= lim and _spot_free(position, cand):
                    xy = cand
                    break
            if xy is not None:
                break
        if xy is None:
            raise CarromlabError(f"no free place to re-spot {colour}")
    return position.replace(pieces=(*position.pieces, Piece(colour, colour, None, *xy)))


def _next_sequence(position: Position) -> str | None:
    left = _colours_on_board(position)
    return left[0] if left else None


def apply_stroke(
    state: CarrookaState,
    turn: CarrookaTurn,
    capture,
    first_piece: int,
    final_xy,
    config: CarrookaConfig | None = None,
    declared=(),
) -> CarrookaState:
    """Apply one stroke: ``turn`` the target played (one of :func:`shot_turns`), ``capture``
    the kernel's capture codes [1 + pucks] (striker first), ``first_piece`` its first piece
    (disc index, -1 none), ``final_xy`` [1 + pucks, 2] the resting places; ``declared``:
    fouls the caller declares on the stroke (:data:`DECLARED_FOULS`), each a foul with the
    rule's penalty whatever the pieces did."""
    config = config or CarrookaConfig()
    if state.over:
        raise CarromlabError("the game is over")
    declared = check_declared(declared, DECLARED_FOULS, "Carrooka")
    allowed = shot_turns(state)
    if turn not in allowed:
        raise CarromlabError(
            f"target {turn} is not open in phase {state.phase!r} "
            f"(open: {', '.join(t.on + (f' counter {t.counter}' if t.counter else '') for t in allowed)})"
        )
    capture = np.asarray(capture).reshape(-1)
    xy = np.asarray(final_xy, float).reshape(-1, 2)
    pos0 = state.position
    ps = pucks(pos0)
    table = st.table_position(pos0)
    res = {
        k: v[0]
        for k, v in evaluate_carrooka(capture[None], np.array([first_piece]), table, turn).items()
    }
    n_pockets = len(pos0.board.layout.captures)
    down = capture[1:] >= 0  # pocketed or off the board
    foul = bool(res["foul"]) or bool(declared)
    potted = bool(res["potted"]) and not foul
    points = round(float(res["points"]))
    sequence = state.phase in ("sequence", "black_respotted")
    is_bonus = state.again is not None

    colours_down = [p.kind for k, p in enumerate(ps) if down[k] and p.kind != "red"]
    to_respot = [c for c in colours_down if foul or not sequence or c != turn.on]
    pocketed = tuple(p.id for k, p in enumerate(ps) if 0 <= capture[k + 1] < n_pockets)
    pos = _pieces_after(pos0, ps, down, capture, xy, to_respot, foul, config)
    scores = list(state.scores)
    if not foul:
        scores[state.player] += points
    result = CarrookaStroke(
        player=state.player,
        turn=turn,
        phase=state.phase,
        points=0 if foul else points,
        foul=foul,
        potted=potted,
        bonus_shot=is_bonus,
        pocketed=pocketed,
        respotted=tuple(to_respot),
        declared=declared,
    )
    new = replace(
        state,
        position=pos,
        scores=tuple(scores),
        strokes=state.strokes + 1,
        last=result,
        after_foul=False,
        history=(*state.history, result),
    )
    return _next_turn(state, new, turn, config, foul=foul, potted=potted, is_bonus=is_bonus)


def _pieces_after(pos0, ps, down, capture, xy, to_respot, foul: bool, config) -> Position:
    """The position after a stroke: the reds down stay out; the colours ``to_respot`` go back
    (those potted legally in the sequence as the colour on stay out; a free counter standing
    in for one goes back), each to its own spot when free, the others to the highest-value
    free spots, highest value first (decision 2); the striker back to the break line after a
    foul, else where it stopped (or relocated off the margin)."""
    stay = [Piece(p.id, p.kind, p.owner, *xy[k + 1]) for k, p in enumerate(ps) if not down[k]]
    pos = pos0.replace(pieces=tuple(stay))
    striker_down = capture[0] >= 0
    if foul:
        rest = xy[0] if not striker_down else _capture_point(pos0.board, int(capture[0]), xy[0])
    else:
        x, y = xy[0]
        if config.margin_relocation:
            x, y = st.margin_relocation(pos, x, y)
        pos = _with_striker(pos, (x, y))
    spots = pos.board.spots()
    for c in sorted(to_respot, key=lambda c: (not _spot_free(pos, spots[c]), -COLOUR_VALUES[c])):
        pos = respot(pos, c)
    if foul:
        pos = _with_striker(pos, st.nearest_free_break_point(pos, rest))
    return pos


def _next_turn(
    state: CarrookaState,
    new: CarrookaState,
    turn: CarrookaTurn,
    config: CarrookaConfig,
    foul: bool,
    potted: bool,
    is_bonus: bool,
) -> CarrookaState:
    """After a stroke of ``state`` (``new``: the stroke applied): who plays next and at what
    (the phase, the colour on, a bonus shot, the game's end), by the rules' order of play."""
    pos = new.position
    reds_left = pos.count("red")
    other = 1 - state.player

    def pass_turn(s: CarrookaState, bonus: bool, after_foul: bool) -> CarrookaState:
        return _hand_over(s, other, bonus=bonus, after_foul=after_foul)

    if state.phase == "black_respotted":
        if foul:
            return replace(new, over=True, winner=other)
        if potted:
            return replace(new, over=True, winner=state.player)
        return pass_turn(new, False, False)

    if foul:
        new = pass_turn(new, config.bonus_shot, True)
        if state.phase == "sequence":
            return replace(new, sequence_on=_next_sequence(pos))
        if reds_left:
            return replace(new, phase="red")
        return replace(new, phase="sequence", sequence_on=_next_sequence(pos))

    if potted:
        new = replace(new, again=None, counter=None)
        if state.phase == "red":
            return replace(new, phase="colour" if reds_left else "last_colour")
        if state.phase == "colour":
            if reds_left:
                return replace(new, phase="red")
            return replace(new, phase="sequence", sequence_on=_next_sequence(pos))
        if state.phase == "last_colour":
            return replace(new, phase="sequence", sequence_on=_next_sequence(pos))
        # the sequence
        nxt = _next_sequence(pos)
        if nxt is not None:
            return replace(new, sequence_on=nxt)
        return _end(new, config, state.player)

    # a legal miss
    if state.bonus and not is_bonus:
        return replace(new, bonus=False, again=turn, counter=turn.counter)
    new = pass_turn(new, False, False)
    if state.phase in ("red", "colour") and reds_left:
        return replace(new, phase="red")
    if state.phase == "sequence":
        return new
    return replace(new, phase="sequence", sequence_on=_next_sequence(pos))


def _capture_point(board, code: int, fallback) -> np.ndarray:
    caps = board.layout.captures
    if 0 <= code < len(caps):
        return np.array([caps[code].x, caps[code].y])
    return np.asarray(fallback, float)


def _end(state: CarrookaState, config: CarrookaConfig, potter: int) -> CarrookaState:
    a, b = state.scores
    if a != b:
        return replace(state, over=True, winner=0 if a > b else 1)
    if config.tie == "draw":
        return replace(state, over=True, winner=None)
    pos = respot(_with_striker(state.position, None), "black")
    return _hand_over(state, 1 - potter, position=pos, phase="black_respotted", sequence_on="black")


def _hand_over(state: CarrookaState, to: int, bonus=False, after_foul=False, **changes):
    """The turn passes to player ``to`` (a new turn begins; no re-shot or counter pending)."""
    turns = list(state.turns)
    turns[to] += 1
    return replace(
        state,
        player=to,
        bonus=bonus,
        again=None,
        counter=None,
        after_foul=after_foul,
        turns=tuple(turns),
        **changes,
    )


def apply(
    state: CarrookaState,
    outcome: StrokeOutcome,
    config: CarrookaConfig | None = None,
    rng=None,
) -> CarrookaState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`): the state after
    a stroke played on ``outcome.turn`` (the piece on)."""
    return apply_stroke(
        state,
        outcome.turn,
        outcome.capture,
        int(outcome.first_piece),
        outcome.final_xy,
        config,
        outcome.declared,
    )
