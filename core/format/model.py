"""The pack object (spec §3) and everything inside it, as pydantic v2 models.

Two promises shape this module:

* **Nothing is lost.** Fields we do not model are kept (``extra="allow"``) and every
  record remembers the order its keys arrived in, so ``Model.from_data(d).to_data()``
  returns ``d`` unchanged — same keys, same order, same values. Fields that were absent
  stay absent: a default is never written back unless code set it.
* **Wrong types are the file's fault.** Models are strict (no ``"yes"`` → ``True``
  coercion, which would silently rewrite the sender's bytes). `from_data` turns a
  validation failure into a one-line :class:`~taskpack.core.errors.FormatError`.

New records built in code (``Ask(id="a1", ...)``) write the fields that were given, in
the order declared here, which is the reference implementation's order.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self, cast

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from ..errors import FormatError
from .vocabulary import BAG_SPEC as BAG_SPEC
from .vocabulary import FLAT_VERSION as FLAT_VERSION
from .vocabulary import KNOWN_SPECS as KNOWN_SPECS
from .vocabulary import SCOPES as SCOPES
from .vocabulary import SPEC_ID as SPEC_ID

JSON = Any  # a value as json.loads returns it


class Record(BaseModel):
    """Base of every model: strict, keeps unknown fields, remembers key order."""

    model_config = ConfigDict(extra="allow", strict=True, validate_assignment=False)

    _order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_key_order(cls, data: Any, handler: Any) -> Any:
        # pydantic refuses a key holding a lone surrogate (valid JSON, e.g. a key a
        # JavaScript sender cut inside an emoji); no declared field has one, so such
        # keys are set aside and kept as unknown fields, in their place
        odd = (
            {k: v for k, v in data.items() if _has_lone_surrogate(k)}
            if isinstance(data, dict) and not _plain_keys(data)
            else {}
        )
        record = handler({k: v for k, v in data.items() if k not in odd} if odd else data)
        if isinstance(data, dict) and isinstance(record, Record):
            record._order = tuple(data)
            for key, value in odd.items():  # an unknown field, set as extra="allow" keeps it
                setattr(record, key, value)
        return record

    # Instance state is only ever written through pydantic's public API (validation,
    # `model_construct`, attribute assignment). It is read from the attributes pydantic
    # documents for it (`__pydantic_private__`, `__pydantic_extra__`): reading the private
    # attribute through `self._order` goes by pydantic's `__getattr__` hook after a failed
    # lookup, ~40× the cost, and every record written reads it.
    def _key_order(self) -> tuple[str, ...]:
        private = self.__pydantic_private__
        return private.get("_order", ()) if private else ()

    @classmethod
    def from_data(cls, data: JSON, *, where: str = "") -> Self:
        """Validate a JSON value; a wrong shape becomes one FormatError naming the field."""
        if not isinstance(data, dict):
            raise FormatError(
                f"{where or cls.__name__} must be a JSON object",
                place=where,
                code="not_json_object",
                params={"where": where or cls.__name__},
            )
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            path = ".".join(str(p) for p in err["loc"])
            place = f"{where}.{path}" if where and path else (where or path)
            raise FormatError(
                f"field {place or '(root)'}: {err['msg']}",
                place=place,
                code="bad_field",
                params={"field": place or "(root)"},
            ) from None

    def to_data(self) -> dict[str, JSON]:
        """The record as plain JSON values: original keys in original order, then new ones."""
        return self.to_data_with({})

    def to_data_with(self, instead: dict[str, JSON]) -> dict[str, JSON]:
        """`to_data`, with the fields named in `instead` (set fields only) written as the
        value given there, in their place."""
        declared = _json_names(type(self))  # JSON key -> field name (they differ for `from`)
        extra = self.__pydantic_extra__ or {}
        values = self.__dict__
        scalars = _SCALAR_TYPES
        out: dict[str, JSON] = {}
        for key in self._written_keys():
            if key in extra:
                value = extra[key]
            else:
                name = declared[key]
                if name in instead:
                    out[key] = instead[name]
                    continue
                value = values[name]
            # (a plain value written as it is, without a call: most of a record's fields)
            out[key] = value if type(value) in scalars else _plain(value)
        return out

    def _written_keys(self) -> tuple[str, ...]:
        """The keys `to_data` writes, in its order: the keys as they arrived, then fields
        set in code, then unknown ones set in code (each once)."""
        cls = type(self)
        declared = _json_names(cls)
        extra = self.__pydantic_extra__ or {}
        given = self.model_fields_set
        order = self._key_order()
        kept = tuple([k for k in order if k in extra or declared.get(k) in given])
        # Most records: the keys as they arrived, nothing set in code since. Then each
        # given name (a field, or an unknown key, never both) is one key kept, and no
        # other key can be due.
        if len(kept) == len(given) and (
            not extra or (given.issuperset(extra) and extra.keys().isdisjoint(cls.model_fields))
        ):
            return kept
        out: dict[str, None] = {}
        for key in order:
            if key in extra or declared.get(key) in given:
                out[key] = None
        for key, name in declared.items():
            if name in given:
                out.setdefault(key, None)
        for key in extra:
            out.setdefault(key, None)
        return tuple(out)

    def copy_record(self, *, sharing: tuple[str, ...] = ()) -> Self:
        """A deep, independent copy that still remembers the key order.

        The list fields named in `sharing` (e.g. ``("asks",)``) are copied shallowly: a new
        list holding the same records. That costs nothing per record, where a deep copy of
        100,000 asks is ~140 MB and a second; whoever then changes one of those records
        replaces it in its list with its own copy first (copy on write).

        The copy is the record written out and read back (`to_data`, then `from_data`),
        made without that round trip where it can be: a record holding only JSON values
        and records is copied field by field (its values were validated when it was made),
        which is what landing's copies cost most of (four per pack)."""
        shared = [n for n in sharing if n in self.model_fields_set and getattr(self, n) is not None]
        copy = self._clone(frozenset(shared))
        if copy is None:  # a value that is not plain JSON (e.g. `pages.AskPages`): round trip
            stubs: dict[str, JSON] = {
                n: [] if isinstance(getattr(self, n), list) else None for n in shared
            }
            copy = type(self).from_data(self.to_data_with(stubs))  # (shared: the same record)
        for name in shared:
            value = getattr(
                self, name
            )  # a read-only sequence (`pages.AskPages`) is shared as it is
            setattr(copy, name, list(value) if isinstance(value, list) else value)
        return copy

    def _clone(self, skip: frozenset[str]) -> Self | None:
        """What ``from_data(to_data())`` makes of this record, made directly (the fields in
        `skip` left at their defaults, for the caller to set); None when a value is not
        plain JSON or a record, which only the round trip converts.

        Made with pydantic's public API: `model_copy` (a shallow copy), then each value
        that is not a plain scalar set to its own deep copy. A field never set that holds
        something mutable (its default, maybe changed in place) cannot be reset that way
        without counting as set: such a record is built whole by `model_construct`."""
        cls = type(self)
        given = self.model_fields_set
        values = self.__dict__
        scalars = _SCALAR_TYPES
        changed: dict[str, Any] = {}  # the values the copy must not share
        for name, default in _defaults(cls):
            if name in given and name not in skip:
                value = values[name]
                if type(value) not in scalars:  # (a plain value is shared as it is)
                    value = _copied(value)
                    if value is _UNCOPYABLE:
                        return None
                    changed[name] = value
            elif default is _REQUIRED:  # (never unset in a validated record)
                return None
            elif name in skip:
                changed[name] = default() if callable(default) else default
            elif type(values[name]) not in scalars:  # unset, and mutable: build it whole
                return self._constructed(skip)
        extra = self.__pydantic_extra__
        if extra:
            if not extra.keys().isdisjoint(_names_and_keys(cls)):  # (only a round trip can
                return None  # tell a field's name from an unknown key of the same spelling)
            for key, value in extra.items():
                if type(value) not in scalars:
                    if key[:1] == "_" or hasattr(cls, key):  # (assigned, it would be a
                        return self._constructed(skip)  # private attribute or a property)
                    value = _copied(value)
                    if value is _UNCOPYABLE:
                        return None
                    changed[key] = value
        copy = self.model_copy()
        for name, value in changed.items():
            setattr(copy, name, value)
        # the order `from_data` remembers: the keys `to_data` writes, in its order
        copy._order = self._written_keys()
        return copy

    def _constructed(self, skip: frozenset[str]) -> Self | None:
        """`_clone` by `model_construct`: every field given its copy or its default."""
        cls = type(self)
        given = self.model_fields_set
        values = self.__dict__
        scalars = _SCALAR_TYPES
        fresh: dict[str, Any] = {}
        for name, default in _defaults(cls):
            if name in given and name not in skip:
                value = values[name]
                if type(value) not in scalars:
                    value = _copied(value)
                    if value is _UNCOPYABLE:
                        return None
                fresh[name] = value
            elif default is _REQUIRED:
                return None
            else:
                fresh[name] = default() if callable(default) else default
        extra = self.__pydantic_extra__
        if extra:
            if not extra.keys().isdisjoint(_names_and_keys(cls)):
                return None
            for key, value in extra.items():
                value = _copied(value)
                if value is _UNCOPYABLE:
                    return None
                fresh[key] = value
        fields_set = set(given) | (extra.keys() if extra else set())
        copy = cast(Self, cls.model_construct(fields_set, **fresh))
        copy._order = self._written_keys()
        return copy


