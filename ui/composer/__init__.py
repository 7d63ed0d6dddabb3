"""The sender's half of the window: compose a passport, attach files, send a handoff."""
