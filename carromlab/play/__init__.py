"""Whole games: the game loop (any registered game, many games at once on the kernel), the
drivers' contract and shared base, and the resumable game log."""

from carromlab.play.drivers import Driver, TurnedDriver
from carromlab.play.log import GameLog, play_logged, read_log
from carromlab.play.loop import GameInPlay, GameRecord, driver_for, play_game, play_games

__all__ = [
    "Driver",
    "GameInPlay",
    "GameLog",
    "GameRecord",
    "TurnedDriver",
    "driver_for",
    "play_game",
    "play_games",
    "play_logged",
    "read_log",
]
