"""`acl-sim atc` / `python -m acl_sim atc`: the ATC command line.

    acl-sim atc --model=x.onnx --framework=5 --output=x --soc_version=Ascend910B1 [options]

Exit codes (docs/atc.md): 0 success; 1 a user error -- a bad option or model, or a node ATC
cannot compile -- printed as one line ("ATC run failed: node 'X' (Op, opset N, dtypes ...): why");
2 an internal compiler error; 130 interrupted. `--check` lists every unsupported node without
compiling (exit 0 when there is none, 1 otherwise). --log=info prints the per-pass report.
`--singleop=op.json` hands over to acl_sim.compiler.singleop.
"""
from __future__ import annotations

import sys

USAGE = """usage: acl-sim atc --model=<file.onnx> --framework=5 --output=<name> --soc_version=<soc> [options]
       acl-sim atc --singleop=<op.json> --soc_version=<soc> --output=<dir>
       acl-sim atc --check --model=<file.onnx>      (list every unsupported node, compile nothing)

options (CANN spellings):
  --input_shape="name:1,3,224,224;name2:..."   (-1 marks dynamic dims)
  --input_format=NCHW|NHWC|ND                  --output_type=FP32|FP16
  --dynamic_batch_size="1,2,4,8" | --dynamic_image_size="h,w;h,w" | --dynamic_dims="d,d;d,d"
  --precision_mode=force_fp32|allow_fp32_to_fp16|force_fp16|allow_mix_precision
  --precision_mode_v2=fp16|origin|mixed_float16  --modify_mixlist=<file.json>
  --log=error|warning|info|debug
environment: ACL_SIM_ATC_CACHE=0 disables the compile cache
"""


def _print_report(report: dict, out) -> None:
    for entry in report.get("passes", []):
        extras = ", ".join(f"{k}={v}" for k, v in entry.items() if k not in ("pass", "profile", "ms"))
        profile = "" if entry.get("profile") is None else f" [profile {entry['profile']}]"
        print(f"[INFO] ATC pass {entry['pass']}{profile}: {extras} ({entry['ms']} ms)", file=out)
    for i, plan in enumerate(report.get("memplan", [])):
        ratio = plan["planned_bytes"] / plan["lower_bound_bytes"] if plan["lower_bound_bytes"] else 1.0
        print(f"[INFO] ATC memory plan [profile {i}]: naive={plan['naive_bytes']} planned={plan['planned_bytes']} "
              f"lower_bound={plan['lower_bound_bytes']} ratio={ratio:.3f} inplace={plan['inplace_count']} "
              f"concat_inplace_inputs={plan.get('concat_inplace_inputs', 0)} concat_elided={plan.get('concat_elided', 0)}",
              file=out)
    print(f"[INFO] ATC {'cached' if report.get('cached') else 'compiled'} in {report.get('total_seconds')} s: "
          f"{report.get('om_path')} ({report.get('om_bytes')} bytes)", file=out)


def _print_graph(om_path: str, out) -> None:
    """--log=debug: the compiled graph of profile 0, one node per line."""
    from .om_reader import read_om

    graph = read_om(om_path).profile(0)
    tensors = graph["tensors"]

    def desc(i):
        if i < 0:
            return "-"
        t = tensors[i]
        where = f"@{t['offset']}" if t["kind"] in ("workspace", "weight") else f"#{t['index']}"
        return f"{t['name']}{t['shape']}:{t['kind'][0]}{where}"

    for node in graph["nodes"]:
        print(f"[DEBUG] {node['op']} {node['name']}: {', '.join(desc(i) for i in node['inputs'])} -> "
              f"{', '.join(desc(i) for i in node['outputs'])} {node['attrs'] or ''}", file=out)


def _check(model_path: str, out) -> int:
    """--check: every node ATC cannot compile, one line each; 0 if there is none, else 1."""
    from .node_check import unsupported_nodes
    from .onnx_import import load_model

    proto, _ = load_model(model_path)
    lines = unsupported_nodes(proto)
    for line in lines:
        print(f"[ERROR] {line}", file=out)
    nodes = len(proto.graph.node)
    if lines:
        print(f"ATC check failed: {len(lines)} unsupported of {nodes} nodes", file=out)
        return 1
    print(f"ATC check passed: all {nodes} nodes are supported", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    from . import compile_model
    from .errors import CompileError
    from .options import parse_argv

    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0 if argv else 1
    try:
        raw = parse_argv(argv)
        if raw.get("singleop"):
            try:
                from . import singleop  # owned by the aclop/mdl side
            except ImportError as exc:
                raise CompileError(f"--singleop is not available ({exc})") from None

            return int(singleop.main(argv) or 0)
        if not raw.get("model"):
            raise CompileError("--model is required")
        if str(raw.get("check", "0")) not in ("0", "false"):
            return _check(raw["model"], sys.stdout)
        if not raw.get("soc_version"):
            raise CompileError("--soc_version is required (e.g. --soc_version=Ascend910B1)")
        if "mode" in raw and str(raw.pop("mode")) != "0":
            raise CompileError("only --mode=0 (model conversion) is supported")
        model = raw.pop("model")
        output = raw.pop("output", None)
        report = compile_model(model, output, **raw)
    except CompileError as exc:
        print(f"ATC run failed: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ATC run failed: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print("ATC run failed: out of memory", file=sys.stderr)
        return 1
    except Exception as exc:  # a compiler bug: still one line, the traceback on request
        import os

        if os.environ.get("ACL_SIM_ATC_DEBUG"):
            raise
        print(f"ATC run failed: internal error ({type(exc).__name__}: {exc}); "
              f"set ACL_SIM_ATC_DEBUG=1 for the traceback", file=sys.stderr)
        return 2
    level = str(raw.get("log", "error")).lower()
    if level in ("info", "debug"):
        _print_report(report, sys.stdout)
    if level == "debug":
        _print_graph(report["om_path"], sys.stdout)
    print("ATC run success, welcome to the next use.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
