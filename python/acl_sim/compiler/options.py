"""ATC options in CANN's spellings, parsed and validated into one `Options` value.

The CLI (`--name=value`) and the Python API (`compile_model(..., name=value)`)
share this parser, so both reject the same mistakes with the same one-line
messages.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field

from .errors import CompileError

# soc_version values ATC accepts: CANN's SoC names (full and short).
SOC_VERSIONS = ("Ascend910A", "Ascend910", "Ascend910ProB", "Ascend910B1", "Ascend910B", "Ascend910B2",
                "Ascend910B2C", "Ascend910B3", "Ascend910B4", "Ascend910_9391", "Ascend910_93",
                "Ascend310P3", "Ascend310P", "Ascend310B1", "Ascend310B")
FRAMEWORKS = {"0": "Caffe", "1": "MindSpore", "3": "TensorFlow", "5": "ONNX"}
PRECISION_MODES = ("force_fp32", "allow_fp32_to_fp16", "force_fp16", "allow_mix_precision",
                   "must_keep_origin_dtype")
# precision_mode_v2 value -> the equivalent precision_mode.
PRECISION_MODES_V2 = {"fp16": "force_fp16", "origin": "must_keep_origin_dtype", "mixed_float16": "allow_mix_precision",
                      "cube_fp16in_fp32out": "allow_mix_precision"}
INPUT_FORMATS = ("NCHW", "NHWC", "ND")
OUTPUT_TYPES = ("FP32", "FP16")
LOG_LEVELS = ("error", "warning", "info", "debug", "null")
UNSUPPORTED_OPTIONS = {"input_fp16_nodes": "--input_fp16_nodes is not supported by acl_sim (inputs keep the "
                                           "model's dtype)",
                       "weight": "--weight applies to Caffe models; acl_sim supports --framework=5 (ONNX) only"}
KNOWN = ("model", "framework", "output", "soc_version", "input_shape", "input_format", "output_type",
         "dynamic_batch_size", "dynamic_image_size", "dynamic_dims", "precision_mode", "precision_mode_v2",
         "modify_mixlist", "log", "singleop", "mode", "out_nodes", "op_select_implmode",
         "optypelist_for_implmode", "host_env_os", "host_env_cpu", "enable_small_channel", "cache",
         "insert_op_conf")
# Accepted and ignored: they tune CANN's kernel selection or host build, which acl_sim does not have.


@dataclass
class Options:
    model: str | None = None
    output: str | None = None
    framework: str = "5"
    soc_version: str = "Ascend910B1"
    input_shape: dict = field(default_factory=dict)  # name -> list of dims (-1 = dynamic)
    input_shape_order: list = field(default_factory=list)
    input_format: str = "NCHW"
    output_type: str = "FP32"
    dynamic_kind: str = "none"  # none | batch | hw | dims
    dynamic_profiles: list = field(default_factory=list)
    precision_mode: str = "force_fp32"
    mixlist: dict = field(default_factory=dict)  # {"black": set, "white": set, "gray": set} additions/removals
    log: str = "error"
    singleop: str | None = None
    aipp: list = field(default_factory=list)  # checked aipp_op blocks of --insert_op_conf (compiler/aipp.py)

    def cache_key_dict(self) -> dict:
        d = asdict(self)
        d.pop("output")
        d.pop("log")
        d.pop("model")
        return d


def _int(text: str, what: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise CompileError(f"bad {what}: '{text}' is not an integer") from None


def parse_input_shape(text) -> tuple[dict, list]:
    """'name:1,3,224,224;name2:-1,10' -> ({name: [dims]}, [names in order])."""
    if isinstance(text, dict):
        return {k: [int(d) for d in v] for k, v in text.items()}, list(text)
    shapes, order = {}, []
    for part in str(text).split(";"):
        part = part.strip()
        if not part:
            continue
        if ":" not in part:
            raise CompileError(f"bad --input_shape '{text}': expected 'name:d0,d1,...' entries separated by ';'")
        name, dims_text = part.rsplit(":", 1)
        name = name.strip()
        if not name:
            raise CompileError(f"bad --input_shape '{text}': empty input name")
        dims = []
        for d in dims_text.split(",") if dims_text.strip() else []:
            if "~" in d:
                raise CompileError(f"bad --input_shape '{text}': shape ranges ('~') are not supported; "
                                   f"use -1 with --dynamic_batch_size/--dynamic_image_size/--dynamic_dims")
            v = _int(d, f"--input_shape dim of '{name}'")
            if v < -1 or v == 0:
                raise CompileError(f"bad --input_shape '{text}': dim {v} of '{name}' must be positive or -1")
            dims.append(v)
        if name in shapes:
            raise CompileError(f"bad --input_shape '{text}': input '{name}' given twice")
        shapes[name] = dims
        order.append(name)
    if not shapes:
        raise CompileError(f"bad --input_shape '{text}'")
    return shapes, order


def _profiles(text, per_profile: int | None, what: str) -> list:
    if isinstance(text, (list, tuple)):
        profiles = [[int(v) for v in (p if isinstance(p, (list, tuple)) else [p])] for p in text]
    else:
        sep = "," if what == "--dynamic_batch_size" else ";"
        profiles = []
        for chunk in str(text).strip().strip('"').split(sep):
            if not chunk.strip():
                continue
            profiles.append([_int(v, what) for v in chunk.split(",")] if sep == ";" else [_int(chunk, what)])
    if not 2 <= len(profiles) <= 100:
        raise CompileError(f"{what} needs 2 to 100 profiles, got {len(profiles)}")
    for p in profiles:
        if per_profile is not None and len(p) != per_profile:
            raise CompileError(f"{what}: profile {','.join(map(str, p))} has {len(p)} values, expected {per_profile}")
        if any(v <= 0 for v in p):
            raise CompileError(f"{what}: values must be positive, got {','.join(map(str, p))}")
    if what == "--dynamic_batch_size" and any(p[0] > 2048 for p in profiles):
        raise CompileError("--dynamic_batch_size: each batch size must be in 1..2048")
    if len({tuple(p) for p in profiles}) != len(profiles):
        raise CompileError(f"{what}: profiles must be distinct")
    return profiles


def _load_mixlist(path) -> dict:
    if isinstance(path, dict):
        data = path
    else:
        if not os.path.isfile(str(path)):
            raise CompileError(f"--modify_mixlist file not found: {path}")
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as exc:
            raise CompileError(f"--modify_mixlist {path}: not valid JSON ({exc})") from None
    result = {}
    for key, entry in data.items():
        kind = key.lower().replace("_", "-").replace("-list", "")
        if kind not in ("black", "white", "gray") or not isinstance(entry, dict):
            raise CompileError(f"--modify_mixlist: unknown list '{key}' (use black-list/white-list/gray-list "
                               f"with to-add/to-remove)")
        for action, ops in entry.items():
            act = action.lower().replace("_", "-")
            if act not in ("to-add", "to-remove") or not isinstance(ops, list):
                raise CompileError(f"--modify_mixlist: '{key}.{action}' must be to-add/to-remove with a list of ops")
            result.setdefault(kind, {}).setdefault(act, []).extend(str(o) for o in ops)
    return result


def parse(raw: dict) -> Options:
    """Validates a {option: value} dict (CLI strings or Python values) into Options."""
    unknown = [k for k in raw if k not in KNOWN and k not in UNSUPPORTED_OPTIONS]
    if unknown:
        raise CompileError(f"unknown option --{unknown[0]}")
    for key, msg in UNSUPPORTED_OPTIONS.items():
        if raw.get(key) not in (None, ""):
            raise CompileError(msg)
    o = Options()
    o.log = str(raw.get("log", "error")).lower()
    if o.log not in LOG_LEVELS:
        raise CompileError(f"--log must be one of {'|'.join(LOG_LEVELS)}, got '{raw['log']}'")
    o.singleop = raw.get("singleop")
    o.framework = str(raw.get("framework", "5"))
    if o.framework != "5":
        name = FRAMEWORKS.get(o.framework)
        raise CompileError(f"--framework={o.framework}" + (f" ({name})" if name else "") +
                           " is not supported: acl_sim compiles ONNX models only (--framework=5)")
    if "soc_version" not in raw or not raw["soc_version"]:
        raise CompileError("--soc_version is required (e.g. --soc_version=Ascend910B1)")
    o.soc_version = str(raw["soc_version"])
    if o.soc_version not in SOC_VERSIONS:
        raise CompileError(f"unknown --soc_version '{o.soc_version}' (one of {', '.join(SOC_VERSIONS)})")
    o.model = raw.get("model")
    o.output = raw.get("output")
    if not o.output:
        raise CompileError("--output is required")
    if raw.get("input_shape") not in (None, ""):
        o.input_shape, o.input_shape_order = parse_input_shape(raw["input_shape"])
    o.input_format = str(raw.get("input_format", "NCHW")).upper()
    if o.input_format not in INPUT_FORMATS:
        raise CompileError(f"--input_format must be one of {'|'.join(INPUT_FORMATS)}, got '{raw['input_format']}'")
    o.output_type = str(raw.get("output_type", "FP32")).upper()
    if o.output_type not in OUTPUT_TYPES:
        raise CompileError(f"--output_type '{raw['output_type']}' is not supported (FP32 or FP16)")
    dyn = [k for k in ("dynamic_batch_size", "dynamic_image_size", "dynamic_dims") if raw.get(k) not in (None, "")]
    if len(dyn) > 1:
        raise CompileError(f"--{dyn[0]} and --{dyn[1]} are mutually exclusive")
    n_dynamic = sum(d == -1 for dims in o.input_shape.values() for d in dims)
    if dyn:
        key = dyn[0]
        if n_dynamic == 0:
            raise CompileError(f"--{key} needs --input_shape with -1 in the dynamic dims")
        if key == "dynamic_batch_size":
            o.dynamic_kind, o.dynamic_profiles = "batch", _profiles(raw[key], 1, "--dynamic_batch_size")
            for name, dims in o.input_shape.items():
                if -1 in dims[1:]:
                    raise CompileError(f"--dynamic_batch_size: only dim 0 of '{name}' may be -1")
        elif key == "dynamic_image_size":
            o.dynamic_kind, o.dynamic_profiles = "hw", _profiles(raw[key], 2, "--dynamic_image_size")
            if o.input_format == "ND":
                raise CompileError("--dynamic_image_size needs --input_format=NCHW or NHWC")
            hw = (2, 3) if o.input_format == "NCHW" else (1, 2)
            for name, dims in o.input_shape.items():
                if -1 in dims and (len(dims) != 4 or [i for i, d in enumerate(dims) if d == -1] != list(hw)):
                    raise CompileError(f"--dynamic_image_size: '{name}' must have -1 exactly at H and W "
                                       f"({o.input_format})")
        else:
            if o.input_format != "ND":
                raise CompileError("--dynamic_dims needs --input_format=ND")
            o.dynamic_kind, o.dynamic_profiles = "dims", _profiles(raw[key], n_dynamic, "--dynamic_dims")
    elif n_dynamic:
        raise CompileError("--input_shape has -1 dims: add --dynamic_batch_size, --dynamic_image_size or "
                           "--dynamic_dims")
    mode, mode_v2 = raw.get("precision_mode"), raw.get("precision_mode_v2")
    if mode not in (None, "") and mode_v2 not in (None, ""):
        raise CompileError("--precision_mode and --precision_mode_v2 are mutually exclusive")
    if mode not in (None, ""):
        if mode not in PRECISION_MODES:
            raise CompileError(f"unknown --precision_mode '{mode}' (one of {', '.join(PRECISION_MODES)})")
        o.precision_mode = mode
    elif mode_v2 not in (None, ""):
        if mode_v2 not in PRECISION_MODES_V2:
            raise CompileError(f"unsupported --precision_mode_v2 '{mode_v2}' (one of {', '.join(PRECISION_MODES_V2)})")
        o.precision_mode = PRECISION_MODES_V2[mode_v2]
    if raw.get("modify_mixlist") not in (None, ""):
        if o.precision_mode != "allow_mix_precision":
            raise CompileError("--modify_mixlist needs --precision_mode=allow_mix_precision "
                               "(or --precision_mode_v2=mixed_float16)")
        o.mixlist = _load_mixlist(raw["modify_mixlist"])
    if raw.get("insert_op_conf") not in (None, ""):
        from . import aipp
        o.aipp = aipp.load(str(raw["insert_op_conf"]))
        if o.dynamic_kind not in ("none", "batch") or (o.dynamic_kind == "batch" and
                                                          any(c["aipp_mode"] == "dynamic" for c in o.aipp)):
            raise CompileError("--insert_op_conf: acl_sim supports static AIPP with --dynamic_batch_size; "
                               "dynamic AIPP with dynamic shapes and AIPP with --dynamic_image_size/"
                               "--dynamic_dims are not supported")
    if raw.get("out_nodes") not in (None, ""):
        raise CompileError("--out_nodes is not supported by acl_sim")
    return o


# Options that may be given without a value (--check alone means --check=1).
FLAG_OPTIONS = {"check"}


def parse_argv(argv: list[str]) -> dict:
    """['--name=value', '--name', 'value', ...] -> {name: value}; bad syntax raises CompileError."""
    raw: dict = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("--"):
            raise CompileError(f"unexpected argument '{arg}' (options look like --name=value)")
        if "=" in arg:
            key, value = arg[2:].split("=", 1)
        elif arg[2:] in FLAG_OPTIONS:
            key, value = arg[2:], "1"
        elif i + 1 < len(argv) and not argv[i + 1].startswith("--"):
            key, value = arg[2:], argv[i + 1]
            i += 1
        else:
            raise CompileError(f"option {arg} needs a value ({arg}=...)")
        if key in raw:
            raise CompileError(f"option --{key} given twice")
        raw[key] = value
        i += 1
    return raw
