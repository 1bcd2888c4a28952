"""`acl-sim atc --singleop=op.json --output=dir`: compile single-operator models.

The input is CANN's single-op JSON: a list of operators, each

    {"op": "Add",
     "input_desc":  [{"format": "ND", "shape": [8, 16], "type": "int32"}, ...],
     "output_desc": [{"format": "ND", "shape": [8, 16], "type": "int32"}],
     "attr": [{"name": "transpose_x1", "type": "bool", "value": false}]}

Each operator becomes one file `<dir>/<i>_<op>_<dtype>_<format>_<dims...>....om` (CANN's
naming). The file is "ACLSIMOP" + JSON with aclDataType/aclFormat numbers; the runtime
(csrc/op/singleop_store.cpp) loads it with `acl.op.set_model_dir(dir)` and checks it again.
"""
from __future__ import annotations

import json
import os
import sys

from .. import dtypes
from .errors import CompileError

MAGIC = b"ACLSIMOP"

# CANN type strings → aclDataType numbers: the types the kernels compute on, by name and alias.
DTYPES = {**{d.name: d.value for d in dtypes.TABLE if d.computed}, **dtypes.ALIASES}
FORMATS = {"NCHW": 0, "NHWC": 1, "ND": 2, "NC1HWC0": 3, "FRACTAL_Z": 4, "HWCN": 16, "NDHWC": 27,
           "FRACTAL_NZ": 29, "NCDHW": 30, "NC": 35, "NCL": 47}
ATTR_KINDS = {"bool", "int", "float", "string", "data_type", "list_bool", "list_int", "list_float",
              "list_string", "list_list_int"}
# CANN op types the runtime maps onto its kernels (csrc/op/op_translate.cpp).
SUPPORTED_OPS = {
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Pow", "Relu", "Sigmoid", "Tanh",
    "Exp", "Log", "Abs", "Neg", "Sqrt", "Reciprocal", "Cast", "MatMul", "MatMulV2", "BatchMatMul",
    "BatchMatMulV2", "GEMM", "Conv2D", "Softmax", "SoftmaxV2", "ReduceSum", "ReduceSumD", "Transpose", "TransposeD",
}


def _desc(entry, where: str) -> dict:
    if not isinstance(entry, dict):
        raise CompileError(f"{where}: expected an object with format/shape/type")
    dtype = str(entry.get("type", "")).lower()
    if dtype not in DTYPES:
        raise CompileError(f"{where}: unsupported type '{entry.get('type')}' (one of {', '.join(sorted(DTYPES))})")
    fmt = str(entry.get("format", "ND")).upper()
    if fmt not in FORMATS:
        raise CompileError(f"{where}: unsupported format '{entry.get('format')}'")
    shape = entry.get("shape")
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise CompileError(f"{where}: shape must be a list of non-negative ints, got {shape!r}")
    return {"dtype": DTYPES[dtype], "format": FORMATS[fmt], "dims": shape}


def _attr(entry, where: str) -> dict:
    if not isinstance(entry, dict) or "name" not in entry or "type" not in entry or "value" not in entry:
        raise CompileError(f"{where}: an attr needs name, type and value")
    kind = str(entry["type"])
    if kind not in ATTR_KINDS:
        raise CompileError(f"{where}: unsupported attr type '{kind}'")
    value = entry["value"]
    if kind == "data_type" and isinstance(value, str):
        if value.lower() not in DTYPES:
            raise CompileError(f"{where}: unknown data type '{value}'")
        value = DTYPES[value.lower()]
    return {"name": str(entry["name"]), "kind": kind, "value": value}


def parse_ops(doc) -> list[dict]:
    """CANN single-op JSON (list or single object) → the model records to write."""
    ops = doc if isinstance(doc, list) else [doc]
    records = []
    for i, op in enumerate(ops):
        where = f"op {i}"
        if not isinstance(op, dict) or not isinstance(op.get("op"), str):
            raise CompileError(f"{where}: each entry needs an 'op' type name")
        if op["op"] not in SUPPORTED_OPS:
            raise CompileError(f"{where}: op type '{op['op']}' is not supported (supported: {', '.join(sorted(SUPPORTED_OPS))})")
        inputs = [_desc(d, f"{where} ({op['op']}) input {k}") for k, d in enumerate(op.get("input_desc", []))
                  if not (isinstance(d, dict) and str(d.get("format", "")).upper() == "RESERVED")]
        outputs = [_desc(d, f"{where} ({op['op']}) output {k}") for k, d in enumerate(op.get("output_desc", []))]
        if not outputs:
            raise CompileError(f"{where} ({op['op']}): output_desc is empty")
        attrs = [_attr(a, f"{where} ({op['op']}) attr {k}") for k, a in enumerate(op.get("attr", []))]
        records.append({"version": 1, "op": op["op"], "inputs": inputs, "outputs": outputs, "attrs": attrs})
    return records


def file_name(index: int, record: dict) -> str:
    parts = [str(index), record["op"]]
    for d in record["inputs"] + record["outputs"]:
        parts += [str(d["dtype"]), str(d["format"])] + [str(x) for x in d["dims"]]
    return "_".join(parts) + ".om"


def compile_singleop(json_path: str, output_dir: str) -> list[str]:
    """Write one model per operator of `json_path` into `output_dir`; returns the paths."""
    try:
        with open(json_path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise CompileError(f"cannot read {json_path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise CompileError(f"{json_path} is not valid JSON: {exc}") from None
    records = parse_ops(doc)
    os.makedirs(output_dir, exist_ok=True)
    paths = []
    for i, rec in enumerate(records):
        path = os.path.join(output_dir, file_name(i, rec))
        with open(path, "wb") as f:
            f.write(MAGIC + json.dumps(rec, separators=(",", ":")).encode())
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = {}
    for arg in argv:
        if arg.startswith("--") and "=" in arg:
            key, value = arg[2:].split("=", 1)
            opts[key] = value
    try:
        if not opts.get("singleop"):
            raise CompileError("--singleop=<op.json> is required")
        if not opts.get("output"):
            raise CompileError("--output=<dir> is required")
        paths = compile_singleop(opts["singleop"], opts["output"])
    except CompileError as exc:
        print(f"ATC run failed: {exc}", file=sys.stderr)
        return 1
    for p in paths:
        print(f"[INFO] ATC single op model: {p}")
    print(f"ATC run success, {len(paths)} single-op model(s) in {opts['output']}")
    return 0
