"""Bearer tokens: the secret in the system keyring, a non-secret index in the home.

Two kinds of token, one name space each:

* ``accept`` — made here by ``taskpack token add NAME``: a peer presents it to this
  desk's A2A endpoint, and NAME is the *principal* it stands for. The token is printed
  once and kept nowhere: the index keeps its sha256 — all the server needs: it hashes
  an incoming bearer and looks the hash up. A token that is lost is revoked and made
  again.
* ``remote`` — given to this desk by a peer (``taskpack token add NAME --remote``, read
  from stdin, never from the command line): this desk presents it when it sends a pack
  to that peer (``taskpack send --token-name NAME``).

The keyring cannot list its entries, hence the index. Keyring entries are named
``<desk id>/<kind>/<name>`` under the service ``taskpack-desk``, so two desks of one
user on one machine (two ``TASKPACK_HOME`` folders) never read each other's tokens.
Revoking deletes the index row (the server stops accepting it at once) and the secret.

Tests use :class:`MemoryKeyring` (``keyring.set_keyring(MemoryKeyring())``); it is never
picked by keyring on its own. No token is ever written to a plain file: a keyring backend
that would (keyrings.alt's plaintext file, which only base64-encodes) is refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import secrets
from dataclasses import dataclass

from taskpack.app.a2a.ledger import A2AStore, TokenRow
from taskpack.core.errors import NotFound, UsageError

SERVICE = "taskpack-desk"
PREFIX = "tpk_"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


class KeyringUnavailable(UsageError):
    hint = (
        "Install or unlock a system keyring (GNOME Keyring / KWallet via Secret Service, "
        "macOS Keychain, Windows Credential Manager) and try again."
    )


def _unavailable(exc: Exception, failed: str) -> KeyringUnavailable:
    """One sentence for a keyring that failed: none at all (keyring's own message is a
    paragraph of package advice), or the one there refused."""
    import keyring.errors

    if isinstance(exc, keyring.errors.NoKeyringError):
        return KeyringUnavailable(f"no system keyring works on this computer, so {failed}")
    return KeyringUnavailable(f"the system keyring failed, so {failed} ({exc})")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(name: str) -> str:
    if not NAME_RE.match(name or ""):
        raise UsageError(
            f"{name!r} is not a usable token name",
            hint="Use 1–64 letters, digits, dots, dashes, underscores or @, e.g. ana-laptop.",
        )
    return name


def _entry(store: A2AStore, kind: str, name: str) -> str:
    return f"{store.desk_id}/{kind}/{name}"


def _plain_file_backend() -> str | None:
    """The name of the keyring backend in use when it writes secrets to a plain file."""
    import keyring

    ring = keyring.get_keyring()
    rings = list(getattr(ring, "backends", None) or [ring])
    for one in rings:
        kind = type(one)
        if "plaintext" in kind.__name__.lower() or (
            kind.__module__ == "keyrings.alt.file" and ("Encrypted" not in kind.__name__)
        ):
            return f"{kind.__module__}.{kind.__name__}"
    return None


def _refuse_plain_file() -> None:
    name = _plain_file_backend()
    if name is not None:
        raise KeyringUnavailable(
            f"the keyring backend {name} keeps secrets in a plain file; "
            "a token is never stored that way"
        )


def _keyring_set(entry: str, secret: str) -> None:
    import keyring
    import keyring.errors

    _refuse_plain_file()
    try:
        keyring.set_password(SERVICE, entry, secret)
    except keyring.errors.KeyringError as exc:
        raise _unavailable(exc, "the token was not stored") from None


def _keyring_get(entry: str) -> str | None:
    import keyring
    import keyring.errors

    _refuse_plain_file()
    try:
        return keyring.get_password(SERVICE, entry)
    except keyring.errors.KeyringError as exc:
        raise _unavailable(exc, "the token could not be read") from None


def _keyring_delete(entry: str) -> None:
    import keyring
    import keyring.errors

    try:
        keyring.delete_password(SERVICE, entry)
    except keyring.errors.PasswordDeleteError:
        pass  # already gone: revoking is about the index row, which is removed anyway
    except keyring.errors.KeyringError as exc:
        raise _unavailable(exc, "the token could not be deleted") from None


@dataclass(frozen=True)
class NewToken:
    name: str
    token: str  # shown once


def add_token(store: A2AStore, name: str) -> NewToken:
    """Mint a token a peer will use against this desk; its principal is `name`."""
    check_name(name)
    if store.token("accept", name) is not None:
        raise UsageError(
            f"a token named {name!r} already exists",
            hint=f"Revoke it first with `taskpack token revoke {name}`, or pick another name.",
        )
    token = PREFIX + secrets.token_urlsafe(32)
    store.add_token("accept", name, token_hash(token))  # only its hash is kept, anywhere
    return NewToken(name, token)


def add_remote_token(store: A2AStore, name: str, token: str, *, url: str | None = None) -> TokenRow:
    """Keep a token a peer gave us (for `taskpack send`); `url` lets send find it by address."""
    check_name(name)
    token = token.strip()
    if not token or any(c.isspace() for c in token):
        raise UsageError(
            "the token is empty or contains spaces", hint="Paste exactly the token you were given."
        )
    if store.token("remote", name) is not None:
        raise UsageError(
            f"a remote token named {name!r} already exists",
            hint=f"Revoke it first with `taskpack token revoke {name} --remote`.",
        )
    _keyring_set(_entry(store, "remote", name), token)
    try:
        return store.add_token("remote", name, token_hash(token), url.rstrip("/") if url else None)
    except BaseException:
        _keyring_delete(_entry(store, "remote", name))
        raise


def get_secret(store: A2AStore, name: str, *, kind: str = "remote") -> str:
    """The secret of a token by name (for sending); NotFound if there is none."""
    if store.token(kind, name) is None:
        raise NotFound(
            f"no {kind} token named {name!r} in this desk",
            hint="See them with `taskpack token list`.",
        )
    secret = _keyring_get(_entry(store, kind, name))
    if secret is None:
        raise NotFound(
            f"the keyring no longer holds the token {name!r}",
            hint=f"Revoke it with `taskpack token revoke {name}` and add it again.",
        )
    return secret


def revoke(store: A2AStore, name: str, *, kind: str = "accept") -> None:
    if not store.remove_token(kind, name):
        raise NotFound(
            f"no {kind} token named {name!r} in this desk",
            hint="See them with `taskpack token list`.",
        )
    if kind == "accept":  # kept by desks before 0.1.x: removed when the keyring can
        with contextlib.suppress(KeyringUnavailable):
            _keyring_delete(_entry(store, kind, name))
        return
    _keyring_delete(_entry(store, kind, name))


def principal_for(store: A2AStore, bearer: str) -> str | None:
    """Who an incoming bearer token stands for, or None. Only the hash is compared."""
    if not bearer.startswith(PREFIX) or len(bearer) > 200:
        return None
    return store.principal_for_hash(token_hash(bearer))


# --- for tests only -----------------------------------------------------------------------

from keyring.backend import KeyringBackend as _Backend  # noqa: E402
from keyring.compat import properties  # noqa: E402


class MemoryKeyring(_Backend):
    """An in-memory keyring for tests and benchmarks. Never chosen automatically (it
    declares itself not viable): install it with ``keyring.set_keyring(MemoryKeyring())``."""

    @properties.classproperty
    def priority(cls) -> float:
        raise RuntimeError("the in-memory keyring is for tests only")

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        import keyring.errors

        if self.entries.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such entry")
