"""TaskPack's core: the format, the trust rules and one desk, in pure Python.

A library a third party embeds: importing it changes nothing in the importing process
(no module stood in for another, no interpreter setting touched). Start-up measures
belong to the programs that own their process (`taskpack.app.cli.entry`).
"""

from typing import Any

# -- the public surface ---------------------------------------------------------------
# What an embedder may import from `taskpack.core`: these names, each from the module that
# defines it, and nothing else (every other module and name is the desk's own and may
# change without notice). They load when first asked for, so `import taskpack.core`
# stays cheap for the command line.
_PUBLIC: dict[str, str] = {
    # reading and writing packs (spec §2, §3)
    "open_pack": "taskpack.core.format.reading",
    "OpenedPack": "taskpack.core.format.reading",
    "write_pack": "taskpack.core.format.writing",
    "WriteResult": "taskpack.core.format.writing",
    "LuggageSource": "taskpack.core.format.luggage",
    "PackObject": "taskpack.core.format.model",
    "PassportState": "taskpack.core.format.model",
    "LocalPassport": "taskpack.core.format.model",
    "Fact": "taskpack.core.format.model",
    "Decision": "taskpack.core.format.model",
    "Ask": "taskpack.core.format.model",
    "LandingCheck": "taskpack.core.format.model",
    "Origin": "taskpack.core.format.model",
    "Lineage": "taskpack.core.format.model",
    # what may cross and what is proven (spec §4, §6)
    "make_pack": "taskpack.core.trust.pack_writer",
    "convert": "taskpack.core.trust.pack_writer",
    "judge": "taskpack.core.trust.conformance",
    "Report": "taskpack.core.trust.conformance",
    "Check": "taskpack.core.trust.conformance",
    "seal_facts": "taskpack.core.trust.sealing",
    "standing": "taskpack.core.trust.sealing",
    "Standing": "taskpack.core.trust.sealing",
    # one desk, embedded
    "Store": "taskpack.core.desk.store",
    "SqliteStore": "taskpack.core.desk.sqlite_store",
    # the one exception tree (core/errors.py draws it)
    "TaskPackError": "taskpack.core.errors",
    "UsageError": "taskpack.core.errors",
    "NotFound": "taskpack.core.errors",
    "VersionConflict": "taskpack.core.errors",
    "PackError": "taskpack.core.errors",
    "FormatError": "taskpack.core.errors",
    "UnsupportedVersion": "taskpack.core.errors",
    "UnsafeEntry": "taskpack.core.errors",
    "IntegrityError": "taskpack.core.errors",
    "LimitExceeded": "taskpack.core.errors",
    "NotConformant": "taskpack.core.errors",
    "Refused": "taskpack.core.errors",
    "LandingRefused": "taskpack.core.errors",
    "StoreError": "taskpack.core.errors",
    "Cancelled": "taskpack.core.errors",
    "Finding": "taskpack.core.errors",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    home = _PUBLIC.get(name)
    if home is None:
        raise AttributeError(f"module 'taskpack.core' has no public name {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
