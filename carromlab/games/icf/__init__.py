"""Standard carrom under the ICF laws, singles and doubles: ``rules.py`` (one stroke's
coins, queen, dues, fouls, points), ``striker.py`` (law 130: where the striker may be placed),
``machine.py`` (the game-state machine), ``driver.py`` (whole games on the game loop),
``setups.py`` / ``midgame.py`` (the rule-41 rosette and the mid-game position). Players: the
shared pocketing players (:mod:`carromlab.analysis.policies`) and the depth-2 lookahead with
the laws' leave (``players.py``)."""

from __future__ import annotations

from carromlab.registry import Game, breaking, folder_parts, part, ref, register_game, shared_notes
from carromlab.rules.declaration import Option

VARIANTS = ("icf", "icf-doubles")

GAME = register_game(
    Game(
        **folder_parts(
            __name__,
            "Icf",
            "icf",
            variants=VARIANTS,
            positions={
                "icf-midgame": part("carromlab.games.icf.midgame:midgame_position"),
                "icf-queen-shot": part(
                    "carromlab.games.icf.midgame:queen_shot_position"
                ),  # with its turn: white, 6 own coins down, 4 of black's
            },
            # the mid-game position is a singles game's; doubles analyses its opening (the
            # break)
            default_position={"icf": "icf-midgame"},
            config="parts:config",
        ),
        title="Carrom (ICF laws)",
        order=0,
        options=(
            Option(
                "boards",
                8,
                "At most this many boards a game (laws: 8).",
                "max_boards",
                minimum=1,
            ),
        ),
        players={
            "greedy": part("carromlab.analysis.policies:Greedy", takes_variant=False),
            "greedy-break": breaking("carromlab.analysis.policies:Greedy"),
            # greedy racing twice the candidates, with the searched break (+111 Elo against
            # greedy)
            "greedy-race": breaking(
                "carromlab.analysis.policies:Greedy",
                budget=ref("carromlab.analysis.policies:RACING"),
            ),
            # the search-based player: best's search at 16,384 kernel shots a decision
            "search": breaking("carromlab.analysis.policies:MapGreedy"),
            # the learned screen (games/icf/screen.npz) in front of a kernel race of its top
            # picks
            "learned": part(
                "carromlab.analysis.learned:learned_greedy", takes_variant=False, screen="icf"
            ),
            # the search with the lookahead on its finalists, at every stroke or when no pot
            # is worth it (safety play, parts.SAFETY_BELOW): docs/decisions.md
            "search-lookahead": part("carromlab.games.icf.parts:search_looking"),
            "search-safety": part(
                "carromlab.games.icf.parts:search_looking",
                safety_below=ref("carromlab.games.icf.parts:SAFETY_BELOW"),
            ),
            # the lookahead with the searched break (games/icf/breaks.json), and on the
            # racing search
            "lookahead": part("carromlab.games.icf.parts:lookahead"),
            "lookahead-race": part("carromlab.games.icf.parts:lookahead_race"),
            "random": part(
                "carromlab.analysis.policies:RandomLegal", takes_variant=False, takes_skill=False
            ),
        },
        player_notes={
            **shared_notes("greedy", "greedy-break", "learned", "random"),
            "greedy-race": "greedy racing twice the candidates, with the searched break",
            "search": "greedy's candidates and the shot map's cells on the map search, with the searched break",
            "search-lookahead": "the search with the depth-2 lookahead on its finalists at every stroke",
            "search-safety": "the search with the lookahead when no pot is worth it (safety play)",
            "lookahead": "the depth-2 lookahead (the opponent's reply valued), with the searched break",
            "lookahead-race": "the lookahead on the racing search",
        },
        player_for_rules=part("carromlab.games.icf.parts:player_for_rules"),
        # the top of the strength ladder: the search-based player, 0.678 [0.631, 0.722] of 401
        # boards against greedy-race, +241 Elo against greedy (docs/studies.md)
        strongest="search",
        default_grid=("-0.18:0.18:13", "30:150:61", "2.0"),
        points_notes=dict.fromkeys(
            VARIANTS, "own coin +1, opponent's coin −1, queen covered +3, striker pocketed −1"
        ),
        bench_scenarios={
            "break": part("carromlab.games.icf.parts:bench", "break"),
            "cut": part("carromlab.games.icf.parts:bench", "cut"),
        },
    )
)
