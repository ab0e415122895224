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
# # The explorer: touch a position and watch the odds
#
# `cl.Explorer(position, skill=..., n=...)` draws the board to scale with the striker on its
# line. Drag the striker along the line, drag on the board (or type) to aim, set the speed and
# the skill: the table gives the shot's odds with 95 % intervals, first from 256 noisy
# executions and then from `n`; the board shows 20 executions' paths (the striker's, the
# pocketed pieces' bold, the other moved pieces faint); the strip under the table gives the
# expected points over the aim angle at this placement and speed; **Best shot** searches the
# best shot from the position and draws it as a dashed red line with its value.
#
# The same page runs outside Jupyter: `carromlab explore --position icf-midgame` serves it
# on http://127.0.0.1:8866/.
#
# With `CARROMLAB_QUICK=1` (the test suite sets it) the sizes are tiny.

# %%
import os

import pandas as pd
from IPython.display import display

import carromlab as cl

QUICK = os.environ.get("CARROMLAB_QUICK") == "1"
N = 200 if QUICK else 2000

explorer = cl.Explorer("icf-midgame", skill="club", n=N)
display(explorer)

# %% [markdown]
# The widget's state is plain Python too: the odds the table shows, and what a move does.
# `wait()` waits for the work in the background (a moved control cancels a stale run).

# %%
explorer.angle = 142.0
explorer.wait()
pd.DataFrame(explorer.odds["rows"])[["label", "estimate", "lo", "hi"]]

# %% [markdown]
# Other boards: Carrooka's striker is played from where it lies (it stays put; aim and
# speed move), Force Out's from its arc, and KOOBA's throw is aimed at a point.

# %%
kooba = cl.Explorer("kooba-opening", skill="club", n=N)
display(kooba)
