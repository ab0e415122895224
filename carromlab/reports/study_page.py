"""A study's report as one self-contained HTML page (:meth:`~carromlab.reports.study.
StudyReport.html`): each question's verdict sentences, its figure, the verdict table and each
arm's estimate; whether the verdict settles as play gets stronger; the provenance and the study
file as written."""

from __future__ import annotations

import html
import json
import time
from typing import TYPE_CHECKING, Any

import pandas as pd

from carromlab.studies.questions import parse_question

if TYPE_CHECKING:
    from carromlab.reports.study import StudyReport


def study_page(rep: StudyReport, images: dict[str, str]) -> str:
    """The page of ``rep`` (``images``: each question's figure as base64 PNG by question,
    and ``"strength"``: the strength figure's)."""
    s = rep.study
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(s.name)}: carromlab study</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;"
        "padding:0 1em;color:#222}table{border-collapse:collapse;font-size:0.85em;"
        "margin:0.5em 0 1.5em}td,th{border:1px solid #ccc;padding:0.25em 0.5em;"
        "text-align:left}th{background:#f2f2f2}.verdict{font-size:1.05em;margin:0.4em 0}"
        "pre{background:#f7f7f7;padding:0.8em;overflow:auto;font-size:0.8em}"
        "img{max-width:100%}</style></head><body>",
        f"<h1>{e(s.name)}</h1>",
        f"<p>{e(s.game)}; {count_words(len(s.base_arms), 'arm')}"
        + (f" ({len(s.arms)} with their copies)" if len(s.arms) > len(s.base_arms) else "")
        + f", baseline <b>{e(s.baseline)}</b>; seed {s.seed}; "
        f"{round(100 * s.confidence)} % intervals.</p>",
    ]
    parts.append(f"<p>{e(rep.judged_line())}</p>")
    if s.precision is not None:
        parts.append(f"<p>{e(rep.precision_line())}</p>")
    for q in s.questions:
        parts += _question(rep, q, images.get(q))
    if "strength" in images:
        q = s.questions[0]
        parts.append("<h2>Does the verdict settle as play gets stronger?</h2>")
        parts.append(
            f"<p>{e(q)} for every arm at each player the file plays it with, against the "
            "player's rating on the ladder where the game has one.</p>"
        )
        parts.append(f"<img alt='{e(q)} by player strength' "
                     f"src='data:image/png;base64,{images['strength']}'>")  # fmt: skip
    parts += _provenance(rep)
    parts.append("</body></html>")
    return "\n".join(parts)


def _question(rep: StudyReport, q: str, image: str | None) -> list[str]:
    """One question's section: its sentences, figure, verdict table and each arm's estimate."""
    e = html.escape
    question = parse_question(q)
    parts = [f"<h2>{e(q)}: {e(question.words())}</h2>"]
    for row in rep.verdicts[rep.verdicts["question"] == q].to_dict("records"):
        parts.append(f"<p class='verdict'>{e(row['verdict'])}</p>")
    if image is not None:
        parts.append(f"<img alt='{e(q)} by arm' src='data:image/png;base64,{image}'>")
    v = rep.verdicts[rep.verdicts["question"] == q].drop(columns=["question", "verdict"])
    if len(v):
        parts.append(f"<h3>{e(rep._table_heading())}</h3>")
        parts.append(v.to_html(index=False, escape=True, na_rep=""))
    t = rep.table[rep.table["question"] == q].drop(columns=["question", "games"])
    parts.append("<h3>Each arm</h3>")
    played = t[t["rows"] > 0]
    parts.append(played.to_html(index=False, escape=True, float_format="{:.4f}".format))
    if len(played) < len(t):
        rest = ", ".join(t.loc[t["rows"] == 0, "arm"])
        parts.append(f"<p class='missing'>Not played yet: {e(rest)}.</p>")
    return parts


def _provenance(rep: StudyReport) -> list[str]:
    """Where and when it was run, the games used, and the study file as written."""
    s = rep.study
    prov = {
        "carromlab (first run)": rep.info.get("carromlab"),
        "machine": rep.info.get("machine"),
        "first run": rep.info.get("started"),
        "report written": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "seed": s.seed,
        "games used an arm": ", ".join(
            f"{arm} {n:,}" for arm, n in (rep.info.get("games_used") or {}).items()
        ),
    }
    # the file as written (its comments too) where the run kept the text
    return [
        "<h2>Provenance</h2>",
        pd.DataFrame([prov]).T.to_html(header=False, escape=True),
        "<h3>The study file</h3>",
        f"<pre>{html.escape(rep.info.get('text') or _toml(s.document))}</pre>",
    ]


def count_words(n: int, word: str) -> str:
    """``n`` ``word``s, the word in the singular for one (``1 cell``, ``1,102 boards``)."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _toml(doc: dict[str, Any], prefix: str = "") -> str:
    """The study's document in TOML's words (plain values, tables and arrays of tables)."""
    lines, tables = [], []
    for k, v in doc.items():
        if isinstance(v, dict):
            tables.append((k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            tables.append((k, v))
        else:
            lines.append(f"{k} = {json.dumps(v)}")
    for k, v in tables:
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            lines += ["", f"[{name}]", _toml(v, f"{name}.")]
        else:
            for item in v:
                lines += ["", f"[[{name}]]", _toml(item, f"{name}.")]
    return "\n".join(line for line in lines).strip("\n")


__all__ = ["count_words", "study_page"]
