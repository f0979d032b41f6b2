"""The ``crawlsift`` command of the wheel: the CLI's own entry point
(``crawlsift_cli::run``), compiled into the extension module."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    from ._crawlsift import run_cli

    # Ctrl-C ends the command at once, as it ends the binary: Python's own
    # handler would only set a flag that no Python code checks while the
    # CLI runs. (SIGPIPE is ignored by both, so a closed pipe is an error
    # the CLI handles.)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(run_cli(sys.argv))
