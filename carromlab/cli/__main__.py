"""``python -m carromlab.cli``: as ``python -m carromlab`` (carromlab/entry.py), Ctrl-C handled
once this package is imported."""

from carromlab import interrupt
from carromlab.cli import main

if __name__ == "__main__":
    interrupt.run(lambda: main)
