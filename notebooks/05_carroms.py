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
# # Carroms: the checker side of the Carrom Company board
#
# Carroms (the Carrom Company's rule book, seed 002): 12 red and 12 green rings and a black in
# the middle of the checker side; each player shoots a white shooting ring from their
# shooting line. An own ring pocketed scores 1 and continues the turn, the black 5; an
# opponent's ring pocketed alone ends the turn and counts for the opponent; the shooting ring
# pocketed ends the turn, brings back what fell and forfeits one ring. 30 points win. The
# board's sizes are estimates (`CheckerBoard` fields).
#
# This notebook
#
# 1. draws the opening and a shot map of the break from the shooting line;
# 2. plays a few whole games between greedy players;
# 3. reads the Carroms study in `data/studies/company/` (made by
#    the Company balance script, now `studies/company-carroms.toml`): the breaker's advantage.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

import carromlab as cl
from carromlab.analysis.search import SearchBudget
from carromlab.games.carroms.machine import CarromsConfig
from carromlab.games.carroms.players import CarromsGreedy

# %% [markdown]
# ## Settings
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the map is coarse, the players screen few
# shots and games are short (to 8 points); the numbers are then rough.

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
if QUICK:
    N, PLACEMENTS, ANGLES, GAMES, TARGET = 8, [-0.1, 0.0, 0.1], range(70, 111, 10), 2, 8
    PLAYER = CarromsGreedy(
        budget=SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
    )
else:
    N, PLACEMENTS, ANGLES, GAMES, TARGET = (
        200,
        [x / 100 for x in range(-15, 16, 3)],
        range(30, 151, 3),
        8,
        30,
    )
    PLAYER = CarromsGreedy()
ROOT = Path.cwd() if (Path.cwd() / "data").exists() else Path.cwd().parent
STUDIES = ROOT / "data" / "studies" / "company"

# %% [markdown]
# ## 1. The opening and the break
#
# The black sits in the middle with the rings close-packed round it. A shot map of the break
# over placement on the shooting line x aim, at a hard 4 m/s: the stroke value (own ring +1,
# black +5, opponent's ring -1, a forfeit -1).

# %%
opening = cl.standard_position("carroms-opening")
brk = cl.shot_map(opening, PLACEMENTS, list(ANGLES), [4.0], skill="club", n=N, seed=SEED)
fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
cl.draw_shotmap(brk, value="points", ax=axes[0])
best = brk.loc[brk.groupby("placement")["points"].idxmax()]
cl.draw_shotmap_on_board(best, opening, value="points", ax=axes[1], ray_length=0.25)
plt.show()
display(brk.nlargest(5, "points")[["placement", "angle", "points", "points_lo", "points_hi"]])

# %% [markdown]
# ## 2. Whole games
#
# `play_games` with a `CarromsConfig` plays whole games (player 0 breaks the first board; the
# break alternates between boards). Each game row has the scores, the boards and the fouls.

# %%
config = CarromsConfig(target=TARGET)
records = cl.play_games([PLAYER, PLAYER], config, skill="club", seed=SEED, games=GAMES)
games = pd.DataFrame([r.row for r in records])
display(games)
ax = cl.draw_position(records[0].state.position)
ax.set_title("the last position of game 0")
plt.show()

# %% [markdown]
# ## 3. The breaker's advantage
#
# 300 greedy games to 30 points (the Company balance script, now `studies/company-carroms.toml`); 95 % Wilson interval.

# %%
path = STUDIES / "carroms.csv"
if path.exists():
    table = pd.read_csv(path)
    display(table.round(3))
    cl.draw_intervals(
        table,
        "first_wins",
        "first_wins_lo",
        "first_wins_hi",
        reference=0.5,
        ylabel="breaker's game-win rate",
    )
    plt.show()
