"""The `acl-sim` command (also `python -m acl_sim`).

Each subcommand lives in its own module with a `main(argv) -> int`; this file
only dispatches. User errors print one line and exit non-zero, never a traceback.
"""
from __future__ import annotations

import importlib
import sys

import acl_sim

SUBCOMMANDS = {
    "atc": ("acl_sim.compiler.cli", "compile an ONNX model into an .om offline model"),
    "smi": ("acl_sim.tools.smi", "show the simulated devices (npu-smi-like)"),
    "npu-smi": ("acl_sim.tools.npu_smi", "`npu-smi info` in the real table layout (for scripts that parse it)"),
    "prof": ("acl_sim.tools.prof", "profile a command, or summarise a profile"),
    "compare": ("acl_sim.tools.compare", "layer-by-layer comparison with onnxruntime"),
    "demo": ("acl_sim.demo", "compile light_resnet50, classify, compare with onnxruntime"),
}

USAGE = "usage: acl-sim [--includedir | --libdir | --cmakedir | --toolkit-dir [DIR] | --version] | <command> [options]\n\ncommands:\n" + "".join(
    f"  {name:<8} {help_}\n" for name, (_, help_) in SUBCOMMANDS.items()
)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0 if argv else 2
    first = argv[0]
    paths = {
        "--includedir": acl_sim.get_include,
        "--libdir": acl_sim.get_library_dir,
        "--cmakedir": acl_sim.get_cmake_dir,
    }
    if first in paths:
        print(paths[first]())
        return 0
    if first == "--toolkit-dir":
        from acl_sim import toolkit
        return toolkit.main(argv[1:])
    if first == "--version":
        print(acl_sim.__version__)
        return 0
    if first not in SUBCOMMANDS:
        print(f"acl-sim: unknown command '{first}'\n{USAGE}", file=sys.stderr, end="")
        return 2
    module_name = SUBCOMMANDS[first][0]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(f"acl-sim {first}: not available ({exc})", file=sys.stderr)
        return 2
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
