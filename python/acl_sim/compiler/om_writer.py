"""Writes the acl_sim `.om` container (docs/om_format.md, version 1)."""
from __future__ import annotations

import hashlib
import json
import struct
import zlib

import numpy as np

from .. import dtypes

MAGIC = b"ACLSIMOM"
VERSION = 1
HEADER_SIZE = 64
SECTION_ENTRY = 32
SECTION_IODESC, SECTION_GRAPH, SECTION_MEMPLAN, SECTION_WEIGHTS, SECTION_META = 1, 2, 3, 4, 5
ALIGN = 64

ACL_FORMATS = {"NCHW": 0, "NHWC": 1, "ND": 2}


def acl_dtype(dtype) -> int:
    from .errors import CompileError

    try:
        return dtypes.from_numpy(dtype)
    except ValueError as e:
        raise CompileError(f"tensor dtype {np.dtype(dtype)} has no aclDataType") from None


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


_CHUNK = 8 << 20


def _raw(arr: np.ndarray) -> memoryview:
    """The bytes of a C-contiguous array (via uint8, so extension dtypes like bfloat16 work too)."""
    return memoryview(arr.reshape(-1).view(np.uint8))


def _is_fill(arr: np.ndarray) -> bool:
    """A broadcast view of one value (folded ConstantOfShape): stored without materialising it."""
    return arr.size > 1 and all(st == 0 for st in arr.strides)


class WeightStore:
    """The WEIGHTS section: each distinct array stored once, 64-byte aligned.

    Arrays are kept by reference and streamed to the file in chunks, so a
    model with hundreds of MB of weights is never copied whole in memory.
    """

    def __init__(self):
        self._entries: list[tuple[int, np.ndarray]] = []
        self._size = 0
        self._index: dict[tuple, int] = {}
        self._by_id: dict[int, tuple] = {}  # id(array) -> (array, offset): profiles share array objects

    def add(self, array: np.ndarray) -> tuple[int, int]:
        """(offset, size) of `array`'s bytes (C order, little-endian)."""
        known = self._by_id.get(id(array))
        if known is not None and known[0] is array:
            return known[1], array.size * array.dtype.itemsize
        offset, nbytes = self._add(array)
        self._by_id[id(array)] = (array, offset)
        return offset, nbytes

    def _add(self, array: np.ndarray) -> tuple[int, int]:
        arr = np.asarray(array)
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        if arr.size == 0:
            key = ("empty", arr.dtype.str, arr.shape)
        elif _is_fill(arr):
            key = ("fill", arr.dtype.str, arr.shape, arr.reshape(-1)[:1].tobytes())
        else:
            arr = np.ascontiguousarray(arr)
            key = (arr.dtype.str, arr.shape, hashlib.sha1(_raw(arr)).digest())
        nbytes = arr.size * arr.dtype.itemsize
        if key in self._index:
            return self._index[key], nbytes
        offset = _align(self._size)
        self._entries.append((offset, arr))
        self._size = offset + nbytes
        self._index[key] = offset
        return offset, nbytes

    def chunks(self):
        """The section bytes as a sequence of buffers."""
        pos = 0
        for offset, arr in self._entries:
            if offset > pos:
                yield b"\0" * (offset - pos)
            nbytes = arr.size * arr.dtype.itemsize
            if nbytes == 0:
                pass
            elif _is_fill(arr):
                pattern = np.full(min(arr.size, _CHUNK // arr.dtype.itemsize), arr.reshape(-1)[0], arr.dtype).tobytes()
                left = nbytes
                while left:
                    piece = pattern if left >= len(pattern) else pattern[:left]
                    yield piece
                    left -= len(piece)
            else:
                view = _raw(arr)
                for start in range(0, nbytes, _CHUNK):
                    yield view[start:start + _CHUNK]
            pos = offset + nbytes

    @property
    def size(self) -> int:
        return self._size


def _json_bytes(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False, default=_json_default).encode("utf-8")


def _json_default(value):
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def write_om(path: str, iodesc: dict, graphs: list, memplan: dict, weights: WeightStore, meta: dict) -> int:
    """Writes the .om to `path` (atomically, streaming the weights); returns its size in bytes."""
    import os
    import tempfile

    from .errors import CompileError

    json_sections = [(SECTION_IODESC, _json_bytes(iodesc)), (SECTION_GRAPH, _json_bytes({"profiles": graphs})),
                     (SECTION_MEMPLAN, _json_bytes(memplan)), (SECTION_META, _json_bytes(meta))]
    count = len(json_sections) + 1
    pos = HEADER_SIZE + SECTION_ENTRY * count
    table = []
    for kind, data in json_sections:
        table.append((kind, zlib.crc32(data) & 0xFFFFFFFF, pos, len(data)))
        pos += len(data)
    weights_offset = _align(pos)
    crc = 0
    for chunk in weights.chunks():
        crc = zlib.crc32(chunk, crc)
    table.append((SECTION_WEIGHTS, crc & 0xFFFFFFFF, weights_offset, weights.size))
    total = weights_offset + weights.size
    head = bytearray(HEADER_SIZE + SECTION_ENTRY * count)
    struct.pack_into("<8sIIIIQ", head, 0, MAGIC, VERSION, HEADER_SIZE, count, 0, total)
    for i, (kind, c, offset, size) in enumerate(table):
        struct.pack_into("<IIQQQ", head, HEADER_SIZE + i * SECTION_ENTRY, kind, c, offset, size, 0)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".om.part")
        with os.fdopen(fd, "wb") as f:
            f.write(head)
            for _, data in json_sections:
                f.write(data)
            f.write(b"\0" * (weights_offset - pos))
            for chunk in weights.chunks():
                f.write(chunk)
        os.replace(tmp, path)
    except OSError as exc:
        raise CompileError(f"cannot write {path}: {exc.strerror or exc}") from None
    return total


def write_atomic(path: str, image: bytes) -> None:
    """Writes through a temporary file and a rename: readers never see half an .om."""
    import os
    import tempfile

    from .errors import CompileError

    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".om.part")
        with os.fdopen(fd, "wb") as f:
            f.write(image)
        os.replace(tmp, path)
    except OSError as exc:
        raise CompileError(f"cannot write {path}: {exc.strerror or exc}") from None
