"""Skill presets of the crokinole side (Force Out, Circle Scores, Ring Pegs), calibrated to the
open twenty (docs/calibration.md).

The open twenty: a disc shot from the outer (shooting) line of an empty board straight at the
centre hole. Top competitive players make about 65 % of them (published open-twenty rates by
skill tier [secondary]; docs/calibration.md); that is the ``pro`` target. Only that figure is
published: the lower tiers' targets are estimates (expert 50 %, club 35 %, novice 20 %)
[estimate].

Each preset keeps the placement and speed errors of the carrom preset of its name
(``carromlab.shots.SKILLS``: estimates; the open twenty cannot tell speed errors apart, its
speed window is about 0.75-1.60 m/s) and has its direction error fitted through the kernel
(``carromlab.analysis.calibration.fit_twenty_angle``: n = 16,000 per step, seed 100) so the
open twenty, at the speed the tier does best with, succeeds at the target. Checked afresh with
seed 102, n = 16,000 (rate, 95 % Wilson interval): novice 0.195 (0.189-0.201), club 0.354
(0.347-0.361), expert 0.504 (0.496-0.511), pro 0.652 (0.645-0.659).

The direction errors are large (the top tier 3.9 deg, against the carrom ``pro``'s 0.2 deg)
because the kernel's hole is forgiving: a disc is captured when its centre enters the 3.5 cm
hole slower than the skip speed, however far off-centre, and pegs turn some near-misses in.
They are calibrated to that capture model and must be refitted if it changes
(``experiments/calibrate.py --fit``).
"""

from __future__ import annotations

from carromlab.shots import SKILLS, Skill

#: Crokinole-side presets by name; ``exact`` is the carrom one (no noise).
CROKINOLE_SKILLS: dict[str, Skill] = {
    s.name: s
    for s in (
        Skill(
            "novice", 0.003, 0.3057, 0.10, "about 17.5 deg, 10 % speed: open twenty 20 % [estimate]"
        ),
        Skill("club", 0.002, 0.1521, 0.06, "about 8.7 deg, 6 % speed: open twenty 35 % [estimate]"),
        Skill(
            "expert", 0.001, 0.0961, 0.04, "about 5.5 deg, 4 % speed: open twenty 50 % [estimate]"
        ),
        Skill(
            "pro", 0.0005, 0.0672, 0.025, "about 3.9 deg, 2.5 % speed: open twenty 65 % [secondary]"
        ),
        SKILLS["exact"],
    )
}
