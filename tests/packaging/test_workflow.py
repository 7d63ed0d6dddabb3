"""The forge's build workflow (.github/workflows/build.yml): three apps, each smoke-tested.

It cannot run on the project's machines (no forge runners here); what can be checked here
is that actionlint accepts it and that every platform's job builds, smoke-tests and
uploads its app.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "build.yml"


def test_actionlint_accepts_the_workflow() -> None:
    beside = Path(sys.executable).parent / "actionlint"  # the venv's, when PATH lacks it
    actionlint = str(beside) if beside.is_file() else shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (the test extra installs it on Linux x86_64)")
    out = subprocess.run(
        [actionlint, str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_each_platform_builds_smoke_tests_and_uploads_its_app() -> None:
    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    runners = {name: job["runs-on"].split("-")[0] for name, job in jobs.items()}
    assert runners == {"linux": "ubuntu", "windows": "windows", "macos": "macos"}
    for name, job in jobs.items():
        steps = job["steps"]
        scripts = "\n".join(step.get("run", "") for step in steps)
        assert "--smoke-test" in scripts or "package-test" in scripts, name
        uploads = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact")]
        assert len(uploads) == 1 and uploads[0]["with"]["if-no-files-found"] == "error", name
