"""``python -m carromlab``: the command line."""

from carromlab.cli import main

main()
