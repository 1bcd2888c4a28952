"""Helpers for the model-runtime tests: build small `.om` images by hand and
damage them in controlled ways (docs/om_format.md).

Not part of the product surface: users compile with `acl-sim atc` and run
through `acl.mdl`. The tests use these to exercise the C++ reader
(`csrc/model/om_reader.*`) on graphs smaller than any ONNX model, and on
files that are corrupt in exactly one way.
"""
from __future__ import annotations

import struct
import zlib

import numpy as np

from . import dtypes
from .compiler.om_writer import (ALIGN, HEADER_SIZE, MAGIC, SECTION_ENTRY, SECTION_GRAPH,
                                 SECTION_IODESC, SECTION_MEMPLAN, SECTION_META, SECTION_WEIGHTS, VERSION,
                                 WeightStore, _json_bytes)

__all__ = ["GraphBuilder", "build_image", "sections", "replace_section", "patch_header"]


class GraphBuilder:
    """One profile's graph: tensors (workspace/input/output/weight) and nodes, planned naively."""

    def __init__(self, weights: WeightStore):
        self.weights = weights
        self.tensors: list[dict] = []
        self.nodes: list[dict] = []
        self.workspace_size = 0

    def _tensor(self, name, dtype, shape, **fields) -> int:
        dt = np.dtype(dtype)
        size = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        self.tensors.append({"name": name, "dtype": dtypes.from_numpy(dt), "shape": list(shape), "size": size, **fields})
        return len(self.tensors) - 1

    def input(self, name, dtype, shape, index) -> int:
        return self._tensor(name, dtype, shape, kind="input", index=index)

    def output(self, name, dtype, shape, index) -> int:
        return self._tensor(name, dtype, shape, kind="output", index=index)

    def weight(self, name, array) -> int:
        array = np.ascontiguousarray(array)
        offset, _ = self.weights.add(array)
        return self._tensor(name, array.dtype, array.shape, kind="weight", offset=offset)

    def workspace(self, name, dtype, shape, offset=None) -> int:
        """A workspace tensor at `offset` (default: after every other one, 64-byte aligned)."""
        dt = np.dtype(dtype)
        size = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        if offset is None:
            offset = (self.workspace_size + ALIGN - 1) // ALIGN * ALIGN
        self.workspace_size = max(self.workspace_size, offset + size)
        return self._tensor(name, dtype, shape, kind="workspace", offset=offset)

    def node(self, op, inputs, outputs, name=None, **attrs) -> None:
        self.nodes.append({"name": name or f"{op}_{len(self.nodes)}", "op": op, "inputs": list(inputs),
                           "outputs": list(outputs), "attrs": attrs, "sources": [name or op]})

    def to_json(self) -> dict:
        return {"workspace_size": self.workspace_size, "tensors": self.tensors, "nodes": self.nodes}


def io_entry(name, dtype, dims, size, fmt=2) -> dict:
    return {"name": name, "dtype": dtypes.from_numpy(dtype), "format": fmt, "dims": list(dims), "size": int(size)}


def build_image(iodesc: dict, graphs: list[dict], weights: WeightStore, meta: dict | None = None,
                memplan: dict | None = None) -> bytes:
    """The bytes of an .om with these sections, laid out as om_writer does."""
    jsons = [(SECTION_IODESC, _json_bytes(iodesc)), (SECTION_GRAPH, _json_bytes({"profiles": graphs})),
             (SECTION_MEMPLAN, _json_bytes(memplan or {"profiles": []})), (SECTION_META, _json_bytes(meta or {}))]
    weight_bytes = b"".join(bytes(c) for c in weights.chunks())
    return assemble(jsons + [(SECTION_WEIGHTS, weight_bytes)])


def assemble(sections_in_order: list[tuple[int, bytes]]) -> bytes:
    """Header + table + sections (WEIGHTS 64-byte aligned), CRCs computed."""
    count = len(sections_in_order)
    pos = HEADER_SIZE + SECTION_ENTRY * count
    body = bytearray()
    table = []
    for kind, data in sections_in_order:
        if kind == SECTION_WEIGHTS:
            pad = (-(pos + len(body))) % ALIGN
            body += b"\0" * pad
        offset = pos + len(body)
        table.append((kind, zlib.crc32(data) & 0xFFFFFFFF, offset, len(data)))
        body += data
    head = bytearray(pos)
    struct.pack_into("<8sIIIIQ", head, 0, MAGIC, VERSION, HEADER_SIZE, count, 0, pos + len(body))
    for i, entry in enumerate(table):
        struct.pack_into("<IIQQQ", head, HEADER_SIZE + i * SECTION_ENTRY, *entry, 0)
    return bytes(head + body)


def sections(image: bytes) -> list[tuple[int, bytes]]:
    """[(kind, bytes)] of a well-formed image, in table order."""
    count = struct.unpack_from("<I", image, 16)[0]
    out = []
    for i in range(count):
        kind, _crc, offset, size, _ = struct.unpack_from("<IIQQQ", image, HEADER_SIZE + i * SECTION_ENTRY)
        out.append((kind, image[offset:offset + size]))
    return out


def replace_section(image: bytes, kind: int, data: bytes) -> bytes:
    """The image with section `kind` replaced by `data` and every CRC valid (content-level damage)."""
    return assemble([(k, data if k == kind else d) for k, d in sections(image)])


def patch_header(image: bytes, offset: int, fmt: str, value) -> bytes:
    """The image with one header/table field overwritten (container-level damage)."""
    out = bytearray(image)
    struct.pack_into(fmt, out, offset, value)
    return bytes(out)
