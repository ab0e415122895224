"""Whole ICF games on the real kernel, many games at once.

Each stroke: the board is turned so that the player on strike sits South (the analysis layer
always shoots from the South line), the seat's policy chooses a shot, one noisy execution at
the seat's skill runs through the kernel, the resting places are turned back, and
:func:`carromlab.rules.icf_game.apply_stroke` applies the laws. Seeds: stroke ``k`` of game
``g`` gets the seed ``SeedSequence([seed, g, k])``; its policy derives its own keys from it and
the execution uses ``fold_in(fold_in(key(that seed), 0), 0)``; returned coins placed at random
use ``SeedSequence([seed, g])``. A game depends only on the seed and its index.

Many games are played together (:func:`play_games`): every round, the pending requests of
every game in play (policy screens and the strokes' executions) go to the kernel as one
batch (:class:`~carromlab.analysis.asks.Evaluator`); each game's numbers stay its own.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from carromlab.analysis.asks import SHOT_FIELDS, Ask, Evaluator
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.geometry import rotate
from carromlab.errors import CarromlabError
from carromlab.physics.settle import separate
from carromlab.position import Piece
from carromlab.rules.icf_game import IcfGameConfig, apply_stroke, new_game
from carromlab.shots import Shot, Skill
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
    """One game: its final state, one row per stroke and one row per board."""

    state: object
    strokes: pd.DataFrame
    boards: pd.DataFrame
    #: The game's row (:func:`game_row`), when the variant's driver builds its own.
    row: dict | None = None


@dataclass
class _Game:
    index: int
    state: object
    rng: np.random.Generator
    k: int = 0
    plan: object = None
    asks: list | None = None
    many: bool = False
    executing: bool = False
    seat: int = 0
    view: object = None
    turn: object = None
    stroke_seed: int = 0
    note: dict | None = None  # what the player's decision noted (Carrooka'd options)
    strokes: list = field(default_factory=list)
    boards: list = field(default_factory=list)


def _seat_skills(skill, n_seats: int) -> list[Skill]:
    one = isinstance(skill, (str, Skill))
    names = [skill] * n_seats if one else list(skill)
    if len(names) != n_seats:
        raise CarromlabError(f"give one skill or one per seat ({n_seats}), not {len(names)}")
    return [s if isinstance(s, Skill) else skill_named(s) for s in names]


def play_games(
    policies,
    config=None,
    skill="club",
    seed: int = 0,
    games=1,
    slots: int = 256,
    max_strokes: int = 5000,
    on_stroke=None,
    on_game=None,
    progress: bool = False,
    lanes: int = 64,
    physics=None,
    stats: dict | None = None,
) -> list[GameRecord]:
    """Play many games at once; ``games`` is a count or an iterable of game indices.

    ``config`` is the game's rule options: an :class:`IcfGameConfig` (the default) or a
    :class:`~carromlab.rules.carrooka_game.CarrookaGameConfig`. ``policies`` has one policy
    per seat; ``skill`` is one skill or one per seat (the execution noise of the real strokes;
    a policy's own estimates use its own skill). Up to ``slots`` games are in play together:
    every round, the pending asks of all of them (policy screens, the strokes' executions) go
    to the kernel as one batch; a finished game's slot takes the next game. A game depends
    only on ``seed`` and its index, never on the others. ``on_stroke(state)`` is called after
    every stroke, ``on_game(record)`` when a game ends (in the order games end). Returns the
    records in the order of ``games``; a ``stats`` dict receives the number of simulated
    shots (``shots``) and rounds (``rounds``).
    """
    from tqdm import tqdm

    driver = driver_for(config or IcfGameConfig())
    if len(policies) != driver.n_seats:
        raise CarromlabError(f"give one policy per seat ({driver.n_seats}), not {len(policies)}")
    skills = _seat_skills(skill, driver.n_seats)
    order = list(range(int(games))) if isinstance(games, (int, np.integer)) else list(games)
    evaluator = Evaluator(driver.layout, driver.capacity, lanes=lanes, physics=physics)
    waiting = deque(order)
    active: list[_Game] = []
    done: dict[int, GameRecord] = {}
    bar = tqdm(total=len(order), desc="games", unit="game", disable=not progress)
    rounds = 0
    while waiting or active:
        while waiting and len(active) < max(1, int(slots)):
            g = waiting.popleft()
            rng = np.random.default_rng(np.random.SeedSequence([seed, g]))
            active.append(_Game(g, driver.new_state(g), rng))
        for gm in active:
            if gm.asks is None:
                _start(driver, gm, policies, skills, seed)
        flat = evaluator.answer([a for gm in active for a in gm.asks])
        rounds += 1
        still = []
        at = 0
        for gm in active:
            answers, at = flat[at : at + len(gm.asks)], at + len(gm.asks)
            if not gm.executing:
                _advance(driver, gm, answers if gm.many else answers[0], policies, skills, seed)
            else:
                driver.finish(gm, answers[0], on_stroke)
                gm.k += 1
                gm.asks = None
                gm.executing = False
                if driver.over(gm) or gm.k >= max_strokes:
                    rec = driver.record(gm)
                    done[gm.index] = rec
                    if on_game is not None:
                        on_game(rec)
                    bar.update(1)
                    continue
            still.append(gm)
        active = still
        bar.set_postfix(shots=evaluator.shots_run, refresh=False)
    bar.close()
    if stats is not None:
        stats.update(shots=evaluator.shots_run, rounds=rounds)
    return [done[g] for g in order]


def play_game(
    policies,
    config=None,
    skill="club",
    seed: int = 0,
    game: int = 0,
    max_strokes: int = 5000,
    on_stroke=None,
) -> GameRecord:
    """Play one game (see :func:`play_games`; the same game as there, stroke for stroke)."""
    return play_games(
        policies, config, skill, seed, [game], max_strokes=max_strokes, on_stroke=on_stroke
    )[0]


def stroke_seed(seed: int, game: int, k: int) -> int:
    """The seed of stroke ``k`` of game ``game``."""
    return int(np.random.SeedSequence([seed, game, k]).generate_state(1)[0] >> 1)


def _start(driver, gm: _Game, policies, skills, seed: int) -> None:
    gm.stroke_seed = stroke_seed(seed, gm.index, gm.k)
    gm.plan = driver.plan(gm, policies)
    gm.executing = False
    _advance(driver, gm, None, policies, skills, seed)


def _advance(driver, gm: _Game, answer, policies, skills, seed: int) -> None:
    """Send the answer to the plan; queue its next asks (a plan may yield one ask or a list),
    or the execution of its decision (a driver may instead restart the stroke)."""
    try:
        nxt = next(gm.plan) if answer is None else gm.plan.send(answer)
        gm.many = isinstance(nxt, (list, tuple))
        gm.asks = list(nxt) if gm.many else [nxt]
    except StopIteration as stop:
        gm.plan = None
        ask = driver.execution(gm, stop.value, skills)
        if ask is None:  # the decision changed whose stroke it is: plan again
            _start(driver, gm, policies, skills, seed)
            return
        gm.asks = [ask]
        gm.many = False
        gm.executing = True


def one_shot(shot) -> Shot:
    """A shot as a Shot of 1-element arrays (one base shot of an ask)."""
    return Shot(*(np.atleast_1d(np.asarray(getattr(shot, f), float)) for f in SHOT_FIELDS))


def settled(table, out: dict, xy: np.ndarray, striker: bool = False) -> np.ndarray:
    """``xy`` (the resting places, disc order) with the float32 overlaps of the discs that
    stay pushed apart (physics/settle.py); ``table`` is the kernel's position (discs 1.. are
    its pieces); the striker (disc 0) takes part only with ``striker`` (where it stays on the
    board for the next shot)."""
    stay = np.flatnonzero(out["capture"] < 0)
    stay = stay if striker else stay[stay > 0]
    specs = table.board.piece_specs()
    shooter = analysis_for(table.variant).shooter_kind
    radius = [specs[shooter].radius] + [specs[p.kind].radius for p in table.pieces]
    xy = np.array(xy, float)
    xy[stay] = separate(xy[stay], [radius[k] for k in stay])
    return xy


class IcfDriver:
    """Whole ICF games for :func:`play_games`: the board is turned so that the player on
    strike sits South, and :func:`~carromlab.rules.icf_game.apply_stroke` applies the laws."""

    capacity = CAPACITY

    def __init__(self, config: IcfGameConfig):
        self.config = config
        self.n_seats = config.n_seats
        self.layout = new_game(config).board.position.board.layout

    def new_state(self, g: int):
        return new_game(self.config)

    def plan(self, gm: _Game, policies):
        board = gm.state.board
        gm.seat = board.turn
        gm.view = turned(board.position, -SEAT_ANGLE[self.config.seats[gm.seat]])
        gm.turn = board.turn_state(self.config.due_rule)
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm: _Game, shot, skills) -> Ask:
        noise = skills[gm.seat].noise()
        return Ask(gm.view, one_shot(shot), 1, gm.stroke_seed, noise, gm.turn)

    def over(self, gm: _Game) -> bool:
        return gm.state.over

    def record(self, gm: _Game) -> GameRecord:
        return GameRecord(gm.state, pd.DataFrame(gm.strokes), pd.DataFrame(gm.boards))

    def finish(self, gm: _Game, answer, on_stroke) -> None:
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
        gm.state = apply_stroke(
            gm.state,
            out["capture"],
            out["first_contact_kind"],
            out["first_contact"],
            out["contacts"],
            config=config,
            placement=gm.rng if config.placement == "random" else None,
            final_xy=xy,
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


class TurnedDriver:
    """The common part of the drivers whose player on turn shoots from the South of a view
    turned to their seat (Carroms, the crokinole-side games): a subclass sets ``capacity``
    and ``board_type`` and provides ``new_state``, ``_apply`` (apply a stroke, return its
    row) and ``_extra`` (a finished game's own columns)."""

    capacity: int = 0
    board_type: type = type(None)
    n_seats = 2
    #: The shooter stays on the board between strokes (its resting place is separated too).
    lies = False

    def __init__(self, config):
        self.config = config
        self.layout = (config.board or self.board_type()).layout
        self.va = analysis_for(config.variant)

    def _angle(self, seat: int) -> float:
        return SEAT_ANGLE[self.config.seats[seat]]

    def board_position(self, state):
        """The position the player on turn sees (before turning)."""
        return state.position

    def plan(self, gm: _Game, policies):
        gm.seat = gm.state.player
        gm.view = turned(self.board_position(gm.state), -self._angle(gm.seat))
        gm.turn = gm.state.turn_state()
        return policies[gm.seat].plan(gm.view, gm.turn, seed=gm.stroke_seed)

    def execution(self, gm: _Game, shot, skills) -> Ask:
        noise = self.va.noise(skills[gm.seat])
        return Ask(gm.view, one_shot(shot), 1, gm.stroke_seed, noise, gm.turn)

    def over(self, gm: _Game) -> bool:
        return gm.state.over

    def finish(self, gm: _Game, answer, on_stroke) -> None:
        if not answer.legal[0]:
            s = answer.ask.shots
            raise CarromlabError(
                f"game {gm.index}, stroke {gm.k}: the player's shot starts at an illegal origin "
                f"({float(s.x[0]):.4f}, {float(s.y[0]):.4f}) m"
            )
        out = {key: v[0] for key, v in answer.outcome.items()}
        angle = self._angle(gm.seat)
        xy = np.array([rotate(x, y, angle) for x, y in zip(out["x"], out["y"])])
        xy = settled(self.va.table_position(gm.view), out, xy, striker=self.lies)
        row = self._apply(gm, out, xy)
        gm.strokes.append(
            {"game": gm.index, "stroke": gm.k, **row, "truncated": bool(out["truncated"])}
        )
        if on_stroke is not None:
            on_stroke(gm.state)

    def scores(self, state) -> tuple[int, int]:
        return state.scores

    def record(self, gm: _Game) -> GameRecord:
        st = gm.state
        strokes = pd.DataFrame(gm.strokes)
        n = len(strokes)
        score = self.scores(st)
        row = {
            "game": gm.index,
            "winner": -1 if st.winner is None else int(st.winner),
            "score_0": int(score[0]),
            "score_1": int(score[1]),
            "turns_0": int(st.turns[0]),
            "turns_1": int(st.turns[1]),
            "strokes": n,
            **self._extra(st, strokes),
            "truncated_strokes": int(strokes["truncated"].sum()) if n else 0,
            "finished": bool(st.over and not getattr(st, "unfinished", False)),
        }
        return GameRecord(st, strokes, pd.DataFrame(), row=row)

    def _total(self, strokes: pd.DataFrame, *columns) -> int:
        return int(sum(strokes[c].sum() for c in columns)) if len(strokes) else 0


def driver_for(config):
    """The game driver of a rule configuration."""
    if isinstance(config, IcfGameConfig):
        return IcfDriver(config)
    if getattr(config, "variant", None) == "carrooka":
        from carromlab.analysis.carrooka_play import CarrookaDriver

        return CarrookaDriver(config)
    if getattr(config, "variant", None) == "circle-scores":
        from carromlab.analysis.force_out_play import CircleScoresDriver

        return CircleScoresDriver(config)
    if getattr(config, "variant", None) == "ring-pegs":
        from carromlab.analysis.ring_pegs_play import RingPegsDriver

        return RingPegsDriver(config)
    if getattr(config, "variant", None) == "carroms":
        from carromlab.analysis.carroms_play import CarromsDriver

        return CarromsDriver(config)
    if getattr(config, "variant", None) in ("force-out", "force-out-fast"):
        from carromlab.analysis.force_out_play import ForceOutDriver

        return ForceOutDriver(config)
    raise CarromlabError(f"whole games are not available for {type(config).__name__}")


# --------------------------------------------------------------------------- records


def game_row(rec: GameRecord) -> dict:
    """One row for a finished game: winner (side; -1 for a draw or an unfinished game),
    scores per side, boards, strokes, the truncated strokes."""
    if rec.row is not None:
        return dict(rec.row)
    st = rec.state
    return {
        "game": int(rec.strokes["game"].iloc[0]) if len(rec.strokes) else -1,
        "winner": -1 if st.winner is None else int(st.winner),
        "score_0": int(st.scores[0]),
        "score_1": int(st.scores[1]),
        "boards": int(st.boards_played),
        "strokes": len(rec.strokes),
        "truncated_strokes": int(rec.strokes["truncated"].sum()) if len(rec.strokes) else 0,
        "finished": bool(st.over),
    }


class GameLog:
    """Rows of finished games, written as they come, so a long run loses nothing and resumes.

    ``folder/boards.csv`` (one row per board) and ``folder/games.csv`` (one per game) are
    appended when a game ends (the game's row last: a game counts as done once its row is
    complete); ``folder/config.json`` holds the run's configuration, and a rerun with another
    configuration in the same folder is refused. :meth:`done` lists the games already there;
    :meth:`frames` reads both tables back (dropping the boards of a game whose row was cut
    short); :meth:`write_parquet` writes them as parquet with the configuration attached.
    """

    def __init__(self, folder, config: dict):
        import json
        from pathlib import Path

        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.config = json.loads(json.dumps(config, default=str))
        path = self.folder / "config.json"
        if path.exists():
            old = json.loads(path.read_text())
            if _settings(old) != _settings(self.config):
                raise CarromlabError(
                    f"{self.folder} holds a run with another configuration; "
                    "use a new folder or delete it"
                )
        else:
            path.write_text(json.dumps(self.config, indent=1, sort_keys=True))

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return read_log(self.folder)

    def done(self) -> set[int]:
        games = _read_rows(self.folder / "games.csv")
        return set(int(g) for g in games["game"]) if len(games) else set()

    def add(self, rec: GameRecord) -> None:
        for name, rows in (
            ("boards.csv", rec.boards),
            ("games.csv", pd.DataFrame([game_row(rec)])),
        ):
            if not len(rows):
                continue
            path = self.folder / name
            header = not path.exists() or path.stat().st_size == 0
            with path.open("a") as fh:
                fh.write(rows.to_csv(index=False, header=header))
                fh.flush()

    def write_parquet(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        from carromlab.analysis.results import write_parquet

        boards, games = self.frames()
        for df, name in ((boards, "boards.parquet"), (games, "games.parquet")):
            if name == "boards.parquet" and not (self.folder / "boards.csv").exists():
                continue  # a variant without boards (Carrooka): one row per game only
            df.attrs["config"] = self.config
            write_parquet(df, self.folder / name)
        return boards, games


def _read_rows(path) -> pd.DataFrame:
    import io

    if not path.exists():
        return pd.DataFrame()
    text = path.read_text()
    text = text[: text.rfind("\n") + 1]  # a line cut short by a crash is dropped
    return pd.read_csv(io.StringIO(text)) if text.strip() else pd.DataFrame()


def read_log(folder) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(boards, games) of a :class:`GameLog` folder; boards of a game whose row is missing
    (cut short by a crash) are dropped."""
    from pathlib import Path

    folder = Path(folder)
    games = _read_rows(folder / "games.csv")
    boards = _read_rows(folder / "boards.csv")
    if len(boards):
        done = set(games["game"]) if len(games) else set()
        boards = boards[boards["game"].isin(done)].reset_index(drop=True)
    return boards, games


#: Keys of run metadata that describe the software, not the run (a resumed run may differ).
VERSION_KEYS = ("carromlab", "jax", "numpy", "pandas", "device")


def _settings(config: dict) -> dict:
    return {k: v for k, v in config.items() if k not in VERSION_KEYS}


def play_logged(
    folder, meta: dict, policies, config, skill, seed: int, games: int, **options
) -> tuple[GameLog, list[int]]:
    """Play games ``0..games-1`` into the :class:`GameLog` ``folder`` (run metadata
    ``meta``), skipping those already there; the tables are written as parquet at the end.
    Returns the log and the games played now; ``options`` go to :func:`play_games`."""
    log = GameLog(folder, meta)
    done = log.done()
    todo = [g for g in range(int(games)) if g not in done]
    if todo:
        play_games(policies, config, skill=skill, seed=seed, games=todo, on_game=log.add, **options)
    log.write_parquet()
    return log, todo
