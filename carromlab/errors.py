"""Exception types. Every user-facing error carries one line that says what is wrong and where."""


class CarromlabError(ValueError):
    """Base class of every error carromlab raises for bad input."""


class PositionError(CarromlabError):
    """A position is not legal: the message names the pieces and the numbers.

    ``problems`` holds every problem found (the message shows them all, joined by "; ").
    """

    def __init__(self, problems: list[str] | str):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))
