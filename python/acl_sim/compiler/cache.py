"""Compile cache: .om images keyed on (model bytes, options, compiler source).

Lives under $XDG_CACHE_HOME/acl_sim/atc (default ~/.cache/acl_sim/atc);
ACL_SIM_ATC_CACHE=0 disables it, ACL_SIM_ATC_CACHE_DIR moves it, and
ACL_SIM_ATC_CACHE_MAX_MB (default 2048) bounds it: the least recently used
entries go first. Entries are written atomically, so concurrent compiles of
the same model are safe.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
import tempfile

_SOURCE_HASH = None


def enabled() -> bool:
    return os.environ.get("ACL_SIM_ATC_CACHE", "1") not in ("0", "false", "off", "")


def cache_dir() -> str:
    explicit = os.environ.get("ACL_SIM_ATC_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "acl_sim", "atc")


def _compiler_source_hash() -> str:
    """Changes whenever any compiler source file does, so stale entries are never reused."""
    global _SOURCE_HASH
    if _SOURCE_HASH is None:
        h = hashlib.sha256()
        root = os.path.dirname(os.path.abspath(__file__))
        for path in sorted(glob.glob(os.path.join(root, "**", "*.py"), recursive=True)):
            h.update(path[len(root):].encode())
            with open(path, "rb") as f:
                h.update(f.read())
        _SOURCE_HASH = h.hexdigest()
    return _SOURCE_HASH


def key(model_sha256: str, options: dict) -> str:
    payload = json.dumps({"model": model_sha256, "options": options, "compiler": _compiler_source_hash()},
                         sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def _copy(src: str, dst: str) -> None:
    """Copy through a temporary name + rename (never a hard link: users may edit their .om in place)."""
    import shutil

    directory = os.path.dirname(os.path.abspath(dst))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".part")
    os.close(fd)
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(k: str, out_path: str):
    """Copies a cached .om to `out_path` and returns its report, or None on a miss."""
    if not enabled():
        return None
    om_path = os.path.join(cache_dir(), k + ".om")
    try:
        with open(os.path.join(cache_dir(), k + ".json"), encoding="utf-8") as f:
            report = json.load(f)
        if os.path.getsize(om_path) != report.get("om_bytes"):
            return None
        _copy(om_path, out_path)
        os.utime(om_path)  # recently used: evicted last
    except (OSError, ValueError):
        return None
    return report


def store(k: str, om_path: str, report: dict) -> None:
    """Keeps a copy of the freshly written `om_path` under key `k`."""
    if not enabled():
        return
    directory = cache_dir()
    try:
        _copy(om_path, os.path.join(directory, k + ".om"))
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".part")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(report, f)
        os.replace(tmp, os.path.join(directory, k + ".json"))
        _evict(directory)
    except OSError:
        pass  # a read-only or full cache directory only costs speed


def _evict(directory: str) -> None:
    """Drops least recently used entries (by .om access/modification time) beyond the size cap."""
    try:
        limit = int(os.environ.get("ACL_SIM_ATC_CACHE_MAX_MB", "2048")) << 20
    except ValueError:
        limit = 2048 << 20
    entries = []
    for path in glob.glob(os.path.join(directory, "*.om")):
        try:
            st = os.stat(path)
        except OSError:
            continue
        entries.append((max(st.st_atime, st.st_mtime), st.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        for victim in (path, path[:-3] + ".json"):
            try:
                os.unlink(victim)
            except OSError:
                pass
        total -= size
