"""The help of ``--policy`` (``play``, ``decide``), written from the registry: each game's
players (:attr:`~carromlab.registry.Game.players`) with what each plays
(:meth:`~carromlab.registry.Game.player_note`) and the top of each game's strength ladder
(:attr:`~carromlab.registry.Game.strongest`), so that a game's players appear in the help
as it registers them. Read without JAX: the built-in games note every player."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from carromlab.registry import GAMES, STRONGEST, Game


def policy_lines(games: Iterable[Game]) -> list[str]:
    """One line per policy name: ``name (the games that have it): what it plays``, the
    games' notes joined where they differ (each followed by its games), in the order the
    games first name them; then what ``strongest`` stands for in each game."""
    games = list(games)
    notes: dict[str, dict[str, list[str]]] = {}  # policy -> note -> games
    for g in games:
        for policy in g.players:
            note = g.player_note(policy).rstrip(".")
            notes.setdefault(policy, {}).setdefault(note, []).append(g.name)
    lines = []
    for policy, by_note in notes.items():
        having = [n for names in by_note.values() for n in names]
        where = "every game" if len(having) == len(games) else ", ".join(having)
        if len(by_note) == 1:
            text = next(iter(by_note))
        else:
            text = "; ".join(f"{note} ({', '.join(names)})" for note, names in by_note.items())
        lines.append(f"{policy} ({where}): {text}" if text else f"{policy} ({where})")
    tops = ", ".join(f"{g.name} {g.policy_name(STRONGEST)}" for g in games if g.players)
    lines.append(f"{STRONGEST}: the top of the game's strength ladder ({tops})")
    return lines


def policy_help(intro: str, keep: Callable[[Game], bool] = lambda g: bool(g.players)) -> str:
    """``intro``, then :func:`policy_lines` of the registered games ``keep`` takes, as one
    paragraph (the lines joined with ``;``)."""
    return f"{intro} " + "; ".join(policy_lines(g for g in GAMES.values() if keep(g))) + "."


__all__ = ["policy_help", "policy_lines"]
