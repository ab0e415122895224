"""Which colour to nominate in Carrooka: for every colour on the board, the best of its
candidate pots from where the striker lies, valued as expected points now plus a value for
where the striker comes to rest.

    value = E[points] + leave * P(potted and a clear line at a piece on for the next shot)

(after a colour the next piece on is a red, or the next colour of the sequence when no red
is left). Every candidate (the ``per_colour`` smallest-cut direct pots of that colour into
any pocket) gets ``n`` noisy executions at ``skill``; the best candidate's value, its
interval (t interval over the ``n`` shots) and its pot probability (Wilson) are reported.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from carromlab.analysis.asks import Ask, Evaluator
from carromlab.analysis.estimate import run_metadata
from carromlab.analysis.intervals import mean_interval, wilson
from carromlab.analysis.variants import analysis_for
from carromlab.equipment.carrooka import COLOUR_VALUES, COLOURS
from carromlab.errors import CarromlabError
from carromlab.games.carrooka import striker as cs
from carromlab.games.carrooka.driver import CAPACITY
from carromlab.games.carrooka.players import _next_mask, next_clear, pot_candidates
from carromlab.games.carrooka.rules import CarrookaTurn, striker_spot
from carromlab.shots import Shot, Skill
from carromlab.shots import skill as skill_named


def nominations(
    position,
    skill="club",
    n: int = 200,
    seed: int = 0,
    leave: float = 1.0,
    per_colour: int = 8,
    evaluator: Evaluator | None = None,
) -> pd.DataFrame:
    """One row per colour on the board, best value first: ``colour``, ``value`` (with
    ``value_lo``/``value_hi``), ``points`` (expected points of the best candidate),
    ``p_pot`` (with ``p_pot_lo``/``p_pot_hi``), ``p_leave`` (potted with a clear next line),
    the best shot's ``angle`` (deg) and ``speed``, and ``candidates``. Colours with no clear
    direct pot have NaN values. The position must hold the striker where it lies."""
    if position.variant != "carrooka":
        raise CarromlabError(f"nominations are a Carrooka question, not {position.variant!r}")
    spot = striker_spot(position)
    if spot is None:
        raise CarromlabError("the position needs a striker piece: where the striker lies")
    sk = skill if isinstance(skill, Skill) else skill_named(skill)
    noise = analysis_for("carrooka").noise(sk)
    table = cs.table_position(position)
    colours = [c for c in COLOURS if any(p.kind == c for p in table.pieces)]
    asks, shots = [], []
    for k, colour in enumerate(colours):
        turn = CarrookaTurn(colour)
        c = pot_candidates(position, turn, [spot[0]], [spot[1]])
        best = np.lexsort((c["speed"], c["cut"]))[:per_colour]
        s = Shot(c["x"][best], c["y"][best], c["angle"][best], c["speed"][best])
        shots.append(s)
        if len(best):
            asks.append(Ask(position, s, int(n), int(seed) + k, noise, turn))
    evaluator = evaluator or Evaluator(position.board.layout, CAPACITY)
    answers = iter(evaluator.answer(asks))
    rows = []
    for colour, s in zip(colours, shots):
        row = {"colour": colour, "worth": COLOUR_VALUES[colour], "candidates": len(s.x)}
        if not len(s.x):
            rows.append(row)
            continue
        ans = next(answers)
        res = ans.evaluate()
        clear = next_clear(ans.outcome, table, _next_mask(table, CarrookaTurn(colour)))
        kept = clear & res["potted"]
        value = res["points"] + leave * kept
        cells = len(ans.legal)
        cnt = np.bincount(ans.cell, minlength=cells)
        tot = np.bincount(ans.cell, weights=value, minlength=cells)
        sq = np.bincount(ans.cell, weights=value * value, minlength=cells)
        mean, lo, hi = mean_interval(tot, sq, cnt)
        i = int(np.nanargmax(np.where(cnt > 0, mean, -np.inf)))
        rows_i = ans.cell == i
        pots = int(res["potted"][rows_i].sum())
        p_lo, p_hi = wilson(np.array([pots]), np.array([cnt[i]]))
        row.update(
            value=float(mean[i]),
            value_lo=float(lo[i]),
            value_hi=float(hi[i]),
            points=float(res["points"][rows_i].mean()),
            p_pot=pots / cnt[i],
            p_pot_lo=float(p_lo[0]),
            p_pot_hi=float(p_hi[0]),
            p_leave=float(kept[rows_i].mean()),
            angle=float(np.degrees(s.angle[i])),
            speed=float(s.speed[i]),
        )
        rows.append(row)
    df = pd.DataFrame(rows).sort_values("value", ascending=False, na_position="last")
    df = df.reset_index(drop=True)
    df.attrs["config"] = run_metadata(
        kind="nominations",
        variant="carrooka",
        position=position.name,
        skill=vars(sk),
        n=int(n),
        seed=int(seed),
        leave=float(leave),
        per_colour=int(per_colour),
    )
    return df
