"""Whole Carrooka games: candidate shots, players and the game driver of
:func:`~carromlab.play.play_games`.

A Carrooka player decides, each stroke, a :class:`Decision`: the target (the red, or which
colour to nominate), the shot, and - when a foul left it "Carrooka'd" - one of the three
options. Players are plans, like the ICF ones: generators that yield asks (here often a list
of asks, one per nomination) and return their decision, so many games share kernel batches.

:class:`CarrookaGreedy` screens direct pots (ghost-ball aims from where the striker lies, or
from break-line points when it is in hand) and random shots with ``n_screen`` noisy shots,
re-estimates the best ``keep`` with ``n_eval`` and plays the best by

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

import numpy as np
import pandas as pd

from carromlab.analysis.aims import ghost_aims, piece_arrays
from carromlab.analysis.asks import Ask
from carromlab.analysis.players import Decision
from carromlab.analysis.search import Candidates, screen_and_pick
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.carrooka import COLOURS, CarrookaBoard
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import striker as cs
from carromlab.games.carrooka.machine import (
    OPTIONS,
    CarrookaGameConfig,
    apply,
    apply_option,
    is_carrookad,
    new_game,
    shot_turns,
)
from carromlab.games.carrooka.rules import (
    CarrookaScoring,
    CarrookaTurn,
    pucks,
    striker_spot,
    targets,
)
from carromlab.physics import Physics
from carromlab.play.drivers import one_shot, settled
from carromlab.play.loop import GameRecord
from carromlab.rules.interfaces import StrokeOutcome
from carromlab.shots import Shot, concat_shots, take_shots
from carromlab.shots import skill as skill_named

#: The striker and the 21 pucks.
CAPACITY = 22


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


@dataclass(frozen=True)
class CarrookaGreedy:
    """The default Carrooka player (see the module's docstring)."""

    skill: str = "club"
    n_screen: int = 4
    keep: int = 6
    n_eval: int = 16
    max_candidates: int = 48
    random_extra: int = 8
    foul: float = -2.0
    leave: float = 1.0
    break_step: float = 15.0
    max_cut_deg: float = 70.0
    #: The game's first stroke: None (screened like any other) or "search" (the searched
    #: break of :mod:`carromlab.analysis.breaks`, valued with the player's foul price).
    break_shot: str | None = None

    def __post_init__(self):
        if self.break_shot not in (None, "search"):
            raise CarromlabError(f"break_shot must be 'search' or None, not {self.break_shot!r}")

    @property
    def scoring(self) -> CarrookaScoring:
        """The value weights this player searches with (its foul price)."""
        return CarrookaScoring(foul=self.foul)

    def _noise(self):
        return analysis_for("carrooka").noise(skill_named(self.skill))

    def _batch(self, position, turns, rng, per_turn=None):
        """Candidate shots for each turn (pots by smallest cut, then random shots)."""
        ox, oy = origins(position, self.break_step)
        if not len(ox):
            raise CarromlabError("no free origin for the striker")
        per = per_turn or max(4, self.max_candidates // len(turns))
        extra = max(2, self.random_extra // len(turns))
        out = []
        for turn in turns:
            c = pot_candidates(position, turn, ox, oy, self.max_cut_deg)
            best = np.lexsort((c["speed"], c["cut"]))[:per]
            pots = Shot(c["x"][best], c["y"][best], c["angle"][best], c["speed"][best])
            out.append(concat_shots([pots, random_shots(ox, oy, extra, rng)]))
        return out

    def _candidates(self, view, turn, shots) -> Candidates:
        return Candidates(view, shots, turn, self._noise(), self.scoring)

    def _groups(self, position, turns, rng) -> list[Candidates]:
        shots = self._batch(position, turns, rng)
        return [self._candidates(position, t, s) for t, s in zip(turns, shots)]

    def _search(self, position, turns, rng, seeds):
        """Plan step: screen every turn's candidates, re-estimate the best with the leave
        value (a pot that leaves a clear shot at the next piece); (value, turn, shot)."""
        table = cs.table_position(position)

        def with_leave(ans, k):
            res = ans.evaluate()
            leave = next_clear(ans.outcome, table, _next_mask(table, turns[k])) & res["potted"]
            return res["points"] + self.leave * leave

        value, k, shot = yield from screen_and_pick(
            self._groups(position, turns, rng),
            seeds,
            self.n_screen,
            self.keep,
            self.n_eval,
            final_value=with_leave,
        )
        return (value, turns[k], shot) if np.isfinite(value) else (value, None, None)

    def plan(self, view, turn: CarrookaGameConfig, seed: int = 0):
        """The player interface (:mod:`carromlab.analysis.players`): ``view`` is the game's
        state (the phase and the Carrooka'd options matter, not only the pieces), ``turn``
        its rule configuration."""
        state, config = view, turn
        rng = np.random.default_rng(np.random.SeedSequence([seed, 13]))
        seeds = np.random.SeedSequence([seed, 7]).generate_state(4) >> 8
        if is_carrookad(state):
            return (yield from self._carrookad(state, config, rng, seeds))
        turns = shot_turns(state)
        if self.break_shot == "search" and state.strokes == 0 and state.striker is None:
            return self.opening(state.position, turns[0])
        _value, turn, shot = yield from self._search(state.position, turns, rng, seeds)
        if turn is None:
            raise CarromlabError("no legal shot for the player")
        return Decision(turn=turn, shot=shot)

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
            asks.append(self._candidates(in_hand, on, s).ask(s, self.n_screen, seeds[0]))
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
                asks.append(self._candidates(pos, t, s).ask(s, self.n_screen, seeds[1] + j))
                owners.append(("counter", pos, t))
                shots_of.append(s)
        if "pass" in wanted:
            s = concat_shots(
                [random_shots([sx], [sy], 8, rng), *self._batch(pos, [on], rng, per_turn=16)[:1]]
            )
            asks.append(self._candidates(pos, on, s).ask(s, self.n_screen, seeds[2]))
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


@dataclass(frozen=True)
class CarrookaRandom:
    """Random shots from where the striker lies at a random open target (the fast player of
    property tests); Carrooka'd, it takes ``option`` (break line when possible, else a
    counter)."""

    def plan(self, view, turn: CarrookaGameConfig, seed: int = 0):
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


class CarrookaDriver:
    """Whole Carrooka games for :func:`~carromlab.play.play_games`. Player 0 breaks;
    stroke rows record the target, the points, fouls, the bonus shot and any Carrooka'd
    option (with the values the player weighed)."""

    capacity = CAPACITY
    n_seats = 2

    def __init__(self, config: CarrookaGameConfig):
        self.config = config
        self.layout = (config.board or CarrookaBoard()).layout
        self.va = analysis_for("carrooka")

    def new_state(self, g: int):
        return new_game(self.config)

    def plan(self, gm, policies):
        gm.seat = gm.state.player
        return policies[gm.seat].plan(gm.state, self.config, seed=gm.stroke_seed)

    def execution(self, gm, decision: Decision, skills):
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
        noise = self.va.noise(skills[gm.seat])
        return Ask(gm.view, one_shot(decision.shot), 1, gm.stroke_seed, noise, gm.turn)

    def over(self, gm) -> bool:
        return gm.state.over

    def finish(self, gm, answer, on_stroke) -> None:
        if not answer.legal[0]:
            s = answer.ask.shots
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: the player's shot starts at an illegal origin "
                f"({float(s.x[0]):.4f}, {float(s.y[0]):.4f}) m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        table = cs.table_position(gm.view)
        xy = settled(table, out, np.stack([out["x"], out["y"]], axis=1), striker=True)
        before = gm.state
        gm.state = apply(before, StrokeOutcome.from_kernel(out, xy, turn=gm.turn), self.config)
        last = gm.state.last
        note = gm.note or {}
        gm.strokes.append(
            {
                "game": gm.index,
                "stroke": gm.k,
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
                "truncated": bool(out["truncated"]),
            }
        )
        gm.note = None
        if on_stroke is not None:
            on_stroke(gm.state)

    def record(self, gm) -> GameRecord:
        st = gm.state
        strokes = pd.DataFrame(gm.strokes)
        fouls = strokes.groupby("player")["foul"].sum() if len(strokes) else pd.Series(dtype=int)
        row = {
            "game": gm.index,
            "winner": -1 if st.winner is None else int(st.winner),
            "score_0": int(st.scores[0]),
            "score_1": int(st.scores[1]),
            "turns_0": int(st.turns[0]),
            "turns_1": int(st.turns[1]),
            "strokes": len(strokes),
            "fouls_0": int(fouls.get(0, 0)),
            "fouls_1": int(fouls.get(1, 0)),
            "bonus_shots": int(strokes["bonus_shot"].sum()) if len(strokes) else 0,
            "carrookad": int((strokes["carrookad"] != "").sum()) if len(strokes) else 0,
            "tie_break": any(r.phase == "black_respotted" for r in st.history),
            "truncated_strokes": int(strokes["truncated"].sum()) if len(strokes) else 0,
            "finished": bool(st.over),
        }
        row.update(turn_summary(strokes))
        return GameRecord(st, strokes, pd.DataFrame(), row=row)


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
