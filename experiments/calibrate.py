"""Calibration tables (docs/calibration.md): the ICF liveliness rule and the
crokinole open twenty, through the kernel.

Writes to ``data/calibration/`` (and prints):

- ``liveliness.csv``: runs of a lone 15 g striker struck straight across the ICF board from
  the baseline, over friction ``mu`` x cushion restitution ``e_cushion`` x speed ``v0`` (kernel
  and hand count), and whether the 3.5-runs rule holds;
- ``liveliness_max_mu.csv``: the largest ``mu`` that still makes 3.5 runs, by ``e_cushion``
  and ``v0``;
- ``open_twenty.csv``: the open-twenty rate (95 % Wilson interval) of every tier, with the
  carrom presets (``shots.SKILLS``, "before") and the crokinole presets
  (``calibration_presets.CROKINOLE_SKILLS``, "after"), on the Carrom Company board (square,
  the variants' default) and, for the new presets, on an NCA ditch board;
- ``open_twenty_speeds.csv``: each tier's speed search (successes by nominal speed);
- ``config.json``: seeds, sample sizes, versions;
- with ``--fit``: ``open_twenty_fit.csv``, the direction errors refitted to the targets
  (what ``CROKINOLE_SKILLS`` holds; about a minute and a half more).

    python experiments/calibrate.py            # about 40 s on one CPU core
    python experiments/calibrate.py --fit
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from carromlab.analysis import calibration as cal
from carromlab.analysis.estimate import run_metadata
from carromlab.calibration_presets import CROKINOLE_SKILLS
from carromlab.physics import Physics
from carromlab.shots import SKILLS

OUT = Path("data/calibration")
TIERS = ("novice", "club", "expert", "pro")


def liveliness(out: Path) -> None:
    table = cal.liveliness_table()
    table.to_csv(out / "liveliness.csv", index=False, float_format="%.6g")
    rows = [
        {"e_cushion": e, "v0": v, "max_mu": cal.max_mu(e, v)}
        for e in cal.TABLE_E
        for v in cal.STRIKE_SPEEDS
    ]
    bound = pd.DataFrame(rows)
    bound.to_csv(out / "liveliness_max_mu.csv", index=False, float_format="%.6g")
    p = Physics()
    runs = cal.liveliness_runs(p.mu, p.e_cushion, cal.STRIKE_SPEEDS)
    print(
        f"Liveliness of the defaults (mu {p.mu}, e_cushion {p.e_cushion}): "
        + ", ".join(f"{r:.3f} runs at {v} m/s" for r, v in zip(runs, cal.STRIKE_SPEEDS))
        + f" (rule: >= {cal.LIVELINESS_RUNS} at {cal.MAX_STRIKE_SPEED} m/s)"
    )
    print("\nRuns by mu (rows) and (v0, e_cushion) (columns), kernel:")
    print(table.pivot_table(index="mu", columns=["v0", "e_cushion"], values="runs").round(2))
    print(f"\nmax |kernel - hand count|: {np.abs(table.runs - table.runs_analytic).max():.2g} runs")
    print("\nLargest mu that makes 3.5 runs:")
    print(bound.pivot_table(index="e_cushion", columns="v0", values="max_mu").round(3))


def open_twenty(out: Path, n: int, n_choose: int, seed: int) -> None:
    rows, searches = [], []
    arms = [
        # the carrom presets as they are (a changed note keeps the crokinole variants from
        # swapping in their own presets: VariantAnalysis.preset)
        ("carrom (before)", {t: replace(SKILLS[t], note="carrom, as is") for t in TIERS}, "square"),
        ("crokinole (after)", CROKINOLE_SKILLS, "square"),
    ]
    arms.append(("crokinole (after)", CROKINOLE_SKILLS, "ditch"))
    for label, presets, surround in arms:
        for tier in TIERS:
            sk = presets[tier]
            r = cal.open_twenty(sk, n=n, n_choose=n_choose, seed=seed, surround=surround)
            rows.append(
                {
                    "presets": label,
                    "surround": surround,
                    "skill": tier,
                    "target": cal.TWENTY_TARGETS[tier],
                    "placement_m": sk.placement,
                    "angle_rad": sk.angle,
                    "angle_deg": math.degrees(sk.angle),
                    "speed_rel": sk.speed,
                    "chosen_speed": r.speed,
                    "successes": r.successes,
                    "n": r.n,
                    "rate": r.rate,
                    "lo": r.lo,
                    "hi": r.hi,
                }
            )
            searches.append(r.choice.assign(presets=label, surround=surround, skill=tier))
    table = pd.DataFrame(rows)
    table.to_csv(out / "open_twenty.csv", index=False, float_format="%.6g")
    pd.concat(searches).to_csv(out / "open_twenty_speeds.csv", index=False, float_format="%.6g")
    show = table[["presets", "surround", "skill", "target", "angle_deg", "chosen_speed"]].copy()
    show["rate (95 % CI)"] = [
        f"{r:.3f} ({lo:.3f}-{hi:.3f})" for r, lo, hi in zip(table.rate, table.lo, table.hi)
    ]
    print(
        f"\nOpen twenty (n = {n} at the chosen speed; speed chosen on {n_choose} shots a speed, common random numbers):"
    )
    print(show.round(3).to_string(index=False))


def fit(out: Path) -> None:
    rows = []
    for tier in TIERS:
        target = cal.TWENTY_TARGETS[tier]
        angle, r = cal.fit_twenty_angle(tier, target)
        rows.append(
            {
                "skill": tier,
                "target": target,
                "angle_rad": angle,
                "angle_deg": math.degrees(angle),
                "hand_model_angle_rad": cal.angle_for_rate(target, SKILLS[tier].placement),
                "check_speed": r.speed,
                "check_rate": r.rate,
                "check_lo": r.lo,
                "check_hi": r.hi,
                "check_n": r.n,
            }
        )
        print(f"fitted {tier}: {rows[-1]}", flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(out / "open_twenty_fit.csv", index=False, float_format="%.6g")
    print("\nFitted direction errors (CROKINOLE_SKILLS should hold angle_rad):")
    print(table.round(4).to_string(index=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="shots at the chosen speed")
    ap.add_argument("--n-choose", type=int, default=1000, help="shots per speed of the search")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fit", action="store_true", help="refit the crokinole direction errors")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    liveliness(args.out)
    open_twenty(args.out, args.n, args.n_choose, args.seed)
    if args.fit:
        fit(args.out)
    meta = run_metadata(
        kind="calibration",
        seed=args.seed,
        n=args.n,
        n_choose=args.n_choose,
        fit=args.fit,
        max_strike_speed=cal.MAX_STRIKE_SPEED,
        strike_speeds=list(cal.STRIKE_SPEEDS),
        twenty_speeds=list(cal.TWENTY_SPEEDS),
        twenty_targets=cal.TWENTY_TARGETS,
        physics=vars(Physics()),
        seconds=round(time.perf_counter() - t0, 1),
    )
    (args.out / "config.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"\nwrote {args.out}/ in {meta['seconds']} s")


if __name__ == "__main__":
    main()
