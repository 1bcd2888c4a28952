"""AIPP (`--insert_op_conf=aipp.cfg`): parse CANN's config, check it, and put the
preprocessing node `AclSim.Aipp` in front of the model input it names.

The config is CANN's prototxt subset: one or more `aipp_op { key: value ... }`
blocks, `#` comments. Static AIPP (`aipp_mode: static`) fixes every parameter
here; dynamic AIPP (`aipp_mode: dynamic`) takes them at run time from the extra
input `ascend_dynamic_aipp_data` (filled by aclmdlSetInputAIPP). In both forms the
model input becomes the raw uint8 image and the node writes the tensor the
original model expected. The parameters travel in one binary block, the layout
of docs/aipp.md ("parameter block"), which csrc/kernels/aipp.cpp reads: a weight
for static AIPP, the user's ascend_dynamic_aipp_data buffer for dynamic AIPP.
"""
from __future__ import annotations

import re
import struct

import numpy as np

from .errors import CompileError

DYNAMIC_AIPP_INPUT = "ascend_dynamic_aipp_data"
AIPP_OP = "AclSim.Aipp"

# aclAippInputFormat numbers (acl_mdl.h) of the formats acl_sim runs.
INPUT_FORMATS = {"YUV420SP_U8": 1, "XRGB8888_U8": 2, "RGB888_U8": 3, "YUV400_U8": 4}
# CANN formats it accepts in a config but acl_sim does not run.
UNSUPPORTED_FORMATS = ("YUV422SP_U8", "YUYV_U8", "AYUV444_U8", "ARGB8888_U8", "RAW10", "RAW12", "RAW16", "RAW24",
                       "NC1HWC0DI_FP16", "NC1HWC0DI_S8")
CHANNELS = {1: 1, 2: 4, 3: 3, 4: 1}  # raw image channels per aclAippInputFormat

HEADER_BYTES, BATCH_BYTES = 64, 96


def data_size(batch: int) -> int:
    """Bytes of the parameter block for `batch` images (aclmdlGetAippDataSize)."""
    return HEADER_BYTES + BATCH_BYTES * batch


def image_bytes(fmt: int, w: int, h: int) -> int:
    """Bytes of one raw image."""
    return w * h * 3 // 2 if fmt == 1 else w * h * CHANNELS[fmt]


_BOOL = ("bool",)
# key -> (kind, lo, hi, default); kinds: bool, int, float, enum, str
_KEYS = {
    "aipp_mode": ("enum", None, None, None),
    "related_input_rank": ("int", 0, 1 << 20, 0),
    "related_input_name": ("str", None, None, ""),
    "max_src_image_size": ("int", 0, 1 << 31, 0),
    "support_rotation": ("bool", None, None, False),
    "input_format": ("enum", None, None, None),
    "src_image_size_w": ("int", 0, 4096, 0),
    "src_image_size_h": ("int", 0, 4096, 0),
    "cpadding_value": ("float", -65504, 65504, 0.0),
    "crop": ("bool", None, None, False),
    "load_start_pos_w": ("int", 0, 4095, 0),
    "load_start_pos_h": ("int", 0, 4095, 0),
    "crop_size_w": ("int", 0, 4096, 0),
    "crop_size_h": ("int", 0, 4096, 0),
    "resize": ("bool", None, None, False),
    "resize_output_w": ("int", 0, 4096, 0),
    "resize_output_h": ("int", 0, 4096, 0),
    "padding": ("bool", None, None, False),
    "left_padding_size": ("int", 0, 32, 0),
    "right_padding_size": ("int", 0, 32, 0),
    "top_padding_size": ("int", 0, 32, 0),
    "bottom_padding_size": ("int", 0, 32, 0),
    "padding_value": ("float", -65504, 65504, 0.0),
    "rotation_angle": ("int", 0, 3, 0),
    "csc_switch": ("bool", None, None, False),
    "rbuv_swap_switch": ("bool", None, None, False),
    "ax_swap_switch": ("bool", None, None, False),
    "single_line_mode": ("bool", None, None, False),
    "raw_rgbir_to_f16_n": ("int", 0, 31, 8),
}
_DEFAULT_MATRIX = (298, 516, 0, 298, -100, -208, 298, 0, 409)
for _i, _v in enumerate(_DEFAULT_MATRIX):
    _KEYS[f"matrix_r{_i // 3}c{_i % 3}"] = ("int", -32677, 32676, _v)
