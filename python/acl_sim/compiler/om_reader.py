"""Reads and validates an acl_sim `.om` (docs/om_format.md) in Python: for tests and inspection.

The runtime has its own C++ reader; this one applies the same checks so the
tests can assert a file is well-formed before the C++ side sees it.
"""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass

import numpy as np

from .. import dtypes
from .om_writer import (HEADER_SIZE, MAGIC, SECTION_ENTRY, SECTION_GRAPH, SECTION_IODESC, SECTION_MEMPLAN,
                        SECTION_META, SECTION_WEIGHTS, VERSION)

JSON_CAP = 256 << 20


class OmFormatError(ValueError):
    pass


@dataclass
class OmFile:
    version: int
    iodesc: dict
    graph: dict
    memplan: dict | None
    meta: dict | None
    weights: memoryview
    weights_offset: int  # file offset of the WEIGHTS section

    def profile(self, i: int = 0) -> dict:
        return self.graph["profiles"][i]

    def weight(self, tensor: dict) -> np.ndarray:
        """The array of a `kind: weight` tensor description."""
        dtype = dtypes.NUMPY_OF_ACL[tensor["dtype"]]
        raw = self.weights[tensor["offset"]:tensor["offset"] + tensor["size"]]
        return np.frombuffer(raw, dtype=dtype).reshape(tensor["shape"])


def read_om(data) -> OmFile:
    """Parses bytes or a path; raises OmFormatError on anything malformed."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        with open(data, "rb") as f:
            data = f.read()
    buf = memoryview(bytes(data))
    if len(buf) < HEADER_SIZE:
        raise OmFormatError("file shorter than the header")
    magic, version, header_size, count, flags, total = struct.unpack_from("<8sIIIIQ", buf, 0)
    if magic != MAGIC:
        raise OmFormatError("bad magic")
    if version != VERSION:
        raise OmFormatError(f"unsupported version {version}")
    if header_size != HEADER_SIZE or not 1 <= count <= 16 or total != len(buf):
        raise OmFormatError("bad header (size, section count or total size)")
    if HEADER_SIZE + count * SECTION_ENTRY > len(buf):
        raise OmFormatError("section table out of bounds")
    sections, spans = {}, []
    for i in range(count):
        kind, crc, offset, size, _ = struct.unpack_from("<IIQQQ", buf, HEADER_SIZE + i * SECTION_ENTRY)
        if kind in sections or not 1 <= kind <= 5:
            raise OmFormatError(f"bad or duplicate section kind {kind}")
        if offset < HEADER_SIZE + count * SECTION_ENTRY or offset + size > len(buf):
            raise OmFormatError(f"section {kind} out of bounds")
        for a, b in spans:
            if offset < b and a < offset + size:
                raise OmFormatError("sections overlap")
        spans.append((offset, offset + size))
        body = buf[offset:offset + size]
        if zlib.crc32(body) & 0xFFFFFFFF != crc:
            raise OmFormatError(f"CRC mismatch in section {kind}")
        sections[kind] = (offset, body)
    for required in (SECTION_IODESC, SECTION_GRAPH, SECTION_WEIGHTS):
        if required not in sections:
            raise OmFormatError(f"missing section {required}")
    if sections[SECTION_WEIGHTS][0] % 64:
        raise OmFormatError("WEIGHTS section not 64-byte aligned")

    def js(kind):
        if kind not in sections:
            return None
        body = sections[kind][1]
        if len(body) > JSON_CAP:
            raise OmFormatError("JSON section too large")
        try:
            return json.loads(bytes(body).decode("utf-8"))
        except ValueError as exc:
            raise OmFormatError(f"section {kind}: bad JSON ({exc})") from None

    return OmFile(version, js(SECTION_IODESC), js(SECTION_GRAPH), js(SECTION_MEMPLAN), js(SECTION_META),
                  sections[SECTION_WEIGHTS][1], sections[SECTION_WEIGHTS][0])
