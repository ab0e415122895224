"""``cl.Explorer``: a Jupyter widget (anywidget) to touch a position and see the odds.

The page (``static/``: small ES modules, one concern each, bundled into the one module
anywidget loads by :mod:`~carromlab.explore.frontend`) draws the board picture with the
shooter on its track, the aim, the paths of a few executions and the best shot, and holds the
controls; this side answers, through the position's game's model
(:func:`~carromlab.explore.model.model_for`: no game is named here).
Every control change starts a new *generation*: its work runs on a background thread in
stages (the odds from :data:`QUICK_N` shots, the executions' paths, the odds from the full
``n``, the expected points over the aim angle), and a stage whose generation is no longer the
latest is dropped, so a moved control cancels the stale run at its next stage. The best shot
(a search of seconds) runs on a thread of its own when asked, and is kept until the position
or the skill changes. ``background=False`` runs every stage at once, in the caller's thread
(scripts and tests).

Checked (2026-12-03, headless Chromium): JupyterLab 4.6 and Notebook 7.6 (notebook 08 run
from the Run menu, the angle moved with the arrow keys, the odds changed:
experiments/explorer_in_jupyter.py) and Voila 0.5 (``carromlab explore``, the browser test in
the suite). VS Code's notebook renderer loads anywidget's modules too but was not tried.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import anywidget
import traitlets as t

from carromlab.errors import CarromlabError
from carromlab.explore.frontend import bundle
from carromlab.explore.model import (
    ShotControls,
    board_picture,
    explorable_variants,
    model_class,
    model_for,
    odds_table,
    piece_table,
)
from carromlab.explore.model import turn_text as turn_in_words

#: Shots behind the first answer after a move (the full ``n`` follows).
QUICK_N = 256
#: Executions whose paths are drawn.
PATHS = 20

_STATIC = Path(__file__).parent / "static"


def explorable_positions() -> list[str]:
    """The standard positions the explorer can open: those of a variant with a model
    (:func:`~carromlab.explore.model.explorable_variants`)."""
    from carromlab.registry import standard_names, standard_position

    ok = set(explorable_variants())
    return [n for n in standard_names() if standard_position(n).variant in ok]


def first_position() -> str:
    """The position the explorer opens when none is given: the first game's (in listing
    order) default shot-analysis position, else the first it can open."""
    from carromlab.registry import GAMES

    for game in GAMES.values():
        for variant in game.variants:
            if variant in game.default_position:
                return game.default_position[variant]
    return explorable_positions()[0]


def open_position(position):
    """A Position as given, a standard position's name, or a position's JSON file."""
    from carromlab.position import Position
    from carromlab.registry import STANDARD, standard_position

    if not isinstance(position, (str, Path)):
        return position
    if str(position) in STANDARD:
        return standard_position(str(position))
    path = Path(position)
    if path.exists():
        return Position.load(path)
    raise CarromlabError(
        f"{str(position)!r} is neither a position file nor a standard position "
        f"(see `carromlab positions list`)"
    )


def skill_names(variant: str) -> list[str]:
    """The skills the explorer offers for ``variant``: its model's (the first the default)."""
    return model_class(variant).skill_names(variant)


