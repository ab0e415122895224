"""A study checked and sized before any game is played (``carromlab study check``).

**The questions' columns.** A question reads columns of an arm's game rows or board rows
(:meth:`~carromlab.studies.questions.Question.columns`). Which columns those rows have is
declared by each game's driver beside the code that builds them (``row_columns()``, a
:class:`~carromlab.play.drivers.RowColumns`: :class:`~carromlab.play.drivers.BaseDriver`'s
from its ``extra_columns``, ICF's board rows and KOOBA's per-player columns in their own
drivers), so they are known without playing: :func:`question_columns_check` refuses a
question naming a column an arm's rows will lack, in one line naming the question, the arm,
the column and the columns there are. :func:`~carromlab.studies.spec.parse_study` calls it
last, so ``study run`` refuses such a file before any game (and ``study check`` with it).
tests/test_study_check.py plays a game of every game and compares its rows with the
declaration, so the two cannot drift apart. A driver that declares none (a game registered
elsewhere: no ``row_columns``, or None from it) leaves its arms' questions to be checked once
their rows exist, as :func:`~carromlab.studies.questions.answer` does.

**The plan** (:func:`plan`): the arms as played (the file's arms, then their strength and
prior copies), the games in all, and an estimate of the time from the measured costs of each
game's players (:func:`measured_costs`: ``costs.json`` beside this module, written by
experiments/study_costs.py from the bench's figures, ``carromlab bench --scenario boards``).
A game's cost is its seats' dearest player's (the seats of an arm may play different
players); a player without a measured cost is named and its arms are left out of the total.
The costs are of a few boards played between two copies of the player under the game's
default rules (its first variant; KOOBA: two players), nearly alone on the measuring machine;
a study plays many games at once, which is usually faster.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carromlab.errors import CarromlabError

if TYPE_CHECKING:  # pragma: no cover
    from carromlab.play.drivers import RowColumns
    from carromlab.studies.spec import Arm, Study

#: The measured costs (experiments/study_costs.py writes it; package data).
COSTS_FILE = Path(__file__).with_name("costs.json")
#: The bench's unit for a game with boards, measured one board at a time.
SINGLE_BOARDS = "single boards"
#: What :func:`plan` shows of each measured cost it uses.
COST_FIELDS = ("game", "player", "unit", "s_per_board", "skill", "date", "machine", "source")


def arm_columns(arm: Arm) -> RowColumns | None:
    """The columns of ``arm``'s game rows and board rows, as its game's driver declares them
    for the arm's variant and rules (None: the driver declares none, or None)."""
    from carromlab.registry import get_game

    game = get_game(arm.variant)
    if game.driver is None:
        return None
    driver = game.driver(game.make_config(arm.variant, **arm.rules))
    declared = getattr(driver, "row_columns", None)
    return None if declared is None else declared()


def question_columns_check(
    arms: Iterable[Arm], questions: Sequence[str], source: str = "study"
) -> None:
    """Refuse, in one line, a question that reads a column the rows of one of ``arms`` will
    not have (the module's docstring); ``source`` begins the line, as the study file's other
    checks do. Arms of the same variant and rules are looked up once."""
    from carromlab.studies.questions import parse_question
    from carromlab.sweeps.schema import shown

    parsed = [parse_question(q) for q in questions]
    seen: dict[tuple[str, tuple[tuple[str, Any], ...]], RowColumns | None] = {}
    for arm in arms:
        key = (arm.variant, tuple(sorted(arm.rules.items())))
        if key not in seen:
            seen[key] = arm_columns(arm)
        columns = seen[key]
        if columns is None:
            continue
        for q in parsed:
            have = columns.boards if q.rows == "boards" else columns.games
            for name in q.columns():
                if name not in have:
                    there = ", ".join(c for c in have if c != "game") or "none"
                    raise CarromlabError(
                        f"{source}: questions = {shown(q.text)}: arm {arm.name!r}: its "
                        f"{q.rows[:-1]} rows will have no column {name!r} (they have: {there})"
                    )


