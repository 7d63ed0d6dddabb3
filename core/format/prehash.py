"""A big bag's stored luggage hashed from the moment the command starts, by a helper process.

Why: judging a 1 GiB bag is one pass at the speed of sha256, but the pass could only begin
once the command had imported its modules and opened the pack (~60 ms on this VM, 8 % of
the hash's own time at 1 GiB). The hash needs none of that: only where the luggage's bytes
lie. :func:`start`, called by the ``taskpack`` entry point before anything else is
imported, forks a helper that finds the pack's big stored entries from its ZIP directory
and hashes them while the command starts; the command reads, CRC-checks and scans the same
bytes as before and takes each digest from the helper (:func:`claim`) instead of hashing
them itself. A process of its own, not a thread: a hashing thread needs the GIL between
every read and every hash, and the command's imports hold it (measured: a thread hashed at
half speed during them, and slowed them by a fifth).

Nothing here is trusted. The helper's reading of the directory is a guess that decides
only which byte ranges it hashes: a digest is used only for exactly the range that
:class:`~.zip_archive.SafeZip` verified and the reader is about to read, of the same file
(device, inode, size, modification and change times, taken before the helper started and
again after the reader's last byte). A file written while it was judged changes its change
time, and is then reported as changed, not judged on two different readings. A helper
that fails, or is gone, leaves the reader to hash the bytes itself.

POSIX only, and only from a process with a single thread (a fork copies no other thread,
and whatever lock one of them held stays held in the copy); elsewhere :func:`start` does
nothing and every reader hashes its own bytes, as before.
"""

from __future__ import annotations

import os
import stat

__all__ = ["MIN_BYTES", "Claim", "claim", "start", "stop"]

#: an entry at least this long is worth a helper (streams.READ_AHEAD_BYTES: a test holds
#: the two equal; the shorter ones are read before the helper would have hashed them)
MIN_BYTES = 8 << 20
#: the helper's reads: 1 MiB, so each chunk is hashed while it is still in the core's L2
_CHUNK = 1 << 20
#: the end of a ZIP file the helper looks at for the end-of-directory record (its
#: 22 bytes and the longest comment)
_TAIL = 22 + 0xFFFF
#: the largest central directory the helper reads (a bag's is a few KiB)
_MAX_DIRECTORY = 1 << 20
#: the most entries the helper hashes
_MAX_JOBS = 64

Identity = tuple[int, int, int, int, int]


def _identity(st: os.stat_result) -> Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _single_threaded() -> bool:
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc (macOS, …): a fork there is not known to be safe
        return False


