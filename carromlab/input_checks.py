"""Checks of command input that need more than a number's bounds (those are
:mod:`carromlab.input_schema`): an output path against the file system, board points and
placements against the board they are played on, aims against the direction a line board
allows. Each refusal is one :class:`CarromlabError` line naming the option and its value;
warnings go to a ``warn`` callable the caller gives (stderr by default).

Nothing here imports the registry or JAX: a game (``shot_options``, ``family``,
``default_grid``) and a variant's analysis hooks (``origin``, ``legal_origin``,
``placement_intervals``, ``origin_of``, ``check_origin``, ``shooter_kind``) are taken as they
come, so a command checks everything before the kernel loads.
"""

from __future__ import annotations

import errno
import math
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from carromlab.errors import CarromlabError
from carromlab.input_schema import (
    FINITE,
    GRIDS,
    OPTION_QUANTITIES,
    parse_grid_spec,
    parse_pair,
    radians_warning,
    shorten,
)
from carromlab.position_schema import show

# ---------------------------------------------------------------------- output paths


def broken_link(path: Path) -> str | None:
    """Why ``path`` is a symbolic link that leads nowhere (a loop, or a target that does not
    exist), or None: such a path exists for ``os.lstat`` and for nothing else, so neither a
    folder nor a file can be made there."""
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except OSError as e:
        if e.errno == errno.ELOOP:
            return f"{path} is a symbolic link loop"
        return f"{path} is a dangling symbolic link (to {os.readlink(path)})"
    return None


def check_out_path(path: Path, kind: str = "folder", option: str = "--out") -> None:
    """Refuse an output path that cannot be written, before any work: one line naming the
    option and its value. ``kind``: "folder" (made with its parents when missing) or "file"
    (written into a folder that exists). A folder counts as writable when a file can be
    made in it (a probe, removed at once: root passes every permission check, not /proc).
    A symbolic link on the way that leads nowhere (a loop, a missing target) is refused,
    naming it. The empty path is refused where the option is read (``""`` is ``.`` once a
    :class:`~pathlib.Path`); :func:`check_out_text` checks the text."""
    shown = f"{option} {path}"
    path = Path(path)

    def writable(folder: Path, what: str) -> None:
        if os.access(folder, os.W_OK | os.X_OK):
            try:
                with tempfile.TemporaryFile(dir=folder):
                    return
            except OSError:
                pass
        raise CarromlabError(f"{shown}: {what} is not writable")

    try:
        for step in (path, *path.parents):
            why = broken_link(step)
            if why is not None:
                raise CarromlabError(f"{shown}: {why}")
        if kind == "folder":
            if path.exists():
                if not path.is_dir():
                    raise CarromlabError(f"{shown}: not a folder")
                writable(path, "the folder")
                return
            # the nearest folder that exists must take the new ones
            parent = next(p for p in path.absolute().parents if p.exists())
            if not parent.is_dir():
                raise CarromlabError(f"{shown}: {parent} is not a folder")
            writable(parent, f"its folder {parent}")
        elif kind == "file":
            if path.is_dir():
                raise CarromlabError(f"{shown}: a folder, not a file")
            folder = path.parent
            if not folder.exists():
                raise CarromlabError(f"{shown}: its folder {folder} does not exist")
            if not folder.is_dir():
                raise CarromlabError(f"{shown}: {folder} is not a folder")
            if path.exists() and not os.access(path, os.W_OK):
                raise CarromlabError(f"{shown}: the file is not writable")
            if not path.exists():
                writable(folder, f"its folder {folder}")
        else:
            raise ValueError(f"kind must be 'folder' or 'file', not {kind!r}")
    except OSError as e:  # a folder on the way that cannot be read
        raise CarromlabError(f"{shown}: {e.strerror or e}") from None


def check_out_text(text: str, option: str = "--out") -> Path:
    """An output path as written on the command line: the empty text is refused (a
    :class:`~pathlib.Path` would read it as the current folder and write there)."""
    if str(text) == "":
        raise CarromlabError(
            f"{option} {show(str(text))}: an empty path; name a folder or file "
            "(the current folder is .)"
        )
    return Path(text)


# ---------------------------------------------------------------------- board points


def board_words(board: Any, family: str) -> str:
    """The playing surface of ``board`` in words, for a message."""
    surface = board.layout.surface
    if surface.shape == "circle":
        return f"the {family} board, a circle of radius {surface.size:g} m"
    return f"the {family} board, x and y from -{surface.size:g} to {surface.size:g} m"


