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
# # Carrooka: snooker with flicked pucks on a round board
#
# Carrooka (seed 000) is played on a circular board with six rim pockets: 15 reds (1 point
# each) in a triangle at the centre and six colours on spots (yellow 2 ... black 7). A turn
# alternates a red and a nominated colour (re-spotted) until a miss; after the last red the
# colours go down in order, and the black ends the game. The striker is played from wherever
# it stopped. A foul gives the opponent a *bonus shot*: at their first miss they shoot again
# at the same target. The board's sizes are not published: the estimates in
# `CarrookaBoard` are fields you can change.
#
# This notebook
#
# 1. draws the board and a shot map of the opening break from the break line;
# 2. asks which colour to nominate in a middle-game position;
# 3. plays a few whole games between greedy players;
# 4. reads the balance studies in `data/studies/carrooka/` (made by
#    `experiments/carrooka_balance.py` as it was before `studies/carrooka-*.toml`): the first player's advantage, the bonus shot's
#    effect, break size by skill and the Carrooka'd options.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

import carromlab as cl
from carromlab.analysis.search import SearchBudget
from carromlab.games.carrooka.machine import CarrookaConfig
from carromlab.games.carrooka.nominate import nominations
from carromlab.games.carrooka.players import CarrookaGreedy

# %% [markdown]
# ## Settings
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the maps are coarse, the players screen
# few shots and two games are played, so the notebook runs in about a minute; the numbers
# are then rough. The study tables are read from disk either way.

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
if QUICK:
    N, ANGLES, SPEEDS, GAMES = 16, range(60, 121, 10), [2.0, 3.0, 4.0], 2
    PLAYER = CarrookaGreedy(
        budget=SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
    )
else:
    N, ANGLES, SPEEDS, GAMES = 200, range(40, 141, 2), [1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0], 16
    PLAYER = CarrookaGreedy()
ROOT = Path.cwd() if (Path.cwd() / "data").exists() else Path.cwd().parent
STUDIES = ROOT / "data" / "studies" / "carrooka"
print(f"QUICK = {QUICK}: n = {N} per cell, {GAMES} games; studies from {STUDIES}")

# %% [markdown]
# ## 1. The board and the break
#
# The first shot is played from anywhere on the break line (the circle around the
# triangle). A shot map's *placement* is then the break-line point's angle (degrees); here
# the point below the apex (-90 deg), aimed up at the triangle over a range of angles and
# speeds. The shot must hit a red first; every red down scores 1, a colour down is a foul.

# %%
opening = cl.standard_position("carrooka-opening")
brk = cl.shot_map(opening, [-90.0], list(ANGLES), SPEEDS, skill="club", n=N, seed=SEED)
fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
# the title names the skill and n; a best cell on the grid's edge (the fastest speed) is
# flagged on the map: the best break may be harder still
cl.draw_shotmap(brk, value="points", x="angle", y="speed", ax=axes[0])
cl.draw_shotmap_on_board(brk, opening, value="points", ax=axes[1], ray_length=0.15)
plt.show()
display(
    brk.nlargest(5, "points")[
        ["angle", "speed", "points", "points_lo", "points_hi", "p_foul", "p_continues"]
    ]
)

# %% [markdown]
# ## 2. Which colour to nominate?
#
# In a middle game the striker lies where the last shot left it. For each colour,
# `nominations` tries the direct pots from there and values the best as expected points now
# plus one point when the pot leaves the striker a clear line at a red (the next piece on).
# Colours with no clear pot line from the striker have no value.

# %%
mid = cl.standard_position("carrooka-midgame")
choice = nominations(mid, skill="club", n=N, seed=SEED)
display(choice.round(3))
ax = cl.draw_position(mid, labels=True)
ax.set_title("carrooka-midgame: the striker lies below the centre")
plt.show()

# %% [markdown]
# ## 3. Whole games
#
# `play_games` with a `CarrookaConfig` plays whole games between greedy players (player
# 0 breaks). Each stroke row records the target (red or the nominated colour), points,
# fouls, the bonus shot and any Carrooka'd option; each game row the scores and the points
# of every turn.

# %%
records = cl.play_games([PLAYER, PLAYER], CarrookaConfig(), skill="club", seed=SEED, games=GAMES)
games = pd.DataFrame([r.row for r in records])
display(games.drop(columns=["turn_points"]))
strokes = pd.concat([r.strokes for r in records], ignore_index=True)
display(strokes.groupby("phase").agg(strokes=("stroke", "size"), points=("points", "sum")))

# %% [markdown]
# Scores add up to the pieces potted: each game's scores equal the sum of its stroke points.

# %%
for r in records:
    per_player = r.strokes.groupby("player")["points"].sum()
    assert [int(per_player.get(p, 0)) for p in (0, 1)] == list(r.state.scores)
print("scores = sum of stroke points in every game")

# %% [markdown]
# ## 4. The studies
#
# 400 greedy games per arm (the Carrooka balance script before the study files). Intervals are 95 %: Wilson
# for rates, t for means, a bootstrap over games for the points of a turn after a foul.


# %%
def study(name):
    path = STUDIES / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else None


first, bonus, breaks, carrookad = (
    study(n) for n in ("first-player", "bonus", "breaks", "carrookad")
)
if first is not None:
    display(first.round(3))
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4))
    cl.draw_intervals(
        first,
        "first_wins",
        "first_wins_lo",
        "first_wins_hi",
        ax=axes[0],
        reference=0.5,
        ylabel="breaker's win rate",
    )
    if bonus is not None:
        cl.draw_intervals(
            bonus,
            "after_foul",
            "after_foul_lo",
            "after_foul_hi",
            ax=axes[1],
            ylabel="points of a turn after a foul",
        )
    if breaks is not None:
        cl.draw_intervals(
            breaks, "break", "break_lo", "break_hi", ax=axes[2], ylabel="points a turn"
        )
    fig.tight_layout()
    plt.show()
if bonus is not None:
    display(bonus.round(3))
if breaks is not None:
    display(breaks.round(3))
if carrookad is not None:
    display(carrookad.round(3))
