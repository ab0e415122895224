"""Checked by mypy (tests/test_architecture.py): every built-in game's machine, players and
drivers satisfy the declared interfaces. Not a test module: nothing here runs."""

from carromlab.analysis.players import Player
from carromlab.analysis.policies import Greedy, RandomLegal
from carromlab.games.carroms import machine as carroms_machine
from carromlab.games.carroms.driver import CarromsDriver
from carromlab.games.carroms.machine import CarromsConfig
from carromlab.games.carroms.players import CarromsGreedy
from carromlab.games.carrooka import machine as carrooka_machine
from carromlab.games.carrooka.driver import CarrookaDriver
from carromlab.games.carrooka.machine import CarrookaConfig
from carromlab.games.carrooka.players import CarrookaGreedy, CarrookaRandom
from carromlab.games.circle_scores import machine as circle_scores_machine
from carromlab.games.circle_scores.driver import CircleScoresDriver
from carromlab.games.circle_scores.machine import CircleScoresConfig
from carromlab.games.force_out import machine as force_out_machine
from carromlab.games.force_out.driver import ForceOutDriver
from carromlab.games.force_out.machine import ForceOutConfig
from carromlab.games.force_out.players import ForceOutGreedy, ForceOutRandom
from carromlab.games.icf import machine as icf_machine
from carromlab.games.icf.driver import IcfDriver
from carromlab.games.icf.machine import IcfConfig
from carromlab.games.kooba import machine as kooba_machine
from carromlab.games.kooba.driver import KoobaDriver
from carromlab.games.kooba.machine import KoobaConfig
from carromlab.games.kooba.players import KoobaGreedy
from carromlab.games.ring_pegs import machine as ring_pegs_machine
from carromlab.games.ring_pegs.driver import RingPegsDriver
from carromlab.games.ring_pegs.machine import RingPegsConfig
from carromlab.games.ring_pegs.players import RingPegsGreedy, RingPegsRandom
from carromlab.play.drivers import Driver
from carromlab.rules.interfaces import GameMachine

machines: list[GameMachine] = [
    icf_machine,
    carrooka_machine,
    carroms_machine,
    force_out_machine,
    circle_scores_machine,
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
    IcfDriver(IcfConfig()),
    CarrookaDriver(CarrookaConfig()),
    CarromsDriver(CarromsConfig()),
    ForceOutDriver(ForceOutConfig()),
    CircleScoresDriver(CircleScoresConfig()),
    RingPegsDriver(RingPegsConfig()),
    KoobaDriver(KoobaConfig()),
]
