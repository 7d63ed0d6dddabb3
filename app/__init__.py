"""TaskPack Desk's application layer: the desk, the command line, the A2A endpoint, the
MCP server and the team desk, wired to the world around `taskpack.core`."""

#: the version `taskpack --version` prints: the distribution's own (pyproject.toml), kept
#: here so that printing it reads no package metadata (importlib.metadata scanning every
#: folder on the path was most of `--version`'s time); a test holds the two equal
__version__ = "0.1.0"
