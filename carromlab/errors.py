"""Exception types. Every user-facing error carries one line that says what is wrong and where."""


class CarromlabError(ValueError):
    """Base class of every error carromlab raises for bad input."""


class PositionError(CarromlabError):
    """A position is not legal: the message names the pieces and the numbers.

    ``problems`` holds every problem found; the message shows the first ``SHOWN``, joined by
    "; ", and counts the rest, so that it stays one readable line.
    """

    SHOWN = 3

    def __init__(self, problems: list[str] | str):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        more = len(self.problems) - self.SHOWN
        tail = [f"and {more} more problem{'s' * (more > 1)}"] if more > 0 else []
        super().__init__("; ".join(self.problems[: self.SHOWN] + tail))