for _i, _v in enumerate((16, 128, 128)):
    _KEYS[f"output_bias_{_i}"] = ("int", 0, 255, _v)
    _KEYS[f"input_bias_{_i}"] = ("int", 0, 255, _v)
for _i in range(4):
    _KEYS[f"mean_chn_{_i}"] = ("int", 0, 255, 0)
    _KEYS[f"min_chn_{_i}"] = ("float", 0, 255, 0.0)
    _KEYS[f"var_reci_chn_{_i}"] = ("float", -65504, 65504, 1.0)
# Accepted only at their "off" value: CANN documents them as reserved / unsupported.
_RESERVED_OFF = {"support_rotation": False, "resize": False, "rotation_angle": 0, "single_line_mode": False,
                 "cpadding_value": 0.0}


def _tokens(text: str, where: str):
    text = re.sub(r"#[^\n]*", "", text)
    pos = 0
    token = re.compile(r'\s*(?:(?P<brace>[{}])|(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*(?P<colon>:)?'
                       r'|(?P<str>"[^"]*")|(?P<num>[-+]?[0-9.eE+-]+))')
    while pos < len(text):
        if text[pos:].strip() == "":
            return
        m = token.match(text, pos)
        if not m or m.end() == pos:
            line = text.count("\n", 0, pos) + 1
            raise CompileError(f"{where}: cannot parse the AIPP config at line {line}")
        pos = m.end()
        yield m


def parse_config(text: str, where: str = "insert_op_conf") -> list[dict]:
    """The `aipp_op` blocks of a config as {key: raw string value} dicts, in order."""
    blocks, current, key = [], None, None
    for m in _tokens(text, where):
        if m.group("brace") == "{":
            if current is not None or key != "aipp_op":
                raise CompileError(f"{where}: expected 'aipp_op {{ ... }}' blocks")
            current, key = {}, None
        elif m.group("brace") == "}":
            if current is None or key is not None:
                raise CompileError(f"{where}: unbalanced '}}' or a key without a value")
            blocks.append(current)
            current = None
        elif m.group("key") and key is None:
            key = m.group("key")
            if current is None and key != "aipp_op":
                raise CompileError(f"{where}: '{key}' outside an aipp_op block")
            if current is not None and not m.group("colon"):
                raise CompileError(f"{where}: expected '{key}: value'")
        elif current is not None and key is not None:
            value = m.group("key") or m.group("str") or m.group("num")
            if value is None:
                raise CompileError(f"{where}: '{key}' has no value")
            if key in current:
                raise CompileError(f"{where}: '{key}' is set twice in one aipp_op block")
            current[key] = value.strip('"')
            key = None
        else:
            raise CompileError(f"{where}: unexpected token in the AIPP config")
    if current is not None or key is not None:
        raise CompileError(f"{where}: the last aipp_op block is not closed")
    if not blocks:
        raise CompileError(f"{where}: no aipp_op block")
    return blocks


def _value(key: str, raw: str, where: str):
    kind, lo, hi, _ = _KEYS[key]
    if kind == "bool":
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise CompileError(f"{where}: {key} must be true or false, got '{raw}'")
    if kind in ("enum", "str"):
        return raw
    try:
        v = int(raw) if kind == "int" else float(raw)
    except ValueError:
        raise CompileError(f"{where}: {key} must be {'an integer' if kind == 'int' else 'a number'}, "
                           f"got '{raw}'") from None
    if not lo <= v <= hi:
        raise CompileError(f"{where}: {key}={raw} is out of range [{lo}, {hi}]")
    return v


