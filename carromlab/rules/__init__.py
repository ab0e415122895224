"""Rules: pure, vectorised evaluation of shot outcomes, one module per game."""

from carromlab.rules.icf import IcfRules, IcfScoring, IcfTurn, evaluate_icf, piece_roles

__all__ = ["IcfRules", "IcfScoring", "IcfTurn", "evaluate_icf", "piece_roles"]
