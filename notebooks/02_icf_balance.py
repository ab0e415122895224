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
# # ICF carrom: are the rules balanced?
#
# Whole games of standard carrom under the ICF laws, played stroke by stroke on the physics
# kernel by *greedy* players (each stroke: candidate cuts and bank shots on the player's own
# coins, screened by a small Monte Carlo at the player's skill, the best re-estimated and
# played with that skill's execution errors). This notebook
#
# 1. plays a few boards and looks at what happened, stroke by stroke;
# 2. reads the rule-balance studies in `data/studies/icf_balance/` (made by
#    `experiments/icf_balance.py`, since retired for `studies/icf-*.toml`) and draws them with their 95 % intervals:
#    the breaker's advantage by skill, the due rule, singles vs doubles, and what the queen's
#    value does to whole games.

# %%
import os
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import display

import carromlab as cl
from carromlab.analysis.search import SearchBudget
from carromlab.games.icf.machine import IcfConfig

# %% [markdown]
# ## Settings
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the greedy players screen few shots and
# only two boards are played, so the notebook runs in well under a minute; the numbers are
# then rough. The study tables are read from disk either way.

# %%
QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
SEED = 0
if QUICK:
    N_BOARDS = 2
    QUICK_BUDGET = SearchBudget(n_screen=2, keep=2, n_eval=4, max_candidates=12, random_extra=2)
    PLAYER = cl.Greedy(skill="club", budget=QUICK_BUDGET)
else:
    N_BOARDS = 8
    PLAYER = cl.Greedy(skill="club")
ROOT = Path.cwd() if (Path.cwd() / "data").exists() else Path.cwd().parent
STUDIES = ROOT / "data" / "studies" / "icf_balance"
print(f"QUICK = {QUICK}: {N_BOARDS} boards; studies from {STUDIES}")

# %% [markdown]
# ## 1. A few boards
#
# `play_games` plays many games at once: every round, the requests of all games in play
# (the players' screening shots and the real strokes) go to the kernel as one batch. A game
# depends only on the seed and its index.

# %%
config = IcfConfig(max_boards=1)
records = cl.play_games([PLAYER, PLAYER], config, skill="club", seed=SEED, games=N_BOARDS)
boards = pd.concat([r.boards for r in records], ignore_index=True)
display(boards)

# %%
strokes = pd.concat([r.strokes for r in records], ignore_index=True)
per_seat = strokes.groupby(["game", "seat"]).agg(
    strokes=("stroke", "size"),
    pocketed=("pocketed", "sum"),
    striker_fouls=("striker_pocketed", "sum"),
)
display(per_seat)

# %% [markdown]
# The last position of the first board (the board ends when a player pockets their last coin,
# or loses by a last-coin clause):

# %%
ax = cl.draw_position(
    records[0].state.last_board.position,
    title=f"board 0 at its end: two {PLAYER.skill} greedy players ({len(records)} games played)",
)

# %% [markdown]
# ## 2. The studies
#
# Each study compares *arms* (a skill, or a rule setting) played by the same greedy players;
# rates carry 95 % Wilson intervals, means 95 % t intervals. Run them (or extend them: they
# resume) from their files: `carromlab study run studies/icf-first-break.toml --out DIR`.
#
# ### The breaker's advantage by skill
#
# Single boards; the breaker is South and plays white.


# %%
def study(name: str) -> pd.DataFrame:
    path = STUDIES / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else pd.DataFrame()


first_break = study("first-break")
BOARD_COLUMNS = [
    "arm",
    "boards",
    "breaker_win_rate",
    "breaker_lo",
    "breaker_hi",
    "points",
    "strokes",
]
if len(first_break):
    display(first_break[BOARD_COLUMNS])

# %%
# Under each arm its sample size (boards; games for the queen study); bars: 95 % intervals.
SIZES = dict(n="boards")


def per_arm(table: pd.DataFrame, col: str) -> str:
    """``"200 boards an arm"`` or ``"200-601 boards an arm"``: the arms' sample sizes."""
    lo, hi = int(table[col].min()), int(table[col].max())
    return f"{lo:,} {col} an arm" if lo == hi else f"{lo:,}–{hi:,} {col} an arm"


if len(first_break):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    cl.draw_intervals(
        first_break,
        "breaker_win_rate",
        "breaker_lo",
        "breaker_hi",
        ax=axes[0],
        reference=0.5,
        ylabel="breaker's board-win rate",
        title="Does the breaker win more boards? (0.5: fair)",
        **SIZES,
    )
    cl.draw_intervals(
        first_break,
        "strokes",
        "strokes_lo",
        "strokes_hi",
        ax=axes[1],
        ylabel="strokes a board",
        title="How long a board lasts",
        **SIZES,
    )
    fig.suptitle(
        f"The breaker's advantage by skill: greedy players, single boards "
        f"({per_arm(first_break, 'boards')}, 95 % intervals)",
        fontsize=11,
    )
    fig.tight_layout()