def check_block(block: dict, index: int) -> dict:
    """One aipp_op block -> a complete, checked parameter dict (defaults filled in)."""
    where = f"insert_op_conf aipp_op {index}"
    unknown = sorted(set(block) - set(_KEYS))
    if unknown:
        raise CompileError(f"{where}: unknown AIPP parameter '{unknown[0]}'")
    cfg = {k: spec[3] for k, spec in _KEYS.items()}
    for k, raw in block.items():
        cfg[k] = _value(k, raw, where)
    mode = cfg["aipp_mode"]
    if mode not in ("static", "dynamic"):
        raise CompileError(f"{where}: aipp_mode must be static or dynamic, got {mode!r}")
    for k, off in _RESERVED_OFF.items():
        if cfg[k] != off:
            raise CompileError(f"{where}: {k} is reserved by CANN and not supported")
    if mode == "dynamic":
        if cfg["max_src_image_size"] <= 0:
            raise CompileError(f"{where}: dynamic AIPP needs max_src_image_size > 0")
        statics = sorted(k for k in block if k not in ("aipp_mode", "related_input_rank", "related_input_name",
                                                       "max_src_image_size", "support_rotation"))
        if statics:
            raise CompileError(f"{where}: '{statics[0]}' is a static AIPP parameter; dynamic AIPP takes its "
                               "parameters from aclmdlSetInputAIPP")
        return cfg
    fmt = cfg["input_format"]
    if fmt is None:
        raise CompileError(f"{where}: static AIPP needs input_format")
    if fmt in UNSUPPORTED_FORMATS:
        raise CompileError(f"{where}: input_format {fmt} is not supported by acl_sim "
                           f"(supported: {', '.join(INPUT_FORMATS)})")
    if fmt not in INPUT_FORMATS:
        raise CompileError(f"{where}: unknown input_format '{fmt}' (supported: {', '.join(INPUT_FORMATS)})")
    if cfg["max_src_image_size"]:
        raise CompileError(f"{where}: max_src_image_size applies to dynamic AIPP only")
    return cfg


def _geometry(cfg: dict, model_h: int, model_w: int, where: str) -> dict:
    """Source size, crop window and padding of a static config against the model's H x W."""
    pads = (cfg["top_padding_size"], cfg["bottom_padding_size"], cfg["left_padding_size"],
            cfg["right_padding_size"]) if cfg["padding"] else (0, 0, 0, 0)
    src_w, src_h = cfg["src_image_size_w"], cfg["src_image_size_h"]
    if (cfg["crop"] or cfg["padding"]) and (src_w == 0 or src_h == 0):
        raise CompileError(f"{where}: src_image_size_w/h must be set when crop or padding is on")
    if src_w == 0:
        src_w, src_h = model_w, model_h
    if src_w < 2 or src_h < 1:
        raise CompileError(f"{where}: src_image_size {src_w}x{src_h} is too small (w >= 2, h >= 1)")
    yuv = cfg["input_format"] == "YUV420SP_U8"
    if yuv and (src_w % 2 or src_h % 2):
        raise CompileError(f"{where}: YUV420SP_U8 needs an even src_image_size, got {src_w}x{src_h}")
    x0, y0 = (cfg["load_start_pos_w"], cfg["load_start_pos_h"]) if cfg["crop"] else (0, 0)
    cw, ch = (cfg["crop_size_w"], cfg["crop_size_h"]) if cfg["crop"] else (src_w, src_h)
    if cfg["crop"] and (cw == 0 or ch == 0):
        if cfg["padding"]:
            raise CompileError(f"{where}: crop_size_w/h must be set when padding is on")
        cw, ch = model_w, model_h
    if yuv and cfg["crop"] and (x0 % 2 or y0 % 2):
        raise CompileError(f"{where}: YUV420SP_U8 needs even load_start_pos_w/h, got {x0},{y0}")
    if x0 + cw > src_w or y0 + ch > src_h:
        raise CompileError(f"{where}: the crop window {cw}x{ch} at ({x0},{y0}) lies outside the "
                           f"{src_w}x{src_h} source image")
    out_h, out_w = ch + pads[0] + pads[1], cw + pads[2] + pads[3]
    if (out_h, out_w) != (model_h, model_w):
        raise CompileError(f"{where}: AIPP produces {out_h}x{out_w} (crop {ch}x{cw} plus padding) but the model "
                           f"input is {model_h}x{model_w}")
    return {"src": (src_w, src_h), "crop": (x0, y0, cw, ch), "pads": pads}


def _f16(v: float) -> float:
    return float(np.float16(v))


