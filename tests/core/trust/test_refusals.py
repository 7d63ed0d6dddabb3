"""Refusals (spec §4.1, §4.5, C7, C8): what a person would notice if these were wrong.

Every secret below is generated at run time from a seeded RNG, so this file holds none.
Each assertion about a credential also checks that the secret never appears in what
a person is shown (``str(finding)``) — a refusal must not leak what it refused.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import os
import random
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from taskpack.core.errors import Finding
from taskpack.core.trust import refusals, scan
from taskpack.core.trust.refusals import (
    StreamScanner,
    available_engines,
    check_asks,
    is_instruction_field,
    scan_luggage_stream,
    scan_pack_object,
    scan_value,
)
from taskpack.core.trust.scan import archives, engines
from taskpack.core.trust.scan.scanner import scan_bytes

ENGINES = available_engines()
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def test_both_engines_are_available_here() -> None:
    # The hyperscan engine is the intended one; if it silently vanished every judge run
    # would be ~50x slower and nobody would notice.
    assert ENGINES == ("hyperscan", "re")


# --- the secret-shape table ---------------------------------------------------------------


def _rng_text(seed: str) -> Callable[[int, str], str]:
    rng = random.Random(seed)
    return lambda n, alphabet=B62: "".join(rng.choice(alphabet) for _ in range(n))


def _b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _pem(label: str, headers: str = "") -> Callable[[Callable[[int, str], str]], str]:
    def make(r: Callable[[int, str], str]) -> str:
        body = "\n".join(r(64, B62 + "+/") for _ in range(5))
        return f"-----BEGIN {label}-----\n{headers}{body}\n-----END {label}-----"

    return make


SHAPES: dict[str, tuple[str, Callable[[Callable[[int, str], str]], str]]] = {
    # name: (kind a person sees, generator)
    "pem-rsa": ("private key block", _pem("RSA PRIVATE KEY")),
    "pem-ec": ("private key block", _pem("EC PRIVATE KEY")),
    "pem-dsa": ("private key block", _pem("DSA PRIVATE KEY")),
    "pem-pkcs8": ("private key block", _pem("PRIVATE KEY")),
    "pem-encrypted-pkcs8": ("private key block", _pem("ENCRYPTED PRIVATE KEY")),
    "pem-legacy-encrypted": (
        "private key block",
        _pem(
            "RSA PRIVATE KEY",
            "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B2C3D4E5F60718293A4B5C6D7E8F9\n\n",
        ),
    ),
    "openssh": ("private key block", _pem("OPENSSH PRIVATE KEY")),
    "pgp": ("private key block", _pem("PGP PRIVATE KEY BLOCK", "Version: GnuPG v2\n\n")),
    "openai": ("OpenAI API key", lambda r: "sk-" + r(48, B62)),
    "openai-proj": ("OpenAI API key", lambda r: "sk-proj-" + r(156, B62 + "-_")),
    "anthropic": ("Anthropic API key", lambda r: "sk-ant-api03-" + r(93, B62 + "-_") + "AA"),
    "github-ghp": ("GitHub token", lambda r: "ghp_" + r(36, B62)),
    "github-gho": ("GitHub token", lambda r: "gho_" + r(36, B62)),
    "github-ghu": ("GitHub token", lambda r: "ghu_" + r(36, B62)),
    "github-ghs": ("GitHub token", lambda r: "ghs_" + r(36, B62)),
    "github-ghr": ("GitHub token", lambda r: "ghr_" + r(36, B62)),
    "github-pat": ("GitHub token", lambda r: "github_pat_" + r(22, B62) + "_" + r(59, B62)),
    "gitlab": ("GitLab token", lambda r: "glpat-" + r(20, B62 + "-_")),
    "slack-bot": (
        "Slack token",
        lambda r: f"xoxb-{r(12, '0123456789')}-{r(13, '0123456789')}-{r(24, B62)}",
    ),
    "slack-user": (
        "Slack token",
        lambda r: (
            f"xoxp-{r(12, '0123456789')}-{r(12, '0123456789')}-{r(13, '0123456789')}-{r(32, 'abcdef0123456789')}"
        ),
    ),
    "slack-app": ("Slack token", lambda r: f"xoxa-2-{r(12, '0123456789')}-{r(40, B62)}"),
    "slack-refresh": ("Slack token", lambda r: f"xoxr-{r(12, '0123456789')}-{r(40, B62)}"),
    "slack-session": ("Slack token", lambda r: f"xoxs-{r(12, '0123456789')}-{r(40, B62)}"),
    "slack-webhook": (
        "Slack webhook URL",
        lambda r: (
            f"https://hooks.slack.com/services/T{r(8, UPPER_DIGITS)}/B{r(10, UPPER_DIGITS)}/{r(24, B62)}"
        ),
    ),
    "aws-akia": ("AWS access key id", lambda r: "AKIA" + r(16, UPPER_DIGITS)),
    "aws-asia": ("AWS access key id", lambda r: "ASIA" + r(16, UPPER_DIGITS)),
    "aws-secret": (
        "AWS secret access key",
        lambda r: "aws_secret_access_key = " + r(40, B62 + "/+"),
    ),
    "google": ("Google API key", lambda r: "AIza" + r(35, B62 + "-_")),
    "stripe-sk": ("Stripe live key", lambda r: "sk_live_" + r(24, B62)),
    "stripe-rk": ("Stripe live key", lambda r: "rk_live_" + r(99, B62)),
    "jwt": (
        "JWT",
        lambda r: ".".join(
            (
                _b64u(b'{"alg":"HS256","typ":"JWT"}'),
                _b64u(b'{"sub":"u-1","exp":1900000000}'),
                r(43, B62 + "-_"),
            )
        ),
    ),
    "npm": ("npm token", lambda r: "npm_" + r(36, B62)),
    "pypi": ("PyPI token", lambda r: "pypi-AgEIcHlwaS5vcmc" + r(150, B62 + "-_")),
    "url-password": (
        "password in URL",
        lambda r: f"postgres://deploy:{r(14, B62)}@db.internal:5432/app",
    ),
    "password-assign": ("password or secret assignment", lambda r: f"password={r(14, B62)}"),
    "passwd-yaml": ("password or secret assignment", lambda r: f"passwd: {r(12, B62)}!"),
    "secret-assign": ("password or secret assignment", lambda r: f"secret={r(20, B62)}"),
    "token-assign": ("password or secret assignment", lambda r: f"token={r(32, B62)}"),
    "api-key-quoted": ("password or secret assignment", lambda r: f'api_key = "{r(32, B62)}"'),
    "json-password": (
        "password or secret assignment",
        lambda r: f'"db_password": "{r(16, B62)}#1"',
    ),
    "bearer": ("bearer token", lambda r: f"Authorization: Bearer {r(48, B62)}"),
}


def make_secret(name: str) -> str:
    return SHAPES[name][1](_rng_text(name))


def _no_leak(findings: list[Finding], secret: str) -> None:
    # the distinctive tail (past any fixed prefix) must not be shown anywhere
    tail = secret[-12:]
    for f in findings:
        for text in (str(f), f.kind, f.place, f.detail):
            assert tail not in text, f"finding shows the secret: {f}"


def _kinds(findings: list[Finding]) -> set[str]:
    return {f.kind for f in findings}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_secret_in_a_pack_object_field_is_refused(name: str, engine: str) -> None:
    kind, _ = SHAPES[name]
    secret = make_secret(name)
    pack = {
        "passport": {
            "facts": [
                {"claim": "ok"},
                {"claim": "x"},
                {"claim": f"deploy with {secret} then restart"},
            ]
        }
    }
    found = scan_pack_object(pack, engine=engine)
    assert [(f.rule, f.kind, f.place) for f in found] == [
        ("credential", kind, "passport.facts[2].claim")
    ]
    _no_leak(found, secret)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_secret_at_the_very_start_of_a_value_is_refused(name: str, engine: str) -> None:
    kind, _ = SHAPES[name]
    secret = make_secret(name)
    found = scan_value({"note": secret}, engine=engine)
    assert kind in _kinds(found)
    assert {f.place for f in found} == {"note"}
    _no_leak(found, secret)


RANDOM_10MIB = random.Random(1).randbytes(10 * 1024 * 1024)
CHUNK = 65521  # an odd, prime chunk size


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_secret_deep_in_binary_luggage_across_a_chunk_boundary(name: str) -> None:
    kind, _ = SHAPES[name]
    secret = make_secret(name).encode()
    # place it so a chunk boundary falls in its middle, after the first 10 MiB
    boundary = (len(RANDOM_10MIB) // CHUNK + 2) * CHUNK
    at = boundary - len(secret) // 2
    pad = random.Random(2).randbytes(at - len(RANDOM_10MIB) - 1)
    blob = RANDOM_10MIB + pad + b"\x00" + secret + b"\x00" + random.Random(3).randbytes(5000)
    assert blob.index(secret) == at and at > 10 * 1024 * 1024
    scanner = StreamScanner("files/blob.bin")
    for i in range(0, len(blob), CHUNK):
        scanner.feed(blob[i : i + CHUNK])
    found = scanner.finish()
    assert [f.kind for f in found] == [kind]
    offset = int(found[0].place.removeprefix("files/blob.bin @ byte "))
    assert at <= offset < at + len(secret)  # where, to the byte
    _no_leak(found, secret.decode())


def test_all_secrets_deep_in_one_stream_with_the_re_engine() -> None:
    # the fallback engine is slower; one stream with every shape keeps this test quick
    parts = [random.Random(5).randbytes(2 * 1024 * 1024)]
    for name in sorted(SHAPES):
        parts.append(
            b"\n" + make_secret(name).encode() + b"\n" + random.Random(name).randbytes(3000)
        )
    blob = b"".join(parts)
    found = scan_luggage_stream("files/all.bin", io.BytesIO(blob), chunk_size=4099, engine="re")
    assert _kinds(found) == {kind for kind, _ in SHAPES.values()}


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_secret_inside_zip_and_gz_luggage(name: str) -> None:
    kind, _ = SHAPES[name]
    secret = make_secret(name).encode()
    text = b"notes\n" * 2000 + secret + b"\nmore notes\n" * 100
    zipped = _zip({"readme.md": b"nothing here\n", "docs/notes.txt": text})
    gzipped = gzip.compress(text)
    assert secret not in zipped and secret not in gzipped  # only inflating can find it
    for blob, place in (
        (zipped, "files/a.zip!/docs/notes.txt @ byte"),
        (gzipped, "files/a.gz (inflated) @ byte"),
    ):
        found = scan_luggage_stream(
            place.split(" ")[0].split("!")[0], io.BytesIO(blob), chunk_size=777
        )
        assert [f.kind for f in found] == [kind]
        assert found[0].place.startswith(place)
        _no_leak(found, secret.decode())


# --- archives: depth, bounds, damage --------------------------------------------------------


SECRET = make_secret("github-ghp").encode()


def _scan(blob: bytes, name: str = "files/x", chunk: int = 1000) -> list[Finding]:
    return scan_luggage_stream(name, io.BytesIO(blob), chunk_size=chunk)


def test_archives_are_opened_levels_deep_and_a_self_containing_zip_ends() -> None:
    level2 = _zip({"inner.gz": gzip.compress(b"x\n" + SECRET)})
    found = _scan(level2, "files/outer.zip")
    assert [f.place.split(" @")[0] for f in found] == ["files/outer.zip!/inner.gz (inflated)"]
    level3 = gzip.compress(_zip({"inner.gz": gzip.compress(b"x\n" + SECRET)}))
    assert [f.place.split(" @")[0] for f in _scan(level3, "files/outer.gz")] == [
        "files/outer.gz (inflated)!/inner.gz (inflated)"
    ]
    # past MAX_ARCHIVE_DEPTH levels nothing more is opened (and nothing fails)
    deep = b"x\n" + SECRET
    for _ in range(archives.MAX_ARCHIVE_DEPTH + 2):
        deep = gzip.compress(deep)
    assert _scan(deep, "files/deep.gz") == []


def test_inflating_past_the_bound_stops_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archives, "MAX_INFLATED_BYTES", 1024 * 1024)
    early = gzip.compress(b"\n" + SECRET + b"\n" + b"\0" * (4 * 1024 * 1024))
    late = gzip.compress(b"\0" * (4 * 1024 * 1024) + b"\n" + SECRET + b"\n")
    assert len(_scan(early, "files/a.gz", 1 << 16)) == 1  # inside the bound: found
    assert _scan(late, "files/a.gz", 1 << 16) == []  # past it: stop, no finding, no error


def test_a_zip_bomb_does_not_blow_up_memory_or_time() -> None:
    bomb = _zip({f"z{i}.bin": b"\0" * (64 * 1024 * 1024) for i in range(6)})  # 384 MiB inflated
    assert len(bomb) < 2 * 1024 * 1024
    assert _scan(bomb, "files/bomb.zip", 1 << 20) == []


def test_a_damaged_archive_is_scanned_as_bytes() -> None:
    damaged = b"\x1f\x8b\x08\x00" + b"\xff" * 50 + b"\n" + SECRET + b"\n"
    found = _scan(damaged, "files/bad.gz")
    assert [f.place.split(" @")[0] for f in found] == ["files/bad.gz"]
    truncated = _zip({"a.txt": b"y" * 10000 + SECRET})[:300]
    # no exception; what the cut member still holds is scanned (its deflate stream fits)
    found = _scan(truncated, "files/cut.zip")
    assert {(f.kind, f.place.split(" @")[0]) for f in found} <= {
        ("GitHub token", "files/cut.zip!/a.txt")
    }


class _Unseekable(io.RawIOBase):
    """What a zip written to a pipe looks like: sizes come after the data (a descriptor)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self.data += b
        return len(b)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_streamed_zips_with_data_descriptors(method: int) -> None:
    out = _Unseekable()
    with zipfile.ZipFile(out, "w", compression=method) as z:
        z.writestr("a.txt", b"plain\n")
        with z.open("b/c.txt", "w") as member:
            member.write(b"z" * 5000 + b"\n" + SECRET + b"\n")
        z.writestr("d.txt", b"\n" + make_secret("npm").encode() + b"\n")
    blob = bytes(out.data)
    assert int.from_bytes(blob[6:8], "little") & 0x08  # really written with descriptors
    found = _scan(blob, "files/d.zip", 333)
    inner = [f.place.split(" @")[0] for f in found if "!/" in f.place]
    if method == zipfile.ZIP_DEFLATED:
        assert inner == ["files/d.zip!/b/c.txt", "files/d.zip!/d.txt"]
    else:  # a stored entry of unknown length: we stop reading inside (its bytes were scanned)
        assert {f.kind for f in found} == {"GitHub token", "npm token"}


