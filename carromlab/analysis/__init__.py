"""Analysis: Monte-Carlo estimates with intervals, shot maps, and the runner under them."""

from carromlab.analysis.best import best_shots
from carromlab.analysis.estimate import estimate
from carromlab.analysis.runner import ShotRunner
from carromlab.analysis.shotmap import evaluate_cells, shot_map, target_map

__all__ = ["ShotRunner", "best_shots", "estimate", "evaluate_cells", "shot_map", "target_map"]
