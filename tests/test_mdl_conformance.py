"""Conformance programs (what a CANN user runs first) on light_resnet50 with seeded random weights:
the CANN-style classification example run unchanged, async execution with callbacks,
and `acl-sim demo`."""
import os
import subprocess
import sys
import threading

import numpy as np

from conftest import subprocess_env
import onnx
import pytest

from acl_helpers import from_device, to_device

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def resnet(tmp_path_factory):
    from acl_sim.compiler import compile_model
    from acl_sim.demo import light_model_path, randomize_light_model, sample_image

    d = tmp_path_factory.mktemp("resnet")
    model = randomize_light_model(onnx.load(light_model_path("resnet50")), seed=1)
    onnx_path = str(d / "resnet50.onnx")
    onnx.save(model, onnx_path)
    om = compile_model(onnx_path, str(d / "resnet50"))["om_path"]
    image = sample_image([1, 3, 224, 224], seed=1)

    import onnxruntime as ort

    sess = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    expected = sess.run(None, {sess.get_inputs()[0].name: image})[0]
    return {"dir": d, "om": om, "image": image, "expected": expected}


def _env():
    return subprocess_env()


def test_pyacl_classification_example_runs_unchanged(resnet):
    image_path = str(resnet["dir"] / "image0.npy")
    np.save(image_path, resnet["image"])
    src = os.path.join(REPO, "examples", "pyacl_resnet50", "src")
    proc = subprocess.run([sys.executable, "acl_net.py", resnet["om"], image_path], cwd=src, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "top5 inference results" in proc.stdout and "Release acl resource success" in proc.stdout
    got = np.load(image_path + ".out.npy")
    np.testing.assert_allclose(got.reshape(-1), resnet["expected"].reshape(-1), rtol=1e-4, atol=1e-5)
    top5 = np.argsort(-resnet["expected"].reshape(-1))[:5]
    assert f"label:{top5[0]}" in proc.stdout


def test_async_execution_with_callbacks(acl, device, resnet):
    """resnet50_async_imagenet_classification: execute_async + launch_callback on a subscribed stream."""
    context, ret = acl.rt.get_context()
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    model_id, ret = acl.mdl.load_from_file(resnet["om"])
    assert ret == 0
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    in_ptr, in_size = to_device(acl, resnet["image"])
    in_buf = acl.create_data_buffer(in_ptr, in_size)
    in_ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(in_ds, in_buf)
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    out_ptr, _ = acl.rt.malloc(out_size, 0)
    out_buf = acl.create_data_buffer(out_ptr, out_size)
    out_ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(out_ds, out_buf)

    state = {"exit": False}
    seen = []

    def report_loop(args_list):
        ctx, timeout = args_list
        acl.rt.set_context(ctx)
        while not state["exit"]:
            acl.rt.process_report(timeout)

    def on_done(user_data):
        seen.append(from_device(acl, out_ptr, (1, 1000), np.float32).copy())

    tid, ret = acl.util.start_thread(report_loop, [context, 50])
    assert ret == 0
    assert acl.rt.subscribe_report(tid, stream) == 0
    for _ in range(2):
        assert acl.mdl.execute_async(model_id, in_ds, out_ds, stream) == 0
        assert acl.rt.launch_callback(on_done, [], 1, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.unsubscribe_report(tid, stream) == 0
    state["exit"] = True
    assert acl.util.stop_thread(tid) == 0
    assert len(seen) == 2
    for probs in seen:
        np.testing.assert_allclose(probs, resnet["expected"], rtol=1e-4, atol=1e-5)

    for ds in (in_ds, out_ds):
        acl.mdl.destroy_dataset(ds)
    for buf in (in_buf, out_buf):
        acl.destroy_data_buffer(buf)
    for p in (in_ptr, out_ptr):
        acl.rt.free(p)
    acl.mdl.destroy_desc(desc)
    assert acl.mdl.unload(model_id) == 0
    assert acl.rt.destroy_stream(stream) == 0


def test_execute_async_returns_before_the_run_finishes(acl, device, resnet):
    """Several models and streams in flight; unload waits for queued runs."""
    model_id, ret = acl.mdl.load_from_file(resnet["om"])
    assert ret == 0
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, model_id)
    streams = [acl.rt.create_stream()[0] for _ in range(2)]
    jobs = []
    for k, s in enumerate(streams):
        in_ptr, in_size = to_device(acl, resnet["image"])
        in_buf = acl.create_data_buffer(in_ptr, in_size)
        out_buf = acl.create_data_buffer(0, 0)  # runtime-allocated output
        in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(in_ds, in_buf)
        acl.mdl.add_dataset_buffer(out_ds, out_buf)
        assert acl.mdl.execute_async(model_id, in_ds, out_ds, s) == 0
        jobs.append((in_ptr, in_buf, out_buf, in_ds, out_ds))
    assert acl.mdl.unload(model_id) == 0  # waits for both queued runs
    for s in streams:
        assert acl.rt.synchronize_stream(s) == 0
    for in_ptr, in_buf, out_buf, in_ds, out_ds in jobs:
        out_ptr = acl.get_data_buffer_addr(out_buf)
        np.testing.assert_allclose(from_device(acl, out_ptr, (1, 1000), np.float32), resnet["expected"],
                                   rtol=1e-4, atol=1e-5)
        acl.rt.free(out_ptr)
        acl.update_data_buffer(out_buf, 0, 0)
        for ds in (in_ds, out_ds):
            acl.mdl.destroy_dataset(ds)
        for b in (in_buf, out_buf):
            acl.destroy_data_buffer(b)
        acl.rt.free(in_ptr)
    for s in streams:
        acl.rt.destroy_stream(s)
    acl.mdl.destroy_desc(desc)


def test_demo_command(tmp_path):
    # without --workdir the demo's ~200 MB of .onnx/.om go to a temp dir that is removed at exit
    proc = subprocess.run([sys.executable, "-m", "acl_sim", "demo", "--runs", "2", "--seconds", "0"],
                          env={**_env(), "TMPDIR": str(tmp_path)}, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not [n for n in os.listdir(tmp_path) if n.startswith("acl_sim_demo_")]
    assert "top-5 identical" in proc.stdout
    # Timed the way bench/ times every comparison (acl_sim.tools.timing): alternated pairs, the median
    # of per-pair ratios, and the machine line naming the CPU and the kernel ISA.
    assert "latency" in proc.stdout and "median of per-pair ratios" in proc.stdout
    assert "CPU: " in proc.stdout and "acl_sim kernel ISA" in proc.stdout
    assert "2 alternated pairs" in proc.stdout


def test_timing_compare_alternates_pairs():
    from acl_sim.tools import timing

    calls = []
    cmp = timing.compare(lambda: calls.append("ours"), lambda: calls.append("ref"), seconds=0, min_pairs=4,
                         warmup=1)
    assert cmp.pairs == 4 and cmp.ratio > 0 and cmp.inner >= 1
    assert calls[:2] == ["ours", "ref"]  # warm-up: each side once
    timed = calls[2 + 2:]  # after the warm-up and the one-call size probe of each side
    inner = cmp.inner
    sides = [timed[i] for i in range(0, len(timed), inner)]
    assert sides == ["ours", "ref", "ref", "ours", "ours", "ref", "ref", "ours"]
