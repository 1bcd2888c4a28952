"""`acl-sim smi`: an npu-smi-like view of the simulated devices.

Shows the configured devices (SoC, cores, UB, memory). With a stats file
(`--stats FILE`, or ACL_SIM_STATS_FILE naming the file a running acl_sim
process publishes) it also shows memory used and streams per device.
"""
from __future__ import annotations

import argparse
import json
import os
import sys


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.0f}"


def collect(stats_path: str | None = None) -> dict:
    import acl
    from acl_sim._core import sim

    soc = sim.current_soc()
    # The device count and capacities come from the runtime itself (ACL_SIM_DEVICE_COUNT,
    # ACL_SIM_DEVICE_MEMORY), through the same calls a pyACL program makes.
    ret = acl.init()
    if ret not in (0, 100002):
        raise SystemExit(f"acl-sim smi: acl.init failed with {ret}: {acl.get_recent_err_msg()}")
    count, ret = acl.rt.get_device_count()
    totals = []
    for i in range(count):
        total = soc["memory_size"]
        if acl.rt.set_device(i) == 0:
            _free, total, _ret = acl.rt.get_mem_info(1)
            acl.rt.reset_device(i)
        totals.append(int(total))
    acl.finalize()
    live = {}
    process = None
    if stats_path:
        try:
            with open(stats_path, encoding="utf-8") as f:
                stats = json.load(f)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"acl-sim smi: cannot read stats file {stats_path}: {exc}")
        process = stats.get("pid")
        live = {int(d["id"]): d for d in stats.get("devices", [])}
    devices = []
    for i in range(count):
        entry = {
            "id": i,
            "soc": soc["name"],
            "health": "OK",
            "cube_cores": soc["cube_cores"],
            "vector_cores": soc["vector_cores"],
            "ub_bytes": soc["ub_size"],
            "l2_bytes": soc["l2_size"],
            "memory_total": totals[i],
        }
        if stats_path:
            d = live.get(i)
            entry["memory_total"] = int(d["memory_total"]) if d else entry["memory_total"]
            entry["memory_used"] = int(d["memory_used"]) if d else 0
            entry["streams"] = int(d["streams"]) if d else 0
        devices.append(entry)
    return {"soc": soc, "device_count": count, "process": process, "devices": devices}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="acl-sim smi", description=__doc__)
    parser.add_argument("command", nargs="?", default="info", choices=["info"])
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--stats", default=os.environ.get("ACL_SIM_STATS_FILE"),
                        help="stats file of a running process (default: $ACL_SIM_STATS_FILE)")
    args = parser.parse_args(argv)
    info = collect(args.stats)
    if args.json:
        json.dump(info, sys.stdout, indent=2)
        print()
        return 0
    soc = info["soc"]
    live = args.stats is not None
    print(f"acl_sim smi | SoC {soc['name']} | {info['device_count']} devices"
          + (f" | process {info['process']}" if info["process"] else ""))
    head = f"{'NPU':>3}  {'Name':<14} {'Health':<6} {'AIC':>4} {'AIV':>4} {'UB KiB':>7} {'Memory-Usage(MB)':>18}"
    if live:
        head += f" {'Streams':>8}"
    print(head)
    print("-" * len(head))
    for d in info["devices"]:
        used = _mib(d.get("memory_used", 0)) if live else "-"
        mem = f"{used} / {_mib(d['memory_total'])}"
        line = (f"{d['id']:>3}  {d['soc']:<14} {d['health']:<6} {d['cube_cores']:>4} {d['vector_cores']:>4}"
                f" {d['ub_bytes'] // 1024:>7} {mem:>18}")
        if live:
            line += f" {d.get('streams', 0):>8}"
        print(line)
    return 0
