"""The Linux desktop integration: .desktop file, MIME XML, `make install-desktop`.

The system tools come from `make ci-deps` (shared-mime-info, xdg-utils,
desktop-file-utils, libfile-mimeinfo-perl). A test that needs one skips, naming it, only
when it is absent; the parser checks run everywhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESKTOP_DIR = ROOT / "resources" / "desktop"
DESKTOP_FILE = DESKTOP_DIR / "taskpack-desk.desktop"
MIME_XML = DESKTOP_DIR / "taskpack-desk.xml"
INSTALL = DESKTOP_DIR / "install-desktop.sh"
NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
TYPES = {
    "application/vnd.taskpack+zip": "*.taskpack",
    "application/vnd.taskpack+json": "*.taskpack.json",
}


def need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(
            f"{tool} is not installed (Debian package {package}; `make ci-deps` installs it)"
        )
    return path


def desktop_entry(path: Path) -> dict[str, str]:
    """The [Desktop Entry] group as key → value (the format is not quite INI)."""
    group, out = None, {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("["):
            group = line.strip()
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {line!r}"
        if group == "[Desktop Entry]":
            assert key not in out, f"duplicate key {key}"
            out[key] = value
    return out


def test_desktop_file_declares_the_app_and_both_pack_types() -> None:
    entry = desktop_entry(DESKTOP_FILE)
    assert entry["Type"] == "Application"
    assert entry["Name"] == "TaskPack Desk"
    assert entry["Exec"].split()[-1] == "%F", "files from a double-click must reach the app"
    assert entry["Icon"] == "taskpack-desk"
    assert entry["Terminal"] == "false"
    assert set(filter(None, entry["MimeType"].split(";"))) == set(TYPES)
    assert entry["Categories"].endswith(";")


def test_desktop_file_passes_desktop_file_validate() -> None:
    validate = need("desktop-file-validate", "desktop-file-utils")
    result = subprocess.run([validate, str(DESKTOP_FILE)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_mime_xml_is_well_formed_and_declares_both_types_with_globs() -> None:
    root = ET.parse(MIME_XML).getroot()
    assert root.tag == f"{NS}mime-info"
    found = {}
    for mt in root.findall(f"{NS}mime-type"):
        globs = [g.get("pattern") for g in mt.findall(f"{NS}glob")]
        comments = [c.text for c in mt.findall(f"{NS}comment") if not c.attrib]
        assert comments and comments[0], f"{mt.get('type')} has no comment"
        found[mt.get("type")] = globs
    assert found == {t: [g] for t, g in TYPES.items()}
    parents = {
        mt.get("type"): mt.find(f"{NS}sub-class-of").get("type")
        for mt in root.findall(f"{NS}mime-type")
    }
    assert parents == {
        "application/vnd.taskpack+zip": "application/zip",
        "application/vnd.taskpack+json": "application/json",
    }


def _xdg_env(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "XDG_CURRENT_DESKTOP",
            "DESKTOP_SESSION",
            "KDE_FULL_SESSION",
            "GNOME_DESKTOP_SESSION_ID",
            "MAKEFLAGS",
            "MFLAGS",
        )
    }
    env.update(
        HOME=str(tmp_path),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_DIRS="/usr/local/share:/usr/share",
    )
    return env


def _sample_packs(where: Path) -> tuple[Path, Path]:
    bag, flat = where / "x.taskpack", where / "x.taskpack.json"
    with zipfile.ZipFile(bag, "w") as z:
        z.writestr("bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")
    flat.write_text('{"taskpack": "0.1", "encoding": "flat"}\n', encoding="utf-8")
    return bag, flat


def test_make_install_desktop_registers_the_types_for_xdg_mime(tmp_path: Path) -> None:
    need("update-mime-database", "shared-mime-info")
    xdg_mime = need("xdg-mime", "xdg-utils")
    # outside GNOME/KDE, xdg-mime asks File::MimeInfo's `mimetype`, which reads our database
    need("mimetype", "libfile-mimeinfo-perl")
    env = _xdg_env(tmp_path)
    make = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "install-desktop"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert make.returncode == 0, make.stdout + make.stderr
    data = tmp_path / "data"
    assert (data / "mime/packages/taskpack-desk.xml").is_file()

    bag, flat = _sample_packs(tmp_path)

    def query(*args: str) -> str:
        r = subprocess.run(
            [xdg_mime, "query", *args],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert r.returncode == 0, r.stderr
        return r.stdout.strip()

    assert query("filetype", bag.name) == "application/vnd.taskpack+zip"
    assert query("filetype", flat.name) == "application/vnd.taskpack+json"
    # a double-click opens the desk: it is the default app for both types
    assert query("default", "application/vnd.taskpack+zip") == "taskpack-desk.desktop"
    assert query("default", "application/vnd.taskpack+json") == "taskpack-desk.desktop"

    installed = desktop_entry(data / "applications/taskpack-desk.desktop")
    assert installed["Exec"] == f"{ROOT}/.venv/bin/taskpack-desk %F"
    for size in (16, 32, 48, 64, 128, 256):
        assert (data / f"icons/hicolor/{size}x{size}/apps/taskpack-desk.png").is_file(), size
        assert (
            data / f"icons/hicolor/{size}x{size}/mimetypes/application-vnd.taskpack+zip.png"
        ).is_file()
    assert (data / "icons/hicolor/scalable/apps/taskpack-desk.svg").is_file()

    gone = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "uninstall-desktop"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert gone.returncode == 0, gone.stderr
    assert not (data / "mime/packages/taskpack-desk.xml").exists()
    assert not (data / "applications/taskpack-desk.desktop").exists()
    assert query("filetype", bag.name) != "application/vnd.taskpack+zip"


def test_install_script_quotes_an_exec_path_with_spaces_and_dollars(tmp_path: Path) -> None:
    validate = need("desktop-file-validate", "desktop-file-utils")
    env = _xdg_env(tmp_path)
    odd = tmp_path / "My Apps" / "$dollar" / "taskpack-desk"
    r = subprocess.run(
        ["sh", str(INSTALL), "--exec", str(odd)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    installed = tmp_path / "data/applications/taskpack-desk.desktop"
    entry = desktop_entry(installed)
    assert entry["TryExec"] == str(odd)
    # string-level escapes: \\ is one backslash, so \\$ reaches the Exec parser as \$
    assert entry["Exec"] == f'"{tmp_path}/My Apps/\\\\$dollar/taskpack-desk" %F'
    v = subprocess.run([validate, str(installed)], capture_output=True, text=True)
    assert v.returncode == 0 and not v.stdout.strip(), v.stdout


def test_install_script_refuses_an_unknown_argument(tmp_path: Path) -> None:
    r = subprocess.run(
        ["sh", str(INSTALL), "--frobnicate"], env=_xdg_env(tmp_path), capture_output=True, text=True
    )
    assert r.returncode == 1
    assert "unknown argument '--frobnicate'" in r.stderr
    assert not (tmp_path / "data").exists()