def on_board(board: Any, x: float, y: float) -> bool:
    surface = board.layout.surface
    if surface.shape == "circle":
        return math.hypot(x, y) <= surface.size
    return abs(x) <= surface.size and abs(y) <= surface.size


def check_points(game: Any, options: dict) -> None:
    """Refuse board points of the game's own options (``--striker X,Y``, ``--aim X,Y``,
    ``--aims GRID``) that lie off the board, in one short line with the board's size."""
    from carromlab.equipment import BOARDS

    board = None
    for o in game.shot_options:
        text = options.get(o.key)
        if OPTION_QUANTITIES.get(o.name) != ("length",) or not isinstance(text, str) or not text:
            continue
        board = board or BOARDS[game.family]()
        if o.name in GRIDS:  # one axis of values, used for x and for y
            spec = parse_grid_spec(text, o.name, FINITE)  # the board bounds them
            off: list = [v for v in spec.values if not on_board(board, v, 0.0)]
            shown = [f"{v:g}" for v in off]
            what = f"{len(off):,} of {len(spec.values):,} values lie"
        else:
            x, y = parse_pair(text, o.name, FINITE)
            off = [] if on_board(board, x, y) else [(x, y)]
            shown = [f"({x:g}, {y:g}) m"]
            what = "the point lies"
        if off:
            plain = not any(c.isalpha() for c in text.replace("e", "").replace("E", ""))
            cm = "; in centimetres write the unit: 12cm" if plain else ""
            raise CarromlabError(
                f"--{o.name} {show(text)}: {what} off {board_words(board, game.family)}: "
                f"{shorten(shown, 4)} (coordinates are metres from the centre{cm})"
            )


# ---------------------------------------------------------------------- placements and aims


def line_origin(va: Any) -> bool:
    """Whether a variant's shots start on a line (placement in metres: ICF, Carroms) rather
    than on a circle (degrees: Carrooka's break line, the crokinole side)."""
    return va.origin_of is None


def fixed_origin(va: Any, pos: Any) -> tuple[float, float] | None:
    """Where the shooter lies when it is played from there whatever the placement (a
    Carrooka striker on the board), else None."""
    xs, ys = va.origin(pos, [-1.0, 1.0])
    if xs[0] == xs[1] and ys[0] == ys[1]:
        return float(xs[0]), float(ys[0])
    return None


def to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def check_placements(
    what: str,
    text: str,
    values,
    kind: str | None,
    va: Any,
    pos: Any,
    game: Any,
    warn: Callable[[str], None] = to_stderr,
) -> None:
    """The placement(s) against the board, once its shot origins are known: the unit
    (metres on a line, degrees on a circle: a unit of the other kind is refused, and each
    refusal names the board's), off the board (refused with the board's size), none legal
    (refused with the legal intervals or the default grid). ``warn`` receives the warning
    lines, at once (before a refusal they explain): ignored placements (a Carrooka striker
    that lies on the board), or plain angles that look like radians."""
    variant = pos.variant
    where = f"--{what} {text}"
    line = line_origin(va)
    unit = "metres along the shooter's line" if line else "degrees on the shooter's circle"
    spot = fixed_origin(va, pos)
    if spot is not None:
        warn(
            f"warning: {where} is ignored: the {va.shooter_kind} lies at "
            f"({spot[0]:.3f}, {spot[1]:.3f}) m and is played from there"
        )
        return
    if kind is not None and kind != ("length" if line else "angle"):
        units = "m, cm or mm, or a plain number" if line else "deg or rad, or a plain number"
        raise CarromlabError(
            f"{where}: on the {variant} board a placement is in {unit}, not "
            f"{'an' if kind == 'angle' else 'a'} {kind}; "
            f"write {units}"
        )
    values = [float(v) for v in values]
    if line:
        half = pos.board.layout.surface.size
        off = [v for v in values if abs(v) > half]
        if off:
            cm = "; in centimetres write the unit: 12cm" if kind is None else ""
            lie = (
                f"{len(off):,} of {len(values):,} placements lie"
                if len(values) > 1
                else f"{off[0]:g} m lies"
            )
            listed = f": {shorten([f'{v:g}' for v in off], 4)}" if len(values) > 1 else ""
            raise CarromlabError(
                f"{where}: {lie} off the {variant} board (x from -{half:g} to {half:g} m; "
                f"placements are metres{cm}){listed}"
            )
    elif kind is None:
        warning = radians_warning(text, what, values)
        if warning:
            warn(warning)
    if len(values) == 1 and va.check_origin is not None:
        return  # the game's own check, at the shot, says why (ICF: law 130, in metres)
    xs, ys = va.origin(pos, values)
    legal = va.legal_origin(pos, xs, ys)
    if not legal.any():
        if line:
            spans = ", ".join(
                f"{lo:.4f} to {hi:.4f}" for lo, hi in va.placement_intervals(pos.board)
            )
            legal_words = f"legal: {spans} m"
        else:
            grid = game.default_grid[0] if game.default_grid else "-90"
            legal_words = f"the game's default: {grid}"
        raise CarromlabError(
            f"{where}: no legal {va.shooter_kind} placement in position "
            f"{pos.name!r} ({variant} placements are {unit}; {legal_words})"
        )


