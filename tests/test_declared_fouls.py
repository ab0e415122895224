"""Fouls a caller declares on a stroke (``StrokeOutcome.declared``): only Carrooka has one
(interference, tests/test_carrooka_game.py); every other machine refuses any declared kind
with one line, before it reads the stroke."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from carromlab.errors import CarromlabError
from carromlab.rules.interfaces import StrokeOutcome

MACHINES = {
    "ICF": "carromlab.games.icf.machine",
    "Carroms": "carromlab.games.carroms.machine",
    "Force Out": "carromlab.games.force_out.machine",
    "Circle Scores": "carromlab.games.circle_scores.machine",
    "Ring Pegs": "carromlab.games.ring_pegs.machine",
    "KOOBA": "carromlab.games.kooba.machine",
}


@pytest.mark.parametrize("game", list(MACHINES))
def test_a_machine_without_declared_fouls_refuses_one(game):
    machine = importlib.import_module(MACHINES[game])
    state = machine.new_game()
    outcome = StrokeOutcome(np.array([-1]), np.zeros((1, 2)), declared=("interference",))
    with pytest.raises(CarromlabError, match=f"not a {game} foul a caller declares .it has none"):
        machine.apply(state, outcome)
