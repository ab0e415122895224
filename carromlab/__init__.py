"""carromlab: Monte-Carlo strategy analysis for disc-flicking games.

Layers (data flows one way): equipment -> physics -> rules -> analysis -> plots / CLI.
See docs/ARCHITECTURE.md.
"""

__version__ = "0.1.0"

from carromlab.errors import CarromlabError, PositionError

__all__ = ["CarromlabError", "PositionError", "__version__"]