# %% [markdown]
# ### The due rule and singles vs doubles
#
# With the due rule off, pocketing the striker costs no coin. In doubles the four players
# sit S, E, N, W; partners sit opposite and the turn passes to the right.

# %%
due, doubles = study("due"), study("doubles")
both = pd.concat([due, doubles], ignore_index=True)
if len(both):
    display(both[[*BOARD_COLUMNS, "striker_fouls"]])

# %%
if len(both):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    cl.draw_intervals(
        both,
        "breaker_win_rate",
        "breaker_lo",
        "breaker_hi",
        ax=axes[0],
        reference=0.5,
        ylabel="breaker's board-win rate",
        title="The breaker's board-win rate (0.5: fair)",
        **SIZES,
    )
    cl.draw_intervals(
        both,
        "points",
        "points_lo",
        "points_hi",
        ax=axes[1],
        ylabel="points a board",
        title="Points the board's winner scores",
        **SIZES,
    )
    fig.suptitle(
        f"The due rule, and singles vs doubles: club greedy players "
        f"({per_arm(both, 'boards')}, 95 % intervals; due-on is the singles arm)",
        fontsize=11,
    )
    fig.tight_layout()

# %% [markdown]
# ### The queen's worth
#
# Whole games (to 25 points or 8 boards) with the queen worth 0, 3 (the laws) or 5 points;
# the greedy players value her at what she is worth in each arm.

# %%
queen = study("queen")
display(queen)

# %%
if len(queen):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    GAMES = dict(n="games")
    cl.draw_intervals(
        queen,
        "margin",
        "margin_lo",
        "margin_hi",
        ax=axes[0],
        ylabel="winner's margin (points)",
        title="How far the winner wins by",
        **GAMES,
    )
    cl.draw_intervals(
        queen,
        "boards_per_game",
        "boards_lo",
        "boards_hi",
        ax=axes[1],
        ylabel="boards a game",
        title="How many boards a game lasts",
        **GAMES,
    )
    fig.suptitle(
        f"The queen worth 0, 3 or 5 points: whole games of club greedy players "
        f"({per_arm(queen, 'games')}, 95 % intervals)",
        fontsize=11,
    )
    fig.tight_layout()

# %% [markdown]
# ## 3. Stronger players
#
# A verdict is only worth publishing if it survives better players. Two steps up from the
# greedy player, both built on the same batched asks:
#
# - **the searched break** (`experiments/break_search.py`): the break is the same stroke every
#   board, so it is searched once (grid, cross-entropy refinement, the best re-estimated) at
#   the player's skill and kept with its provenance in `carromlab/games/icf/breaks.json`;
# - **the lookahead player** (`cl.Lookahead`, ICF: policy `lookahead`): a stroke is worth what
#   it scores now plus the value of the position it leaves to whoever plays next (depth-2
#   expectimax over the stroke's noisy outcomes).
#
# The tables below were made by the experiment scripts (`data/studies/breaks/`,
# `data/studies/ladder/`); each number carries its 95 % interval.

# %%
BREAKS = ROOT / "data" / "studies" / "breaks" / "icf.csv"
breaks = pd.read_csv(BREAKS) if BREAKS.exists() else pd.DataFrame()
BREAK_COLUMNS = ["break", "placement", "angle", "speed", "n", "own_pocketed"]
BREAK_COLUMNS += ["own_pocketed_lo", "own_pocketed_hi", "p_own", "p_own_lo", "p_own_hi"]
if len(breaks):
    display(breaks[BREAK_COLUMNS].round(3))

# %% [markdown]
# ### The strength ladder
#
# Round-robin single boards at club skill, seats alternated, between a random player, a
# cheap greedy player, the greedy player, the greedy player with the searched break and the
# lookahead player; the racing greedy player (`greedy-race`: twice the candidates, cut in
# rounds on common keys) joins through its match against greedy. Ratings are Bradley–Terry
# fits on the Elo scale (the greedy player = 0): 100 points is an expected score of about
# 0.64.

# %%
LADDER = ROOT / "data" / "studies" / "ladder"
ladder = pd.read_csv(LADDER / "ladder.csv") if (LADDER / "ladder.csv").exists() else None
if ladder is not None:
    display(ladder.round(1))
    pairs = pd.read_csv(LADDER / "pairs.csv")
    display(pairs.round(3))
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    cl.plot_ratings(
        ladder,
        ax=ax,
        n="games",
        title=f"ICF players at club skill (greedy = 0): {pairs['games'].sum():,} single boards, "
        f"95 % intervals",
    )
    fig.tight_layout()
