"""Run the command line in-process for tests: ``run(capsys, *args)`` -> (exit code, stdout,
stderr); ``no_work()``: every command's work made to fail if it starts."""

from contextlib import contextmanager

import pytest

from carromlab.cli import main


def run(capsys, *args):
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@contextmanager
def no_work():
    """Inside, what each command computes or writes once its input is accepted (a shot
    runner of the kernel: estimate, shotmap, best, demo; a play's log and games; a sweep; the
    benchmarks; a drawing; a learned screen's training) raises AssertionError ("work started: ...") if called: a command
    refused "before any work" calls none of it. (What a refusal checks, not how long it
    took.)"""
    import carromlab.bench.games as bench_games
    import carromlab.bench.runner as bench_runner
    import carromlab.cli.positions as positions
    import carromlab.cli.shots as shots
    import carromlab.play as play
    import carromlab.play.training as training
    import carromlab.sweeps as sweeps
    from carromlab.analysis.runner import ShotRunner

    work = [
        (ShotRunner, "__init__"),
        (ShotRunner, "run"),
        (play, "GameLog"),
        (play, "play_logged"),
        (sweeps, "run_sweep"),
        (bench_runner, "bench"),
        (bench_runner, "bench_with_peer"),
        (bench_runner, "bench_one_core"),
        (bench_games, "bench_boards"),
        (bench_games, "bench_carrooka_games"),
        (positions, "draw_to"),
        (shots, "draw_to"),
        (training, "train_screen"),
    ]

    def started(what: str):
        def refuse(*args, **kwargs):
            raise AssertionError(f"work started: {what}")

        return refuse

    with pytest.MonkeyPatch.context() as mp:
        for owner, name in work:
            mp.setattr(owner, name, started(f"{getattr(owner, '__name__', owner)}.{name}"))
        yield
