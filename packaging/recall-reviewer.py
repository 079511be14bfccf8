"""The bundled executable's entry point: the same command line as `recall-reviewer` from pip
(no command opens the window; `--db FILE metrics --json` and the rest run headless)."""

import sys

from desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
