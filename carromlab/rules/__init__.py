"""Rules: pure, vectorised evaluation of shot outcomes, one module per game."""

from carromlab.rules.icf import IcfRules, IcfScoring, IcfTurn, evaluate_icf, piece_roles

__all__ = ["IcfRules", "IcfScoring", "IcfTurn", "evaluate_icf", "piece_roles"]

from carromlab.rules.icf_game import (
    IcfBoardState,
    IcfGameConfig,
    IcfGameState,
    apply_stroke,
    new_game,
    place_returned,
)

__all__ += [
    "IcfBoardState",
    "IcfGameConfig",
    "IcfGameState",
    "apply_stroke",
    "new_game",
    "place_returned",
]
