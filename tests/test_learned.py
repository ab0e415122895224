"""The learned screen: its features and network (order-free, stored and read back), its
training, the search's recorded labels, and the player on the shipped ICF weights."""

from __future__ import annotations

import numpy as np
import pytest

from carromlab.analysis.screen import (
    MAX_PIECES,
    ScreenSpec,
    load_screen,
    new_screen,
    piece_features,
    predict,
    save_screen,
    stroke_features,
    struck_features,
    turn_features,
)
from carromlab.errors import CarromlabError
from carromlab.registry import standard_position


def _strokes(k: int = 300, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return stroke_features(
        rng.uniform(-0.18, 0.18, k),
        np.full(k, -0.2526),
        np.radians(rng.uniform(10, 170, k)),
        rng.uniform(0.5, 6.0, k),
    )


def _features(position):
    from carromlab.games.icf.rules import IcfTurn

    turn = IcfTurn(own_down=2, opponent_down=1)
    targets = [p.id for p in position.pieces if p.owner == "white"]
    pieces, mask = piece_features(position, targets, "white")
    return pieces, mask, turn_features(turn)


def test_the_screen_does_not_depend_on_the_order_of_the_pieces():
    pos = standard_position("icf-midgame")
    net = new_screen(ScreenSpec(turn_size=5), seed=3)
    strokes = _strokes()
    pieces, mask, turn = _features(pos)
    listed = predict(net, pieces, mask, strokes, turn)
    rng = np.random.default_rng(1)
    for _ in range(3):
        shuffled = pos.replace(pieces=tuple(rng.permutation(np.array(pos.pieces, object))))
        again = predict(net, *_features(shuffled)[:2], strokes, turn)
        np.testing.assert_allclose(again, listed, rtol=1e-5, atol=1e-5)
    # and the answer does depend on where the pieces are
    moved = pos.replace(pieces=tuple(p.__class__(p.id, p.kind, p.owner, -p.x, p.y, p.rotation)
                                     for p in pos.pieces))  # fmt: skip
    assert not np.allclose(predict(net, *_features(moved)[:2], strokes, turn), listed)


def test_struck_features_name_the_first_piece_its_cut_pocket_and_blockers():
    import jax.numpy as jnp

    from carromlab.analysis.screen import BLOCK, LENGTH, REACH, pair_features

    # a coin straight ahead on the way to the (0.35, 0.35) pocket along the diagonal, a
    # second coin on that diagonal between them (a blocker), a third off to the side
    pocket = np.array([[0.35, 0.35], [-0.35, 0.35]]) / LENGTH
    rows = np.zeros((4, 6), np.float32)
    rows[0, :2] = (0.10, 0.10)
    rows[1, :2] = (0.20, 0.20)
    rows[2, :2] = (-0.20, 0.05)
    rows[:, :2] /= LENGTH
    rows[0, 2] = 1.0  # a target
    mask = np.array([True, True, True, False])
    # from (-0.1, -0.1) along the diagonal: a full hit on the first coin
    strokes = stroke_features([-0.1, -0.1], [-0.1, -0.1], np.radians([45.0, 200.0]), [2.0, 2.0])
    pair = pair_features(jnp.asarray(rows), jnp.asarray(strokes), jnp.asarray(pocket), mask)
    out = np.asarray(struck_features(rows, mask, jnp.asarray(strokes), pair, pocket))
    hit, flags, along, cut, miss, dist, blockers, nearest = (
        out[:, 0],
        out[:, 1:5],
        out[:, 5],
        out[:, 6],
        out[:, 7],
        out[:, 8],
        out[:, 9],
        out[:, 10],
    )
    assert hit[0] == 1 and flags[0, 0] == 1 and flags[0, 1:].sum() == 0
    np.testing.assert_allclose(along[0], np.hypot(0.2, 0.2) / LENGTH, rtol=1e-5)
    assert cut[0] < 1e-5 and miss[0] < 1e-4 and blockers[0] == 1
    np.testing.assert_allclose(dist[0], np.hypot(0.25, 0.25) / LENGTH, rtol=1e-5)
    np.testing.assert_allclose(nearest[0], np.hypot(0.1, 0.1) / LENGTH, rtol=1e-5)
    # aimed away from every piece: nothing struck, no blockers
    assert hit[1] == 0 and blockers[1] == 0 and nearest[1] == 5 and not flags[1].any()
    assert BLOCK < REACH


def test_piece_features_mark_roles_and_pad_to_a_fixed_size():
    pos = standard_position("icf-midgame")
    pieces, mask, turn = _features(pos)
    assert pieces.shape == (MAX_PIECES, 6) and mask.sum() == len(pos.pieces)
    own = [k for k, p in enumerate(pos.pieces) if p.owner == "white"]
    queen = [k for k, p in enumerate(pos.pieces) if p.kind == "queen"]
    assert pieces[own, 2].all() and pieces[own, 3].all() and not pieces[own, 4].any()
    assert pieces[queen, 5].all() and not pieces[~mask].any()
    # the turn's numbers: own_down, opponent_down, queen_pending, dues, is_break
    np.testing.assert_allclose(turn, [2 / 9, 1 / 9, 0, 0, 0])


def test_a_stored_screen_reads_back_the_same(tmp_path):
    net = new_screen(ScreenSpec(turn_size=5, hidden=16), seed=2)
    pieces, mask, turn = _features(standard_position("icf-midgame"))
    strokes = _strokes(50)
    save_screen(net, ScreenSpec(turn_size=5, hidden=16), tmp_path / "s.npz", {"note": "test"})
    back, spec, meta = load_screen(tmp_path / "s.npz")
    assert spec == ScreenSpec(turn_size=5, hidden=16) and meta["note"] == "test"
    np.testing.assert_array_equal(
        predict(back, pieces, mask, strokes, turn), predict(net, pieces, mask, strokes, turn)
    )
    with pytest.raises(CarromlabError, match="no learned screen"):
        load_screen(tmp_path / "missing.npz")


def test_training_fits_a_value_that_depends_on_the_stroke():
    """Labels that follow the speed and the aim's side: the fitted network ranks held-out
    strokes by them (a network that learned nothing would not)."""
    from carromlab.analysis.learned import train

    pieces, mask, turn = _features(standard_position("icf-midgame"))
    n_dec, per = 40, 200
    rng = np.random.default_rng(0)
    strokes = np.concatenate([_strokes(per, seed=d) for d in range(n_dec)])
    value = strokes[:, 4] * 2.0 - strokes[:, 2] + rng.normal(0, 0.05, len(strokes))
    data = {
        "pieces": np.repeat(pieces[None], n_dec, 0),
        "mask": np.repeat(mask[None], n_dec, 0),
        "turn": np.repeat(turn[None], n_dec, 0),
        "chosen": strokes[np.arange(n_dec) * per + np.argmax(value.reshape(n_dec, per), 1)],
        "pos": np.repeat(np.arange(n_dec), per),
        "stroke": strokes.astype(np.float32),
        "n": np.full(len(strokes), 16),
        "value": value.astype(np.float32),
        "foul": (strokes[:, 4] > 0.9).astype(np.float32),
    }
    _net, fig = train(data, ScreenSpec(turn_size=5, hidden=16, head=32), steps=300, progress=False)
    assert fig["validation_decisions"] > 0
    assert fig["rank_correlation"] > 0.9, fig
    assert fig["value_mae"] < 0.3, fig


def test_the_recorder_keeps_every_candidate_of_the_search_as_a_label():
    from dataclasses import replace

    from carromlab.analysis.asks import Evaluator
    from carromlab.analysis.learned import N_EXPLORE, Recorder, Records
    from carromlab.analysis.policies import drive_plan
    from carromlab.games.icf.rules import IcfTurn
    from carromlab.play.training import learned_base

    pos = standard_position("icf-midgame")
    base = learned_base("icf", "club")
    player = replace(base, budget=replace(base.budget, shots=1024))
    records = Records()
    rec = Recorder(player, records, turn_size=5, explore=32)
    evaluator = Evaluator(pos.board.layout, 20)
    decision = drive_plan(rec.plan(pos, IcfTurn(), seed=5), evaluator)
    plain = drive_plan(player.plan(pos, IcfTurn(), seed=5), evaluator)
    assert decision.shot == plain.shot  # recording does not change the search's choice
    a = records.arrays()
    assert len(a["pieces"]) == 1 and (a["pos"] == 0).all()
    assert len(a["stroke"]) > 100 and (a["n"] >= 2).all()
    assert (a["n"] == N_EXPLORE).sum() >= 32  # the explored strokes
    chosen = np.all(np.isclose(a["stroke"], a["chosen"][0], atol=1e-6), axis=1)
    assert chosen.any()  # the played stroke is among the labels (a finalist)
    assert np.isfinite(a["value"]).all() and ((a["foul"] >= 0) & (a["foul"] <= 1)).all()


def test_the_learned_player_plays_a_legal_stroke_within_its_budget():
    from carromlab.analysis.asks import Evaluator, legal_shots
    from carromlab.analysis.policies import drive_plan
    from carromlab.games.icf.rules import IcfTurn
    from carromlab.registry import get_game

    pos = standard_position("icf-midgame")
    player = get_game("icf").make_player("learned", "club")
    evaluator = Evaluator(pos.board.layout, 20)
    decision = drive_plan(player.plan(pos, IcfTurn(), seed=3), evaluator)
    assert legal_shots(pos, decision.shot).all()
    assert evaluator.shots_run <= 1.1 * player.shot_budget
    assert np.isfinite(decision.values["value"])


def test_train_refuses_a_game_without_a_learned_player_in_one_line(tmp_path):
    from carromlab.cli import main

    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "kooba", "--out", str(tmp_path / "k")])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["train", "--game", "icf", "--positions", "0", "--out", str(tmp_path / "k")])
    assert e.value.code == 2


