"""Rules shared by every game: reading the kernel's outcome arrays and the base of the rules
classes (``outcome.py``), the contracts of the game machines (``interfaces.py``:
``StrokeOutcome``, ``GameMachine``), and the crokinole side's shooting origins and ring
helpers (``crokinole.py``). Each game's own rules live in its folder,
``carromlab/games/<game>/``."""

from carromlab.rules.interfaces import GameMachine, StrokeOutcome
from carromlab.rules.outcome import VariantRules

__all__ = ["GameMachine", "StrokeOutcome", "VariantRules"]