@lru_cache(maxsize=1)
def _costs_document() -> dict[str, Any]:
    try:
        document: dict[str, Any] = json.loads(COSTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CarromlabError(f"cannot read the measured costs {COSTS_FILE}: {e}") from None
    return document


def measured_costs() -> dict[tuple[str, str], dict[str, Any]]:
    """The measured costs by ``(game, player)``: each entry's ``s_per_board`` (seconds a
    board where ``unit`` is ``"single boards"``, else a whole game), ``skill``, ``date``,
    ``machine`` and ``source`` (the bench's file it came from)."""
    return {(c["game"], c["player"]): c for c in _costs_document()["costs"]}


def duration(seconds: float) -> str:
    """``seconds`` in words: ``45 s``, ``12 min``, ``3 h 20 min``, ``2 d 5 h``."""
    if not math.isfinite(seconds):
        return "unknown"
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = seconds / 60
    if minutes < 90:
        return f"{minutes:.0f} min"
    hours, rest = divmod(round(minutes), 60)
    if hours < 48:
        return f"{hours} h {rest} min"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h"


def arm_cost(arm: Arm, game: str, costs: dict[tuple[str, str], dict[str, Any]]) -> dict:
    """What ``arm``'s games cost by the measured ``costs`` of ``game``'s players: the dearest
    seat's player (``player``) and its seconds a board or a game (``s_per_board``, ``unit``);
    ``boards``: the boards a game counted where the cost is a board's (the arm's
    ``max_boards``: ``bound`` when more than one, an upper bound); ``s_per_game`` and
    ``seconds`` (the arm's games). ``not_measured``: the arm's players without a cost (then
    no seconds)."""
    from carromlab.registry import get_game

    players = list(dict.fromkeys(arm.players))
    missing = [p for p in players if (game, p) not in costs]
    out: dict[str, Any] = {"player": None, "s_per_board": None, "unit": None, "boards": None,
                           "bound": False, "s_per_game": None, "seconds": None,
                           "mixed": len(players) > 1, "not_measured": missing}  # fmt: skip
    if missing:
        return out
    dearest = max(players, key=lambda p: costs[(game, p)]["s_per_board"])
    c = costs[(game, dearest)]
    out.update(player=dearest, s_per_board=float(c["s_per_board"]), unit=c["unit"])
    per_game = float(c["s_per_board"])
    if c["unit"] == SINGLE_BOARDS:
        g = get_game(arm.variant)
        boards = getattr(g.make_config(arm.variant, **arm.rules), "max_boards", None)
        if not isinstance(boards, int):
            out["not_measured"] = [f"{game}'s boards a game"]
            return out
        out.update(boards=boards, bound=boards > 1)
        per_game *= boards
    out.update(s_per_game=per_game, seconds=per_game * arm.games)
    return out


def plan(study: Study) -> dict[str, Any]:
    """What ``study`` plays and about how long it takes (the module's docstring), as data:
    ``arms`` (each arm as played with its players, skills, games, strength, prior and
    ``cost``: :func:`arm_cost`), ``games`` (in all), ``seconds`` (the measured arms' time;
    ``bound``: some arm counted at most its ``max_boards`` boards a game, or a precision
    target may stop arms early), ``not_measured`` (the players without a cost) with
    ``left_out`` (their arms), ``costs`` (the measured costs used) and ``note``."""
    costs = measured_costs()
    arms = []
    used: dict[tuple[str, str], dict[str, Any]] = {}
    for a in study.arms:
        cost = arm_cost(a, study.game, costs)
        for p in dict.fromkeys(a.players):
            if (study.game, p) in costs:
                used[(study.game, p)] = costs[(study.game, p)]
        arms.append({
            "name": a.name,
            "base": a.base,
            "variant": a.variant,
            "rules": dict(a.rules),
            "physics": dict(a.physics),
            "players": list(a.players),
            "skills": list(a.skills),
            "games": a.games,
            "strength": a.strength,
            "prior": None if a.prior is None else f"{a.prior[0]}-{a.prior[1]}",
            "cost": cost,
        })  # fmt: skip
    measured = [a for a in arms if a["cost"]["seconds"] is not None]
    not_measured = list(dict.fromkeys(p for a in arms for p in a["cost"]["not_measured"]))
    machines = "; ".join(sorted({c["machine"] for c in used.values()}))
    skills = ", ".join(sorted({str(c["skill"]) for c in used.values()}))
    return {
        "study": study.name,
        "game": study.game,
        "seed": study.seed,
        "questions": list(study.questions),
        "baseline": study.baseline,
        "precision": study.precision,
        "block": study.block,
        "arms": arms,
        "games": sum(a.games for a in study.arms),
        "seconds": sum(a["cost"]["seconds"] for a in measured),
        "bound": study.precision is not None or any(a["cost"]["bound"] for a in measured),
        "not_measured": not_measured,
        "left_out": [a["name"] for a in arms if a["cost"]["seconds"] is None],
        "costs": [{k: c[k] for k in COST_FIELDS} for c in used.values()],
        "note": (
            "the costs are of a few boards played nearly alone on the measuring machine "
            f"({machines}), between two copies of one player at skill {skills} under the "
            f"game's default rules; a study plays many at once (up to {study.block} games a "
            "job), usually faster"
            if used
            else f"no measured cost of the players of {study.game} in {COSTS_FILE.name}"
        ),
    }


def _seats(values: Sequence[str]) -> str:
    """A seat list in words: ``greedy`` (every seat) or ``search, greedy``."""
    return values[0] if len(set(values)) == 1 else ", ".join(values)


def plan_lines(p: dict[str, Any]) -> list[str]:
    """:func:`plan`'s data as the lines ``carromlab study check`` prints."""
    questions = ", ".join(p["questions"])
    out = [
        f"study: {p['study']} ({p['game']}; seed {p['seed']}; baseline {p['baseline']})",
        f"questions: {questions}",
        "checks: passed (the file, the game, the arms' variants, rules, players and skills, "
        "the questions and the columns they read)",
        f"arms as played ({len(p['arms'])}):",
    ]
    rows = [("arm", "players", "skills", "games", "strength", "prior", "a game", "time")]
    for a in p["arms"]:
        c = a["cost"]
        if c["s_per_game"] is None:
            each, time = "not measured", "-"
        else:
            why = []
            if c["boards"] is not None:
                bound = "at most " if c["bound"] else ""
                why.append(f"{bound}{c['boards']} board{'s' * (c['boards'] != 1)}")
            if c["mixed"]:
                why.append(f"dearest seat: {c['player']}")
            each = f"{c['s_per_game']:.2f} s" + (f" ({'; '.join(why)})" if why else "")
            time = duration(c["seconds"])
        rows.append((a["name"], _seats(a["players"]), _seats(a["skills"]), f"{a['games']:,}",
                     a["strength"] or "-", a["prior"] or "-", each, time))  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        out.append("  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())
    out.append(f"games in all: {p['games']:,}")
    missing = f"{', '.join(p['not_measured'])} not measured"
    if len(p["left_out"]) == len(p["arms"]):
        out.append(f"time: not known ({missing})")
    else:
        about = "at most " if p["bound"] else "about "
        total = f"time: {about}{duration(p['seconds'])}"
        if p["left_out"]:
            total += f" without {', '.join(p['left_out'])} ({missing})"
        out.append(total)
    for c in p["costs"]:
        per = "a board" if c["unit"] == SINGLE_BOARDS else "a game"
        out.append(
            f"  {c['game']} {c['player']}: {c['s_per_board']:.2f} s {per} "
            f"(measured {c['date']}, {c['source']})"
        )
    if any(a["cost"]["bound"] for a in p["arms"]):
        out.append("  a game of boards is counted at its max_boards: an upper bound")
    if any(a["cost"]["mixed"] for a in p["arms"]):
        out.append("  an arm whose seats play different players is costed at its dearest seat")
    if p["precision"] is not None:
        out.append("  a precision target may stop arms before their games: an upper bound")
    out.append(f"note: {p['note']}")
    return out


__all__ = [
    "COSTS_FILE",
    "arm_columns",
    "arm_cost",
    "duration",
    "measured_costs",
    "plan",
    "plan_lines",
    "question_columns_check",
]