def pack_params(fmt: int, src_w: int, src_h: int, csc: bool, rbuv: bool, ax: bool, matrix, out_bias, in_bias,
                batches: list[dict], padding_value: float = 0.0) -> bytes:
    """The parameter block (docs/aipp.md): a 64-byte header and 96 bytes per image."""
    head = struct.pack("<BbbbbxxxiiI9hxx3B3B", fmt, int(csc), int(rbuv), int(ax), len(batches), src_w, src_h, 0,
                       *matrix, *out_bias, *in_bias)
    head += struct.pack("<f", padding_value)
    head = head.ljust(HEADER_BYTES, b"\0")
    body = b""
    for b in batches:
        rec = struct.pack("<bbbbxxxx4i4i4i4h4f4f", int(b["crop"]), 0, int(b["padding"]), 0, *b["crop_box"],
                          0, 0, 0, 0, *b["pads"], *b["mean"], *b["min"], *b["var_reci"])
        body += rec
    assert len(head) == HEADER_BYTES and len(body) == BATCH_BYTES * len(batches)
    return head + body


def static_params(cfg: dict, batch: int, model_h: int, model_w: int, model_c: int, where: str) -> tuple[bytes, dict]:
    fmt = INPUT_FORMATS[cfg["input_format"]]
    geo = _geometry(cfg, model_h, model_w, where)
    src_c = 1 if fmt == 4 else 3  # XRGB drops X; YUV420SP gives Y, U, V
    if fmt == 4 and cfg["csc_switch"]:
        raise CompileError(f"{where}: csc_switch is not supported for YUV400_U8 (a single-channel source)")
    if model_c != src_c and not (cfg["csc_switch"] and model_c == 1):
        raise CompileError(f"{where}: {cfg['input_format']} gives {src_c} channel(s) but the model input has "
                           f"{model_c}")
    matrix = [cfg[f"matrix_r{i // 3}c{i % 3}"] for i in range(9)]
    out_bias = [cfg[f"output_bias_{i}"] for i in range(3)]
    in_bias = [cfg[f"input_bias_{i}"] for i in range(3)]
    x0, y0, cw, ch = geo["crop"]
    record = {"crop": cfg["crop"], "crop_box": (x0, y0, cw, ch), "padding": cfg["padding"], "pads": geo["pads"],
              "mean": [cfg[f"mean_chn_{i}"] for i in range(4)],
              "min": [_f16(cfg[f"min_chn_{i}"]) for i in range(4)],
              "var_reci": [_f16(cfg[f"var_reci_chn_{i}"]) for i in range(4)]}
    src_w, src_h = geo["src"]
    blob = pack_params(fmt, src_w, src_h, cfg["csc_switch"], cfg["rbuv_swap_switch"], cfg["ax_swap_switch"],
                       matrix, out_bias, in_bias, [record] * batch, _f16(cfg["padding_value"]))
    return blob, {"format": fmt, "src_w": src_w, "src_h": src_h}


