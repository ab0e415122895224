"""``python -m carromlab``: the command line (:mod:`carromlab.entry`)."""

from carromlab.entry import main

if __name__ == "__main__":
    main()
