"""Entry point of the frozen app: one program, two names.

``taskpack-desk [FILE…]`` opens the window (``--smoke-test`` checks the build);
``taskpack VERB …`` is the command line. On Linux and macOS ``taskpack`` is a symlink to
``taskpack-desk`` (one copy of the libraries, ~10 MB less); on Windows it is a second,
console-subsystem executable built from this same script. The name it was started
under decides which one runs, before anything heavy is imported.
"""

import os
import sys


def _started_as() -> str:
    return os.path.splitext(os.path.basename(sys.argv[0] or ""))[0].lower()


if __name__ == "__main__":
    if _started_as() == "taskpack":
        from taskpack.app.cli.entry import main
    else:
        from taskpack.app.gui_main import main
    sys.exit(main())
