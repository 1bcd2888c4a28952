"""Run a benchmark with onnxruntime capped at AVX2 on an AVX-512 host (diagnostic for issue 11).

onnxruntime (MLAS) picks its kernels from CPUID and XCR0 once, at load, and has no switch to stay
off AVX-512; this VM has no CPUID faulting, so the cap is applied from outside: the command runs
under gdb, and right after every `cpuid` / `xgetbv` in onnxruntime's Python module executes, the
AVX-512 feature bits (CPUID leaf 7) and the AVX-512 state bits of XCR0 are cleared. MLAS then
chooses exactly what it chooses on an AVX2-only CPU (Zen 3, Haswell..). The breakpoints fire only
while onnxruntime probes the CPU; timed calls run at full speed (gdb does not single-step).

    python bench/ort_isa_cap.py -- python bench/bench_models.py --models resnet50

ACL_SIM_KERNEL_ISA=avx2 and OPENBLAS_CORETYPE=Haswell are set by default, so all three sides (acl_sim,
onnxruntime, numpy's OpenBLAS) run AVX2 code.
Needs gdb (`apt-get install gdb`).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

# Runs inside gdb: breakpoints on the instruction after every cpuid / xgetbv of the module.
_GDB_SCRIPT = r'''
import gdb, re, subprocess
MODULE = "onnxruntime_pybind11_state"
CAP = True
# leaf 7 EBX: AVX512F 16, DQ 17, IFMA 21, PF 26, ER 27, CD 28, BW 30, VL 31; ECX: VBMI 1, VBMI2 6,
# VNNI 11, BITALG 12, VPOPCNTDQ 14; EDX: 4VNNIW 2, 4FMAPS 3, VP2INTERSECT 8, FP16 23
EBX_MASK = (1 << 16) | (1 << 17) | (1 << 21) | (1 << 26) | (1 << 27) | (1 << 28) | (1 << 30) | (1 << 31)
ECX_MASK = (1 << 1) | (1 << 6) | (1 << 11) | (1 << 12) | (1 << 14)
EDX_MASK = (1 << 2) | (1 << 3) | (1 << 8) | (1 << 23)
done = set()

def sites(path):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(cpuid|xgetbv)\s*$", line)
        if m:
            found.append((int(m.group(1), 16), m.group(2)))
    return found

def load_base(path):
    pid = gdb.selected_inferior().pid
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == path and int(parts[2], 16) == 0:
                return int(parts[0].split("-")[0], 16)
    raise RuntimeError("no mapping for " + path)

def on_new_objfile(event):
    path = event.new_objfile.filename
    if MODULE not in path or path in done:
        return
    done.add(path)
    base = load_base(path)
    n = 0
    for off, insn in sites(path):
        if insn == "xgetbv":
            bp = gdb.Breakpoint(f"*{base + off + 3:#x}", internal=True)
            bp.silent = True
            bp.commands = "set $rax = $rax & ~0xe0\ncontinue"
        else:
            before = gdb.Breakpoint(f"*{base + off:#x}", internal=True)
            before.silent = True
            before.commands = "set $acl_sim_leaf = $eax\ncontinue"
            after = gdb.Breakpoint(f"*{base + off + 2:#x}", internal=True)
            after.silent = True
            after.commands = ("if $acl_sim_leaf == 7\n"
                              f"set $rbx = $rbx & ~{EBX_MASK:#x}\n"
                              f"set $rcx = $rcx & ~{ECX_MASK:#x}\n"
                              f"set $rdx = $rdx & ~{EDX_MASK:#x}\n"
                              "end\ncontinue")
        n += 1
    gdb.write(f"[ort_isa_cap] {'AVX-512 hidden from' if CAP else 'watching (no cap)'} {n} cpuid/xgetbv sites in {path}\n")

gdb.events.new_objfile.connect(on_new_objfile)
'''


def main() -> int:
    argv = sys.argv[1:]
    # --no-cap: same gdb harness, bits left alone (shows that gdb itself costs nothing)
    cap = not (argv and argv[0] == "--no-cap")
    if not cap:
        argv = argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__)
        return 2
    if shutil.which("gdb") is None or shutil.which("objdump") is None:
        print("ort_isa_cap: needs gdb and objdump", file=sys.stderr)
        return 2
    env = dict(os.environ)
    env.setdefault("ACL_SIM_KERNEL_ISA", "avx2")
    env.setdefault("OPENBLAS_CORETYPE", "Haswell")  # numpy's OpenBLAS (the GEMM reference) on its AVX2 kernels
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_GDB_SCRIPT if cap else _GDB_SCRIPT.replace("set $r", "set $acl_sim_unused_r").replace("CAP = True", "CAP = False"))
        script = f.name
    try:
        cmd = ["gdb", "-q", "-batch", "-nx",
               "-ex", "set pagination off", "-ex", "set confirm off",
               "-ex", "set print thread-events off", "-ex", "set print inferior-events off",
               "-ex", "handle all nostop noprint pass",
               "-ex", "set auto-load off",
               "-ex", f"source {script}",
               "-ex", "run", "-ex", "quit $_exitcode",
               "--args", *argv]
        return subprocess.call(cmd, env=env)
    finally:
        os.unlink(script)


if __name__ == "__main__":
    sys.exit(main())