def load(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise CompileError(f"cannot read insert_op_conf {path}: {exc.strerror}") from None
    blocks = parse_config(text)
    return [check_block(b, i) for i, b in enumerate(blocks)]


def _resolve_input(g, cfg: dict, where: str) -> int:
    if cfg["related_input_name"]:
        if cfg["related_input_name"] not in g.inputs:
            raise CompileError(f"{where}: related_input_name '{cfg['related_input_name']}' is not a model input")
        return g.inputs.index(cfg["related_input_name"])
    if cfg["related_input_rank"] >= len(g.inputs):
        raise CompileError(f"{where}: related_input_rank {cfg['related_input_rank']} is out of range: the model "
                           f"has {len(g.inputs)} input(s)")
    return cfg["related_input_rank"]


def _raw_dims(fmt: int, n: int, w: int, h: int) -> tuple[list, list]:
    """(aclmdlGetInputDims dims, aclmdlGetInputDimsV2 dims) of a static AIPP input, NHWC."""
    c = {1: 1, 2: 4, 3: 3, 4: 1}[fmt]
    v2 = [n, h * 3 // 2, w, 1] if fmt == 1 else [n, h, w, c]
    v1 = [n, h, w, 3 if fmt == 1 else c]
    return v1, v2


def insert(g, cfgs: list[dict], input_format: str) -> list[dict]:
    """Put an AclSim.Aipp node in front of each configured input of `g`. Returns one record per
    config for the IODESC (`input_index` and the `aipp` entry to attach)."""
    from .ir import Node

    records, seen = [], set()
    for i, cfg in enumerate(cfgs):
        where = f"insert_op_conf aipp_op {i}"
        idx = _resolve_input(g, cfg, where)
        name = g.inputs[idx]
        if name in seen:
            raise CompileError(f"{where}: input '{name}' already has an aipp_op block")
        seen.add(name)
        shape, dtype = tuple(g.shape(name)), np.dtype(g.dtype(name))
        if len(shape) != 4 or dtype not in (np.float32, np.float16):
            raise CompileError(f"{where}: AIPP needs a 4-D float32/float16 image input; '{name}' is "
                               f"{dtype} {list(shape)}")
        nhwc = input_format == "NHWC"
        n, c, h, w = (int(d) for d in ((shape[0], shape[3], shape[1], shape[2]) if nhwc else shape))
        info = {"mode": cfg["aipp_mode"], "src_dims": [int(d) for d in shape], "src_dtype": dtype.name,
                "src_format": input_format}
        if cfg["aipp_mode"] == "static":
            blob, geo = static_params(cfg, n, h, w, c, where)
            v1, v2 = _raw_dims(geo["format"], n, geo["src_w"], geo["src_h"])
            params = g.add_const(f"{name}_aipp_params", np.frombuffer(blob, np.uint8).copy())
            info.update(dims=v1, dims_v2=v2, config={k: v for k, v in cfg.items() if v is not None},
                        format=geo["format"], src_w=geo["src_w"], src_h=geo["src_h"])
        else:
            if DYNAMIC_AIPP_INPUT in g.inputs:
                raise CompileError(f"{where}: acl_sim supports one dynamic AIPP input per model")
            v2 = [cfg["max_src_image_size"]]
            v1 = v2
            params = DYNAMIC_AIPP_INPUT
            g.inputs.append(params)
            g.shapes[params], g.dtypes[params] = (data_size(n),), np.dtype(np.uint8)
            info.update(dims=v1, dims_v2=v2, batch=n, max_src_image_size=cfg["max_src_image_size"])
        processed = g.fresh(f"{name}_aipp")
        for node in g.nodes:
            node.inputs = [processed if x == name else x for x in node.inputs]
        g.outputs = [processed if x == name else x for x in g.outputs]
        g.shapes[processed], g.dtypes[processed] = shape, dtype
        g.shapes[name], g.dtypes[name] = tuple(v2), np.dtype(np.uint8)
        g.nodes.insert(0, Node(AIPP_OP, g.fresh("aipp"), [name, params], [processed],
                               {"layout": "NHWC" if nhwc else "NCHW"}, ["aipp"]))
        records.append({"input_index": idx, "aipp": info})
    return records


def patch_iodesc(iodesc: dict, records: list[dict]) -> None:
    """Raw uint8 NHWC inputs (and the dynamic parameter input) in place of the model's image inputs."""
    for rec in records:
        entry, info = iodesc["inputs"][rec["input_index"]], rec["aipp"]
        size = int(np.prod(info["dims_v2"], dtype=np.int64))
        if entry["dims"] and entry["dims"][0] == -1:  # dynamic batch: -1 in N, size of the largest batch
            per_image = int(np.prod(info["src_dims"][1:], dtype=np.int64)) * np.dtype(info["src_dtype"]).itemsize
            max_n = entry["size"] // per_image
            size = size // info["dims_v2"][0] * max_n
            for key in ("dims", "dims_v2", "src_dims"):
                info[key] = [-1] + list(info[key][1:])
        entry.update(dtype=4, format=1 if info["mode"] == "static" else 2, dims=info["dims"], size=size, aipp=info)
        if info["mode"] == "dynamic":
            n = info["batch"]
            iodesc["inputs"].append({"name": DYNAMIC_AIPP_INPUT, "dtype": 4, "format": 2, "dims": [data_size(n)],
                                     "size": data_size(n), "aipp": {"mode": "dynamic_data", "batch": n}})
            info["data_input_index"] = len(iodesc["inputs"]) - 1
