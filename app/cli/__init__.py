"""The `taskpack` command line (:mod:`taskpack.app.cli.main`), one module per group of
verbs. Importing this package imports nothing else, so `taskpack --help` stays fast."""
