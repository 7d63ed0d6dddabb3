"""The names TaskPack 0.1 gives its versions, kinds and scopes — plain constants.

Kept apart from `model` (pydantic, ~0.15 s to import) so that what only needs a name
(the argument parser, the bag reader, the judge) starts without building any model.
`model` re-exports every name here.
"""

from __future__ import annotations

BAG_SPEC = "task-passport-bag/0.1"  # what the reference writes in `spec`
SPEC_ID = "taskpack/0.1"  # the spec's own id, accepted as `spec` and `Bag-Spec`
KNOWN_SPECS = frozenset({BAG_SPEC, SPEC_ID})
FLAT_VERSION = "0.1"  # the `taskpack` value of the flat form
SCOPES = ("universal", "org", "machine")
#: the file names a pack goes by: bag, flat, and the retired .tpx (read, never written)
PACK_SUFFIXES = (".taskpack", ".taskpack.json", ".tpx")
