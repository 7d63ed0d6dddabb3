"""Errors from core, in the window's language.

Every `TaskPackError` carries a stable `code` and the `params` its English sentence is
built from (core/errors.py). The CLI prints the English; the window says the same thing
through a translated template chosen by the code. Where a code has no template of its
own, its kind of error still gets a translated sentence (what is wrong in general and
what to do), followed by the English detail, which names the exact place.
"""

from __future__ import annotations

from typing import Any

from taskpack.app.desk import visible
from taskpack.core.errors import Refused, TaskPackError
from taskpack.ui.i18n import current, tr, trn


def _p(exc: TaskPackError, name: str) -> str:
    value = exc.params.get(name)
    return visible(value) if value not in (None, "") else "?"


def _templates(exc: TaskPackError) -> str | None:
    """The whole sentence for codes whose parameters say everything."""
    code = exc.code
    if code == "merge_wrong_target":
        return tr(
            "This receipt answers {target}, not {into}. A receipt merges only into the passport "
            "that asked; nothing was changed."
        ).format(target=_p(exc, "target"), into=_p(exc, "into"))
    if code == "merge_target_missing":
        return tr(
            "This receipt answers {target}, which is not on this desk. Open it on the desk that "
            "asked the questions."
        ).format(target=_p(exc, "target"))
    if code == "merge_receipt_as_handoff":
        return tr(
            "This is a receipt answering {target}, not a handoff: merge it into {target}. "
            "Nothing was changed."
        ).format(target=_p(exc, "target"))
    if code == "merge_no_target":
        return tr(
            "This receipt does not say which passport it answers; it cannot be merged. "
            "Nothing was changed."
        )
    if code == "merge_handoff":
        return tr(
            "A handoff is never merged into a passport: it lands as a new one. Nothing was changed."
        )
    if code == "bad_kind":
        return tr(
            "The pack says it is a “{kind}”; a pack is a handoff or a receipt. Ask the sender "
            "for a fresh copy; nothing was written."
        ).format(kind=_p(exc, "kind"))
    if code == "already_landed":
        return tr("This pack already landed as {id}; nothing changed.").format(
            id=_p(exc, "passport_id")
        )
    if code == "disk_full":
        return tr(
            "The disk holding {where} is full; nothing was written. Free some space on that "
            "disk and try again."
        ).format(where=_p(exc, "where"))
    if code == "cancelled":
        return tr("Cancelled.")
    if isinstance(exc, Refused):
        findings: list[Any] = [f for f in exc.params.get("findings") or [] if isinstance(f, dict)]
        places = "; ".join(
            f"{visible(f.get('kind'))} — {visible(f.get('place'))}" for f in findings[:3]
        )
        if len(findings) > 3:
            places += " " + trn("(and %n more)", len(findings) - 3)
        if exc.code == "landing_refused":
            return tr(
                "Not landing this pack: it carries {what}. Nothing was stored. Ask the sender to "
                "rotate that secret (treat it as leaked) and send a clean pack."
            ).format(what=places)
        return tr(
            "Refusing to pack: {what}. Remove it from the passport or luggage and pack again."
        ).format(what=places)
    return None


def _name_problems() -> dict[str, str]:
    return {
        "empty": tr("is empty"),
        "too_long": tr("is too long"),
        "control": tr("contains a control character"),
        "backslash": tr("contains a backslash (a Windows path separator)"),
        "absolute": tr("is an absolute path"),
        "drive": tr("starts with a drive letter"),
        "dot_segment": tr("has an empty, “.” or “..” part"),
        "long_segment": tr("has a part longer than 255 bytes"),
        "windows_char": tr('contains a character Windows cannot store (<>:"|?*)'),
        "reserved": tr("is a reserved device name on Windows"),
        "trailing": tr("has a part ending in a space or dot"),
        "not_unicode": tr("is not valid Unicode"),
        "twice": tr("appears twice"),
        "collides": tr("collides with {other} on disks that ignore case"),
        "file_and_folder": tr("is both a file and a folder"),
    }