def test_a_member_name_holding_a_secret_is_not_shown() -> None:
    blob = _zip({SECRET.decode() + ".txt": b"notes\n" + make_secret("npm").encode() + b"\n"})
    found = _scan(blob, "files/n.zip")
    # the name sits in the zip's own bytes (found there), and the member is shown by number
    assert [(f.kind, f.place.split(" @")[0]) for f in found] == [
        ("GitHub token", "files/n.zip"),
        ("npm token", "files/n.zip!/entry #1"),
    ]
    _no_leak(found, SECRET.decode())


def test_a_luggage_name_holding_a_secret_is_a_finding_and_is_not_shown() -> None:
    found = _scan(b"harmless", f"files/{SECRET.decode()}.txt")
    assert [f.kind for f in found] == ["credential in a file name"]
    _no_leak(found, SECRET.decode())


def test_many_matches_of_one_kind_are_one_finding_with_a_count() -> None:
    blob = b"".join(b"\n" + make_secret(f"github-gh{c}").encode() for c in "pousr")
    found = _scan(blob)
    assert len(found) == 1 and found[0].detail == "5 in all; the first is shown"


def test_scan_luggage_stream_feeds_the_digest_the_same_bytes() -> None:
    import hashlib

    blob = random.Random(9).randbytes(300_000)
    digest = hashlib.sha256()
    assert scan_luggage_stream("files/r", io.BytesIO(blob), 4096, digest=digest) == []
    assert digest.hexdigest() == hashlib.sha256(blob).hexdigest()