def test_carrooka_learned_races_every_colour_and_records_one_decision_each(tmp_path):
    """Carrooka's colours are one candidate group each: the learned player ranks and races
    them together and plays one of them; the recorder keeps one decision per colour (its
    target flagged), the played stroke with the colour it was played for."""
    from carromlab.analysis.decide import plan_evaluator
    from carromlab.analysis.learned import Recorder, Records
    from carromlab.analysis.policies import drive_plan
    from carromlab.analysis.screen import board_pockets
    from carromlab.analysis.search import SearchBudget
    from carromlab.analysis.variants import analysis_for
    from carromlab.games.carrooka.machine import CarrookaConfig, CarrookaState, shot_turns
    from carromlab.games.carrooka.players import CarrookaGreedy, CarrookaLearned
    from carromlab.registry import get_game

    mid = standard_position("carrooka-midgame")
    pos = mid.replace(pieces=tuple(p for p in mid.pieces if p.kind != "red"))
    state = CarrookaState(position=pos, phase="colour", strokes=1)
    turns = shot_turns(state)
    assert len(turns) == 6
    spec = ScreenSpec(turn_size=0, hidden=8, head=16, pockets=board_pockets(pos))
    save_screen(new_screen(spec, seed=1), spec, tmp_path / "s.npz", {})
    player = CarrookaLearned(screen=str(tmp_path / "s.npz"), top=64, shot_budget=512)
    table = analysis_for("carrooka").table_position(pos)
    evaluator = plan_evaluator(get_game("carrooka"), "carrooka", pos, table)
    decision = drive_plan(player.plan(state, CarrookaConfig(), seed=2), evaluator)
    assert decision.turn in turns and np.isfinite(decision.values["value"])
    assert evaluator.shots_run <= 1.1 * 512

    records = Records()
    base = CarrookaGreedy(budget=SearchBudget(n_screen=2, keep=3, n_eval=8))
    rec = Recorder(base, records, turn_size=0, explore=16)
    played = drive_plan(rec.plan(state, CarrookaConfig(), seed=2), evaluator)
    a = records.arrays()
    assert len(a["pieces"]) == len(turns)
    assert (a["pieces"][:, :, 2].sum(axis=1) == 1).all()  # one colour on in each
    assert (a["mask"].sum(axis=1) == len(pos.pieces) - 1).all()  # the striker is no piece
    mine = np.flatnonzero(np.isfinite(a["chosen"]).all(axis=1))
    assert len(mine) == 1
    colour = [p.kind for p in pos.pieces if p.kind != "striker"]
    flagged = colour[int(np.argmax(a["pieces"][mine[0], :, 2]))]
    assert flagged == played.turn.on
