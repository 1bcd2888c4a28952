"""Shared fixtures.

pyACL initialises once per process, so the suite shares one `acl.init()`.
Tests that exercise finalize run in a subprocess.
"""
import os
import subprocess
import sys
import textwrap
import threading

import pytest


@pytest.fixture(scope="session")
def acl():
    import acl as acl_module

    ret = acl_module.init()
    assert ret in (0, 100002), ret
    return acl_module


@pytest.fixture
def device(acl):
    """Device 0 set on the calling thread; yields its id."""
    assert acl.rt.set_device(0) == 0
    yield 0


@pytest.fixture
def nn(acl, device):
    """The aclnn C API through ctypes (tests/aclnn_ctypes.py), on device 0."""
    from aclnn_ctypes import Aclnn

    n = Aclnn(acl)
    yield n
    n.close()


def subprocess_env(*extra_paths: str) -> dict:
    """Environment for a child Python that imports acl/acl_sim exactly as this process does:
    from the installed wheel (CI), or from the source tree plus ACL_SIM_BUILD_DIR (development)."""
    import acl_sim

    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(acl_sim.__file__)))
    paths = [package_parent, *extra_paths, env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    if env.get("ACL_SIM_BUILD_DIR"):
        env["ACL_SIM_BUILD_DIR"] = os.path.abspath(env["ACL_SIM_BUILD_DIR"])
    return env


def run_python(code: str, env=None, timeout=120):
    """Run a snippet in a fresh interpreter (for init/finalize/exit behaviour)."""
    full_env = subprocess_env()
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=full_env, timeout=timeout)


# The Conv path switches that leave a conv on the implicit-im2col GEMM (conv_ops.cpp reads them per call).
ON_IM2COL = {"ACL_SIM_CONV_DIRECT": "0", "ACL_SIM_CONV_PIXEL_MAJOR": "0", "ACL_SIM_CONV_WINOGRAD": "0"}


def isa_env(isa: str, **env) -> dict:
    """env for a child running on `isa`: "native" (this host's kernels) or "avx2" (ACL_SIM_KERNEL_ISA=avx2)."""
    return dict(env, ACL_SIM_KERNEL_ISA="avx2") if isa == "avx2" else dict(env)


def run_check_in_child(module: str, call: str, timeout=300, **env):
    """Runs `module.call` (a test module's check, e.g. "_bn_check()") in a fresh interpreter with `env` set,
    for settings a process reads once (ACL_SIM_KERNEL_ISA, ACL_SIM_HOST_THREADS); asserts it completed."""
    child_env = subprocess_env(os.path.dirname(os.path.abspath(__file__)))
    child_env.update(env)
    code = f"import {module} as t; t.{call}; print('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=child_env, timeout=timeout)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-3000:]


# `runs` acl.mdl.execute calls of a one-input .om on a seeded random input of the given shape (argv: om runs shape).
EXECUTE_OM_SCRIPT = """
import sys, numpy as np, acl
om, runs, shape = sys.argv[1], int(sys.argv[2]), [int(v) for v in sys.argv[3].split(",")]
assert acl.init() == 0 and acl.rt.set_device(0) == 0
mid, ret = acl.mdl.load_from_file(om); assert ret == 0, acl.get_recent_err_msg()
desc = acl.mdl.create_desc(); assert acl.mdl.get_desc(desc, mid) == 0
ins, outs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
dev, ret = acl.rt.malloc(x.nbytes, 0); assert ret == 0
assert acl.rt.memcpy(dev, x.nbytes, x.ctypes.data, x.nbytes, 1) == 0
acl.mdl.add_dataset_buffer(ins, acl.create_data_buffer(dev, x.nbytes))
osize = acl.mdl.get_output_size_by_index(desc, 0)
odev, ret = acl.rt.malloc(osize, 0); assert ret == 0
acl.mdl.add_dataset_buffer(outs, acl.create_data_buffer(odev, osize))
for _ in range(runs):
    assert acl.mdl.execute(mid, ins, outs) == 0, acl.get_recent_err_msg()
acl.mdl.unload(mid); acl.rt.free(dev); acl.rt.free(odev); acl.rt.reset_device(0); acl.finalize()
"""


def execute_om_in_child(om: str, runs: int, shape, workdir, **env):
    """Runs `runs` executes of the one-input .om `om` (input `shape`) in a fresh interpreter with `env` added to
    this one's environment (ACL_SIM_PROFILE, ACL_SIM_HOST_THREADS, ...); asserts it completed."""
    script = os.path.join(str(workdir), "execute_om.py")
    with open(script, "w") as f:
        f.write(EXECUTE_OM_SCRIPT)
    r = subprocess.run([sys.executable, script, om, str(runs), ",".join(str(d) for d in shape)],
                       capture_output=True, text=True, env=dict(os.environ, **env), timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]


def run_in_threads(fn, args_list):
    """fn(*args) on one thread per tuple in args_list, all started before any is joined. Returns their results in
    order; anything a thread raised fails the caller's test (an AssertionError listing every exception)."""
    results, errors = [None] * len(args_list), []

    def run(i, args):
        try:
            results[i] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - reported in the calling thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, args)) for i, args in enumerate(args_list)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results
