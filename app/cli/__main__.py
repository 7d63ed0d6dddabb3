"""`python -m taskpack.app.cli` runs the command line."""

import sys

if __name__ == "__main__":
    from taskpack.app.cli.main import main

    sys.exit(main())
