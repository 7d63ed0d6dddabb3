"""Files the same way on every system the desk runs on: one module per concern, so that
no other module of the core asks which platform it runs on.

* :mod:`.replacing` — replace or move a file while another program briefly holds it
  (Windows refuses both while any handle is open: a virus scanner, the search indexer)
* :mod:`.locking`   — a lock on a whole file or on one byte of it, without ``fcntl``
  where there is none
* :mod:`.long_paths` — paths past Windows' 260 characters (MAX_PATH), in their
  extended form where the desk writes into a folder a person chose
* :mod:`.positional` — reading at an offset without moving a shared file position
  (``os.pread``; Windows has none, and the ZIP reader then reads through `zipfile`)

The application's own platform seams (console, folder observer) are in
``taskpack.app.platform``.
"""
