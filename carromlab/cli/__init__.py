"""The ``carromlab`` command line (being split into modules)."""

from carromlab.cli.app import *  # noqa: F403
from carromlab.cli.app import (  # noqa: F401
    _draw_to,
    _map_size_line,
    _value_names,
    app,
    check_out_path,
    equipment_markdown,
    main,
    run_shotmap,
)
