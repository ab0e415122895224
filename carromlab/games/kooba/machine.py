"""The KOOBA game-state machine (seed 003, "Official KOOBA Rules"): turns of three
shots, markers on the runs, the Lock, the KOOBA, the attack turn, the round that completes,
the tie breaker, and the Pro and Deuces mods.

Players are numbered in their order of play after the lag (player 0 = "player 1" of the
rules, in the North run; the others clockwise: East, South, West). A marker's place is a step
number: 0 Home, 1-5 the run's steps (outside in), 6 the Lock. Each shot is given to
:func:`apply_shot` as its tags (:class:`ShotTags`, computed from where the Aero landed by
games/kooba/geometry.py); the machine keeps the turn's pending moves and applies them after
the third shot.

The rules as applied:

- a shot that tags the Eye scores (Pro: only the Inner Eye); every score moves the marker one
  step on after the turn's three shots; from step 5 the next score moves it to the Lock, and
  a marker never passes the Lock;
- Pro: a shot that tags a Penalty Zone moves the marker back one step (not below Home);
- Deuces: a KOOBA tag counts as two scores (while the run is not locked);
- with a locked run, a KOOBA tag is what counts: the first player to make one wins, but the
  round completes and players still to shoot in it may tie; two or more such players play
  the tie breaker;
- the attack turn, once a game (``attack``): declared against an opponent whose run is not
  locked; every tag of that opponent's run, on any of the three shots, sends their marker
  back one step ("Run = send marker back one step for every tag"), a tag of their marker
  sends it Home; once a run or marker has been tagged the remaining shots also score as usual
  ("you can use the remaining shots to score"); a Penalty Zone tag on any shot of the attack
  ends it and cancels all its shots ("attack over, all attack shots negated"): the target's
  moves, a marker sent Home and the attacker's own scores of the turn;
- the tie breaker: the remaining players in the original order, three shots each a round at
  the KOOBA; if anyone tags it in a round, all others must too to stay in; the first to be
  the only one in a round to tag it wins; ringing the KOOBA in the tie breaker wins at once.

Decisions where the text is silent (each documented):

1. The moves of a turn are applied after its third shot (the text: "the marker is moved after
   the player has finished all three shots"); an attack's moves against the target too.
2. A Penalty Zone tag in an attack ends the turn at once (no more shots).
3. In a normal turn a shot can both score and tag a Penalty Zone (Pro): both count. In an
   attack a shot is one tag of the run however many of its steps it covers; after the first
   tag a shot can both tag the target's run and score (both count); the shot that makes the
   first tag does not score.
4. A game that reaches ``max_rounds`` rounds ends unfinished, without a winner.
5. Overlapping Aeros: a turn's three Aeros stay where they land until the turn ends; one that
   lands on another rests on top of it (the magnetic board holds it where the throw put it)
   and is judged by its own outline ("a tag is still counted if the top Aero visually
   overlaps the scoring area"); each shot is judged as it lands, so an Aero covered later
   keeps its tags. Its touching of markers and the KOOBA is judged by its outline too (an
   estimate: the markers and the KOOBA stand taller than an Aero lying on another). By this
   reading stacking changes no tag; it is recorded (``ShotTags.on_aeros``, the shot rows'
   ``on_aeros``) so a game shows where it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from carromlab.equipment.kooba import SEATS
from carromlab.errors import CarromlabError
from carromlab.games.kooba.rules import LOCK, ShotTags
from carromlab.rules.interfaces import StrokeOutcome, check_declared

SHOTS = 3


@dataclass(frozen=True)
class KoobaConfig:
    #: Players, 2 to 4 (the lag seats them).
    n_players: int = 2
    #: The Pro mod: 5 sticks, only the Inner Eye scores, the Penalty Zones send back.
    pro: bool = False
    #: The Deuces mod: a KOOBA tag counts two scores.
    deuces: bool = False
    #: The attack turn, once a game.
    attack: bool = True
    #: Rounds before the game ends unfinished, without a winner (decision 4).
    max_rounds: int = 100

    variant = "kooba"

    def __post_init__(self):
        if not 2 <= int(self.n_players) <= 4:
            raise CarromlabError(f"KOOBA is for 2-4 players, not {self.n_players}")

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS[: self.n_players]

    @property
    def n_seats(self) -> int:
        return self.n_players

    @property
    def sticks(self) -> int:
        return 5 if self.pro else 4


@dataclass(frozen=True)
class KoobaStroke:
    """One shot as the machine applied it: who threw and what the Aero tagged."""

    player: int
    tags: ShotTags


@dataclass(frozen=True)
class KoobaState:
    markers: tuple[int, ...]
    player: int = 0
    shot: int = 0  # shots taken in this turn
    round: int = 0
    pending: int = 0  # the turn's moves of the shooter's marker (scores minus penalties)
    attack: int | None = None  # the attacked player, in an attack turn
    attack_hit: bool = False  # a run or marker of the target has been tagged
    attack_moves: int | None = None  # pending moves of the target (None: sent Home)
    attack_home: bool = False
    attacks_used: tuple[bool, ...] = ()
    finishers: tuple[int, ...] = ()  # locked players who tagged the KOOBA this round
    tiebreak: tuple[int, ...] | None = None  # players still in the tie breaker
    tb_tagged: tuple[int, ...] = ()  # tie-breaker players who tagged it this round
    over: bool = False
    winner: int | None = None
    unfinished: bool = False
    history: tuple = field(default=(), repr=False)


def new_game(config: KoobaConfig | None = None) -> KoobaState:
    config = config or KoobaConfig()
    n = config.n_players
    return KoobaState(markers=(0,) * n, attacks_used=(False,) * n)


def lag_order(distances) -> list[int]:
    """The lag: players (by index in ``distances``, their Aero's distance to the KOOBA)
    ordered closest first - the closest is player 1 (North), the next player 2, and so on."""
    return sorted(range(len(distances)), key=lambda k: (distances[k], k))


def declare_attack(state: KoobaState, target: int, config: KoobaConfig) -> KoobaState:
    """Declare this turn an attack on ``target`` (before its first shot)."""
    me = state.player
    if not config.attack:
        raise CarromlabError("the attack turn is switched off")
    if state.tiebreak is not None or state.shot != 0 or state.attack is not None:
        raise CarromlabError("an attack is declared before the first shot of a normal turn")
    if state.attacks_used[me]:
        raise CarromlabError(f"player {me} has used their attack turn")
    if target == me or not 0 <= target < config.n_players:
        raise CarromlabError(f"player {me} cannot attack player {target}")
    if state.markers[target] == LOCK:
        raise CarromlabError(f"player {target}'s run is locked: it cannot be attacked")
    used = list(state.attacks_used)
    used[me] = True
    return replace(state, attack=target, attack_moves=0, attacks_used=tuple(used))


def apply_shot(state: KoobaState, tags: ShotTags, config: KoobaConfig | None = None) -> KoobaState:
    """Apply one shot of the player on turn."""
    config = config or KoobaConfig()
    if state.over:
        raise CarromlabError("the game is over")
    state = replace(state, history=(*state.history, KoobaStroke(state.player, tags)))
    if state.tiebreak is not None:
        return _tiebreak_shot(state, tags, config)
    me = state.player
    if state.attack is not None:
        if tags.penalty:  # decision 2: the attack is over, all its shots negated
            return _end_turn(replace(state, pending=0, attack_moves=0, attack_home=False), config)
        target = state.attack
        scoring = state.attack_hit  # the shots after the first tag score as well
        if target in tags.markers:
            state = replace(state, attack_home=True)
        elif target in tags.runs:
            state = replace(state, attack_moves=state.attack_moves - 1)
        hit = state.attack_hit or target in tags.runs or target in tags.markers
        state = replace(state, attack_hit=hit)
        if not scoring:
            return _next_shot(state, config)
    locked = state.markers[me] == LOCK
    if locked:
        if tags.kooba and me not in state.finishers:
            state = replace(state, finishers=(*state.finishers, me))
        return _next_shot(state, config)
    scores = int(tags.inner_eye if config.pro else tags.eye)
    if config.deuces and tags.kooba:
        scores = max(scores, 2)
    pending = state.pending + scores
    if config.pro and tags.penalty:
        pending -= 1
    return _next_shot(replace(state, pending=pending), config)


def _next_shot(state: KoobaState, config: KoobaConfig) -> KoobaState:
    if state.shot + 1 < SHOTS:
        return replace(state, shot=state.shot + 1)
    return _end_turn(state, config)


def _end_turn(state: KoobaState, config: KoobaConfig) -> KoobaState:
    markers = list(state.markers)
    me = state.player
    markers[me] = min(LOCK, max(0, markers[me] + state.pending))
    if state.attack is not None:
        t = state.attack
        markers[t] = 0 if state.attack_home else min(LOCK, max(0, markers[t] + state.attack_moves))
    state = replace(
        state,
        markers=tuple(markers),
        pending=0,
        shot=0,
        attack=None,
        attack_hit=False,
        attack_moves=None,
        attack_home=False,
    )
    nxt = me + 1
    if nxt < config.n_players:
        return replace(state, player=nxt)
    # the round is complete
    if len(state.finishers) == 1:
        return replace(state, over=True, winner=state.finishers[0])
    if len(state.finishers) > 1:
        return replace(state, tiebreak=tuple(state.finishers), player=state.finishers[0])
    if state.round + 1 >= config.max_rounds:
        return replace(state, over=True, unfinished=True)
    return replace(state, player=0, round=state.round + 1)


def _tiebreak_shot(state: KoobaState, tags: ShotTags, config: KoobaConfig) -> KoobaState:
    me = state.player
    if tags.ring:
        return replace(state, over=True, winner=me)
    if tags.kooba and me not in state.tb_tagged:
        state = replace(state, tb_tagged=(*state.tb_tagged, me))
    if state.shot + 1 < SHOTS:
        return replace(state, shot=state.shot + 1)
    players = state.tiebreak
    k = players.index(me)
    if k + 1 < len(players):
        return replace(state, shot=0, player=players[k + 1])
    tagged = state.tb_tagged
    if len(tagged) == 1:
        return replace(state, over=True, winner=tagged[0])
    remaining = tuple(p for p in players if p in tagged) if tagged else players
    if state.round + 1 >= config.max_rounds:
        return replace(state, over=True, unfinished=True)
    return replace(
        state, tiebreak=remaining, tb_tagged=(), shot=0, player=remaining[0], round=state.round + 1
    )


def apply(
    state: KoobaState, outcome: StrokeOutcome, config: KoobaConfig | None = None, rng=None
) -> KoobaState:
    """The game machine's one signature (:mod:`carromlab.rules.interfaces`): a throw's
    ``outcome.tags`` (:class:`ShotTags`, by exact geometry where the Aero landed)."""
    check_declared(outcome.declared, (), "KOOBA")
    return apply_shot(state, outcome.tags, config)
