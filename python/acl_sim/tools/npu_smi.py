"""`acl-sim npu-smi` (the toolkit folder's `bin/npu-smi`): the simulated devices in npu-smi's
table layout, for scripts that parse it. ggml's CMake, for one, takes the chip name from field 3
of line 7 of `npu-smi info` ("910B1" for an Ascend910B1 device).

Only `info` is implemented; other subcommands exit 1 with a message.
"""
from __future__ import annotations

import sys

from acl_sim.tools import smi

VERSION = "24.1.0"


def render(info: dict) -> str:
    bar = "+---------------------------+---------------+----------------------------------------------------+"
    sep = "+===========================+===============+====================================================+"
    lines = [
        "+------------------------------------------------------------------------------------------------+",
        f"| {'npu-smi ' + VERSION:<33}Version: {VERSION:<53}|",
        bar,
        "| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|",
        "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |",
        sep,
    ]
    for d in info["devices"]:
        chip = d["soc"][len("Ascend"):] if d["soc"].startswith("Ascend") else d["soc"]
        total = d["memory_total"] // (1 << 20)
        used = d.get("memory_used", 0) // (1 << 20)
        lines.append(f"| {d['id']:<5} {chip:<19} | {d['health']:<13} | {'0.0':<11} {'40':<17} {'0    / 0':<21}|")
        hbm = f"{used} / {total}"
        bus = f"0000:{0xC1 + d['id']:02X}:00.0"
        lines.append(f"| {0:<25} | {bus:<13} | {'0':<11} {'0    / 0':<17} {hbm:<21}|")
        lines.append(sep)
    lines.append("+---------------------------+---------------+----------------------------------------------------+")
    lines.append("| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |")
    lines.append("+===========================+===============+====================================================+")
    for d in info["devices"]:
        lines.append(f"| No running processes found in NPU {d['id']:<62}|")
        lines.append("+===========================+===============+====================================================+")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "info":
        print("usage: npu-smi info   (acl_sim implements only `info`)", file=sys.stderr)
        return 1
    sys.stdout.write(render(smi.collect(None)))
    return 0
