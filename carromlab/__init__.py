"""carromlab: Monte-Carlo strategy analysis for disc-flicking games.

``import carromlab as cl`` gives the user's API in one place::

    import carromlab as cl

    pos = cl.standard_position("icf-midgame")
    shot = cl.Shot(x=-0.05, y=-0.2526, angle=1.15, speed=2.0)
    table = cl.estimate(pos, shot, skill="club", n=10_000, seed=1)
    cl.draw_position(pos)
    cl.get_game("carrooka").make_config(bonus_shot=False)

Names are loaded on first use (``import carromlab`` stays fast; JAX loads with the first
name that needs it). Layers (data flows one way): equipment -> physics -> rules -> analysis
-> play -> games -> reports -> CLI, with the plots beside the rules; see
docs/ARCHITECTURE.md. ``cl.ShotMapReport.run(...)`` (and ``BestShotsReport``,
``EstimateReport``) gives an analysis with its summary, figures and files, as the command
line writes them; ``cl.run_study(cl.load_study("studies/icf-due.toml"), "out/due")`` and
``cl.StudyReport.from_folder("out/due")`` a rule-balance study from its file, and
``cl.PlayReport.from_folder("out/play")`` the results of a ``carromlab play`` folder.
"""

from __future__ import annotations

import importlib

from carromlab._version import __version__
from carromlab.errors import CarromlabError, PositionError

#: The curated API: name -> the module that defines it.
_API = {
    # positions, set-ups, games
    "Piece": "carromlab.position",
    "Position": "carromlab.position",
    "STANDARD": "carromlab.registry",
    "standard_names": "carromlab.registry",
    "standard_position": "carromlab.registry",
    "GAMES": "carromlab.registry",
    "Game": "carromlab.registry",
    "Option": "carromlab.registry",
    "get_game": "carromlab.registry",
    "register_game": "carromlab.registry",
    "unregister_game": "carromlab.registry",
    # equipment
    "BOARDS": "carromlab.equipment",
    "GAME_SETS": "carromlab.equipment",
    # shots and skill
    "Shot": "carromlab.shots",
    "Skill": "carromlab.shots",
    "SKILLS": "carromlab.shots",
    "THROW_SKILLS": "carromlab.shots",
    "skill": "carromlab.shots",
    "jitter_angle": "carromlab.shots",
    "jitter_speed": "carromlab.shots",
    "jitter_placement": "carromlab.shots",
    "chain": "carromlab.shots",
    # physics
    "Physics": "carromlab.physics",
    "vary_physics": "carromlab.physics.priors",
    # analysis
    "estimate": "carromlab.analysis.estimate",
    "shot_map": "carromlab.analysis.shotmap",
    "target_map": "carromlab.analysis.shotmap",
    "evaluate_cells": "carromlab.analysis.shotmap",
    "best_shots": "carromlab.analysis.best",
    "shot_story": "carromlab.analysis.story",
    "decide": "carromlab.analysis.decide",
    "Decided": "carromlab.analysis.decide",
    "ShotStory": "carromlab.analysis.story",
    "ShotRunner": "carromlab.analysis.runner",
    "Ask": "carromlab.analysis.asks",
    "Evaluator": "carromlab.analysis.asks",
    "Decision": "carromlab.analysis.players",
    "Player": "carromlab.analysis.players",
    "Greedy": "carromlab.analysis.policies",
    "RandomLegal": "carromlab.analysis.policies",
    "Lookahead": "carromlab.analysis.lookahead",
    "searched_break": "carromlab.analysis.breaks",
    "fit_bradley_terry": "carromlab.analysis.ratings",
    "wilson": "carromlab.analysis.intervals",
    "physics_draws": "carromlab.analysis.sensitivity",
    "binned_rate": "carromlab.analysis.sensitivity",
    "write_parquet": "carromlab.analysis.results",
    # reports: an analysis with its summary, figures and files
    "ShotMapReport": "carromlab.reports",
    "BestShotsReport": "carromlab.reports",
    "EstimateReport": "carromlab.reports",
    "StudyReport": "carromlab.reports",
    "PlayReport": "carromlab.reports",
    # rule-balance studies as files
    "load_study": "carromlab.studies",
    "run_study": "carromlab.studies.run",
    # rules' contracts
    "StrokeOutcome": "carromlab.rules.interfaces",
    "GameMachine": "carromlab.rules.interfaces",
    "VariantRules": "carromlab.rules.outcome",
    # whole games
    "play_games": "carromlab.play.loop",
    "play_game": "carromlab.play.loop",
    "GameLog": "carromlab.play.log",
    "play_logged": "carromlab.play.log",
    "read_log": "carromlab.play.log",
    "Driver": "carromlab.play.drivers",
    "TurnedDriver": "carromlab.play.drivers",
    # drawing
    "board_plot": "carromlab.plot",
    "PositionPlot": "carromlab.plot",
    "ColourScale": "carromlab.plot",
    "MapContext": "carromlab.plot",
    "draw_position": "carromlab.plot",
    "draw_shotmap": "carromlab.plot",
    "draw_shotmap_on_board": "carromlab.plot",
    "draw_target_map": "carromlab.plot",
    "draw_intervals": "carromlab.plot",
    "plot_ratings": "carromlab.plot",
    "draw_trajectories": "carromlab.plot",
    "draw_story": "carromlab.plot",
    "animate_shot": "carromlab.plot",
    "draw_aim_map": "carromlab.plot.kooba",
    # the explorer (the "explore" extra: anywidget)
    "Explorer": "carromlab.explore",
}


def __getattr__(name: str):
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'carromlab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])


__all__ = ["CarromlabError", "PositionError", "__version__", *_API]
