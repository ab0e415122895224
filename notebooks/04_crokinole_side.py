# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # The crokinole side: Force Out, Fast Play, Ring Pegs, Circle Scores
#
# Three games of the Carrom Company's rule book (seed 002) on the crokinole side of the
# board: scoring circles, a centre hole and 8 pegs. Rings are discs of their own size and
# mass; rings set over the pegs (Ring Pegs) are static in the kernel.
#
# - **Force Out**: shoot from the outer circle's line on your side and drive the opponent's
#   rings out of the circle; a force-out earns another shot, the shooting ring in the hole or
#   outside the circle gives back one of the opponent's rings. **Fast Play**: one shooting
#   ring, played from where it lies.
# - **Ring Pegs**: from the middle of your side, pass through the pegged circle (in through a
#   gap, out through another), then land the ring in the centre hole.
# - **Circle Scores**: 5 for the shooting ring at rest in the circle, 10 for every ring
#   driven out of it.
#
# The decisions where the rule book is cut short are in the rules modules' docstrings.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display

import carromlab as cl
from carromlab.analysis.search import SearchBudget
from carromlab.games.circle_scores.machine import CircleScoresConfig
from carromlab.games.force_out.machine import ForceOutConfig
from carromlab.games.force_out.players import ForceOutGreedy
from carromlab.games.force_out.rules import ForceOutTurn
from carromlab.games.ring_pegs.machine import RingPegsConfig, new_game
from carromlab.games.ring_pegs.players import RingPegsGreedy
from carromlab.games.ring_pegs.rules import RingPegsTurn

# %% [markdown]
# ## Settings
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the maps are coarse and the players
# screen few shots; the numbers are then rough. The study tables are read from disk.

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
if QUICK:
    N, ARC, AIMS, GAMES = 8, [-110.0, -90.0, -70.0], range(70, 111, 10), 2
    QUICK_BUDGET = SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
    FORCE = ForceOutGreedy(budget=QUICK_BUDGET)
    PEGS = RingPegsGreedy(budget=QUICK_BUDGET, step_deg=2.0)
else:
    N, ARC, AIMS, GAMES = 200, list(range(-130, -49, 5)), range(40, 141, 2), 8
    FORCE, PEGS = ForceOutGreedy(), RingPegsGreedy()
ROOT = Path.cwd() if (Path.cwd() / "data").exists() else Path.cwd().parent
STUDIES = ROOT / "data" / "studies" / "company"

# %% [markdown]
# ## 1. Force Out: where to shoot from, and where to aim
#
# From points of the South arc (placement: the point's angle on the outer circle) over aims,
# at 2 m/s: the probability of a force-out (the turn goes on) and of the penalty.

# %%
fo = cl.standard_position("force-out-opening")
fmap = cl.shot_map(
    fo, ARC, list(AIMS), [2.0], skill="club", n=N, seed=SEED, turn=ForceOutTurn("red")
)
fig, axes = plt.subplots(1, 3, figsize=(18, 5.5))
cl.draw_shotmap(fmap, value="p_continues", ax=axes[0])
axes[0].set_title(f"P(force-out): club, n = {N} per cell, 2 m/s", fontsize=10)
cl.draw_shotmap(fmap, value="p_penalty", ax=axes[1])
axes[1].set_title(f"P(penalty: the shooting ring lost): club, n = {N} per cell", fontsize=10)
best = fmap.loc[fmap.groupby("placement")["p_continues"].idxmax()]
cl.draw_shotmap_on_board(best, fo, value="p_continues", ax=axes[2], ray_length=0.2)
plt.show()

# %% [markdown]
# ## 2. Ring Pegs: the pass from the start
#
# The only straight run through the pegged circle from the middle of the side goes up the
# axis, over the centre hole: fast enough to skip the hole, aimed within about a degree.
# The probability of a pass over aim x speed, at club skill.

# %%
pegs_view = new_game().board_position()
pmap = cl.shot_map(
    pegs_view,
    [0.0],
    [a / 4 for a in range(352, 369)],
    [1.7, 1.9, 2.1],
    skill="club",
    n=N,
    seed=SEED,
    turn=RingPegsTurn(1),
)
fig, axes = plt.subplots(1, 2, figsize=(13, 5))
cl.draw_shotmap(pmap, value="p_passed", x="angle", y="speed", ax=axes[0])
cl.draw_shotmap_on_board(pmap, pegs_view, value="p_passed", ax=axes[1], ray_length=0.3)
plt.show()

# %% [markdown]
# ### Which gap, from which spot
#
# For a ring lying on the outer line at a few angles (the start is -90 deg), aims round the
# line to the centre at a slow 1.2 m/s: the chance of going in through each gap of the pegged
# circle without touching a pegged ring (gap k is centred at 45 k deg), at the best aim for
# that gap.

# %%
from carromlab.position import Piece  # noqa: E402

board = pegs_view.board
rows = []
for spot_deg in (-90.0, -75.0, -60.0):
    a = np.radians(spot_deg)
    x0, y0 = board.outer_radius * np.cos(a), board.outer_radius * np.sin(a)
    rings = tuple(p for p in pegs_view.pieces if p.kind == "ring")
    view = pegs_view.replace(pieces=(*rings, Piece("shooter", "shooter", "p1", x0, y0)))
    towards = spot_deg + 180.0
    aims = [towards + d for d in np.arange(-25.0, 25.01, 2.5 if QUICK else 0.5)]
    gmap = cl.shot_map(view, [0.0], aims, [1.2], skill="club", n=N, seed=SEED, turn=RingPegsTurn(1))
    best = {f"gap {k}": gmap[f"p_gap.{k}"].max() for k in range(8)}
    rows.append({"spot (deg)": spot_deg, **best})
display(pd.DataFrame(rows).round(3))

# %% [markdown]
# ## 3. Whole games
#
# Greedy players in each game (player 0 first); one row per game.

# %%
rows = {}
for name, player, config in (
    ("force-out", FORCE, ForceOutConfig()),
    ("force-out-fast", FORCE, ForceOutConfig(fast=True)),
    ("ring-pegs", PEGS, RingPegsConfig()),
    ("circle-scores", FORCE, CircleScoresConfig()),
):
    recs = cl.play_games([player, player], config, skill="club", seed=SEED, games=GAMES)
    rows[name] = pd.DataFrame([r.row for r in recs])
    print(name)
    display(rows[name])

# %% [markdown]
# ## 4. The studies
#
# 300 greedy games an arm (the Company balance script, now `studies/company-*.toml`); 95 % intervals (Wilson for
# rates, t for means).

# %%
tables = {}
for name in ("force-out", "ring-pegs", "circle-scores"):
    path = STUDIES / f"{name}.csv"
    if path.exists():
        tables[name] = pd.read_csv(path)
        print(name)
        display(tables[name].round(3))
if tables:
    fig, axes = plt.subplots(1, len(tables), figsize=(5 * len(tables), 3.4), squeeze=False)
    for ax, (name, table) in zip(axes[0], tables.items()):
        col = "turns_to_finish" if name == "ring-pegs" else "first_wins"
        fair = 0.5 if col == "first_wins" else None  # two players: a fair share of 1 / 2
        cl.draw_intervals(
            table, col, f"{col}_lo", f"{col}_hi", ax=ax, ylabel=f"{name}: {col}", reference=fair
        )
    fig.tight_layout()
    plt.show()