_DEFAULTS: dict[type[Record], list[tuple[str, Any]]] = {}
_REQUIRED: Any = object()


def _defaults(cls: type[Record]) -> list[tuple[str, Any]]:
    """Each field of `cls` and its default: a value (None or a string here, shared
    safely), or the factory that makes a fresh one."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = [
            (name, _REQUIRED if info.is_required() else info.default_factory or info.default)
            for name, info in cls.model_fields.items()
        ]
    return found


#: `_copied`'s answer for a value only the JSON round trip converts
_UNCOPYABLE: Any = object()


def _copied(value: Any) -> Any:
    """A deep copy of a plain JSON value or record (as `_clone` takes one), else
    `_UNCOPYABLE`."""
    kind = type(value)
    scalars = _SCALAR_TYPES
    if kind in scalars:
        return value
    if kind is list:
        out = []
        for v in value:
            if type(v) not in scalars:
                v = _copied(v)
                if v is _UNCOPYABLE:
                    return _UNCOPYABLE
            out.append(v)
        return out
    if kind is dict:
        mapping = {}
        for k, v in value.items():
            if type(k) is not str:
                return _UNCOPYABLE
            if type(v) not in scalars:
                v = _copied(v)
                if v is _UNCOPYABLE:
                    return _UNCOPYABLE
            mapping[k] = v
        return mapping
    if isinstance(value, Record):
        copy = value._clone(frozenset())
        return _UNCOPYABLE if copy is None else copy
    return _UNCOPYABLE


_JSON_NAMES: dict[type[Record], dict[str, str]] = {}


def _json_names(cls: type[Record]) -> dict[str, str]:
    names = _JSON_NAMES.get(cls)
    if names is None:
        names = _JSON_NAMES[cls] = {(f.alias or k): k for k, f in cls.model_fields.items()}
    return names


_NAMES_AND_KEYS: dict[type[Record], frozenset[str]] = {}


def _names_and_keys(cls: type[Record]) -> frozenset[str]:
    """Every field's name and JSON key, and each private attribute's name: what an
    unknown key must not be spelled as to be handed to `model_construct` beside them."""
    found = _NAMES_AND_KEYS.get(cls)
    if found is None:
        found = _NAMES_AND_KEYS[cls] = frozenset(
            {*_json_names(cls), *cls.model_fields, *cls.__private_attributes__}
        )
    return found


_SURROGATE = re.compile("[\ud800-\udfff]")


def _plain_keys(data: dict[Any, Any]) -> bool:
    """Are all keys ASCII strings (so none holds a lone surrogate)? One C pass."""
    try:
        return "".join(data).isascii()
    except TypeError:  # a key that is not a string
        return False


def _has_lone_surrogate(key: object) -> bool:
    return isinstance(key, str) and not key.isascii() and _SURROGATE.search(key) is not None


_SCALARS = (str, int, float, bool, type(None))
#: the same, for a hashed lookup
_SCALAR_TYPES = frozenset(_SCALARS)


def _plain(value: Any) -> JSON:
    kind = type(value)
    scalars = _SCALAR_TYPES
    if kind in scalars:  # most values: nothing to convert (and no hasattr to fail)
        return value
    if kind is list:  # (the plain JSON containers first: no attribute looked up)
        return [v if type(v) in scalars else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in scalars else _plain(v) for k, v in value.items()}
    if isinstance(value, Record):
        return value.to_data()
    if hasattr(value, "to_data"):  # records kept compact (`pages.AskPages`): their plain list
        return value.to_data()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class Fact(Record):
    """A claim and what is proven about it (spec §4.2). No `scope` counts as machine."""

    claim: str | None = None
    scope: str | None = None
    verified: bool | None = None
    needs_reverify: bool | None = None
    verified_on: str | None = None
    source: str | None = None
    verified_by: str | None = None
    #: org facts: who vouched for it, stamped by the writer (JSON: a pack's value as sent)
    source_actor: JSON = None
    #: a fact recorded by "I checked this here": the landing check it records
    landing_check: JSON = None

    @property
    def effective_scope(self) -> str:
        """`universal` and `org` as written; anything else (missing, unknown) is machine."""
        return self.scope if self.scope in ("universal", "org") else "machine"


class Decision(Record):
    what: str | None = None
    why: str | None = None


class Ask(Record):
    """A question the sender needs answered (spec §4.3). `accept` is load-bearing."""

    id: str | None = None
    to: str | None = None
    what: str | None = None
    why: str | None = None
    accept: str | None = None
    status: str | None = None
    answer: JSON = None
    answered_by: str | None = None
    answered_at: str | None = None


class LandingCheck(Record):
    """Something the receiver must confirm on its own machine (spec §4.4).

    `how` is the sender's suggestion: data, shown quoted, never executed.
    """

    id: str | None = None
    check: str | None = None
    how: str | None = None
    required: bool | None = None
    #: marked done on this desk by `Desk.check_landing_here` (JSON: a pack's value as sent)
    checked_on: JSON = None
    checked_by: JSON = None
    checked_at: JSON = None

    @property
    def is_required(self) -> bool:
        return self.required is not False


class Origin(Record):
    actor: str | None = None
    machine: str | None = None
    harness: str | None = None


class Lineage(Record):
    """Every passport the task has passed through (spec §3). Last chain entry = sender."""

    root_id: str | None = None
    from_version: int | None = None
    chain: list[str] | None = None

    def receipt_target(self) -> str | None:
        """The passport a receipt answers (§4.4.1 rule 1): the entry before the last."""
        chain = self.chain or []
        if len(chain) >= 2:
            return chain[-2].rsplit("@", 1)[0]
        return self.root_id


class PassportState(Record):
    """The task's state: goal, current state, facts, decisions, artifacts, next steps."""

    id: str | None = None
    title: str | None = None
    goal: str | None = None
    version: int | None = None
    machine_id: str | None = None
    harness: str | None = None
    scope: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    current_state: str | None = None
    facts: list[Fact] | None = None
    decisions: list[Decision] | None = None
    actions: list[JSON] | None = None
    artifacts: list[JSON] | None = None
    verification: JSON = None
    next_steps: list[JSON] | None = None
    learnings: list[JSON] | None = None


