"""Analysis: Monte-Carlo estimates with intervals, shot maps, and the runner under them."""

from carromlab.analysis.best import best_shots
from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.shotmap import evaluate_cells, shot_map, target_map
from carromlab.analysis.story import ShotStory, shot_story

__all__ = [
    "ShotRunner",
    "ShotStory",
    "best_shots",
    "estimate",
    "evaluate_cells",
    "shot_map",
    "shot_story",
    "target_map",
]
