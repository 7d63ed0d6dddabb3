"""One window per desk: a second launch hands its files to the running one and exits.

Double-clicking a pack in a file manager starts ``taskpack-desk FILE``; if a desk for the
same home folder is already running, the file goes to it over a local socket (named
from the user and the home folder, so two desks with different homes do not collide).

Protocol: the client sends one JSON line ``{"open": ["/abs/path", ...]}`` and waits
for the line ``ok``. An empty list only raises the running window.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

MAX_MESSAGE = 1 << 20


def server_name(home: Path) -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # pragma: no cover
        user = "user"
    digest = hashlib.sha256(f"{user}\0{Path(home).resolve()}".encode()).hexdigest()[:16]
    return f"taskpack-desk-{digest}"


def hand_off(name: str, paths: list[Path], timeout_ms: int = 1500) -> bool:
    """Give `paths` to a running desk; False when none is running (or it did not answer)."""
    sock = QLocalSocket()
    sock.connectToServer(name)
    if not sock.waitForConnected(timeout_ms):
        return False
    message = json.dumps({"open": [str(Path(p).resolve()) for p in paths]}) + "\n"
    sock.write(QByteArray(message.encode("utf-8")))
    if not sock.waitForBytesWritten(timeout_ms):
        sock.abort()
        return False
    ok = sock.waitForReadyRead(timeout_ms) and bytes(sock.readLine().data()).strip() == b"ok"
    sock.disconnectFromServer()
    return ok


class InstanceServer(QObject):
    """Listens for later launches; emits `files_received` with their paths."""

    files_received = Signal(list)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytes] = {}

    def listen(self) -> bool:
        if self.server.listen(self.name):
            return True
        # a stale socket file left by a crashed desk: nobody answered, so take it over
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            sock = self.server.nextPendingConnection()
            self._buffers[sock] = b""
            sock.readyRead.connect(lambda s=sock: self._read(s))
            sock.disconnected.connect(lambda s=sock: self._buffers.pop(s, None))
            sock.disconnected.connect(sock.deleteLater)

    def _read(self, sock: QLocalSocket) -> None:
        data = self._buffers.get(sock, b"") + bytes(sock.readAll().data())
        if len(data) > MAX_MESSAGE:
            sock.abort()
            return
        if b"\n" not in data:
            self._buffers[sock] = data
            return
        line = data.split(b"\n", 1)[0]
        self._buffers[sock] = b""
        try:
            message = json.loads(line.decode("utf-8"))
            paths = [Path(p) for p in message.get("open", []) if isinstance(p, str)]
        except (ValueError, AttributeError):
            sock.abort()
            return
        sock.write(QByteArray(b"ok\n"))
        sock.flush()
        self.files_received.emit(paths)
