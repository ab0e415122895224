"""Carrooka's players: candidate shots, the greedy player and a random one (the driver,
``driver.py``, plays them on the game loop).

A Carrooka player decides, each stroke, a :class:`Decision`: the target (the red, or which
colour to nominate), the shot, and - when a foul left it "Carrooka'd" - one of the three
options. Players are plans, like the ICF ones: generators that yield asks (here often a list
of asks, one per nomination) and return their decision, so many games share kernel batches.

:class:`CarrookaGreedy` is the greedy player (:class:`~carromlab.analysis.policies.GreedyBase`)
over direct pots (ghost-ball aims from where the striker lies, or from break-line points when
it is in hand) and random shots, for every target open to it: it screens them with its
budget's ``n_screen`` noisy shots, re-estimates the best ``keep`` with ``n_eval`` and plays
the best by

    value = E[points] + foul * P(foul) + leave * P(potted and a clear line at the next piece on)

Decisions (estimates, options of the player): a foul is priced at -2 points (the opponent's
bonus shot; ``foul``), and a pot that leaves the striker a clear line at a piece on for the
next shot is worth 1 point more (``leave``: the "value for the striker's next position").
When Carrooka'd it screens each option: the break line (up to 12 free break-line points with a
clear line), a free counter (every piece with a clear line from the striker) and the pass
(valued at minus the opponent's best screened value from the same position); it takes the best.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from carromlab.analysis.aims import ghost_aims, piece_arrays
from carromlab.analysis.learned import (
    GRID_STEP_DEG,
    MAX_SPEED,
    RANK_SPEEDS,
    LearnedScreen,
    at_rank_speeds,
)
from carromlab.analysis.players import Decision
from carromlab.analysis.policies import GreedyBase
from carromlab.analysis.search import BUDGET_FIELDS, Candidates
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.carrooka import COLOURS
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import striker as cs
from carromlab.games.carrooka.machine import OPTIONS, CarrookaConfig, is_carrookad, shot_turns
from carromlab.games.carrooka.rules import (
    CarrookaScoring,
    CarrookaTurn,
    pucks,
    striker_spot,
    targets,
)
from carromlab.physics import Physics
from carromlab.shots import Shot, concat_shots, take_shots


def origins(position, step_deg: float = 15.0) -> tuple[np.ndarray, np.ndarray]:
    """Where the next shot may start: the striker's spot, or free break-line points every
    ``step_deg`` degrees when the striker is in hand."""
    spot = striker_spot(position)
    if spot is not None:
        return np.array([spot[0]]), np.array([spot[1]])
    ang = np.arange(-180.0, 180.0, step_deg)
    x, y = cs.break_point(position.board, ang)
    ok = cs.free_of_pucks(position, x, y)
    return x[ok], y[ok]


def pot_candidates(
    position,
    turn: CarrookaTurn,
    ox,
    oy,
    max_cut_deg: float = 70.0,
    arrive_speed: float = 0.4,
    physics: Physics | None = None,
) -> dict:
    """Direct pots of every piece on into every pocket from every origin (``ox, oy``): the
    ghost-ball aim, the speed that brings the piece to the pocket at ``arrive_speed``, both
    legs clear of other pieces. Arrays ``x, y, angle`` (rad), ``speed``, ``cut`` (deg),
    ``piece`` (puck index), ``pocket``."""
    physics = physics or Physics()
    table = cs.table_position(position)
    ps = pucks(position)
    specs = position.board.piece_specs()
    caps = position.board.layout.captures
    ox, oy = np.atleast_1d(ox), np.atleast_1d(oy)
    aims = ghost_aims(
        ox,
        oy,
        piece_arrays(ps, specs),
        np.flatnonzero(targets(table, turn)),
        np.array([c.x for c in caps])[None],
        np.array([c.y for c in caps])[None],
        (specs["striker"].radius, specs["striker"].mass, physics.e_striker),
        physics,
        max_cut_deg,
        arrive_speed,
    )
    return {
        "x": ox[aims["origin"]],
        "y": oy[aims["origin"]],
        "angle": aims["angle"],
        "speed": aims["speed"],
        "cut": aims["cut"],
        "piece": aims["target"],
        "pocket": aims["dest"],
    }


def random_shots(ox, oy, count: int, rng: np.random.Generator) -> Shot:
    """``count`` random shots from the origins: any direction, 1 to 5 m/s."""
    k = rng.integers(0, len(ox), count)
    return Shot(
        np.asarray(ox)[k],
        np.asarray(oy)[k],
        rng.uniform(-math.pi, math.pi, count),
        rng.uniform(1.0, 5.0, count),
    )


def next_clear(out: dict, table, mask: np.ndarray) -> np.ndarray:
    """Per simulated row: the striker rests on the board with a clear straight line at some
    piece of ``mask`` (over the pucks) that is still on the board."""
    specs = table.board.piece_specs()
    r_s = specs["striker"].radius
    r = np.array([specs[p.kind].radius for p in table.pieces])
    cap = np.asarray(out["capture"])
    alive = cap[:, 1:] < 0
    sx, sy = np.asarray(out["x"])[:, 0], np.asarray(out["y"])[:, 0]
    px, py = np.asarray(out["x"])[:, 1:], np.asarray(out["y"])[:, 1:]
    dx, dy = px - sx[:, None], py - sy[:, None]
    dist = np.hypot(dx, dy)
    reach = np.clip(dist - (r_s + r), 0.0, None)
    safe = np.where(dist > 0, dist, 1.0)
    ex, ey = sx[:, None] + dx / safe * reach, sy[:, None] + dy / safe * reach  # [R, J]
    ax, ay = sx[:, None, None], sy[:, None, None]
    bx, by = ex[..., None], ey[..., None]
    qx, qy = px[:, None, :], py[:, None, :]  # [R, 1, K]
    ddx, ddy = bx - ax, by - ay
    ll = ddx * ddx + ddy * ddy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(ll == 0, 0.0, np.clip(((qx - ax) * ddx + (qy - ay) * ddy) / ll, 0, 1))
    near = np.hypot(qx - (ax + t * ddx), qy - (ay + t * ddy)) < r[None, None] + r_s - 1e-9
    near &= alive[:, None, :] & ~np.eye(len(r), dtype=bool)[None]
    clear = ~near.any(-1) & alive & np.asarray(mask, bool)[None]
    return clear.any(-1) & (cap[:, 0] < 0)


def _next_mask(table, turn: CarrookaTurn) -> np.ndarray:
    """The pieces on after a pot on ``turn``: colours after a red, reds after a colour (the
    next colour of the sequence when no red is left)."""
    kinds = np.array([p.kind for p in table.pieces])
    if turn.on == "red":
        return kinds != "red"
    reds = kinds == "red"
    if reds.sum():
        return reds
    later = [c for c in COLOURS if COLOURS.index(c) > COLOURS.index(turn.on) and c in kinds]
    return kinds == (later[0] if later else "")


@dataclass(frozen=True, repr=False)
class CarrookaGreedy(GreedyBase):
    """The default Carrooka player (see the module's docstring): the greedy player over
    every open target's candidates (:meth:`candidate_groups`), its finalists valued with the
    leave (:meth:`leave_value`); Carrooka'd, it weighs the options (:meth:`plan`)."""

    foul: float = -2.0
    leave: float = 1.0
    break_step: float = 15.0
    max_cut_deg: float = 70.0
    #: The game's first stroke: None (screened like any other) or "search" (the searched
    #: break of :mod:`carromlab.analysis.breaks`, valued with the player's foul price).
    break_shot: str | None = None

    REPR: ClassVar[tuple[str, ...]] = (
        "skill",
        *BUDGET_FIELDS[:-1],
        "foul",
        "leave",
        "break_step",
        "max_cut_deg",
        "break_shot",
    )
    #: Its logged games' keys (``generate_state(4) >> 8``; the first two are the search's).
    SEED_SHIFT = 8

    def __post_init__(self):
        if self.break_shot not in (None, "search"):
            raise CarromlabError(f"break_shot must be 'search' or None, not {self.break_shot!r}")

    @property
    def scoring(self) -> CarrookaScoring:
        """The value weights this player searches with (its foul price)."""
        return CarrookaScoring(foul=self.foul)

    def _batch(self, position, turns, rng, per_turn=None):
        """Candidate shots for each turn (pots by smallest cut, then random shots)."""
        ox, oy = origins(position, self.break_step)
        if not len(ox):
            raise CarromlabError("no free origin for the striker")
        per = per_turn or max(4, self.budget.max_candidates // len(turns))
        extra = max(2, self.budget.random_extra // len(turns))
        out = []
        for turn in turns:
            c = pot_candidates(position, turn, ox, oy, self.max_cut_deg)
            best = np.lexsort((c["speed"], c["cut"]))[:per]
            pots = Shot(c["x"][best], c["y"][best], c["angle"][best], c["speed"][best])
            out.append(concat_shots([pots, random_shots(ox, oy, extra, rng)]))
        return out

    def plan(self, view, turn: CarrookaConfig, seed: int = 0):
        """The player interface (:mod:`carromlab.analysis.players`): ``view`` is the game's
        state (the phase and the Carrooka'd options matter, not only the pieces), ``turn``
        its rule configuration."""
        if is_carrookad(view):
            rng = np.random.default_rng(np.random.SeedSequence([seed, 13]))
            seeds = np.random.SeedSequence([seed, 7]).generate_state(4) >> self.SEED_SHIFT
            return (yield from self._carrookad(view, turn, rng, seeds))
        return (yield from super().plan(view, turn, seed))

    def candidate_groups(self, state, config: CarrookaConfig, seed: int) -> list[Candidates]:
        """One group for every target open to the player (the red, or each colour it may
        nominate): pots by smallest cut, then random shots."""
        rng = np.random.default_rng(np.random.SeedSequence([seed, 13]))
        turns = shot_turns(state)
        shots = self._batch(state.position, turns, rng)
        return [self.group(state.position, s, t) for t, s in zip(turns, shots)]

    def leave_value(self, answer, evaluated: dict, group: Candidates) -> np.ndarray:
        """``leave`` for a pot that leaves the striker a clear line at a piece on for the
        next shot."""
        table = cs.table_position(group.view)
        clear = next_clear(answer.outcome, table, _next_mask(table, group.turn))
        return self.leave * (clear & evaluated["potted"])

    def screen_targets(self, position, turn: CarrookaTurn) -> list[str]:
        """The pieces the striker may hit first (the screen's target flags)."""
        return [p.id for p, on in zip(pucks(position), targets(position, turn)) if on]

    def explore_group(self, state, config: CarrookaConfig, count: int, rng) -> Candidates:
        """Random strokes for the screen's training: from the origins, at one of the open
        targets, any aim, up to the screen's fastest speed."""
        turns = shot_turns(state)
        turn = turns[int(rng.integers(len(turns)))]
        ox, oy = origins(state.position, self.break_step)
        if not len(ox):
            raise CarromlabError("no free origin for the striker")
        k = rng.integers(0, len(ox), count)
        shots = Shot(ox[k], oy[k], rng.uniform(-math.pi, math.pi, count),
                     rng.uniform(0.3, MAX_SPEED, count))  # fmt: skip
        return self.group(state.position, shots, turn)

    def break_decision(self, state, config: CarrookaConfig) -> Decision | None:
        if self.break_shot == "search" and state.strokes == 0 and state.striker is None:
            return self.opening(state.position, shot_turns(state)[0])
        return None

    def decision(self, group: Candidates, shot: Shot, mean: float) -> Decision:
        if not np.isfinite(mean):
            raise CarromlabError("no legal shot for the player")
        return Decision(turn=group.turn, shot=shot)

    def opening(self, position, turn: CarrookaTurn) -> Decision:
        """The searched break from the break line (the table's, or searched once a process)."""
        from carromlab.analysis.breaks import searched_break

        placement, angle, speed = searched_break(position, self.skill, turn, scoring=self.scoring)
        x0, y0 = analysis_for("carrooka").origin(position, [placement])
        shot = Shot(x0, y0, np.radians([angle]), np.array([speed], float))
        return Decision(turn=turn, shot=shot)

    def _carrookad(self, state, config, rng, seeds):
        pos = state.position
        on = shot_turns(state)[0]
        mask_on = targets(cs.table_position(pos), on)
        wanted = OPTIONS if config.carrookad == "choose" else (config.carrookad,)
        asks, owners, shots_of = [], [], []
        # break line: up to 12 clear points
        in_hand = pos.replace(pieces=tuple(p for p in pos.pieces if p.kind != "striker"))
        angles = (
            cs.clear_break_points(in_hand, mask_on, step_deg=2.0) if "break_line" in wanted else []
        )
        if len(angles):
            pick = angles[np.linspace(0, len(angles) - 1, min(12, len(angles))).astype(int)]
            x, y = cs.break_point(pos.board, pick)
            shots = []
            for xi, yi in zip(x, y):
                c = pot_candidates(in_hand, on, [xi], [yi], self.max_cut_deg)
                b = np.argsort(c["cut"], kind="stable")[:4]
                shots.append(Shot(c["x"][b], c["y"][b], c["angle"][b], c["speed"][b]))
                # a full-ball hit on the nearest piece on, for points without a pot line
            shots.append(random_shots(x, y, 4, rng))
            s = concat_shots(shots)
            asks.append(self.group(in_hand, s, on).ask(s, self.budget.n_screen, seeds[0]))
            owners.append(("break_line", in_hand, on))
            shots_of.append(s)
        sx, sy = state.striker
        if "counter" in wanted or not asks:
            ids = [p.id for p in pucks(pos)]
            clear = cs.clear_lines(pos, sx, sy, np.ones(len(ids), bool))
            for j in np.flatnonzero(clear)[:8]:
                t = CarrookaTurn(on.on, ids[j])
                c = pot_candidates(pos, t, [sx], [sy], self.max_cut_deg)
                b = np.argsort(c["cut"], kind="stable")[:4]
                s = concat_shots(
                    [
                        Shot(c["x"][b], c["y"][b], c["angle"][b], c["speed"][b]),
                        random_shots([sx], [sy], 2, rng),
                    ]
                )
                asks.append(self.group(pos, s, t).ask(s, self.budget.n_screen, seeds[1] + j))
                owners.append(("counter", pos, t))
                shots_of.append(s)
        if "pass" in wanted:
            s = concat_shots(
                [random_shots([sx], [sy], 8, rng), *self._batch(pos, [on], rng, per_turn=16)[:1]]
            )
            asks.append(self.group(pos, s, on).ask(s, self.budget.n_screen, seeds[2]))
            owners.append(("pass", pos, on))
            shots_of.append(s)
        answers = yield asks
        values: dict[str, float] = {}
        best_of: dict[str, tuple] = {}
        for (opt, view, t), ans, s in zip(owners, answers, shots_of):
            v = np.nan_to_num(ans.means("points"), nan=-np.inf)
            i = int(np.argmax(v))
            val = float(v[i]) if opt != "pass" else -float(v[i])
            if opt not in values or (opt != "pass" and val > values[opt]):
                values[opt] = val
                best_of[opt] = (view, t, take_shots(s, [i]))
        choice = max(values, key=values.get)
        if choice == "pass":
            return Decision(option="pass", values=values)
        view, t, shot = best_of[choice]
        if choice == "break_line":
            angle = math.degrees(math.atan2(float(shot.y[0]), float(shot.x[0])))
            return Decision(shot, t, "break_line", params={"angle": angle}, values=values)
        return Decision(shot, t, "counter", params={"counter": t.counter}, values=values)


#: The learned player's grid when the striker is in hand: break-line points this many degrees
#: apart, aims this many degrees apart (from its spot: every GRID_STEP_DEG).
HAND_ORIGIN_STEP_DEG, HAND_AIM_STEP_DEG = 30.0, 3.0


@dataclass(frozen=True, repr=False)
class CarrookaLearned(LearnedScreen, CarrookaGreedy):
    """The learned Carrooka player: the learned screen (``games/carrooka/screen.npz``) ranks
    :class:`CarrookaGreedy`'s candidates for every target open to it, each also at the
    screen's speeds, and a grid of aims all round from where the striker may start; the
    kernel races the best few of all targets together
    (:class:`~carromlab.analysis.learned.LearnedScreen`; the race values a stroke by its
    points and foul price, without the greedy player's leave bonus). Carrooka'd, it weighs
    the options as :class:`CarrookaGreedy` does."""

    screen: str = "carrooka"

    def plan(self, view, turn: CarrookaConfig, seed: int = 0):
        if is_carrookad(view):
            return (yield from CarrookaGreedy.plan(self, view, turn, seed))
        return (yield from LearnedScreen.plan(self, view, turn, seed))

    def ranked_candidates(self, view, turn, group: Candidates) -> Shot:
        """The group's candidates, each also at the screen's speeds, and aims all round from
        every origin (:data:`HAND_ORIGIN_STEP_DEG`, :data:`HAND_AIM_STEP_DEG` in hand)."""
        spot = striker_spot(view) is not None
        ox, oy = origins(view, 360.0 if spot else HAND_ORIGIN_STEP_DEG)
        step = GRID_STEP_DEG if spot else HAND_AIM_STEP_DEG
        angs = np.radians(np.arange(-180.0, 180.0, step))
        grid = np.meshgrid(np.arange(len(ox)), angs, RANK_SPEEDS, indexing="ij")
        k, ga, gv = (t.ravel() for t in grid)
        return concat_shots([at_rank_speeds(group.shots), Shot(ox[k], oy[k], ga, gv)])


@dataclass(frozen=True)
class CarrookaRandom:
    """Random shots from where the striker lies at a random open target (the fast player of
    property tests); Carrooka'd, it takes ``option`` (break line when possible, else a
    counter)."""

    def plan(self, view, turn: CarrookaConfig, seed: int = 0):
        """As :meth:`CarrookaGreedy.plan`: ``view`` the game's state, ``turn`` its rules."""
        state, config = view, turn
        rng = np.random.default_rng(np.random.SeedSequence([seed, 17]))
        if is_carrookad(state):
            on = shot_turns(state)[0]
            pos = state.position
            in_hand = pos.replace(pieces=tuple(p for p in pos.pieces if p.kind != "striker"))
            angles = cs.clear_break_points(in_hand, targets(cs.table_position(pos), on), 5.0)
            if len(angles) and config.carrookad in ("choose", "break_line"):
                a = float(rng.choice(angles))
                x, y = cs.break_point(pos.board, [a])
                return Decision(random_shots(x, y, 1, rng), on, "break_line", {"angle": a})
            if config.carrookad == "pass":
                return Decision(option="pass")
            ids = [p.id for p in pucks(pos)]
            t = CarrookaTurn(on.on, ids[int(rng.integers(len(ids)))])
            sx, sy = state.striker
            shot = random_shots(np.array([sx]), np.array([sy]), 1, rng)
            return Decision(shot, t, "counter", {"counter": t.counter})
        turns = shot_turns(state)
        ox, oy = origins(state.position)
        turn = turns[int(rng.integers(len(turns)))]
        return Decision(random_shots(ox, oy, 1, rng), turn)
        yield  # a plan is a generator
