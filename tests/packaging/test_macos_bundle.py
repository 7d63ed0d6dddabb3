"""macOS on paper: the app bundle's Info.plist (packaging/macos/Info.plist).

The bundle is built only on a Mac (the spec's BUNDLE step, or the macOS job of
.github/workflows/build.yml); what Finder learns from it is checked here, with the same
reader macOS tools use (plistlib reads Apple's XML property lists).
"""

from __future__ import annotations

import plistlib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLIST = ROOT / "packaging" / "macos" / "Info.plist"
MIME_XML = ROOT / "resources" / "desktop" / "taskpack-desk.xml"


def info() -> dict:
    with PLIST.open("rb") as f:
        return plistlib.load(f)


def test_both_pack_types_are_exported_as_utis() -> None:
    exported = {t["UTTypeIdentifier"]: t for t in info()["UTExportedTypeDeclarations"]}
    assert set(exported) == {"org.taskpack.pack", "org.taskpack.pack-json"}
    zip_type, json_type = exported["org.taskpack.pack"], exported["org.taskpack.pack-json"]
    assert "public.zip-archive" in zip_type["UTTypeConformsTo"]
    assert "public.json" in json_type["UTTypeConformsTo"]
    assert zip_type["UTTypeTagSpecification"] == {
        "public.filename-extension": ["taskpack"],
        "public.mime-type": ["application/vnd.taskpack+zip"],
    }
    assert json_type["UTTypeTagSpecification"] == {
        "public.filename-extension": ["taskpack.json"],
        "public.mime-type": ["application/vnd.taskpack+json"],
    }


def test_the_app_opens_both_as_their_owner() -> None:
    plist = info()
    opened = {
        uti: doc for doc in plist["CFBundleDocumentTypes"] for uti in doc["LSItemContentTypes"]
    }
    assert set(opened) == {"org.taskpack.pack", "org.taskpack.pack-json"}
    for doc in opened.values():
        assert doc["CFBundleTypeRole"] == "Editor"  # it lands and answers, not only views
        assert doc["LSHandlerRank"] == "Owner"
    assert plist["CFBundleName"] == "TaskPack Desk"


def test_the_mime_types_are_the_ones_linux_registers() -> None:
    ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
    linux = {t.get("type") for t in ET.parse(MIME_XML).getroot().iter(f"{ns}mime-type")}
    mac = {
        mime
        for t in info()["UTExportedTypeDeclarations"]
        for mime in t["UTTypeTagSpecification"]["public.mime-type"]
    }
    assert mac == linux


def test_the_spec_builds_the_bundle_from_this_plist() -> None:
    spec = (ROOT / "packaging" / "taskpack-desk.spec").read_text(encoding="utf-8")
    bundle = spec[spec.index("BUNDLE(") :]
    assert '"macos" / "Info.plist"' in spec and "info_plist=info_plist" in bundle
