"""A passport as an A2A Task: the state table, the extension metadata, the artifacts.

The spec's §5 table, as this binding applies it:

=====================  ========================================================
A2A                    TaskPack
=====================  ========================================================
``Task.id``            the local passport id (the receiver mints it, §3.1)
``Task.contextId``     one context per principal and lineage root; the chain
                       itself travels as ``metadata[EXT].lineage.chain``
``metadata[EXT]``      ``lineage.root_id`` (the original task), ``lineage.chain``
                       (the history of hops, the last one this passport at its
                       current version), asks, landing checks, the desk state
``Artifact``           the luggage (``data/files/*``), ``passport.artifacts``,
                       and the receipt (a ``.taskpack`` file part) once it exists
``Message``            nothing: transcripts do not travel, ``history`` is empty
=====================  ========================================================

The lineage in the metadata is exactly the lineage the next pack made from this
passport will carry (``export.extended_lineage``): packing a passport that came in
over A2A is this mapping in reverse, and the receipt's ``chain[-2]`` names the asker.

`STATE_TABLE` maps the desk's ten lifecycle states to A2A task states; on top of it,
a task with an open ask is ``TASK_STATE_INPUT_REQUIRED`` (unless it has ended).
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf import struct_pb2
from taskpack.app.a2a import EXTENSION_URI, MEDIA_BAG, MEDIA_FLAT
from taskpack.core.desk import lifecycle
from taskpack.core.desk.export import extended_lineage
from taskpack.core.desk.store import StoredLuggage
from taskpack.core.format.model import JSON, LocalPassport
from taskpack.core.trust.visible_text import visible

TS = pb.TaskState

#: a UTF-16 surrogate on its own: valid in JSON ("\\ud800"), stored exactly by the desk,
#: but protobuf strings are UTF-8 and cannot hold one (setting it raises)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def wire(value: Any) -> Any:
    """`value` as a protobuf message can carry it: each lone surrogate in a string (and in
    a key) written as its escape, ``\\ud800``, visible to whoever reads it; the rest unchanged.
    Every string a pack chose passes here on its way into a Task."""
    if isinstance(value, str):
        if value.isascii() or not _LONE_SURROGATE.search(value):
            return value
        return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", value)
    if isinstance(value, dict):
        return {wire(k): wire(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [wire(v) for v in value]
    return value


@dataclass(frozen=True)
class StateRow:
    state: str
    waiting_on: str | None
    a2a: int
    says: str  # the status message's sentence for this state


#: the desk's lifecycle (seeds/task-states.md) → A2A TaskState. Documented in docs/a2a.md.
STATE_TABLE: tuple[StateRow, ...] = (
    StateRow(
        "requested",
        None,
        TS.TASK_STATE_SUBMITTED,
        "landed; the desk's permission gate has not decided yet",
    ),
    StateRow(
        "routed",
        None,
        TS.TASK_STATE_SUBMITTED,
        "the gate let it through; nobody has taken it on yet",
    ),
    StateRow(
        "waiting", "owner_approval", TS.TASK_STATE_SUBMITTED, "held for the desk owner's approval"
    ),
    StateRow("accepted", None, TS.TASK_STATE_WORKING, "taken on"),
    StateRow("working", None, TS.TASK_STATE_WORKING, "being worked on"),
    StateRow("waiting", "human", TS.TASK_STATE_INPUT_REQUIRED, "paused for a person's answer"),
    StateRow("waiting", "agent", TS.TASK_STATE_INPUT_REQUIRED, "paused for another agent's answer"),
    StateRow(
        "verifying",
        None,
        TS.TASK_STATE_WORKING,
        "a result came back; its evidence is being checked",
    ),
    StateRow("approval", None, TS.TASK_STATE_WORKING, "verified work waits for sign-off"),
    StateRow("completed", None, TS.TASK_STATE_COMPLETED, "done"),
    StateRow("rejected", None, TS.TASK_STATE_REJECTED, "refused"),
    StateRow("cancelled", None, TS.TASK_STATE_CANCELED, "withdrawn before it finished"),
)

TERMINAL_A2A = frozenset(
    {TS.TASK_STATE_COMPLETED, TS.TASK_STATE_FAILED, TS.TASK_STATE_CANCELED, TS.TASK_STATE_REJECTED}
)
INTERRUPTED_A2A = frozenset({TS.TASK_STATE_INPUT_REQUIRED, TS.TASK_STATE_AUTH_REQUIRED})


def state_row(state: str, waiting_on: str | None) -> StateRow:
    for row in STATE_TABLE:
        if row.state == state and (row.waiting_on is None or row.waiting_on == waiting_on):
            return row
    return StateRow(state, waiting_on, TS.TASK_STATE_WORKING, state)  # pragma: no cover


def a2a_state(state: str, waiting_on: str | None, open_asks: int) -> int:
    """The A2A state of a desk task: the table, then "an open ask needs input"."""
    if state in lifecycle.TERMINAL:
        return state_row(state, waiting_on).a2a
    if open_asks > 0:
        return TS.TASK_STATE_INPUT_REQUIRED
    return state_row(state, waiting_on).a2a


def settled(value: int) -> bool:
    """A blocking send returns once the task is terminal or interrupted (needs input)."""
    return value in TERMINAL_A2A or value in INTERRUPTED_A2A


def open_asks(lp: LocalPassport) -> list[Any]:
    return [a for a in lp.asks or [] if (a.status or "open") == "open"]


# --- the Task ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptInfo:
    """The receipt published for a task (or why it could not be packed)."""

    version: int | None
    content_digest: str | None
    size: int | None
    filename: str | None
    error: str | None = None


def extension_metadata(
    lp: LocalPassport, kind: str, receipt: ReceiptInfo | None
) -> dict[str, JSON]:
    """What the TaskPack extension adds to a Task: the §5 mapping and the three things A2A
    has no place for (asks with `accept`, landing checks, the desk's own state)."""
    lineage = extended_lineage(lp)
    out: dict[str, JSON] = {
        "passport_id": lp.id,
        "version": lp.version,
        "kind": kind,
        "state": lp.state,
        "waiting_on": lp.waiting_on,
        "lineage": {
            "root_id": lineage.root_id,
            "from_version": lineage.from_version,
            "chain": list(lineage.chain or []),
        },
        "title": lp.passport.title,
        "asks": [a.to_data() for a in lp.asks or []],
        "landing_checks": [c.to_data() for c in lp.landing_checks or []],
    }
    if receipt is not None:
        out["receipt"] = {
            "version": receipt.version,
            "content_digest": receipt.content_digest,
            "bytes": receipt.size,
            "error": receipt.error,
        }
    return wire(out)  # type: ignore[no-any-return]


def _quoted(value: Any, longest: int) -> str:
    """A sender's words inside the desk's sentence: made visible on one line, cut short,
    between curly quotes that nothing inside can close (its own become straight ones)."""
    said = visible(str(value))
    if len(said) > longest:
        said = said[:longest] + "…"
    return "\u201c" + said.replace("\u201c", '"').replace("\u201d", '"') + "\u201d"


def status_text(lp: LocalPassport, value: int, receipt: ReceiptInfo | None) -> str:
    """One paragraph a generic A2A client can show, in words: what became of the task and
    what it waits for. The ids (the task's, the asks') stay in the Task's fields and the
    extension's metadata; what the sender wrote (the title, each question and what would
    count as its answer) is quoted, one line each, cut short."""
    row = state_row(lp.state, lp.waiting_on)
    title = lp.passport.title
    text = f"Task {_quoted(title, 80)}: {row.says}." if title else f"This task: {row.says}."
    asks = open_asks(lp)
    if asks and lp.state not in lifecycle.TERMINAL:
        listed = "; ".join(
            f"{n}. {_quoted(a.what or '', 200)}"
            + (f" (answer with {_quoted(a.accept, 80)})" if a.accept else "")
            for n, a in enumerate(asks[:5], 1)
        )
        more = f" (and {len(asks) - 5} more, in the task's metadata)" if len(asks) > 5 else ""
        text += f" It waits for {len(asks)} answer(s): {listed}{more}."
    if receipt is not None:
        if receipt.error:
            text += f" The receipt could not be packed: {visible(receipt.error)[:400]}"
        else:
            text += f" A receipt (version {receipt.version}) is attached as the artifact 'receipt'."
    return wire(text)  # type: ignore[no-any-return]


def build_task(
    lp: LocalPassport,
    *,
    context_id: str,
    kind: str,
    artifacts: Sequence[pb.Artifact] = (),
    receipt: ReceiptInfo | None = None,
    with_extension: bool = True,
) -> pb.Task:
    value = a2a_state(lp.state, lp.waiting_on, len(open_asks(lp)))
    task = pb.Task(id=lp.id, context_id=context_id)
    task.status.state = value  # type: ignore[assignment]
    if lp.passport.updated_at:
        task.status.timestamp.FromJsonString(lp.passport.updated_at)
    message = task.status.message
    message.message_id = f"{lp.id}@{lp.version}"
    message.role = pb.Role.ROLE_AGENT
    message.task_id = lp.id
    message.context_id = context_id
    message.parts.add().text = status_text(lp, value, receipt)
    task.artifacts.extend(artifacts)
    if with_extension:
        task.metadata.update({EXTENSION_URI: extension_metadata(lp, kind, receipt)})
        message.extensions.append(EXTENSION_URI)
    return task


# --- artifacts --------------------------------------------------------------------------


def media_type_for(name: str) -> str:
    lower = name.lower()
    if lower.endswith(".taskpack"):
        return MEDIA_BAG
    if lower.endswith(".taskpack.json"):
        return MEDIA_FLAT
    return mimetypes.guess_type(name, strict=False)[0] or "application/octet-stream"


def file_artifact(
    artifact_id: str,
    name: str,
    *,
    data: bytes | None,
    url: str | None,
    media_type: str,
    meta: dict[str, JSON] | None,
    description: str = "",
) -> pb.Artifact:
    """An artifact with one file part: the bytes inline, or (too big to inline) a URL."""
    name = wire(name)
    art = pb.Artifact(artifact_id=artifact_id, name=name, description=wire(description))
    part = art.parts.add()
    if data is not None:
        part.raw = data
    else:
        part.url = url or ""
    part.filename = name
    part.media_type = media_type
    if meta is not None:
        art.metadata.update({EXTENSION_URI: wire(meta)})
        art.extensions.append(EXTENSION_URI)
    return art


def luggage_artifact_id(index: int) -> str:
    return f"luggage-{index}"


def luggage_meta(item: StoredLuggage) -> dict[str, JSON]:
    return {"role": "luggage", "name": item.name, "sha256": item.sha256, "bytes": item.size}


def passport_artifacts(lp: LocalPassport, *, with_extension: bool) -> list[pb.Artifact]:
    """`passport.artifacts` entries, one data artifact each (their values are data)."""
    out: list[pb.Artifact] = []
    for n, entry in enumerate(lp.passport.artifacts or [], 1):
        name = f"artifact {n}"
        if isinstance(entry, dict):
            for key in ("name", "title", "path", "url"):
                if isinstance(entry.get(key), str) and entry[key]:
                    name = entry[key]
                    break
        elif isinstance(entry, str) and entry:
            name = entry
        art = pb.Artifact(artifact_id=f"passport-artifact-{n}", name=wire(name[:200]))
        part = art.parts.add()
        value = struct_pb2.Value()
        _set_value(value, wire(entry))
        part.data.CopyFrom(value)
        part.media_type = "application/json"
        if with_extension:
            art.metadata.update({EXTENSION_URI: {"role": "passport.artifacts", "index": n}})
            art.extensions.append(EXTENSION_URI)
        out.append(art)
    return out


def _set_value(value: struct_pb2.Value, data: JSON) -> None:
    holder = struct_pb2.Struct()
    holder.update({"v": data})
    value.CopyFrom(holder.fields["v"])


def receipt_filename(task_id: str, version: int | None) -> str:
    return f"{task_id}-receipt-v{version}.taskpack" if version else f"{task_id}-receipt.taskpack"


def finished(task: pb.Task, until_settled: bool) -> bool:
    """A stream may end here: the task is terminal, or settled when the client asked so."""
    if task.status.state in TERMINAL_A2A:
        return True
    return until_settled and settled(task.status.state)


def stream_events(old: pb.Task, new: pb.Task) -> list[Any]:
    """The stream events that take a client from `old` to `new`."""
    events: list[Any] = []
    if old.status != new.status or old.metadata != new.metadata:
        event = pb.TaskStatusUpdateEvent(task_id=new.id, context_id=new.context_id)
        event.status.CopyFrom(new.status)
        if new.HasField("metadata"):
            event.metadata.CopyFrom(new.metadata)
        events.append(event)
    before = {a.artifact_id: a for a in old.artifacts}
    for art in new.artifacts:
        if before.get(art.artifact_id) != art:
            update = pb.TaskArtifactUpdateEvent(
                task_id=new.id, context_id=new.context_id, append=False, last_chunk=True
            )
            update.artifact.CopyFrom(art)
            events.append(update)
    return events