def _where(value: object) -> str:
    """A place core names in English words ("the file", "luggage"), translated; a path stays."""
    text = "" if value is None else str(value)
    words = {
        "luggage": tr("luggage"),
        "attachment": tr("attachment"),
        "zip entry": tr("zip entry"),
        "the file": tr("the file"),
        "the passport object": tr("the passport object"),
        "the 'passport' value": tr("the “passport” value"),
        "the .tpx file's passport": tr("the .tpx file's passport"),
    }
    return words.get(text, visible(text))


def _detail(exc: TaskPackError) -> str | None:
    """The precise problem for a code whose parameters say it (None: no template here)."""
    code = exc.code

    def p(name: str) -> str:
        return _p(exc, name)

    if code == "unsafe_name":
        problems = _name_problems()
        problem = str(exc.params.get("problem") or "")
        if problem not in problems:
            return None
        what = problems[problem].format(other=p("other"))
        return tr("the {where} name {name} {problem}").format(
            where=_where(exc.params.get("where")), name=p("name"), problem=what
        )
    names = {
        "name": p("name"),
        "path": p("path"),
        "what": _where(exc.params.get("what")),
        "where": _where(exc.params.get("where")),
        "field": p("field"),
        "key": p("key"),
        "spec": p("spec"),
        "version": p("version"),
        "limit": p("limit"),
        "line": p("line"),
        "column": p("column"),
        "byte": p("byte"),
        "missing": p("missing"),
        "declared": p("declared"),
        "real": p("real"),
        "other": p("other"),
        "id": p("id"),
        "current": p("current"),
    }
    templates = {
        "empty_file": tr("{name} is empty"),
        "not_a_pack": tr("{name} is neither a .taskpack (zip) nor a .taskpack.json file"),
        "not_regular_file": tr("{name} is not a regular file"),
        "not_zip": tr("it is not a readable zip file"),
        "not_a_bag": tr("the zip has no {missing}, so it is not a TaskPack"),
        "not_json_object": tr("{where} is not a JSON object"),
        "bad_field": tr("the field {field} is missing or has the wrong type"),
        "bad_attachment": tr("the attachment {name} has an unusable {field}"),
        "unsupported_spec": tr(
            "{where} declares the version {spec}, which this desk does not know"
        ),
        "unsupported_bagit": tr("bagit.txt declares BagIt version {version}; 1.0 is expected"),
        "unsupported_tpx": tr("this .tpx file is version {version}; only .tpx 0.1 can be read"),
        "zip_unsupported_feature": tr("the zip needs a feature this desk does not support"),
        "zip_unsupported_entry": tr(
            "the zip entry {name} is stored in a way this desk does not support"
        ),
        "zip_encrypted": tr("the zip entry {name} is encrypted"),
        "zip_symlink": tr("the zip entry {name} is a symbolic link"),
        "zip_special_file": tr("the zip entry {name} is a special file (device, pipe or socket)"),
        "zip_overlap": tr("the zip entries {name} and {other} overlap"),
        "zip_local_name": tr("the zip entry {name} has a different name in its local header"),
        "zip_entry_damaged": tr(
            "the zip entry {name} is damaged (its bytes do not match its checksum)"
        ),
        "zip_entry_truncated": tr(
            "the zip entry {name} is shorter than it declares (the file is truncated)"
        ),
        "zip_too_many_entries": tr("the zip has more than {limit} entries"),
        "zip_directory_too_large": tr("the zip's central directory is unreasonably large"),
        "zip_bomb": tr("the zip would inflate to far more than its size (a zip bomb?)"),
        "too_large": tr("{what} is larger than the {limit} bytes allowed"),
        "object_too_large": tr(
            "the pack holds more than {limit} bytes of JSON outside its luggage; ask the "
            "sender to move large text into luggage (a file in the pack)"
        ),
        "object_too_many_items": tr(
            "the pack holds more than {limit} JSON values and keys; ask the sender to split "
            "the work into smaller packs"
        ),
        "too_deep": tr("{what} is nested too deeply"),
        "bag_manifest_bad": tr("{what} is not a list of “<sha256>  <path>” lines"),
        "bag_listed_twice": tr("{what} lists {path} twice"),
        "bag_file_missing": tr("{what} lists {path}, which is missing from the bag"),
        "bag_file_unlisted": tr(
            "{path} is in the bag but not in its manifest (nobody vouched for it)"
        ),
        "bag_outside_data": tr("the manifest lists {path}, which is outside data/"),
        "digest_mismatch": tr("{path} does not match its digest in {what}"),
        "oxum_mismatch": tr(
            "bag-info.txt says the payload is {declared} (bytes.files) but it is {real}"
        ),
        "luggage_size": tr("the luggage file {name} is not the size it declares"),
        "luggage_digest": tr("the luggage file {name} does not match its sha256"),
        "changed_while_reading": tr("{name} changed while it was being read"),
        "changed_while_packing": tr("{name} changed size while it was being packed"),
        "json_nan": tr("the JSON holds NaN or an infinite number, which JSON cannot carry"),
        "json_duplicate_key": tr(
            "the JSON has the key {key} twice; which one is meant is ambiguous"
        ),
        "json_number_too_large": tr("the JSON has a number too large to read"),
        "json_bom": tr("{what} starts with a UTF-8 byte-order mark"),
        "json_invalid": tr("{what} is not valid JSON (line {line}, column {column})"),
        "not_utf8": tr("{what} is not valid UTF-8 (byte {byte})"),
        "flat_syntax": tr("the file is not valid TaskPack JSON (near byte {byte})"),
        "flat_extra_content": tr("the file has more content after its JSON object (byte {byte})"),
        "flat_value_too_deep": tr("a value in the file is nested too deeply"),
        "flat_value_too_large": tr("a value in the file is larger than {limit} bytes"),
        "flat_truncated": tr("the file ends inside an attachment's data (it is truncated)"),
        "too_many_attachments": tr("the file has more than {limit} attachments"),
        "attachment_truncated": tr("the attachment {name} is cut short (the file is truncated)"),
        "attachment_not_utf8": tr("the attachment {name} is not valid UTF-8"),
        "attachment_bad_string": tr(
            "the attachment {name} holds a JSON string that cannot be read"
        ),
        "attachment_bad_base64": tr("the attachment {name} is not valid base64"),
        "no_such_path": tr("there is no file or folder {path}"),
        "no_passport": tr("there is no passport {id} on this desk"),
        "no_version": tr("passport {id} has no version {version}"),
        "became_symlink": tr("{name} became a symbolic link after it was chosen; it is not packed"),
    }
    if code == "version_conflict" and "current" in exc.params:
        templates[code] = tr("{id} is now at version {current}")
    template = templates.get(code)
    return None if template is None else template.format(**names)


