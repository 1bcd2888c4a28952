"""ATC for acl_sim: compile ONNX models into `.om` offline models (docs/om_format.md).

    from acl_sim.compiler import compile_model
    report = compile_model("resnet50.onnx", "out/resnet50", soc_version="Ascend910B1",
                           input_shape="data:-1,3,224,224", dynamic_batch_size="1,2,4,8")

The CLI is `acl-sim atc --model=... --framework=5 --output=... --soc_version=...`.
"""
from __future__ import annotations

import os
import time

from .errors import CompileError

__all__ = ["compile_model", "CompileError", "om_path_for"]


def om_path_for(output: str) -> str:
    """ATC appends `.om` to --output (unless it already ends so)."""
    output = os.fspath(output)
    return output if output.endswith(".om") else output + ".om"


def compile_model(model, output, **options) -> dict:
    """Compiles `model` (path, bytes or onnx.ModelProto) to `<output>.om`.

    Options use CANN's names without dashes (soc_version, input_shape, dynamic_batch_size,
    precision_mode, ...); values are CLI strings or Python values (input_shape may be a
    {name: dims} dict, dynamic profiles lists). Returns the report dict: per-pass counts,
    memory-plan figures per profile, compile time, `cached`, `om_path`.
    Raises CompileError (a one-line message) on any user error.
    """
    from . import cache, options as options_mod, pipeline
    from .onnx_import import load_model

    start = time.perf_counter()
    raw = {k: v for k, v in options.items() if v is not None}
    raw.setdefault("soc_version", "Ascend910B1")
    raw.setdefault("framework", "5")
    raw["output"] = os.fspath(output) if output is not None else None
    opts = options_mod.parse(raw)
    proto, data = load_model(model)
    sha = pipeline.source_hash(data)
    out_path = om_path_for(opts.output)
    use_cache = raw.get("cache", True) not in (False, "0", "false", "off")
    k = cache.key(sha, opts.cache_key_dict())
    report = cache.load(k, out_path) if use_cache else None
    if report is not None:
        report["cached"] = True
    else:
        report = pipeline.compile_graph(proto, opts, sha, out_path)
        if use_cache:
            cache.store(k, out_path, report)
    report["om_path"] = out_path
    report["total_seconds"] = round(time.perf_counter() - start, 3)
    return report