class _Helper:
    """The helper process of this command: its pipe, what it will hash, what it has."""

    def __init__(self, pid: int, pipe: int, fd: int, identity: Identity) -> None:
        self.pid, self.pipe, self.fd, self.identity = pid, pipe, fd, identity
        self.plan: set[tuple[int, int]] | None = None
        self.digests: dict[tuple[int, int], str] = {}
        self._pending = b""
        self.ended = False

    def _read_line(self) -> bytes | None:
        """The helper's next line (blocking), or None once it has ended."""
        while b"\n" not in self._pending:
            if self.ended:
                return None
            try:
                data = os.read(self.pipe, 4096)
            except OSError:
                data = b""
            if not data:
                self.end()
                return None
            self._pending += data
        line, _, self._pending = self._pending.partition(b"\n")
        return line

    def read_plan(self) -> set[tuple[int, int]]:
        while self.plan is None:
            line = self._read_line()
            if line is None:
                self.plan = set()
            elif line.startswith(b"plan"):
                self.plan = {_span(word) for word in line.split()[1:]}
        return self.plan

    def digest(self, span: tuple[int, int]) -> str | None:
        while span not in self.digests:
            line = self._read_line()
            if line is None:
                return None
            where, _, digest = line.partition(b" ")
            self.digests[_span(where)] = digest.decode("ascii")
        if self.plan is not None and self.plan <= self.digests.keys():
            self.end()  # every digest it was to give is here
        return self.digests[span]

    def end(self) -> None:
        """Stop the helper if it still runs, reap it, close what it left open."""
        if self.ended:
            return
        self.ended = True
        import contextlib  # (here: the start, before the fork, imports nothing it can spare)

        with contextlib.suppress(OSError):
            os.kill(self.pid, 15)  # SIGTERM (it has ended already, as a rule: then a no-op)
        with contextlib.suppress(OSError):
            os.waitpid(self.pid, 0)
        for fd in (self.pipe, self.fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def _span(word: bytes) -> tuple[int, int]:
    at, _, size = word.partition(b":")
    return int(at), int(size)


_helper: _Helper | None = None


def start(path: str) -> None:
    """Start hashing the big stored entries of the ZIP file at `path` in a helper process,
    if it is one (a regular file of at least :data:`MIN_BYTES`) and this process may fork.
    Never raises: a pack it cannot open or read is left to the command to tell about."""
    global _helper
    if _helper is not None or not hasattr(os, "fork") or not _single_threaded():
        return
    try:  # a FIFO or a device is never opened (that could wait for a writer, or take
        # what a writer sends from the command's own reading): only a big regular file
        first = os.stat(path)
        if not stat.S_ISREG(first.st_mode) or first.st_size < MIN_BYTES:
            return
        flags = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size < MIN_BYTES:
            os.close(fd)
            return
        r, w = os.pipe()
    except OSError:
        os.close(fd)
        return
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        for each in (fd, r, w):
            os.close(each)
        return
    if pid == 0:  # the helper: hash, say, and leave without running anything of the command's
        code = 1
        try:
            os.close(r)
            _hash_entries(fd, st.st_size, w, parent)
            code = 0
        except BaseException:  # whatever happens, the helper only leaves
            pass
        finally:
            os._exit(code)
    os.close(w)
    _helper = _Helper(pid, r, fd, _identity(st))
    import atexit

    atexit.register(stop)


def stop() -> None:
    """End the helper (the command is done, or will not use it)."""
    global _helper
    if _helper is not None:
        _helper.end()
        _helper = None


class Claim:
    """The helper's digest of one entry's bytes, for the reader of exactly those bytes."""

    def __init__(self, helper: _Helper, fd: int, span: tuple[int, int]) -> None:
        self._helper, self._fd, self._span = helper, fd, span

    def unchanged(self) -> bool:
        """The file is the one the helper read, unwritten since (call after the last read)."""
        try:
            return _identity(os.fstat(self._fd)) == self._helper.identity
        except OSError:
            return False

    def digest(self) -> str | None:
        """The sha256 (hex) of the entry's bytes, once the helper has hashed them (this
        waits for it); None if the helper failed or is gone: hash them yourself."""
        return self._helper.digest(self._span)


def claim(fd: int, at: int, size: int) -> Claim | None:
    """The helper's digest of the `size` bytes at offset `at` of the open file `fd`, if
    it is hashing exactly those, of this very file; else None (the caller hashes)."""
    helper = _helper
    if helper is None or (helper.ended and not helper.digests):
        return None
    try:
        if _identity(os.fstat(fd)) != helper.identity:
            return None
    except OSError:
        return None
    span = (at, size)
    if span not in helper.read_plan():
        return None
    return Claim(helper, fd, span)


# ---- the helper's side -----------------------------------------------------------------


def _u16(b: bytes, at: int) -> int:
    return int.from_bytes(b[at : at + 2], "little")


def _u32(b: bytes, at: int) -> int:
    return int.from_bytes(b[at : at + 4], "little")


def _u64(b: bytes, at: int) -> int:
    return int.from_bytes(b[at : at + 8], "little")


def plan(fd: int, size: int) -> list[tuple[int, int]]:
    """(offset, length) of the data of each stored entry of at least MIN_BYTES that the ZIP
    file's directory lists, in the file's order: what the helper hashes. A guess from
    bytes nothing has checked: an unreadable, damaged or hostile file gives fewer spans
    (or none), never an error; a span lies inside the file, and no two share a byte."""
    tail_len = min(size, _TAIL)
    tail = os.pread(fd, tail_len, size - tail_len)
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) - end < 22:
        return []
    count, length, offset = _u16(tail, end + 10), _u32(tail, end + 12), _u32(tail, end + 16)
    if 0xFFFF in (count,) or 0xFFFFFFFF in (length, offset):  # ZIP64: its own record
        locator = tail[end - 20 : end] if end >= 20 else b""
        if not locator.startswith(b"PK\x06\x07"):
            return []
        at = _u64(locator, 8)
        record = os.pread(fd, 56, at) if at + 56 <= size else b""
        if len(record) < 56 or not record.startswith(b"PK\x06\x06"):
            return []
        count, length, offset = _u64(record, 32), _u64(record, 40), _u64(record, 48)
    if length > _MAX_DIRECTORY or offset + length > size:
        return []
    directory = os.pread(fd, length, offset)
    spans: list[tuple[int, int]] = []
    p = 0
    for _ in range(min(count, len(directory) // 46)):
        if p + 46 > len(directory) or directory[p : p + 4] != b"PK\x01\x02":
            break
        method = _u16(directory, p + 10)
        packed, plain = _u32(directory, p + 20), _u32(directory, p + 24)
        name_len, extra_len = _u16(directory, p + 28), _u16(directory, p + 30)
        comment_len, local = _u16(directory, p + 32), _u32(directory, p + 42)
        extra = directory[p + 46 + name_len : p + 46 + name_len + extra_len]
        p += 46 + name_len + extra_len + comment_len
        if 0xFFFFFFFF in (plain, packed, local):
            plain, packed, local = _zip64_sizes(extra, plain, packed, local)
        if method != 0 or plain != packed or plain < MIN_BYTES or local + 30 > size:
            continue
        header = os.pread(fd, 30, local)
        if len(header) < 30 or not header.startswith(b"PK\x03\x04"):
            continue
        data = local + 30 + _u16(header, 26) + _u16(header, 28)
        if data + plain <= size:
            spans.append((data, plain))
            if len(spans) == _MAX_JOBS:
                break
    spans.sort()
    # entries that share bytes are a hostile directory's (SafeZip refuses them): none is
    # hashed, so the helper's work stays within one pass over the file, however it lies
    if any(at + n > spans[i + 1][0] for i, (at, n) in enumerate(spans[:-1])):
        return []
    return spans


def _zip64_sizes(extra: bytes, plain: int, packed: int, local: int) -> tuple[int, int, int]:
    """The ZIP64 extra field's values for the fields the directory record left at 0xFFFFFFFF
    (in its order: size, compressed size, offset); a field it lacks stays unusable."""
    q = 0
    while q + 4 <= len(extra):
        tag, n = _u16(extra, q), _u16(extra, q + 2)
        body = extra[q + 4 : q + 4 + n]
        q += 4 + n
        if tag != 1:
            continue
        values = [_u64(body, i) for i in range(0, len(body) - 7, 8)]
        out = []
        for field in (plain, packed, local):
            out.append(values.pop(0) if field == 0xFFFFFFFF and values else field)
        return out[0], out[1], out[2]
    return plain, packed, local


def _hash_entries(fd: int, size: int, pipe: int, parent: int) -> None:
    """The helper's work: say the plan, then each span's digest as soon as it is hashed.
    It stops when the command is gone (its parent changes) or stops reading its pipe."""
    import hashlib

    spans = plan(fd, size)
    _say(pipe, "plan " + " ".join(f"{at}:{n}" for at, n in spans))
    buf = bytearray(_CHUNK)
    view = memoryview(buf)
    for start_at, length in spans:
        h = hashlib.sha256()
        at, end = start_at, start_at + length
        while at < end:
            n = os.preadv(fd, [view[: min(_CHUNK, end - at)]], at)
            if not n:
                return  # shorter than it was: the command's own reading will say so
            h.update(view[:n])
            at += n
            if os.getppid() != parent:
                return
        _say(pipe, f"{start_at}:{length} {h.hexdigest()}")


def _say(pipe: int, line: str) -> None:
    data = (line + "\n").encode("ascii")
    while data:
        data = data[os.write(pipe, data) :]