def _kind(exc: TaskPackError) -> str:
    """What kind of problem it is and what to do, for codes without a template of their own."""
    return _kinds(exc.code) or _kinds(type(exc).code)


def _kinds(code: str) -> str:
    return {
        "not_found": tr("Not found. Check the id in the list."),
        "version_conflict": tr("Someone else changed it first: it was read again; try once more."),
        "invalid_state": tr("That move is not allowed from where the task is now."),
        "restore_refused": tr("The ✓ cannot be restored here."),
        "merge_refused": tr("This receipt cannot be merged here. Nothing was changed."),
        "format": tr(
            "The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."
        ),
        "pack_error": tr(
            "The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."
        ),
        "unreadable": tr(
            "The file is not a readable pack. Ask the sender for a fresh copy; nothing was written."
        ),
        "unsupported_version": tr(
            "The pack was made by a newer or different tool; ask the sender for a "
            "TaskPack 0.1 file."
        ),
        "unsafe_entry": tr(
            "The file may be hostile; nothing was written. Do not open it with other tools."
        ),
        "integrity": tr(
            "The file was damaged or altered in transit; ask the sender to send it again."
        ),
        "limit_exceeded": tr(
            "The file is too large or too deep to read safely (it may be a decompression "
            "bomb); nothing was written."
        ),
        "store": tr("The desk's store cannot be used."),
        "usage": tr("That cannot be done as asked."),
    }.get(code, "")


def error_sentence(exc: TaskPackError) -> str:
    """The one sentence a person sees for a core error, in the window's language."""
    if current() == "en":
        return str(exc)
    whole = _templates(exc)
    if whole is not None:
        return whole
    kind = _kind(exc)
    detail = _detail(exc)
    if detail is None:  # no template for this raise site: the English names the place
        detail = str(exc)
    return tr("{what} ({detail})").format(what=kind, detail=detail) if kind else detail
