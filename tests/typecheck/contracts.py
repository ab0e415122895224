"""Checked by mypy (tests/test_architecture.py): every built-in game's machine, players and
drivers satisfy the declared interfaces. Not a test module: nothing here runs."""

from carromlab.analysis.players import Player
from carromlab.analysis.policies import Greedy, RandomLegal
from carromlab.games.carroms import machine as carroms_machine
from carromlab.games.carroms.machine import CarromsConfig
from carromlab.games.carroms.players import CarromsDriver, CarromsGreedy
from carromlab.games.carrooka import machine as carrooka_machine
from carromlab.games.carrooka.machine import CarrookaGameConfig
from carromlab.games.carrooka.players import CarrookaDriver, CarrookaGreedy, CarrookaRandom
from carromlab.games.force_out import circle_scores
from carromlab.games.force_out import machine as force_out_machine
from carromlab.games.force_out.circle_scores import CircleScoresConfig
from carromlab.games.force_out.machine import ForceOutConfig
from carromlab.games.force_out.players import (
    CircleScoresDriver,
    ForceOutDriver,
    ForceOutGreedy,
    ForceOutRandom,
)
from carromlab.games.icf import machine as icf_machine
from carromlab.games.icf.driver import IcfDriver
from carromlab.games.icf.machine import IcfGameConfig
from carromlab.games.kooba import machine as kooba_machine
from carromlab.games.kooba.driver import KoobaDriver
from carromlab.games.kooba.machine import KoobaConfig
from carromlab.games.kooba.players import KoobaGreedy
from carromlab.games.ring_pegs import rules as ring_pegs_machine
from carromlab.games.ring_pegs.players import RingPegsDriver, RingPegsGreedy, RingPegsRandom
from carromlab.games.ring_pegs.rules import RingPegsConfig
from carromlab.play.drivers import Driver
from carromlab.rules.interfaces import GameMachine

machines: list[GameMachine] = [
    icf_machine,
    carrooka_machine,
    carroms_machine,
    force_out_machine,
    circle_scores,
    ring_pegs_machine,
    kooba_machine,
]
players: list[Player] = [
    Greedy(),
    RandomLegal(),
    CarrookaGreedy(),
    CarrookaRandom(),
    CarromsGreedy(),
    ForceOutGreedy(),
    ForceOutRandom(),
    RingPegsGreedy(),
    RingPegsRandom(),
    KoobaGreedy(),
]
drivers: list[Driver] = [
    IcfDriver(IcfGameConfig()),
    CarrookaDriver(CarrookaGameConfig()),
    CarromsDriver(CarromsConfig()),
    ForceOutDriver(ForceOutConfig()),
    CircleScoresDriver(CircleScoresConfig()),
    RingPegsDriver(RingPegsConfig()),
    KoobaDriver(KoobaConfig()),
]