class Explorer(anywidget.AnyWidget):
    """A position's board with the shooter, the aim and the odds, live.

    ``Explorer(position, skill="club", n=2000, seed=0)``: ``position`` a Position, a standard
    position's name or a position's JSON file (None: :func:`first_position`). Drag the
    striker along its line (or, where it is played from where it lies, it stays there), drag
    on the board or type to aim, set the speed and the skill; where the game's model is of
    kind "throw", the throw is aimed at a point. ``background=False`` answers in the caller's
    thread (no widget front end needed: scripts and tests); :meth:`wait` waits for the
    background work."""

    _esm = bundle(_STATIC)
    _css = _STATIC / "explorer.css"

    positions = t.List(t.Unicode()).tag(sync=True)
    position = t.Unicode("").tag(sync=True)
    skills = t.List(t.Unicode()).tag(sync=True)
    skill = t.Unicode("club").tag(sync=True)
    kind = t.Unicode("shot").tag(sync=True)
    board = t.Dict().tag(sync=True)
    limits = t.Dict().tag(sync=True)
    placement = t.Float(0.0).tag(sync=True)
    angle = t.Float(90.0).tag(sync=True)
    speed = t.Float(2.0).tag(sync=True)
    aim = t.List(t.Float(), [0.0, 0.0]).tag(sync=True)
    odds = t.Dict().tag(sync=True)
    paths = t.List().tag(sync=True)
    strip = t.Dict().tag(sync=True)
    best = t.Dict().tag(sync=True)
    story = t.Dict().tag(sync=True)
    best_requests = t.Int(0).tag(sync=True)
    status = t.Unicode("").tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    generation = t.Int(0).tag(sync=True)
    #: The turn the shots are valued under, in words (set when a position opens).
    turn_text = t.Unicode("").tag(sync=True)

    def __init__(
        self,
        position=None,
        skill="club",
        n: int = 2000,
        seed: int = 0,
        background: bool = True,
        **kw,
    ):
        pos = open_position(first_position() if position is None else position)
        if int(n) <= 0:
            raise CarromlabError(f"n must be a positive number of shots, not {n}")
        self._n, self._seed, self._background = int(n), int(seed), bool(background)
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="explorer")
        self._best_pool = ThreadPoolExecutor(1, thread_name_prefix="explorer-best")
        self._futures: list = []
        self._model = None
        self._setting = False
        names = explorable_positions()
        if pos.name and pos.name not in names:
            names = [pos.name, *names]
        skills = skill_names(pos.variant)
        if skill not in skills:
            raise CarromlabError(
                f"skill {skill!r} is not one of {pos.variant}'s: {', '.join(skills)}"
            )
        super().__init__(positions=names, skills=skills, skill=skill, **kw)
        self._open(pos)

    # -- opening a position --------------------------------------------------------------------
    def _open(self, pos) -> None:
        turn = turn_in_words(pos)  # a turn the game does not take is refused before anything opens
        model = model_for(pos, skill=self.skill, n=self._n, seed=self._seed)
        self._model, self._pos = model, pos
        picture = board_picture(pos)
        picture["pieces"] = piece_table(pos)
        picture["shooter_r"] = model.shooter_radius
        picture.update(model.picture())
        self._setting = True
        try:
            with self.hold_sync():
                self.kind = model.kind
                self.limits = model.limits()
                for name, value in model.start().items():
                    setattr(self, name, value)
                self.board = picture
                self.best, self.paths, self.strip, self.odds, self.error = {}, [], {}, {}, ""
                self.story = {}
                self.skills = skill_names(pos.variant)
                self.position = pos.name or "position"
                self.turn_text = turn
        finally:
            self._setting = False
        self._refresh()

    @t.observe("position")
    def _on_position(self, change) -> None:
        if self._setting or self._model is None or change["new"] == self._pos.name:
            return
        from carromlab.registry import standard_position

        try:
            pos = standard_position(change["new"])
            if self.skill not in skill_names(pos.variant):
                self._setting = True
                self.skill = skill_names(pos.variant)[0]
                self._setting = False
            self._open(pos)
        except CarromlabError as e:
            self.error = str(e)

    @t.observe("placement", "angle", "speed", "aim", "skill")
    def _on_control(self, change) -> None:
        if self._setting or self._model is None:
            return
        if change["name"] == "skill":
            self.best = {}
        self._refresh()

    @t.observe("best_requests")
    def _on_best(self, change) -> None:
        if self._model is None or change["new"] <= change["old"]:
            return
        self._start_best()

    # -- the work ------------------------------------------------------------------------------
    def _controls(self):
        """The page's controls as the model takes them: the aim point for a model of kind
        "throw", the shot (:class:`~carromlab.explore.model.ShotControls`) otherwise."""
        if self.kind == "throw":
            return list(self.aim)
        return ShotControls(float(self.placement), float(self.angle), float(self.speed))

    def _refresh(self) -> None:
        with self._lock:
            self.generation += 1
            gen = self.generation
        job = (self._model, self._controls(), self.skill, gen)
        if self._background:
            self._futures.append(self._pool.submit(self._stages, *job))
        else:
            self._stages(*job)

    def _stale(self, gen: int) -> bool:
        return gen != self.generation

    def _stages(self, model, c, skill, gen) -> None:
        try:
            n_quick = min(QUICK_N, self._n)
            self.status = f"simulating {n_quick} shots"
            first = odds_table(model, c, n=n_quick, skill=skill)
            if self._stale(gen):
                return
            self.odds = {**first, "final": n_quick >= self._n, "generation": gen}
            if first.get("error"):
                self.error, self.paths, self.status = first["error"], [], ""
                self.story = {}
                return
            self.error = ""
            self.status = f"{n_quick} shots; refining to {self._n}"
            paths = model.paths(c, PATHS, skill=skill)
            if self._stale(gen):
                return
            self.paths = paths
            if self._n > n_quick:
                full = odds_table(model, c, skill=skill)
                if self._stale(gen):
                    return
                self.odds = {**full, "final": True, "generation": gen}
            story = model.story(c, skill=skill)
            if self._stale(gen):
                return
            self.story = story
            self.status = f"{self._n} shots; the aim strip"
            strip = model.strip(c, skill=skill, stale=lambda: self._stale(gen))
            if strip is None or self._stale(gen):
                return
            self.strip = strip
            self.status = f"{self._n} {'throws' if model.kind == 'throw' else 'shots'}"
        except CarromlabError as e:
            if not self._stale(gen):
                self.error, self.status = str(e), ""
        except Exception as e:  # shown on the page in one line, never a silent stop
            if not self._stale(gen):
                self.error, self.status = f"{type(e).__name__}: {e}", ""

    def _start_best(self) -> None:
        model, skill = self._model, self.skill
        if model.best_note is not None:  # a model without a best-shot search says why
            self.best = {"error": model.best_note}
            return

        def search():
            try:
                self.best = {"searching": True}
                found = model.best(skill=skill)
                if model is self._model and skill == self.skill:
                    self.best = found
            except Exception as e:
                self.best = {"error": f"{type(e).__name__}: {e}"}

        if self._background:
            self._futures.append(self._best_pool.submit(search))
        else:
            search()

    def find_best(self) -> None:
        """Search the best shot from the position (what the "best shot" button does)."""
        self.best_requests += 1

    def wait(self, timeout: float | None = 120.0) -> Explorer:
        """Wait for the work started so far (background mode); return the explorer."""
        for f in list(self._futures):
            f.result(timeout=timeout)
        self._futures = [f for f in self._futures if not f.done()]
        return self

    def close(self) -> None:
        for pool in (getattr(self, "_pool", None), getattr(self, "_best_pool", None)):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        super().close()
