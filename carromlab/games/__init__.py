"""The games, one folder each (``carromlab/games/<game>/``): its rules, shooter origins, game
machine, players, driver and set-ups, and the :class:`~carromlab.registry.Game` that
describes them, registered by the folder's ``__init__``. Look games up with
:func:`~carromlab.registry.get_game` (``import carromlab as cl; cl.get_game("icf")``)."""

from carromlab.registry import GAMES, Game, Option, get_game, register_game

__all__ = ["GAMES", "Game", "Option", "get_game", "register_game"]
