"""Break search: the opening stroke chosen by its expected stroke value under the player's
own noise, found once and kept as data.

Every board of a game that opens with a break starts from the same set-up, so the break is
searched once per (position, skill, physics, value weights) with :func:`best_shots` (a grid
over placements x angles x hard speeds, cross-entropy refinement, the best candidates
re-estimated on fresh keys) and stored with its provenance: the search's settings, the
estimate with its interval, the versions. :func:`searched_break` looks a break up in the
game's table (``carromlab/games/<game>/breaks.json``, written by
``experiments/break_search.py``), else searches and keeps the result for the process.

The key of a break (:func:`break_key`) is a digest of what decides it: the variant, the board,
the pieces (to the micrometre), the hand-set flag, the skill, the physics and the value's
weights, the turn and the search's settings. A position turned to another seat that
holds the same pieces keeps its key only if the pieces are where they were: the ICF game
sets the rosette with one arm of the Y at the breaker, so every breaker's view is the same.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import numpy as np

from carromlab.analysis.best import best_shots
from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.variants import analysis_for
from carromlab.errors import CarromlabError

#: Search settings (decisions): hard speeds (a hard flick is 4-6 m/s, docs/equipment.md; a
#: break is the hardest stroke of a board), placements across the legal line, aims every 5
#: degrees, the best 5 re-estimated with 2,000 executions each.
SEARCH = {
    "speeds": (3.0, 4.5, 6.0),
    "n_grid": 32,
    "iterations": 3,
    "population": 48,
    "n_cem": 64,
    "top_k": 5,
    "n_final": 2000,
    "seed": 0,
}

_SESSION: dict[str, dict] = {}


def _plain(obj):
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (np.floating, np.integer)):
        return obj.item()
    return obj


def break_key(position, skill: str, turn, physics=None, scoring=None, value="points", **search):
    """A digest (16 hex digits) of everything that decides the searched break."""
    from carromlab.physics import Physics
    from carromlab.physics.params import plain_physics

    what = {
        "variant": position.variant,
        "board": type(position.board).__name__,
        "board_fields": _plain(position.board),
        "pieces": [
            [p.id, p.kind, p.owner, round(float(p.x), 6), round(float(p.y), 6)]
            for p in position.pieces
        ],
        "set_by_hand": bool(position.set_by_hand),
        "skill": skill,
        "turn": _plain(turn),
        "physics": _plain(plain_physics(physics or Physics())),
        "scoring": _plain(scoring),
        "value": value,
        "search": _plain({**SEARCH, **search}),
    }
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def search_break(
    position, skill: str, turn, physics=None, scoring=None, value="points", progress=False, **search
) -> dict:
    """Search the break (module docstring); a JSON-ready record: ``key``, ``shot``
    (``placement`` m, ``angle`` deg, ``speed`` m/s), ``value`` with ``lo``/``hi`` (95 %), the
    runners-up and the provenance."""
    settings = {**SEARCH, **search}
    table = best_shots(
        position,
        skill=skill,
        value=value,
        turn=turn,
        progress=progress,
        physics=physics,
        scoring=scoring,
        # a break's grid is its own (hard speeds across the line), not the default mid-game
        # map's (outside the key: the stored breaks were searched without a map grid)
        map_grid=None,
        **settings,
    )
    top = table.iloc[0]
    runners = table[["placement", "angle", "speed", value, f"{value}_lo", f"{value}_hi"]]
    return {
        "key": break_key(position, skill, turn, physics, scoring, value, **search),
        "variant": position.variant,
        "position": position.name,
        "skill": skill,
        "value_name": value,
        "shot": {
            "placement": float(top["placement"]),
            "angle": float(top["angle"]),
            "speed": float(top["speed"]),
        },
        "value": float(top[value]),
        "lo": float(top[f"{value}_lo"]),
        "hi": float(top[f"{value}_hi"]),
        "n": int(top["n"]),
        "runners_up": runners.iloc[1:].round(6).to_dict("records"),
        "provenance": run_metadata(kind="break_search", turn=_plain(turn), search=_plain(settings)),
    }


def break_table_path(variant: str) -> Path:
    """The game's table of searched breaks (package data)."""
    from carromlab.registry import get_game

    game = get_game(variant)
    package = Path(__file__).resolve().parent.parent / "games" / game.name
    return package / "breaks.json"


def read_breaks(variant: str) -> dict[str, dict]:
    """The searched breaks of ``variant``'s game by key ({} when none are stored)."""
    path = break_table_path(variant)
    if not path.exists():
        return {}
    return {r["key"]: r for r in json.loads(path.read_text())["breaks"]}


def write_break(record: dict) -> Path:
    """Add (or replace) a searched break in its game's table, atomically."""
    path = break_table_path(record["variant"])
    table = read_breaks(record["variant"])
    table[record["key"]] = record
    rows = sorted(table.values(), key=lambda r: (r["variant"], r["position"], r["skill"]))
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"breaks": rows}, indent=1) + "\n")
    tmp.replace(path)
    return path


def searched_break(
    position, skill: str, turn, physics=None, scoring=None, value="points", **search
) -> tuple[float, float, float]:
    """The searched break ``(placement m, angle deg, speed m/s)``: from the game's table,
    else from this process's searches, else searched now (and kept for the process)."""
    key = break_key(position, skill, turn, physics, scoring, value, **search)
    record = _SESSION.get(key) or read_breaks(position.variant).get(key)
    if record is None:
        record = search_break(position, skill, turn, physics, scoring, value, **search)
        _SESSION[key] = record
    shot = record["shot"]
    return float(shot["placement"]), float(shot["angle"]), float(shot["speed"])


def break_turn(variant: str):
    """The turn state of a board's break for ``variant``: its default turn, breaking (or,
    for a game whose break is a stroke like any other, its ``Game.plain_break``, the default
    turn as it is)."""
    from carromlab.registry import get_game

    turn = analysis_for(variant).default_turn()
    if get_game(variant).plain_break:
        return turn
    if not hasattr(turn, "is_break"):
        raise CarromlabError(f"{variant!r} has no break in its turn state")
    return dataclasses.replace(turn, is_break=True)


__all__ = [
    "SEARCH",
    "break_key",
    "break_table_path",
    "break_turn",
    "read_breaks",
    "search_break",
    "searched_break",
    "write_break",
]
