"""The study file (docs/studies-guide.md): one TOML file says what a rule-balance study plays and
asks, checked before anything is played.

A study file is read in three steps, each refusing with one :class:`CarromlabError` line that
names the key and shows the value (``queen.toml: arms.rules.queen_value = -1: ...``):

1. the file (:func:`~carromlab.sweeps.schema.read_toml`, as a sweep's): at most 1 MiB, UTF-8,
   valid TOML;
2. the document (:class:`StudyFile`, pydantic, strict: no unknown key, no bool or string
   where a number is required): the settings' bounds, the physics fields' bounds (those of a
   sweep's physics axes), at most :data:`MAX_ARMS` arms and :data:`MAX_GAMES` games an arm;
3. the study (:func:`parse_study`): the game, each arm's variant, its rules (fields of the
   game's rule configuration, each of the default's type, then the configuration's own
   check), its players (the game's policies: one for every seat or one a seat) and skills,
   the questions (:mod:`carromlab.studies.questions`), the baseline, the strengths and the
   priors; the arms' games in all at most :data:`MAX_STUDY_GAMES`, before any is played.

What a study plays (:class:`Study`): every arm of the file (its *base* arms) as written;
with ``strengths`` every base arm again with every seat's player replaced by each strength
(``<arm>@<strength>``; none where the arm's seats all play that strength already: the arm as
written serves, :meth:`Study.at`); with ``priors`` every base arm again at the top strength (the last of
``strengths``, else the file's players) with each prior's field at its low and its high end
(``<arm>@<strength>~<field>-low``). Every arm plays games ``0 .. games - 1`` with the study's
seed: arms share their games' keys (common random numbers, so two arms differ by their rules,
not their luck, as far as the games stay alike).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict

from carromlab.errors import CarromlabError
from carromlab.input_schema import CONFIDENCE, FINITE, PHYSICS, SEED, Limit
from carromlab.physics.params import TRACED_FIELDS
from carromlab.position_schema import (
    MAX_NAME,
    MAX_WORD,
    schema_document,
    schema_text,
    write_schema,
)
from carromlab.sweeps.schema import Scalar, read_toml, shown, validate_document

#: At most this many arms in a file, and games an arm; the arms' games in all (with their
#: strength and prior copies) at most MAX_STUDY_GAMES.
MAX_ARMS = 64
MAX_GAMES = 10**5
MAX_STUDY_GAMES = 10**6
#: Games a job plays at most (one kernel batch of that many games in flight).
MAX_BLOCK = 4096

_STRICT = ConfigDict(strict=True, extra="forbid")
#: An arm's name: its folder's name too.
ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")

Word = Annotated[str, Strict(), Field(min_length=1, max_length=MAX_WORD)]
Words = Annotated[list[Word], Field(min_length=1, max_length=16)]
Games = Limit(1, MAX_GAMES, "games", int)
Block = Limit(1, MAX_BLOCK, "games", int)
#: A precision target: the headline's 95 % interval's half-width (in its own unit).
Precision = Limit(0.0, 1e6, lo_open=True)
#: A margin of practical difference (in its question's unit).
Margin = Limit(0.0, 1e9, lo_open=True)


def _physics_model(name: str, pair: bool) -> type[BaseModel]:
    from pydantic import create_model

    fields: dict[str, Any] = {}
    for k, lim in PHYSICS.items():
        if pair and k not in TRACED_FIELDS:  # a static field is one value, never drawn
            continue
        kind = Annotated[list[lim.type], Field(min_length=2, max_length=2)] if pair else lim.type
        fields[k] = (kind, None)
    return create_model(name, __config__=ConfigDict(**_STRICT, title=name), **fields)


#: An arm's physics: fields of ``carromlab.physics.Physics``, one value each.
PhysicsValues = _physics_model("PhysicsValues", pair=False)
#: The priors: fields of ``Physics``, each ``[low, high]``.
PriorRanges = _physics_model("PriorRanges", pair=True)


class ArmFile(BaseModel):
    """One arm: a rule setting (and, where it differs from the study's, its variant, physics,
    players and skills)."""

    model_config = ConfigDict(**_STRICT, title="Arm")
    name: Word = Field(description="The arm's name (letters, digits, . _ + -; its folder).")
    variant: Word | None = Field(None, description="The variant (default: the study's).")
    rules: dict[Word, Scalar] = Field(
        default_factory=dict,
        description="Fields of the game's rule configuration (e.g. ICF's queen_value).",
    )
    physics: PhysicsValues | None = Field(None, description="Physics fields (default: none).")
    players: Word | Words | None = Field(None, description="Policy of every seat, or a list.")
    skill: Word | Words | None = Field(None, description="Skill of every seat, or a list.")


class StudyFile(BaseModel):
    """A carromlab rule-balance study: arms, the question, the size (docs/studies-guide.md)."""

    model_config = ConfigDict(**_STRICT, title="carromlab study")
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = Field(
        None, description="A label (default: the file's name)."
    )
    game: Word = Field(description="The game (a registered game or variant name).")
    variant: Word | None = Field(None, description="The variant (default: the game's first).")
    seed: SEED.type = Field(0, description="The root seed (every arm plays with it).")
    confidence: CONFIDENCE.type = Field(0.95, description="Of every interval.")
    questions: Words = Field(["first-wins"], description="What is estimated; the first leads.")
    baseline: Word | None = Field(None, description="The arm compared with (default: the first).")
    reference: FINITE.type | None = Field(
        None, description="A value every arm's first question is also compared with (a fair "
        "share: 0.5).",
    )  # fmt: skip
    margin: Margin.type | dict[Word, Margin.type] | None = Field(
        None, description="The difference that matters in practice: a number (the first "
        "question's) or a table of question -> number (default: 0.05 on a share, 5 % of the "
        "baseline's value on a mean; docs/studies-guide.md).",
    )  # fmt: skip
    players: Word | Words = Field("greedy", description="Policy of every seat, or one a seat.")
    skill: Word | Words = Field("club", description="Skill of every seat, or one a seat.")
    strengths: Words | None = Field(None, description="Policies to rerun every arm with.")
    priors: PriorRanges | None = Field(None, description="Physics fields' [low, high] ends.")
    games: Games.type = Field(100, description="Games an arm (without a precision target).")
    copy_games: Games.type | None = Field(
        None, description="Games an arm of the strength and prior copies (default: games).",
    )  # fmt: skip
    precision: Precision.type | None = Field(
        None, description="Stop an arm when the first question's interval half-width is at most "
        "this (then `games` is the cap).",
    )  # fmt: skip
    block: Block.type = Field(50, description="Games a job (speed only, never the rows).")
    arms: Annotated[list[ArmFile], Field(min_length=1, max_length=MAX_ARMS)]


@dataclass(frozen=True)
class Arm:
    """One arm as played: ``base`` the file's arm it copies, ``strength`` the policy every
    seat plays (None: the file's players), ``prior`` ``(field, "low" | "high")`` (None: the
    arm's physics)."""

    name: str
    base: str
    variant: str
    rules: dict[str, Any]
    physics: dict[str, float]
    players: tuple[str, ...]
    skills: tuple[str, ...]
    strength: str | None = None
    prior: tuple[str, str] | None = None
    #: the arm's games (its cap under a precision target)
    games: int = 100

    def settings(self) -> dict[str, Any]:
        """What a job needs to play the arm (plain data: it travels to the workers)."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Study:
    """A checked study file (see the module's docstring)."""

    name: str
    game: str
    seed: int
    confidence: float
    questions: tuple[str, ...]
    baseline: str
    games: int
    precision: float | None
    block: int
    arms: tuple[Arm, ...]
    strengths: tuple[str, ...] = ()
    priors: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: a value every arm's first question is compared with too (None: none)
    reference: float | None = None
    #: the file's document as read (stored with every result)
    document: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the game as the file names it (a game or a variant name)
    game_asked: str = ""
    #: the file as written, comments and all ("" where it was not read from a file)
    text: str = field(default="", repr=False)
    #: each question's margin of practical difference as the file gives it (the others take
    #: their kind's default: :meth:`margin_of`)
    margins: dict[str, float] = field(default_factory=dict)

    def margin_of(self, question: str, base_value: float) -> float:
        """``question``'s margin: the file's, else its kind's default from ``base_value`` (the
        baseline's value as written, or the reference value)."""
        from carromlab.studies.questions import parse_question

        if question in self.margins:
            return self.margins[question]
        return parse_question(question).default_margin(base_value)

    def arm(self, name: str) -> Arm:
        for a in self.arms:
            if a.name == name:
                return a
        raise CarromlabError(f"no arm {name!r} in study {self.name!r}")

    @property
    def base_arms(self) -> list[Arm]:
        return [a for a in self.arms if a.strength is None and a.prior is None]

    def at(self, base: str, strength: str | None) -> str:
        """The arm that plays base arm ``base`` at ``strength``: its copy ``<base>@<strength>``,
        or the base arm itself where every seat of it already plays ``strength`` (no copy is
        made of an arm at its own players)."""
        name = f"{base}@{strength}" if strength else base
        return name if any(a.name == name for a in self.arms) else base

    @property
    def top(self) -> str | None:
        """The strength the priors are played at (None: the file's players)."""
        return self.strengths[-1] if self.strengths else None


def load_study(path: str | Path) -> Study:
    """Read and check a study file (the module's three steps)."""
    path = Path(path)
    raw = read_toml(path, what="study file")
    study = parse_study(raw, source=str(path), default_name=path.stem)
    return dataclasses.replace(study, text=path.read_text(encoding="utf-8"))


def validate(raw: Any, source: str) -> StudyFile:
    """Step 2 on a parsed document; one line when it fails."""
    return validate_document(StudyFile, raw, source, "a study")


def _per_seat(value, seats: int, key: str, fail) -> tuple[str, ...]:
    values = [value] if isinstance(value, str) else list(value)
    if len(values) == 1:
        return tuple(values) * seats
    if len(values) != seats:
        fail(key, f"give one for every seat or one a seat ({seats} seats)", value)
    return tuple(values)


def parse_study(raw: dict, source: str = "study", default_name: str = "study") -> Study:
    """Check a study's TOML data against the schema and the game, and build the
    :class:`Study` (its arms with their strength and prior copies): the document
    (:func:`validate`), the game and its physics (:func:`_game_of`), the questions and their
    margins (:func:`_margins`), the arms as written (:func:`_base_arms`), the strengths and
    priors (:func:`_priors`) and their copies (:func:`_copies`), the size, and every
    question's columns in every arm's rows (:func:`~carromlab.studies.check.
    question_columns_check`), all before any game."""
    from carromlab.studies.check import question_columns_check

    def fail(key: str, msg: str, *value):
        shown_value = f" = {shown(value[0])}" if value else ""
        raise CarromlabError(f"{source}: {key}{shown_value}: {msg}")

    doc = validate(raw, source)
    game = _game_of(doc, fail)
    margins = _margins(doc, fail)

    def policy(p: str, key: str) -> str:
        name = game.policy_name(p)
        if name not in game.players:
            fail(key, f"not a player of {game.name} ({', '.join(game.players)})", p)
        return name

    arms = _base_arms(doc, game, policy, fail)
    names = [a.name for a in arms]
    baseline = doc.baseline or names[0]
    if baseline not in names:
        fail("baseline", f"not an arm ({', '.join(names)})", baseline)
    strengths = tuple(policy(p, "strengths") for p in (doc.strengths or ()))
    priors = _priors(doc, fail)
    played = arms + _copies(arms, strengths, priors, int(doc.copy_games or doc.games))
    total = sum(a.games for a in played)
    if total > MAX_STUDY_GAMES:
        fail("games", f"{len(played)} arms, {total:,} games in all, more than "
             f"{MAX_STUDY_GAMES:,} (a study's limit)", doc.games)  # fmt: skip
    question_columns_check(played, doc.questions, source)  # before any game (studies/check.py)
    return Study(
        name=doc.name or default_name,
        game=game.name,
        seed=int(doc.seed),
        confidence=float(doc.confidence),
        questions=tuple(doc.questions),
        baseline=baseline,
        games=int(doc.games),
        precision=None if doc.precision is None else float(doc.precision),
        block=int(doc.block),
        arms=tuple(played),
        strengths=strengths,
        priors=priors,
        reference=None if doc.reference is None else float(doc.reference),
        document=raw,
        game_asked=doc.game,
        margins=margins,
    )


def _game_of(doc: StudyFile, fail):
    """The file's game, one that plays whole games; physics only where its kernel reads it."""
    from carromlab.registry import get_game

    try:
        game = get_game(doc.game)
    except CarromlabError as e:
        fail("game", str(e), doc.game)
    if game.config is None or game.driver is None or not game.players:
        fail("game", "whole games are not available for it", doc.game)
    if not game.physics:  # no physics field reaches the game's kernel (Game.physics)
        why = f"{game.name}'s kernel has no table friction or restitution (its Game.physics)"
        if doc.priors is not None:
            fail("priors", why, doc.priors.model_dump(exclude_none=True))
        for a in doc.arms:
            if a.physics is not None:
                fail(f"arms.{a.name}.physics", why, a.physics.model_dump(exclude_none=True))
    return game


def _margins(doc: StudyFile, fail) -> dict[str, float]:
    """The questions checked (a share's reference between 0 and 1) and the margins the file
    gives, by question."""
    from carromlab.studies.questions import parse_question

    for q in doc.questions:
        try:
            parse_question(q)
        except CarromlabError as e:
            fail("questions", str(e), q)
    if doc.reference is not None and parse_question(doc.questions[0]).share:
        if not 0.0 <= doc.reference <= 1.0:
            fail("reference", f"the first question ({doc.questions[0]}) is a share: its "
                 "reference lies between 0 and 1", doc.reference)  # fmt: skip
    margins: dict[str, float] = {}
    if isinstance(doc.margin, dict):
        for q, m in doc.margin.items():
            if q not in doc.questions:
                fail(f"margin.{q}", f"not one of the file's questions ({', '.join(doc.questions)})",
                     m)  # fmt: skip
            margins[q] = float(m)
    elif doc.margin is not None:
        margins[doc.questions[0]] = float(doc.margin)
    return margins


def _base_arms(doc: StudyFile, game, policy, fail) -> list[Arm]:
    """The file's arms as written: each name, variant, rules, players, skills and physics
    checked."""
    from carromlab.shots import SKILLS

    variant = doc.variant or (doc.game if doc.game in game.variants else game.variants[0])
    seen: set[str] = set()
    arms: list[Arm] = []
    for a in doc.arms:
        key = f"arms.{a.name}"
        if not ARM_NAME.match(a.name):
            fail("arms.name", "letters, digits and . _ + - only, starting with a letter or digit",
                 a.name)  # fmt: skip
        if a.name in seen:
            fail("arms.name", "two arms have this name", a.name)
        seen.add(a.name)
        v = a.variant or variant
        if v not in game.variants:
            fail(f"{key}.variant", f"not a variant of {game.name} ({', '.join(game.variants)})", v)
        config = _config(game, v, a.rules, f"{key}.rules", fail)
        seats = int(config.n_seats)
        players = _per_seat(a.players or doc.players, seats, f"{key}.players", fail)
        players = tuple(policy(p, f"{key}.players") for p in players)
        skills = _per_seat(a.skill or doc.skill, seats, f"{key}.skill", fail)
        for s in skills:
            if s not in SKILLS:
                fail(f"{key}.skill", f"not a skill ({', '.join(SKILLS)})", s)
        physics = {k: v for k, v in (a.physics.model_dump() if a.physics else {}).items()
                   if v is not None}  # fmt: skip
        arms.append(Arm(a.name, a.name, v, dict(a.rules), physics, players, skills,
                        games=int(doc.games)))  # fmt: skip
    return arms


def _priors(doc: StudyFile, fail) -> dict[str, tuple[float, float]]:
    """The priors' ``[low, high]`` ends by field."""
    priors: dict[str, tuple[float, float]] = {}
    if doc.priors is not None:
        for k, ends in doc.priors.model_dump().items():
            if ends is None:
                continue
            lo, hi = float(ends[0]), float(ends[1])
            if not lo < hi:
                fail(f"priors.{k}", "give [low, high] with low below high", ends)
            priors[k] = (lo, hi)
    return priors


def _copies(
    arms: list[Arm], strengths: tuple[str, ...], priors: dict[str, tuple[float, float]], games: int
) -> list[Arm]:
    """Every base arm at each strength (none where its seats all play it already:
    :meth:`Study.at`), then at the top strength at each prior's ends; ``games`` each."""
    out = []
    for s in strengths:
        for a in arms:
            seats = len(a.players)
            if a.players == (s,) * seats:
                continue  # the arm as written is this strength's (Study.at)
            out.append(dataclasses.replace(a, name=f"{a.name}@{s}", players=(s,) * seats,
                                           strength=s, games=games))  # fmt: skip
    top = strengths[-1] if strengths else None
    for k, (lo, hi) in priors.items():
        for end, value in (("low", lo), ("high", hi)):
            for a in arms:
                players = (top,) * len(a.players) if top else a.players
                tag = f"@{top}" if top else ""
                out.append(
                    dataclasses.replace(a, name=f"{a.name}{tag}~{k}-{end}", players=players,
                                        physics={**a.physics, k: value}, strength=top,
                                        prior=(k, end), games=games)
                )  # fmt: skip
    return out


def _config(game, variant: str, rules: dict, key: str, fail):
    """The game's rule configuration of ``variant`` with ``rules`` (fields by name, each of
    its default's type), checked by the configuration itself."""
    base = game.make_config(variant)
    known = {f.name: f for f in dataclasses.fields(base)}
    for name, value in rules.items():
        if name not in known:
            fail(f"{key}.{name}", f"not a rule of {game.name} ({', '.join(known)})", value)
        default = getattr(base, name)
        kind = type(default)
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = math.isfinite(value)
        if not ok:
            fail(f"{key}.{name}", f"must be {kind.__name__} (its default: {shown(default)})",
                 value)  # fmt: skip
    try:
        return game.make_config(variant, **rules)
    except (CarromlabError, TypeError, ValueError) as e:
        fail(key, str(e), rules)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a study document (step 2; ``docs/study.schema.json``)."""
    return schema_document(
        StudyFile.model_json_schema(ref_template="#/$defs/{model}"),
        "A TOML file; TOML maps onto JSON's data model. The game, its rules, players, skills "
        "and questions, and the size in all, are checked after this schema "
        "(docs/studies-guide.md).",
    )


def json_schema_text() -> str:
    """:func:`json_schema` as the text of ``docs/study.schema.json``."""
    return schema_text(json_schema())


if __name__ == "__main__":  # pragma: no cover
    write_schema(json_schema_text(), "docs/study.schema.json")


__all__ = [
    "MAX_ARMS",
    "MAX_GAMES",
    "MAX_STUDY_GAMES",
    "Arm",
    "Study",
    "StudyFile",
    "json_schema",
    "load_study",
    "parse_study",
]
