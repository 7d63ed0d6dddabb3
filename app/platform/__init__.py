"""Where the desk meets the operating system: one module per concern, so that no other
module asks which platform it runs on.

* :mod:`.console`  — the standard streams in UTF-8, whatever the console or code page
* :mod:`.observer` — watchdog's observer for this platform, and whether one runs at all

The file-level concerns that the core needs too (replacing a file another process holds
open, locking a file) live in :mod:`taskpack.core.portable`.
"""
