"""Run the command line in-process for tests: ``run(capsys, *args)`` -> (exit code, stdout,
stderr)."""

from carromlab.cli import main


def run(capsys, *args):
    try:
        main(list(args))
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err