#: A forward aim from a line: strictly between these (degrees counter-clockwise from +x).
FORWARD = (0.0, 180.0)


def check_forward(what: str, text: str, values, va: Any, pos: Any) -> None:
    """On a line board (ICF, Carroms) refuse aims that do not point forward, away from the
    shooter's own baseline: the laws forbid striking a piece behind the baseline directly
    and carromlab's rules do not judge that foul (docs/decisions.md)."""
    if not line_origin(va):
        return
    back = [v for v in (float(v) for v in values) if not FORWARD[0] < v % 360 < FORWARD[1]]
    if back:
        if len(values) > 1:
            count = f"{len(back):,} of {len(values):,} aims do not point forward "
            count += f"({shorten([f'{v:g}' for v in back], 4)})"
        else:
            count = "the aim does not point forward"
        raise CarromlabError(
            f"--{what} {text}: {count}; on the {pos.variant} board an aim must lie strictly "
            "between 0 and 180 deg: a piece behind the baseline may not be struck directly, "
            "and the rules do not judge that foul (docs/decisions.md)"
        )


# ---------------------------------------------------------------------- a turn and its position

#: Turn fields that count one side's pieces off the board (pocketed, forced out of play): the
#: field and whose pieces it counts ("own": the shooter's; "opponent": the other side's).
OFF_BOARD_FIELDS = (
    ("own_down", "own"),
    ("opponent_down", "opponent"),
    ("opponent_out_of_play", "opponent"),
)


def _side_kind(game_set: Any, shooter: object) -> tuple[str, Any] | None:
    """The kind of piece a side plays with (its owners include ``shooter``, more than one a
    side: ICF's coins, Carroms' and Force Out's rings) and its rule; None where there is
    none."""
    for kind, rule in game_set.kinds.items():
        if shooter in rule.owners and rule.per_owner > 1:
            return kind, rule
    return None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def turn_problems(turn: Any, position: Any, opening: Callable[[], Any] | None = None) -> list[str]:
    """What makes ``turn`` (a game's turn state) impossible in ``position``, each one line
    naming the field and the numbers (docs/decisions.md, "A turn against its position"):

    - pieces off the board (``own_down``, ``opponent_down``, ``opponent_out_of_play``) plus
      those of the same side on the board more than the game's set holds for a side;
    - dues owed beyond a side's pieces, or owed while own pieces are down (a due is paid from
      them at once);
    - a queen awaiting her cover (``queen_pending``) while she is on the board, without an own
      coin down, or with dues owed;
    - a break (``is_break``) with anything down, or a position that is not the game's opening
      set-up: its pieces, each within the opening's area (``opening()``: the variant's
      standard opening; None: only the counts are checked).

    Only the fields the turn type has are checked; a game whose turn has none of them has
    nothing to check."""
    from carromlab.equipment import game_set

    gs = game_set(position.variant)
    name = type(turn).__name__
    shooter = getattr(turn, "shooter", None)
    problems: list[str] = []
    side = _side_kind(gs, shooter)
    counts = {f: int(getattr(turn, f)) for f, _ in OFF_BOARD_FIELDS if hasattr(turn, f)}
    if side is not None:
        kind, rule = side
        others = [o for o in rule.owners if o != shooter]
        owner = {"own": shooter, "opponent": others[0] if len(others) == 1 else None}
        for field, whose in OFF_BOARD_FIELDS:
            if field not in counts or owner[whose] is None:
                continue
            on = sum(1 for p in position.pieces if p.kind == kind and p.owner == owner[whose])
            if counts[field] + on > rule.per_owner:
                problems.append(
                    f"{name}.{field} is {counts[field]} with {_plural(on, kind)} of "
                    f"{owner[whose]} on the board: {counts[field] + on}, more than the "
                    f"{rule.per_owner} {kind}s a side has"
                )
        dues = int(getattr(turn, "dues", 0) or 0)
        if dues > rule.per_owner:
            problems.append(
                f"{name}.dues is {dues}: at most {rule.per_owner} (a due is one of the "
                f"shooter's {rule.per_owner} {kind}s, owed back to the board)"
            )
        if dues and counts.get("own_down", 0):
            problems.append(
                f"{name}.dues is {dues} with own_down {counts['own_down']}: a due is "
                "paid at once from the shooter's coins down, so dues are owed only with none down"
            )
    if getattr(turn, "queen_pending", False):
        queens = [p.id for p in position.pieces if p.kind == "queen"]
        if queens:
            problems.append(
                f"{name}.queen_pending is true but the queen ({queens[0]!r}) is on the "
                "board; a queen awaiting her cover has been pocketed: take her off, or set "
                "queen_pending false"
            )
        if "own_down" in counts and counts["own_down"] == 0:
            problems.append(
                f"{name}.queen_pending is true with own_down 0: the queen is pocketed "
                "legally only once an own coin is down"
            )
        if int(getattr(turn, "dues", 0) or 0):
            problems.append(
                f"{name}.queen_pending is true with dues owed: a queen pocketed while a "
                "due is outstanding comes back"
            )
    if getattr(turn, "is_break", False):
        problems += _break_problems(turn, position, name, counts, opening)
    return problems


