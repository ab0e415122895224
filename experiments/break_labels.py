"""The break and how a position lists its pieces: does the outcome depend on the labels?

Each packed opening (ICF carrom, Carrooka, Carroms) is broken straight up the middle at
5 m/s with club noise, ``--n`` noisy shots (the same shot keys in every listing), in the
standard listing and ``--listings - 1`` random ones. For each listing: the probability that a
piece (not the shooter) drops in each pocket, and the mean number dropped; the truncated
shots. Checks, by ``--sigmas`` standard errors of the paired difference (the same shots):

- labels: every pair of listings agrees on every per-pocket probability and the mean;
- mirror: each pocket against its mirror image across the shot's line (x -> -x), in every
  listing (the set-ups and the noise are mirror-symmetric).

``--contacts`` picks the kernel's contact model (``cluster``, the default, or
``sequential``, the model before it, to show what changed). Results go to
``data/studies/break_labels/<contacts>.csv`` (one row per game, listing and quantity) with the
configuration beside it (``.json``), and the figure ``docs/img/break_labels.png`` when both
models are there.

    python experiments/break_labels.py --n 4000 --listings 5 --contacts cluster
    python experiments/break_labels.py --n 4000 --listings 5 --contacts sequential
    python experiments/break_labels.py --n 4000 --listings 5 --hand-set -1   # hand-set on
    python experiments/break_labels.py --plot-only

``--hand-set``: 0 here by default (the exact touching set-up, as the labels question was
asked); ``-1`` uses the package default for openings (docs/physics.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path("data/studies/break_labels")
FIGURE = Path("docs/img/break_labels.png")
GAMES = ("icf", "carrooka", "carroms")
SPEED = 5.0


def break_setup(game: str):
    """(position, shot) of ``game``'s break: from the middle of the shooter's line (Carrooka:
    the break line's South point) straight up through the centre at 5 m/s."""
    from carromlab.games.carroms import shooting_line_y
    from carromlab.games.icf.midgame import BASELINE_Y
    from carromlab.registry import standard_position
    from carromlab.shots import Shot

    if game == "icf":
        return standard_position("icf-opening"), Shot(0.0, BASELINE_Y, math.pi / 2, SPEED)
    if game == "carrooka":
        pos = standard_position("carrooka-opening")
        return pos, Shot(0.0, -pos.board.break_radius, math.pi / 2, SPEED)
    if game == "carroms":
        pos = standard_position("carroms-opening")
        return pos, Shot(0.0, shooting_line_y(pos.board), math.pi / 2, SPEED)
    raise SystemExit(f"unknown game {game!r}; known: {', '.join(GAMES)}")


def listings(n_pieces: int, count: int, seed: int) -> list[np.ndarray]:
    """The standard listing, then ``count - 1`` random permutations (seeded)."""
    rng = np.random.default_rng(seed)
    return [np.arange(n_pieces)] + [rng.permutation(n_pieces) for _ in range(count - 1)]


def run_listing(position, shot, order, n: int, seed: int, contacts: str, skill: str, hand_set=None):
    """Per shot: (dropped in each pocket: (n, P) bool, pieces dropped: (n,), truncated: (n,)),
    and the pocket names."""
    from carromlab.analysis.runner import ShotRunner
    from carromlab.analysis.variants import analysis_for
    from carromlab.shots import skill as skill_named

    listed = position.replace(
        pieces=tuple(position.pieces[k] for k in order), set_by_hand=position.set_by_hand
    )
    va = analysis_for(listed.variant)
    runner = ShotRunner(
        va.table_position(listed), va.shooter_kind, contacts=contacts, hand_set=hand_set
    )
    noise = va.noise(va.preset(skill_named(skill)))
    pockets = runner.table.capture_names
    drops, counts, trunc = [], [], []
    for ch in runner.run(shot, n, noise, seed):
        cap = np.asarray(ch.outcome["capture"])[:, 1:]  # the shooter is disc 0
        drops.append(np.stack([(cap == p).any(axis=1) for p in range(len(pockets))], axis=1))
        counts.append(((cap >= 0) & (cap < len(pockets))).sum(axis=1))
        trunc.append(np.asarray(ch.outcome["truncated"]))
    return np.concatenate(drops), np.concatenate(counts), np.concatenate(trunc), pockets, runner


def mirror_pairs(runner) -> list[tuple[int, int]]:
    """Pockets paired with their mirror image across x = 0 (i < j)."""
    caps = np.asarray(runner.table.captures).reshape(len(runner.table.capture_names), -1)
    pairs = []
    for i, j in itertools.combinations(range(len(caps)), 2):
        if np.allclose(caps[i, :2] * [-1, 1], caps[j, :2], atol=1e-9):
            pairs.append((i, j))
    return pairs


def paired_z(a: np.ndarray, b: np.ndarray) -> float:
    """The mean difference of paired samples over its standard error (0 when both agree on
    every shot)."""
    d = np.asarray(a, float) - np.asarray(b, float)
    se = d.std(ddof=1) / math.sqrt(len(d))
    return 0.0 if se == 0 else float(d.mean() / se)


def study_game(game: str, n: int, count: int, seed: int, contacts: str, skill: str, hand_set=None):
    """Rows (game, listing, quantity, estimate, se), the pairwise label z-scores and the
    mirror z-scores of ``game``'s break in ``count`` listings."""
    position, shot = break_setup(game)
    rows, runs = [], []
    for k, order in enumerate(listings(len(position.pieces), count, seed)):
        drops, counts, trunc, pockets, runner = run_listing(
            position, shot, order, n, seed, contacts, skill, hand_set
        )
        runs.append((drops, counts))
        for p, name in enumerate(pockets):
            q = drops[:, p]
            rows.append((game, k, f"P({name})", q.mean(), q.std(ddof=1) / math.sqrt(n)))
        rows.append((game, k, "pieces dropped", counts.mean(), counts.std(ddof=1) / math.sqrt(n)))
        rows.append((game, k, "truncated", trunc.mean(), trunc.std(ddof=1) / math.sqrt(n)))
    quantities = [*(f"P({p})" for p in pockets), "pieces dropped"]
    label_z = []
    for a, b in itertools.combinations(range(count), 2):
        for qi, qname in enumerate(quantities):
            xa = runs[a][0][:, qi] if qi < len(pockets) else runs[a][1]
            xb = runs[b][0][:, qi] if qi < len(pockets) else runs[b][1]
            label_z.append((qname, a, b, paired_z(xa, xb)))
    mirror_z = [
        (f"{pockets[i]} vs {pockets[j]}", k, paired_z(runs[k][0][:, i], runs[k][0][:, j]))
        for k in range(count)
        for i, j in mirror_pairs(runner)
    ]
    return rows, label_z, mirror_z


def plot(frames: dict[str, pd.DataFrame]) -> None:
    """Per-pocket probabilities and pieces dropped, each listing a marker with 95 % bars,
    the two contact models side by side, one row per game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = [m for m in ("sequential", "cluster") if m in frames]
    games = [g for g in GAMES if all((frames[m].game == g).any() for m in models)]
    fig, axes = plt.subplots(
        len(games), len(models), figsize=(5.2 * len(models), 2.9 * len(games)), squeeze=False
    )
    for r, game in enumerate(games):
        for c, model in enumerate(models):
            ax = axes[r][c]
            df = frames[model]
            df = df[(df.game == game) & (df.quantity != "truncated")]
            qs = list(dict.fromkeys(df.quantity))
            listings_ = sorted(df.listing.unique())
            width = 0.8 / len(listings_)
            for k in listings_:
                sub = df[df.listing == k].set_index("quantity").loc[qs]
                xs = np.arange(len(qs)) - 0.4 + width * (k + 0.5)
                label = "standard listing" if k == 0 else f"random listing {k}"
                ax.errorbar(
                    xs, sub.estimate, yerr=1.96 * sub.se, fmt="o", ms=3, capsize=2, label=label
                )
            ax.set_xticks(np.arange(len(qs)))
            names = [q.replace("P(", "").replace(")", "").replace("pocket.", "") for q in qs]
            ax.set_xticklabels(
                [t.replace("pieces dropped", "pieces\ndropped") for t in names], fontsize=8
            )
            ax.set_title(f"{game}: {model} contacts", fontsize=10)
            ax.set_ylabel("probability / mean pieces", fontsize=8)
            ax.set_xlabel("pocket (a piece drops in it)", fontsize=8)
            ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle(
        "The break in five listings of the same pieces (club noise, the same shots; 95 % bars)",
        fontsize=11,
    )
    fig.tight_layout()
    FIGURE.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(FIGURE, dpi=110)
    print(f"wrote {FIGURE}", file=sys.stderr)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n", type=int, default=4000, help="noisy shots per listing")
    ap.add_argument("--listings", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skill", default="club")
    ap.add_argument("--sigmas", type=float, default=3.0)
    ap.add_argument("--contacts", default="cluster", choices=("cluster", "sequential"))
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument(
        "--hand-set",
        type=float,
        default=0.0,
        help="hand-set size (m) of the openings; 0 (the default here): the exact set-up, the "
        "hardest case for labels; -1: the package default",
    )
    ap.add_argument("--plot-only", action="store_true")
    a = ap.parse_args(argv)
    if a.n < 2 or a.listings < 2:
        raise SystemExit("--n and --listings must be at least 2")
    if not a.plot_only:
        from carromlab.analysis.estimate import run_metadata

        rows, verdict = [], {}
        for game in a.games.split(","):
            hand = None if a.hand_set < 0 else a.hand_set
            r, label_z, mirror_z = study_game(
                game, a.n, a.listings, a.seed, a.contacts, a.skill, hand
            )
            rows += r
            worst_label = max(label_z, key=lambda t: abs(t[3]))
            worst_mirror = max(mirror_z, key=lambda t: abs(t[2]))
            verdict[game] = {
                "labels_max_abs_z": round(abs(worst_label[3]), 2),
                "labels_worst": f"{worst_label[0]} listings {worst_label[1]}/{worst_label[2]}",
                "labels_ok": all(abs(z) <= a.sigmas for *_, z in label_z),
                "mirror_max_abs_z": round(abs(worst_mirror[2]), 2),
                "mirror_worst": f"{worst_mirror[0]} listing {worst_mirror[1]}",
                "mirror_ok": all(abs(z) <= a.sigmas for *_, z in mirror_z),
                "truncated": round(sum(x[3] for x in r if x[2] == "truncated") * a.n),
            }
        OUT.mkdir(parents=True, exist_ok=True)
        df = pd.DataFrame(rows, columns=["game", "listing", "quantity", "estimate", "se"])
        tag = "" if a.hand_set == 0 else "-hand-set"
        path = OUT / f"{a.contacts}{tag}.csv"
        tmp = path.with_suffix(".tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(path)
        meta = run_metadata(
            kind="break_labels",
            n=a.n,
            listings=a.listings,
            seed=a.seed,
            skill=a.skill,
            contacts=a.contacts,
            hand_set=a.hand_set,
            speed=SPEED,
            verdict=verdict,
        )
        path.with_suffix(".json").write_text(json.dumps(meta, indent=2, default=str) + "\n")
        print(
            json.dumps(
                {"contacts": a.contacts, "hand_set": a.hand_set, "n": a.n, "verdict": verdict},
                indent=2,
            )
        )
    frames = {
        m: pd.read_csv(OUT / f"{m}.csv")
        for m in ("sequential", "cluster")
        if (OUT / f"{m}.csv").exists()
    }
    if len(frames) == 2:
        plot(frames)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