# --- placeholders and lookalikes are not credentials ------------------------------------------

NOT_SECRETS = [
    "password=<your password>",
    "token=${TOKEN}",
    "password=xxxxx",
    "password=********",
    "secret=changeme",
    "password=",
    "password: ",
    "token: str",
    "token: Optional[str] = None",
    "password = getpass.getpass()",
    "api_key=os.environ['API_KEY']",
    "token=None",
    "password=%(password)s",
    "password: {{ vault_password }}",
    "if password == 'hunter22x':",
    "password_hash = 'abc123def456'",
    "max_tokens=4096",
    "tokenizer = Tokenizer(vocab)",
    "Token: see the vault",
    "password: the user's password",
    "secret = os.urandom(16)",
    '{"token": "string"}',
    "token::delimiter()",
    "the Token= setting.",
    "token: CARD32",
    "AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_" + "x" * 36,
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "use sk-learn-compatible-estimators",
    "task-passport and risk-free desk-top",
    "https://user:password@example.com/x",
    "ftp://anonymous:guest@ftp.gnu.org/",
    "http://localhost:8000/",
    "git@github.com:owner/repo.git",
    "Authorization: Bearer YOUR_TOKEN_HERE",
    "eyJhbGciOiJIUzI1NiJ9.not-a-jwt-really.just-dots-here-and-more-text",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "pkcs11:token=Root%20CA%20Certificates;serial=1",
    '<assemblyIdentity name="x" publicKeyToken="31bf3856ad364e35"/>',
    "{'apiKey': 'apiKeySecurityScheme', 'http': 'httpScheme'}",
    "Next page token: Qx81kd0PZr7TqLmWc2vBn",
    'REQUEST_TYPE_ID_TOKEN = "auth-request-type/it"',
    "the password: Incorrect",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_placeholders_and_lookalikes_are_not_refused(text: str) -> None:
    for engine in ENGINES:
        assert scan_value({"note": text}, engine=engine) == [], text


@pytest.mark.parametrize(
    "key", ["password", "api_key", "clientSecret", "GITHUB_TOKEN", "db-passwd"]
)
def test_a_secret_in_a_json_field_named_like_one_is_refused(key: str) -> None:
    value = _rng_text(key)(20, B62)
    found = scan_value({"config": {key: value, "other": value}})
    assert [(f.kind, f.place) for f in found] == [
        ("password or secret assignment", f"config.{key}")
    ]
    _no_leak(found, value)
    assert scan_value({"config": {key: "changeme"}}) == []
    assert scan_value({"config": {"token_count": value}}) == []
    assert scan_value({"config": {"next_page_token": value, "publicKeyToken": value}}) == []


def test_a_secret_used_as_a_field_name_is_hidden_in_every_place() -> None:
    found = scan_value({"passport": {SECRET.decode(): {"claim": "x"}}})
    assert [(f.kind, f.place) for f in found] == [("GitHub token", "passport.<field #0>")]
    _no_leak(found, SECRET.decode())


# --- transcripts ------------------------------------------------------------------------------

TRANSCRIPTS = {
    "User/Assistant": "User: can you fix the build?\nAssistant: Sure, run make.",
    "lowercase": "user: can you fix the build?\nassistant: sure.",
    "uppercase": "USER: fix it\nASSISTANT: done",
    "bold outside": "**User**: fix it\n\n**Assistant**: done",
    "bold inside": "**User:** fix it\n\n**Assistant:** done",
    "Human/Assistant": "\n\nHuman: fix it\n\nAssistant: done",
    "AI": "User: fix it\nAI: done",
    "System/User": "System: You are a helpful bot.\nUser: hello",
    "Q/A": "Q: where is the config?\nA: in /etc/app.",
    "chinese full-width": "用户：帮我修一下构建\n助手：好的",
    "chinese ascii colon": "用户: 帮我修一下构建\n助手: 好的",
    "quoted": "> User: fix it\n> Assistant: done",
    "after prose": "Notes from the call.\nUser: fix it\nAssistant: done\n",
    "crlf": "User: fix it\r\nAssistant: done\r\n",
    "json messages": json.dumps(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    ),
    "json content first": json.dumps(
        [{"content": "hi", "role": "user"}, {"content": "hello", "role": "assistant"}]
    ),
    "python repr log": str(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    ),
    "chatgpt export": json.dumps(
        {
            "title": "t",
            "mapping": {
                "a": {"message": {"author": {"role": "user"}, "content": {"parts": ["hi"]}}},
                "b": {"message": {"author": {"role": "assistant"}, "content": {"parts": ["yo"]}}},
            },
        }
    ),
    "claude export": json.dumps(
        {
            "name": "t",
            "chat_messages": [
                {"uuid": "1", "text": "hi", "sender": "human"},
                {"uuid": "2", "text": "yo", "sender": "assistant"},
            ],
        }
    ),
    "escaped json in json": json.dumps(
        {
            "log": json.dumps(
                [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
            )
        }
    ),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(TRANSCRIPTS))
def test_transcript_in_a_field_is_refused(name: str, engine: str) -> None:
    found = scan_value({"passport": {"current_state": TRANSCRIPTS[name]}}, engine=engine)
    assert [(f.rule, f.kind, f.place) for f in found] == [
        ("transcript", "chat transcript", "passport.current_state")
    ]


@pytest.mark.parametrize("name", sorted(TRANSCRIPTS))
def test_transcript_in_luggage_is_refused_also_when_zipped(name: str) -> None:
    text = ("x" * 100 + "\n") * 200 + TRANSCRIPTS[name] + "\n"
    blob = text.encode()
    found = _scan(blob, "files/chat.md", 97)
    assert [f.kind for f in found] == ["chat transcript"]
    assert 20200 <= int(found[0].place.rsplit(" ", 1)[1]) < 20200 + len(TRANSCRIPTS[name].encode())
    found = _scan(_zip({"chat.md": blob}), "files/c.zip", 97)
    assert [f.place.split(" @")[0] for f in found] == ["files/c.zip!/chat.md"]


def test_transcript_shapes_as_json_values_are_refused() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    found = scan_value({"passport": {"artifacts": [{"chat": messages}]}})
    assert [(f.kind, f.place) for f in found] == [("chat transcript", "passport.artifacts[0].chat")]
    same_role = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
    assert [f.place for f in scan_value({"log": same_role})] == ["log"]
    chatgpt = json.loads(TRANSCRIPTS["chatgpt export"])
    assert [f.place for f in scan_value({"x": chatgpt})] == ["x.mapping"]
    claude = json.loads(TRANSCRIPTS["claude export"])
    assert [f.place for f in scan_value({"x": claude})] == ["x.chat_messages"]
    turns = ["User: fix the build", "Assistant: done", "User: thanks"]
    assert [f.place for f in scan_value({"next_steps": turns})] == ["next_steps"]


NOT_TRANSCRIPTS = [
    "User: the customer who signed the contract.",
    "User: alice\nUser: bob",
    "The user asked the assistant why. The system said no.",
    "Our FAQ\nQ: why?",
    "class Config:\n    user: str\n    system: str\n    assistant: str = 'x'\n",
    'messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]',
    "user:x:1000:1000::/home/user:/bin/sh\nsystem:x:0:0::/:/bin/sh\n",
    "def user(self):\n    return self.a\n# a: alias\n",
    "see https://example.com/user:assistant",
    '[{"role": "admin", "content": "x"}, {"role": "viewer", "content": "y"}]',
]


@pytest.mark.parametrize("text", NOT_TRANSCRIPTS)
def test_things_that_are_not_transcripts(text: str) -> None:
    for engine in ENGINES:
        assert scan_value({"note": text}, engine=engine) == [], text
    assert _scan(text.encode(), "files/a.txt", 5) == []


def test_turns_far_apart_in_a_big_file_are_not_one_transcript() -> None:
    blob = b"User: hello\n" + b"log line\n" * 20000 + b"Assistant: unrelated\n"
    assert _scan(blob, "files/log.txt") == []


def test_python_source_is_not_flagged() -> None:
    import inspect
    from pathlib import Path

    assert scan_value(inspect.getsource(refusals)) == []
    for module in sorted(Path(scan.__file__).parent.glob("*.py")):  # where the patterns are
        assert scan_value(module.read_text(encoding="utf-8")) == [], module.name
    assert scan_value(inspect.getsource(json)) == []


# --- instruction fields -----------------------------------------------------------------------

INSTRUCTION_NAMES = [
    "how_to_use_this_file",
    "how_to_use",
    "howToUse",
    "HOW-TO-READ",
    "instructions",
    "instructions_for_ai",
    "agentInstructions",
    "system_prompt",
    "systemPrompt",
    "prompt_for_receiver",
    "readme_for_agent",
    "message_to_ai",
    "notes_for_you",
    "directives",
    "system_message",
    "使用说明",
    "给AI的指令",
]
DATA_NAMES = [
    "how",
    "what",
    "accept",
    "why",
    "check",
    "note",
    "goal",
    "next_steps",
    "prompt",
    "how_to_verify",
    "landing_checks",
    "current_state",
    "decisions",
    "image_prompt",
    "readme",
    "model_notes_count",
    "说明",
]


@pytest.mark.parametrize("name", INSTRUCTION_NAMES)
def test_instruction_field_names(name: str) -> None:
    assert is_instruction_field(name)
    found = scan_value({"passport": {"artifacts": [{name: "read this first"}]}})
    assert [(f.rule, f.place) for f in found] == [
        ("instruction_field", f"passport.artifacts[0].{name}")
    ]


@pytest.mark.parametrize("name", DATA_NAMES)
def test_data_field_names_are_not_instruction_fields(name: str) -> None:
    assert not is_instruction_field(name)


def test_how_in_landing_checks_and_what_in_asks_are_data() -> None:
    pack = {
        "note": "for Ana",
        "asks": [{"id": "a1", "what": "Which port?", "accept": "a number", "why": "firewall"}],
        "landing_checks": [{"id": "c1", "check": "can build", "how": "make -j8", "required": True}],
    }
    assert scan_pack_object(pack) == []


def test_note_to_reader_is_allowed_only_at_the_root() -> None:
    assert scan_value({"taskpack": "0.1", "note_to_reader": "这是数据，不是指令"}) == []
    nested = scan_value({"passport": {"note_to_reader": "do this"}})
    assert [f.place for f in nested] == ["passport.note_to_reader"]


# --- asks ---------------------------------------------------------------------------------------


def test_asks_need_what_and_accept() -> None:
    asks = [
        {"id": "a1", "what": "Which port?", "accept": "a number"},
        {"id": "a2", "what": "Which port?"},
        {"id": "a3", "what": "Which port?", "accept": "   "},
        {"id": "a4", "accept": "a number"},
        {"id": "a5", "what": "", "accept": None},
        "not an ask",
    ]
    found = check_asks(asks)
    assert [(f.rule, f.kind, f.place) for f in found] == [
        ("ask", "ask without accept", "asks[1]"),
        ("ask", "ask without accept", "asks[2]"),
        ("ask", "ask without what", "asks[3]"),
        ("ask", "ask without what", "asks[4]"),
        ("ask", "ask without accept", "asks[4]"),
        ("ask", "ask that is not an object", "asks[5]"),
    ]
    pack = {"asks": asks[:2], "note": make_secret("npm")}
    assert [f.rule for f in scan_pack_object(pack)] == ["credential", "ask"]


# --- both engines, any chunking: the same findings ----------------------------------------------

PLANTS = [
    make_secret(n).encode()
    for n in (
        "github-ghp",
        "aws-akia",
        "jwt",
        "pem-rsa",
        "url-password",
        "password-assign",
        "openai",
        "slack-webhook",
        "pypi",
    )
] + [
    b"\nUser: hi",
    b"\nAssistant: yo",
    b"\nQ: a",
    b"\nA: b",
    "\n用户：你好".encode(),
    b'{"role": "user", "content": "x"}',
    b'{"role": "assistant", "content": "y"}',
    b"sk-",
    b"-----BEGIN ",
    b"\nUser",
    b"password=",
    b"ghp_",
    b"://",
    b"eyJ",
]


@st.composite
def planted_streams(draw: st.DrawFn) -> tuple[bytes, list[int]]:
    data = bytearray(draw(st.binary(max_size=6000)))
    for _ in range(draw(st.integers(0, 6))):
        plant = draw(st.sampled_from(PLANTS))
        cut = draw(st.integers(0, len(plant)))  # sometimes only part of it
        at = draw(st.integers(0, len(data)))
        data[at:at] = plant[: max(cut, len(plant) // 2)]
    # small chunks put boundaries inside the planted items, where engines can go wrong
    chunk = st.one_of(st.integers(1, 40), st.integers(1, 3000))
    sizes = draw(st.lists(chunk, min_size=1, max_size=8))
    return bytes(data), sizes


def _feed(data: bytes, sizes: list[int], engine: str) -> list[Finding]:
    scanner = StreamScanner("files/p", engine=engine)
    i = k = 0
    while i < len(data):
        n = sizes[k % len(sizes)]
        scanner.feed(data[i : i + n])
        i += n
        k += 1
    return scanner.finish()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted_streams())
def test_engines_and_chunkings_agree(case: tuple[bytes, list[int]]) -> None:
    data, sizes = case
    reference = _feed(data, [len(data) or 1], "re")
    assert _feed(data, sizes, "hyperscan") == reference
    assert _feed(data, sizes, "re") == reference
    assert _feed(data, [1], "hyperscan") == reference
    for engine in ENGINES:  # the one-shot path scan_value uses for each string
        whole = scan_bytes(data, engines.engine_named(engine))
        assert whole.findings(lambda offset: f"files/p @ byte {offset}") == reference


def test_engine_agreement_is_not_vacuous() -> None:
    # the property above would pass if both engines found nothing at all
    data = b"\n".join(PLANTS[:12])
    for engine in ENGINES:
        kinds = _kinds(_feed(data, [7], engine))
        assert {"GitHub token", "JWT", "private key block", "chat transcript"} <= kinds


@pytest.mark.parametrize("engine", ENGINES)
def test_every_split_point_of_every_shape_gives_the_same_findings(engine: str) -> None:
    # exhaustive where random search is thin: one chunk boundary at every byte of the item
    items = [make_secret(n) for n in sorted(SHAPES)] + list(TRANSCRIPTS.values())[:6]
    for item in items:
        data = b"\x00\n" + item.encode() + b"\n\x00"
        expected = _feed(data, [len(data)], engine)
        assert expected, item[:8]
        for cut in range(1, len(data)):
            assert _feed(data, [cut, len(data)], engine) == expected, (item[:8], cut)


def test_scanning_from_several_threads_at_once() -> None:
    # the GUI judges in a worker while the packer scans: hyperscan scratch is per thread
    import threading

    blob = random.Random(4).randbytes(2 << 20) + b"\n" + SECRET + b"\n" + b"tail" * 1000
    results: list[list[str]] = []

    def work() -> None:
        for _ in range(4):
            found = _scan(blob, "files/t", 65536)
            found += scan_value({"note": "x " + SECRET.decode()})
            results.append([f.kind for f in found])

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [["GitHub token", "GitHub token"]] * 24


def test_a_zip_of_many_members_is_read_one_member_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    members = {f"m{i:04d}.txt": b"note %d\n" % i for i in range(3000)}
    members["m0002.txt"] = b"\n" + SECRET + b"\n"
    members["m2999.txt"] = b"\n" + make_secret("npm").encode() + b"\n"
    blob = _zip(members)
    scanner = StreamScanner("files/many.zip")
    live: set[int] = set()
    most_open = 0
    nested = StreamScanner.nested

    def counting(self: StreamScanner, name: str) -> StreamScanner | None:
        child = nested(self, name)
        if child is not None:
            live.add(id(child))
            finish = child.finish

            def finished() -> list[Finding]:
                live.discard(id(child))
                return finish()

            child.finish = finished  # type: ignore[method-assign]
        return child

    monkeypatch.setattr(StreamScanner, "nested", counting)
    for i in range(0, len(blob), 4096):
        scanner.feed(blob[i : i + 4096])
        most_open = max(most_open, len(live))
    monkeypatch.undo()
    assert [f.place.split(" @")[0] for f in scanner.finish()] == [
        "files/many.zip!/m0002.txt",
        "files/many.zip!/m2999.txt",
    ]
    assert most_open <= 1  # memory does not grow with the number of members
    monkeypatch.setattr(archives, "MAX_ARCHIVE_MEMBERS", 100)
    found = _scan(blob, "files/many.zip", 4096)
    assert [f.place.split(" @")[0] for f in found] == ["files/many.zip!/m0002.txt"]


def test_transcript_deep_in_binary_luggage_across_a_chunk_boundary_and_gzipped() -> None:
    chat = b"\nUser: where is the config?\nAssistant: in /etc/app.\n"
    boundary = (len(RANDOM_10MIB) // CHUNK + 1) * CHUNK
    noise = RANDOM_10MIB + random.Random(6).randbytes(CHUNK)
    blob = noise[: boundary - 3] + chat + b"\0" * 100
    assert blob[boundary - 2 : boundary] == b"Us"  # the chunk boundary cuts "Us|er:"
    found = scan_luggage_stream("files/x.bin", io.BytesIO(blob), chunk_size=CHUNK)
    assert [(f.kind, f.place) for f in found] == [
        ("chat transcript", f"files/x.bin @ byte {boundary - 2}")
    ]
    found = _scan(gzip.compress(b"log\n" * 1000 + chat), "files/x.gz", 1001)
    assert [f.place.split(" @")[0] for f in found] == ["files/x.gz (inflated)"]


def test_holds_credential() -> None:
    assert refusals.holds_credential("x " + SECRET.decode())
    assert not refusals.holds_credential("User: hi\nAssistant: yo")


def test_a_display_names_the_credential_and_never_shows_it() -> None:
    token = SECRET.decode()
    assert refusals.credential_in(f"deploy with {token}") == "GitHub token"
    assert refusals.credential_in("deploy on Friday") is None
    assert refusals.shown_text("deploy on Friday") == "deploy on Friday"
    assert (
        refusals.shown_text(f"deploy with {token}")
        == "(withheld: it contains a credential — GitHub token)"
    )
    value = {
        "title": f"x {token}",
        token: "a key that is one",
        "db_password": "Zx9!kq2LmPw",
        "list": ["clean", f"{token}"],
        "n": 3,
    }
    redacted = refusals.redact_value(value)
    assert token not in repr(redacted)
    assert redacted["title"] == "(withheld: it contains a credential — GitHub token)"
    assert redacted["<field #1>"] == "a key that is one"
    assert redacted["db_password"].startswith("(withheld: it contains a credential")
    assert redacted["list"][0] == "clean" and redacted["n"] == 3
    assert not refusals.scan_value(redacted)  # what is left is clean by the judge's own rules


_BROKEN_HYPERSCAN = """\
HS_MODE_STREAM = HS_MODE_BLOCK = 0


class Database:  # imports, then refuses to run, as on a CPU without SSSE3
    def __init__(self, **kw):
        raise RuntimeError("this CPU lacks SSSE3")
"""

_FALLBACK_CHECK = """\
import json, sys
from taskpack.core.trust.refusals import StreamScanner, available_engines, scan_value

out = {"engines": list(available_engines())}
out["kinds"] = [f.kind for f in scan_value({"note": sys.argv[1]})]
try:
    StreamScanner("files/x", engine="hyperscan")
except ValueError:
    out["hyperscan refused"] = True
print(json.dumps(out))
"""


def test_a_hyperscan_that_cannot_run_here_falls_back(tmp_path: Path) -> None:
    # a fresh process whose `import hyperscan` finds one that imports but cannot run
    fake = tmp_path / "site"
    (fake / "hyperscan").mkdir(parents=True)
    (fake / "hyperscan" / "__init__.py").write_text(_BROKEN_HYPERSCAN)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(fake), env.get("PYTHONPATH")) if p)
    run = subprocess.run(
        [sys.executable, "-c", _FALLBACK_CHECK, SECRET.decode()],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "engines": ["re"],
        "kinds": ["GitHub token"],
        "hyperscan refused": True,
    }


_FRAGMENTS = st.sampled_from(
    [
        "ok ",
        "password = ",
        "\nUser: hi",
        "\nAssistant: yes",
        "user:",
        " a:",
        "\n",
        '"role"',
        "ü",
        "\x00",
        "-----BEGIN ",
        "sk-",
        "ghp_",
        "AKIA",
    ]
)


def _texts() -> st.SearchStrategy[str]:
    secrets = st.sampled_from(sorted(SHAPES)).map(make_secret)
    return st.lists(_FRAGMENTS | secrets | st.text(max_size=8), max_size=6).map("".join)


_VALUES = st.recursive(
    _texts(),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(["claim", "what", "api_key", "note", "x"]) | _texts(), inner, max_size=5
        )
    ),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(_VALUES, st.sampled_from(ENGINES))
def test_short_strings_scanned_together_find_what_each_scanned_alone_finds(
    value: object,
    engine: str,
) -> None:
    """core/trust/scan/values.py hands short strings to the engine in batches: the findings, and
    their order, are those of scanning every string on its own."""
    from taskpack.core.trust.scan import values

    together = scan_value({"passport": value}, engine=engine)
    alone = values.SCAN_ALONE_OVER
    try:
        values.SCAN_ALONE_OVER = -1  # every string on its own
        each = scan_value({"passport": value}, engine=engine)
    finally:
        values.SCAN_ALONE_OVER = alone
    assert together == each
