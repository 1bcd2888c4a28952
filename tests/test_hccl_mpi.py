"""HCCL ranks as processes under MPI: `mpiexec -n 2` and `-n 4` run
tests/hccl_mpi_worker.py, one HCCL rank per process.

MPI comes from PyPI (`mpich` wheel + `mpi4py`, the acl_sim[mpi] extra); if they
are missing this test installs them with pip. If that install fails (no
network) the test FAILS: multi-process HCCL is part of the contract."""
from __future__ import annotations

import importlib
import importlib.metadata
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def _ensure_mpi():
    try:
        importlib.import_module("mpi4py")
        importlib.metadata.distribution("mpich")  # the wheel ships libmpi + mpiexec, no Python module
    except (ImportError, importlib.metadata.PackageNotFoundError):
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "mpich", "mpi4py"], capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            pytest.fail("cannot install MPI from PyPI (pip install mpich mpi4py):\n" + proc.stdout[-2000:] +
                        proc.stderr[-2000:])
        importlib.invalidate_caches()
    exe = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if not exe:
        exe = os.path.join(sys.prefix, "bin", "mpiexec")
    assert os.path.exists(exe), "mpiexec not found after installing mpich"
    return exe


@pytest.mark.parametrize("n", [2, 4])
def test_mpi_ranks(n):
    mpiexec = _ensure_mpi()
    env = dict(os.environ)
    env["HCCL_CONNECT_TIMEOUT"] = "60"
    env["HCCL_EXEC_TIMEOUT"] = "60"
    env.setdefault("ACL_SIM_DEVICE_COUNT", "1")
    cmd = [mpiexec, "-n", str(n), sys.executable, os.path.join(HERE, "hccl_mpi_worker.py")]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"mpiexec -n {n} hung:\n{e.stdout}\n{e.stderr}")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"mpiexec -n {n} failed ({proc.returncode}):\n{out[-6000:]}"
    for r in range(n):
        assert f"RANK {r} OK" in proc.stdout, out[-6000:]
