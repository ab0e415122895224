"""Equipment: boards and pieces for every game, in SI units, each constant with its source.

One frozen dataclass per board family (``IcfBoard``, ``CheckerBoard``, ``CrokinoleBoard``,
``CarrookaBoard``, ``KoobaBoard``). Each exports ``layout`` (the physics primitives: surface
edge, cushions, rails, posts, captures), ``zones`` (named regions and lines for rules and
drawing) and ``piece_specs()``; ``provenance()`` lists every constant with its tag and source.
"""

from carromlab.equipment.base import SIDES, Board
from carromlab.equipment.carrooka import COLOUR_VALUES, COLOURS, CarrookaBoard
from carromlab.equipment.company import CheckerBoard, CrokinoleBoard
from carromlab.equipment.geometry import (
    Capture,
    CircleRail,
    CircleZone,
    Layout,
    LineZone,
    PieceSpec,
    PolygonZone,
    Post,
    Segment,
    SurfaceEdge,
)
from carromlab.equipment.icf import IcfBoard
from carromlab.equipment.kooba import SEATS, KoobaBoard
from carromlab.equipment.sets import BOARDS, GAME_SETS, GameSet, KindRule, game_set

__all__ = [
    "BOARDS",
    "COLOURS",
    "COLOUR_VALUES",
    "GAME_SETS",
    "SEATS",
    "SIDES",
    "Board",
    "Capture",
    "CarrookaBoard",
    "CheckerBoard",
    "CircleRail",
    "CircleZone",
    "CrokinoleBoard",
    "GameSet",
    "IcfBoard",
    "KindRule",
    "KoobaBoard",
    "Layout",
    "LineZone",
    "PieceSpec",
    "PolygonZone",
    "Post",
    "Segment",
    "SurfaceEdge",
    "game_set",
]
