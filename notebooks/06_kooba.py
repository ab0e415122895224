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
# # KOOBA: where to aim, and who wins
#
# KOOBA (seed 003) is thrown, not flicked: a triangular magnetic Aero with a central hole is
# launched with two sticks from 4 stick lengths (Pro: 5) and sticks where it lands on the
# target board. A tag is the Aero overlapping a zone, or touching a marker or the KOOBA.
# The throw model and the board's sizes are estimates (`physics/throw.py`, `KoobaBoard`).
#
# 1. aim maps: the chance of each tag over aim points, by skill and distance;
# 2. whole games between greedy players;
# 3. the studies in `data/studies/kooba/` (seat advantage, the attack turn and when to use it,
#    Pro).

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display

import carromlab as cl
from carromlab.games.kooba.driver import play_kooba
from carromlab.games.kooba.machine import KoobaConfig
from carromlab.games.kooba.maps import aim_map
from carromlab.games.kooba.players import KoobaGreedy

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
GRID = np.linspace(-0.27, 0.27, 10 if QUICK else 37)
N = 40 if QUICK else 400
GAMES = 2 if QUICK else 20
PLAYER = KoobaGreedy(n=40, grid=0.06) if QUICK else KoobaGreedy()
ROOT = Path.cwd() if (Path.cwd() / "data").exists() else Path.cwd().parent
STUDIES = ROOT / "data" / "studies" / "kooba"

# %% [markdown]
# ## 1. Aim maps
#
# From the South at 4 stick lengths (about 2.24 m): the chance of tagging the Eye and of
# tagging a Penalty Zone, for a club thrower; then the Inner Eye from 5 sticks (Pro) for a
# club and a pro thrower.

# %%
club4 = aim_map(GRID, GRID, "club", sticks=4, n=N, seed=SEED)
fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
cl.draw_aim_map(club4, "p_eye", ax=axes[0])
axes[0].set_title(f"club, 4 sticks: P(Eye), n = {N} per aim point")
cl.draw_aim_map(club4, "p_penalty", ax=axes[1])
axes[1].set_title(f"club, 4 sticks: P(Penalty Zone), n = {N} per aim point")
plt.show()

# %%
rows = []
fig, axes = plt.subplots(1, 2, figsize=(13, 5.5))
for ax, skill in zip(axes, ("club", "pro")):
    m = aim_map(GRID, GRID, skill, sticks=5, n=N, seed=SEED)
    cl.draw_aim_map(m, "p_inner_eye", ax=ax)
    ax.set_title(f"{skill}, 5 sticks: P(Inner Eye), n = {N} per aim point")
    best = m.loc[m["p_inner_eye"].idxmax()]
    rows.append({"skill": skill, **best[["aim_x", "aim_y", "p_inner_eye", "p_kooba"]].to_dict()})
plt.show()
display(pd.DataFrame(rows).round(3))

# %% [markdown]
# ## 2. Whole games
#
# Greedy players (aim maps by goal; one late attack on the leader, in two-player games only);
# one row per game. Seats are the play order after the lag (North first).

# %%
games = pd.DataFrame(
    [r.row for r in play_kooba(KoobaConfig(n_players=3), "club", SEED, GAMES, PLAYER)]
)
display(games)

# %% [markdown]
# ## 3. The studies
#
# 400 greedy games an arm (`experiments/kooba_balance.py` before `studies/kooba-seats.toml`); 95 % Wilson intervals.

# %%
path = STUDIES / "seats.csv"
if path.exists():
    seats = pd.read_csv(path)
    display(seats.round(3))
    fig, ax = plt.subplots(figsize=(10, 3.5))
    # the dashed steps: each arm's fair share, 1 / seats
    cl.draw_intervals(
        seats, "win", "win_lo", "win_hi", ax=ax, ylabel="seat's win rate", reference="fair"
    )
    ax.tick_params(axis="x", labelrotation=45)
    plt.show()
for name in ("attack", "timing", "pro"):
    p = STUDIES / f"{name}.csv"
    if p.exists():
        display(pd.read_csv(p).round(3))

# %% [markdown]
# ### At a second strength
#
# The same seats with the stronger player in every seat (`STRONG`: aims refined from the
# coarse map's best cells, the early pressing attack), and the stronger player against a
# greedy one. The greedy players' first-seat edge does not survive: it came from their
# coarse aim maps (North, always the first seat, happened to aim at the KOOBA best); with
# both players attacking early the second seat wins most two-player games
# (docs/studies.md).

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 3.5), gridspec_kw={"width_ratios": [4, 1]})
for name, ax, label in (
    ("seats-strong", axes[0], "seat's win rate"),
    ("strength", axes[1], "stronger player's win rate"),
):
    p = STUDIES / f"{name}.csv"
    if p.exists():
        table = pd.read_csv(p)
        display(table.round(3))
        cl.draw_intervals(table, "win", "win_lo", "win_hi", ax=ax, ylabel=label, reference="fair")
        ax.tick_params(axis="x", labelrotation=45)
plt.show()
