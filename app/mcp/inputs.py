"""The arguments the tools share, with their descriptions (what the input schemas say)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field
from taskpack.core.errors import UsageError
from taskpack.core.format import ids

PassportId = Annotated[
    str, Field(description="a passport id, e.g. TP-ABCD-EFGH (see taskpack_list)")
]
ExpectedVersion = Annotated[
    int | None,
    Field(
        description="fail instead of writing if the passport is no longer at this version "
        "(the `version` taskpack_open returned)"
    ),
]
PackPath = Annotated[str, Field(description="a .taskpack or .taskpack.json file")]


class FactIn(BaseModel):
    claim: str = Field(description="what is true")
    scope: Literal["universal", "org", "machine"] = Field(
        "machine",
        description="machine: true on this machine only (sealed when packed); "
        "org/universal: anyone could check it without this machine",
    )
    verified: bool = Field(False, description="you checked it yourself, here and now")
    source: str | None = Field(None, description="where the claim comes from")


class DecisionIn(BaseModel):
    what: str
    why: str


def parse_pid(text: str) -> str:
    return ids.parse_id(text)


def parse_path(text: str) -> Path:
    if not text or not text.strip():
        raise UsageError("a file path is needed")
    return Path(text).expanduser()


#: the names a pack file may have (what `taskpack_pack` writes to)
PACK_SUFFIXES = (".taskpack", ".taskpack.json")


def pack_target(text: str, encoding: str | None) -> Path:
    """Where `taskpack_pack` may write: a new `*.taskpack` or `*.taskpack.json` file in a
    folder that exists (none is created), agreeing with `encoding` when one is given."""
    path = parse_path(text)
    if not path.name.lower().endswith(PACK_SUFFIXES):
        raise UsageError(
            f"{path.name} is not a pack file name; nothing was written",
            hint="Name it *.taskpack for bagit-zip or *.taskpack.json for flat.",
        )
    by_name = "flat" if path.name.lower().endswith(".json") else "bagit-zip"
    if encoding is not None and by_name != encoding:
        raise UsageError(
            f"{path.name} names a {by_name} file but encoding is {encoding}",
            hint="Name it *.taskpack for bagit-zip or *.taskpack.json for flat.",
        )
    if not path.parent.is_dir():
        raise UsageError(
            f"the folder {path.parent} does not exist; nothing was written",
            hint="Write the pack into a folder that exists (none is created here).",
        )
    if path.exists():
        raise UsageError(
            f"{path} already exists; nothing was written",
            hint="Choose another file name (packs are never overwritten here).",
        )
    return path