class PackObject(Record):
    """The pack object: `data/passport.json`, or `passport` in the flat form (spec §3)."""

    spec: str | None = None
    kind: str | None = None
    packed_at: str | None = None
    origin: Origin | None = None
    lineage: Lineage | None = None
    note: str | None = None
    passport: PassportState | None = None
    asks: list[Ask] | None = None
    landing_checks: list[LandingCheck] | None = None

    KEY_ORDER: ClassVar[tuple[str, ...]] = (
        "spec",
        "kind",
        "packed_at",
        "origin",
        "lineage",
        "note",
        "passport",
        "asks",
        "landing_checks",
    )

    @property
    def facts(self) -> list[Fact]:
        return (self.passport.facts or []) if self.passport else []


class Received(Record):
    """How a landed passport got here: the handoff it was landed from, as this desk saw it.

    Written once, by landing; everything in it is the sender's data or our record of it
    (`imperatives` were reported, never followed)."""

    model_config = ConfigDict(populate_by_name=True)

    kind: str | None = None
    origin: Origin | None = None
    note: str | None = None
    packed_at: str | None = None
    #: the sender's lineage entry (``TP-…@version``): where a receipt goes home to
    sender_entry: str | None = Field(default=None, alias="from")
    pack_sha256: str | None = None
    encoding: str | None = None
    written_here: bool | None = None
    #: ids of the asks that came with the handoff (they go back in the receipt)
    asks: list[str | None] | None = None
    sealed: list[str] | None = None
    imperatives: list[dict[str, JSON]] | None = None
    notes: list[str] | None = None
    repairs: list[str] | None = None
    landed_at: str | None = None


class LocalPassport(Record):
    """A passport as this desk keeps it (one row of the store, one version of it).

    `passport` is the spec's task state (what travels); the rest is what the spec says
    the passport that stays home must remember: the asks it sent or received (§4.3),
    the landing checks it came with (§4.4), its lineage (§3.1 — kept, never prose), and
    our local lifecycle (seeds/task-states.md).
    """

    passport: PassportState
    asks: list[Ask] | None = None
    landing_checks: list[LandingCheck] | None = None
    lineage: Lineage | None = None
    state: str = "working"
    waiting_on: str | None = None
    #: how it got here (the handoff it was landed from), or None if it was made here
    received: Received | None = None
    #: landing checks written here, for the receiver of the next pack (spec §4.4)
    checks_to_send: list[LandingCheck] | None = None
    #: a returned result (seeds/task-states.md): summary, evidence[], provenance, ...
    result: JSON = None

    @property
    def id(self) -> str:
        return self.passport.id or ""

    @property
    def version(self) -> int:
        return self.passport.version or 0