def _break_problems(
    turn: Any, position: Any, name: str, counts: dict[str, int], opening: Callable[[], Any] | None
) -> list[str]:
    """A break is the board's first stroke: nothing down, and the game's opening set-up
    untouched (its pieces, each within the area the opening's pieces cover, a piece's
    diameter of slack for a set by hand)."""
    down = {f: v for f, v in counts.items() if v}
    if getattr(turn, "dues", 0):
        down["dues"] = int(turn.dues)
    if getattr(turn, "queen_pending", False):
        down["queen_pending"] = 1
    if down:
        said = ", ".join(f"{f} {v}" for f, v in down.items()).replace(
            "queen_pending 1", "the queen pending"
        )
        return [
            f"{name}.is_break is true with {said}: a break is the board's first stroke, with nothing down yet"
        ]
    first = None if opening is None else opening()
    if first is None:
        return []

    def tally(pieces: Any) -> dict[tuple[str, str | None], int]:
        out: dict[tuple[str, str | None], int] = {}
        for p in pieces:
            out[(p.kind, p.owner)] = out.get((p.kind, p.owner), 0) + 1
        return out

    if tally(position.pieces) != tally(first.pieces):
        return [
            f"{name}.is_break is true but the position holds {_plural(len(position.pieces), 'piece')}, "
            f"not the {len(first.pieces)} of {first.name or 'the opening'}: a break is played on "
            "the game's opening set-up"
        ]
    specs = first.board.piece_specs()
    cx = sum(p.x for p in first.pieces) / len(first.pieces)
    cy = sum(p.y for p in first.pieces) / len(first.pieces)
    reach = max(math.hypot(p.x - cx, p.y - cy) for p in first.pieces)
    reach += 2 * max(specs[p.kind].radius for p in first.pieces)
    away = [p for p in position.pieces if math.hypot(p.x - cx, p.y - cy) > reach]
    if away:
        p = away[0]
        return [
            f"{name}.is_break is true but {_plural(len(away), 'piece')} lie outside the "
            f"opening set-up ({p.id!r} {math.hypot(p.x - cx, p.y - cy) * 1000:.0f} mm from its "
            f"centre, at most {reach * 1000:.0f} mm): a break is played on the game's opening "
            "set-up, untouched"
        ]
    return []


def check_turn_position(turn: Any, position: Any, opening: Callable[[], Any] | None = None) -> None:
    """Refuse a turn that :func:`turn_problems` finds impossible in its position: one line
    (:class:`~carromlab.errors.PositionError`), the first problems joined."""
    if turn is None:
        return
    problems = turn_problems(turn, position, opening)
    if problems:
        from carromlab.errors import PositionError

        raise PositionError([f"turn: {problems[0]}", *problems[1:]])
