"""The C++ .om reader and graph executor on hand-built tiny graphs.

Covers: execution through the operator registry (weights, workspace reuse,
in-place, absent optional inputs), dynamic profiles, user-visible queries,
concurrency on one model, and damaged files: every malformed image gives
ACL_ERROR_INVALID_FILE (100003) or ACL_ERROR_PARSE_MODEL (100013), never a
crash. Models run in host memory through acl_sim._core.testing_model.
"""
import os
import struct
import threading

import numpy as np
import pytest

from acl_sim import _core
from acl_sim._model_testing import (GraphBuilder, build_image, io_entry, patch_header, replace_section, sections)
from acl_sim.compiler.om_writer import SECTION_GRAPH, SECTION_IODESC, SECTION_META, SECTION_WEIGHTS, WeightStore

tm = _core.testing_model
INVALID_FILE, PARSE_MODEL, PATH_INVALID = 100003, 100013, 145002
IODESC, GRAPH = SECTION_IODESC, SECTION_GRAPH


def mlp_image(batch_profiles=None, seed=0):
    """y = Softmax(Relu(x @ W1 + b1) @ W2); optionally dynamic batch over `batch_profiles`."""
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((8, 16)).astype(np.float32)
    b1 = rng.standard_normal(16).astype(np.float32)
    w2 = rng.standard_normal((16, 4)).astype(np.float32)
    store = WeightStore()
    batches = batch_profiles or [3]
    graphs = []
    for b in batches:
        g = GraphBuilder(store)
        x = g.input("x", np.float32, [b, 8], 0)
        tw1, tb1, tw2 = g.weight("w1", w1), g.weight("b1", b1), g.weight("w2", w2)
        h = g.workspace("h", np.float32, [b, 16], offset=0)
        logits = g.workspace("logits", np.float32, [b, 4])
        y = g.output("y", np.float32, [b, 4], 0)
        g.node("Gemm", [x, tw1, tb1], [h], name="fc1")
        g.node("Relu", [h], [h], name="relu")  # in place
        g.node("MatMul", [h, tw2], [logits], name="fc2")
        g.node("Softmax", [logits], [y], name="softmax", axis=-1)
        graphs.append(g.to_json())
    bmax = max(batches)
    inputs = [io_entry("x", np.float32, [-1 if batch_profiles else bmax, 8], bmax * 8 * 4)]
    dynamic = {"kind": "none"}
    if batch_profiles:
        inputs.append(io_entry("ascend_mbatch_shape_data", np.int64, [1], 8))
        dynamic = {"kind": "batch", "profiles": [[b] for b in batches], "mbatch_input_index": 1}
    iodesc = {"inputs": inputs, "outputs": [io_entry("y", np.float32, [bmax, 4], bmax * 16)], "dynamic": dynamic}
    return build_image(iodesc, graphs, store, meta={"producer": "test"}), (w1, b1, w2)


def mlp_reference(x, w1, b1, w2):
    h = np.maximum(x @ w1 + b1, 0)
    z = h @ w2
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def load_code(image):
    with pytest.raises(tm.ModelError) as info:
        tm.Model.from_bytes(image)
    return info.value.code


def test_tiny_graph_matches_numpy():
    image, weights = mlp_image()
    model = tm.Model.from_bytes(image)
    assert model.profile_count == 1
    assert model.node_count(0) == 4
    assert model.input_dims(0) == [[3, 8]] and model.output_dims(0) == [[3, 4]]
    assert model.weight_size >= sum(w.nbytes for w in weights)
    assert model.work_size >= 3 * 16 * 4
    x = np.random.default_rng(1).standard_normal((3, 8)).astype(np.float32)
    (y,) = model.run([x])
    np.testing.assert_allclose(y, mlp_reference(x, *weights), rtol=1e-5, atol=1e-6)
    assert tm.query_size(image) == (model.work_size, model.weight_size)
    assert '"producer"' in model.meta_json


def test_run_from_file_and_mapped_weights(tmp_path):
    image, weights = mlp_image()
    path = tmp_path / "mlp.om"
    path.write_bytes(image)
    x = np.ones((3, 8), np.float32)
    want = mlp_reference(x, *weights)
    np.testing.assert_allclose(tm.run_om(str(path), [x])[0], want, rtol=1e-5)
    mapped = tm.Model.from_file(str(path), map_weights=True)
    np.testing.assert_allclose(mapped.run([x])[0], want, rtol=1e-5)


def test_dynamic_batch_profiles():
    image, weights = mlp_image(batch_profiles=[1, 2, 5])
    model = tm.Model.from_bytes(image)
    assert model.profile_count == 3
    assert model.dynamic()["kind"] == "batch"
    assert model.inputs()[0]["dims"] == [-1, 8]
    assert model.inputs()[1]["name"] == "ascend_mbatch_shape_data"
    for p, b in enumerate([1, 2, 5]):
        assert model.input_dims(p)[0] == [b, 8]
        assert model.input_dims(p)[1] == [1]
        assert model.output_dims(p) == [[b, 4]]
        x = np.random.default_rng(p).standard_normal((b, 8)).astype(np.float32)
        (y,) = model.run([x], profile=p)
        np.testing.assert_allclose(y, mlp_reference(x, *weights), rtol=1e-5, atol=1e-6)
    with pytest.raises(tm.ModelError) as info:
        model.output_dims(3)
    assert info.value.code == 100000


def test_concurrent_runs_of_one_model():
    """Threads running one model at once each get their own workspace and correct results."""
    image, weights = mlp_image(batch_profiles=[2, 7])
    model = tm.Model.from_bytes(image)
    errors = []

    def worker(seed):
        rng = np.random.default_rng(seed)
        for i in range(40):
            p = (seed + i) % 2
            b = [2, 7][p]
            x = rng.standard_normal((b, 8)).astype(np.float32)
            (y,) = model.run([x], profile=p)
            if not np.allclose(y, mlp_reference(x, *weights), rtol=1e-5, atol=1e-6):
                errors.append((seed, i))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_several_models_in_one_process():
    images = [mlp_image(seed=s) for s in range(3)]
    models = [tm.Model.from_bytes(img) for img, _ in images]
    x = np.full((3, 8), 0.5, np.float32)
    for model, (_, weights) in zip(models, images):
        np.testing.assert_allclose(model.run([x])[0], mlp_reference(x, *weights), rtol=1e-5)


def test_absent_optional_input_and_hook_timing():
    """Gemm with C absent (-1); node_times sees every node through the per-node hook."""
    store = WeightStore()
    g = GraphBuilder(store)
    x = g.input("x", np.float32, [2, 3], 0)
    w = g.weight("w", np.arange(12, dtype=np.float32).reshape(3, 4))
    y = g.output("y", np.float32, [2, 4], 0)
    g.node("Gemm", [x, w, -1], [y], name="gemm")
    iodesc = {"inputs": [io_entry("x", np.float32, [2, 3], 24)], "outputs": [io_entry("y", np.float32, [2, 4], 32)]}
    model = tm.Model.from_bytes(build_image(iodesc, [g.to_json()], store))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(model.run([x])[0], x @ np.arange(12, dtype=np.float32).reshape(3, 4))
    times = model.node_times([x], repeats=3)
    assert [(n, op) for n, op, _ in times] == [("gemm", "Gemm")]
    assert times[0][2] >= 0


def test_wrong_inputs_are_rejected():
    image, _ = mlp_image()
    model = tm.Model.from_bytes(image)
    with pytest.raises(ValueError):
        model.run([np.zeros((4, 8), np.float32)])
    with pytest.raises(ValueError):
        model.run([])
    with pytest.raises(TypeError):
        model.run([np.zeros((3, 8), np.float64)])


def test_missing_file_and_directory(tmp_path):
    for path in [tmp_path / "nope.om", tmp_path]:
        with pytest.raises(tm.ModelError) as info:
            tm.Model.from_file(str(path))
        assert info.value.code == PATH_INVALID
    empty = tmp_path / "empty.om"
    empty.write_bytes(b"")
    with pytest.raises(tm.ModelError) as info:
        tm.Model.from_file(str(empty))
    assert info.value.code == INVALID_FILE


def test_container_damage_gives_invalid_file():
    image, _ = mlp_image()
    cases = {
        "empty": b"",
        "short": image[:40],
        "magic": b"XCLSIMOM" + image[8:],
        "version": patch_header(image, 8, "<I", 2),
        "header size": patch_header(image, 12, "<I", 32),
        "zero sections": patch_header(image, 16, "<I", 0),
        "17 sections": patch_header(image, 16, "<I", 17),
        "flags": patch_header(image, 20, "<I", 1),
        "file size": patch_header(image, 24, "<Q", len(image) + 1),
        "truncated": image[:-1],
        "padded": image + b"\0",
        "section kind": patch_header(image, 64, "<I", 9),
        "section crc": patch_header(image, 68, "<I", 0),
        "section offset": patch_header(image, 72, "<Q", 1 << 62),
        "section size": patch_header(image, 80, "<Q", 1 << 63),
        "section in header": patch_header(image, 72, "<Q", 8),
    }
    # A duplicate kind and an overlap, with valid CRCs.
    secs = sections(image)
    dup = bytearray(image)
    struct.pack_into("<I", dup, 64 + 32, secs[0][0])
    cases["duplicate kind"] = bytes(dup)
    overlap = bytearray(image)
    off0 = struct.unpack_from("<Q", image, 72)[0]
    struct.pack_into("<Q", overlap, 64 + 32 + 8, off0)
    struct.pack_into("<Q", overlap, 64 + 32 + 16, len(secs[0][1]))
    struct.pack_into("<I", overlap, 64 + 32 + 4, struct.unpack_from("<I", image, 68)[0])
    cases["overlap"] = bytes(overlap)
    for name, bad in cases.items():
        assert load_code(bad) == INVALID_FILE, name
        with pytest.raises(tm.ModelError):
            tm.query_size(bad)


def test_every_truncation_and_bit_flip_is_rejected():
    """Cutting the file anywhere or flipping any sampled bit fails cleanly (CRC or structure)."""
    image, _ = mlp_image()
    for cut in range(0, len(image), max(1, len(image) // 300)):
        assert load_code(image[:cut]) == INVALID_FILE
    # Every byte but the alignment padding between sections is checked (header, table, CRC'd sections).
    count = struct.unpack_from("<I", image, 16)[0]
    covered = np.zeros(len(image), bool)
    covered[:64 + 32 * count] = True
    for i in range(count):
        _, _, off, size, _ = struct.unpack_from("<IIQQQ", image, 64 + 32 * i)
        covered[off:off + size] = True
    rng = np.random.default_rng(0)
    for pos in rng.choice(np.flatnonzero(covered), 400):
        bad = bytearray(image)
        bad[pos] ^= 1 << int(rng.integers(0, 8))
        with pytest.raises(tm.ModelError) as info:
            tm.Model.from_bytes(bytes(bad))
        assert info.value.code in (INVALID_FILE, PARSE_MODEL)


def _with_graph(image, mutate):
    import json

    graph = json.loads(dict(sections(image))[GRAPH])
    mutate(graph["profiles"][0])
    return replace_section(image, GRAPH, json.dumps(graph).encode())


def _with_iodesc(image, mutate):
    import json

    io = json.loads(dict(sections(image))[IODESC])
    mutate(io)
    return replace_section(image, IODESC, json.dumps(io).encode())


def test_content_damage_gives_parse_model():
    image, _ = mlp_image()
    t = lambda i: (lambda g: g["tensors"][i])  # noqa: E731
    cases = {
        "not json": replace_section(image, GRAPH, b"{not json"),
        "deep json": replace_section(image, GRAPH, b"[" * 100000),
        "trailing comma": replace_section(image, IODESC, b'{"inputs":[],"outputs":[],}'),
        "meta not object": replace_section(image, SECTION_META, b"[]"),
        "no outputs": _with_iodesc(image, lambda io: io.update(outputs=[])),
        "bad dtype": _with_iodesc(image, lambda io: io["inputs"][0].update(dtype=13)),
        "bad dynamic": _with_iodesc(image, lambda io: io.update(dynamic={"kind": "batch", "profiles": []})),
        "unknown kind": _with_iodesc(image, lambda io: io.update(dynamic={"kind": "weird"})),
        "profile count": _with_iodesc(image, lambda io: io.update(
            dynamic={"kind": "batch", "profiles": [[1], [2]], "mbatch_input_index": 0})),
        "tensor index": _with_graph(image, lambda g: g["nodes"][0]["inputs"].__setitem__(0, 99)),
        "tensor -2": _with_graph(image, lambda g: g["nodes"][0]["inputs"].__setitem__(0, -2)),
        "size mismatch": _with_graph(image, lambda g: t(0)(g).update(size=4)),
        "negative dim": _with_graph(image, lambda g: t(0)(g).update(shape=[-3, 8])),
        "huge dims": _with_graph(image, lambda g: t(0)(g).update(shape=[1 << 40, 1 << 40])),
        "weight outside": _with_graph(image, lambda g: t(1)(g).update(offset=1 << 40)),
        "workspace outside": _with_graph(image, lambda g: g.update(workspace_size=16)),
        "misaligned": _with_graph(image, lambda g: t(4)(g).update(offset=t(4)(g)["offset"] + 1)),
        "input index": _with_graph(image, lambda g: t(0)(g).update(index=1)),
        "output index": _with_graph(image, lambda g: t(6)(g).update(index=5)),
        "input dtype": _with_graph(image, lambda g: t(0)(g).update(dtype=9, size=3 * 8 * 8)),
        "input too big": _with_graph(image, lambda g: t(0)(g).update(shape=[30, 8], size=30 * 8 * 4)),
        "tensor kind": _with_graph(image, lambda g: t(4)(g).update(kind="magic")),
        "writes weight": _with_graph(image, lambda g: g["nodes"][0]["outputs"].__setitem__(0, 1)),
        "writes input": _with_graph(image, lambda g: g["nodes"][0]["outputs"].__setitem__(0, 0)),
        "unknown op": _with_graph(image, lambda g: g["nodes"][1].update(op="NoSuchOp")),
        "output unwritten": _with_graph(image, lambda g: g["nodes"].pop()),
        "output twice": _with_graph(image, lambda g: g["nodes"].append(dict(g["nodes"][-1]))),
        "attr type": _with_graph(image, lambda g: g["nodes"][3]["attrs"].update(axis={"a": 1})),
        "attr list": _with_graph(image, lambda g: g["nodes"][3]["attrs"].update(axis=["x"])),
        "missing nodes": _with_graph(image, lambda g: g.pop("nodes")),
        "workspace size float": _with_graph(image, lambda g: g.update(workspace_size=1.5)),
    }
    for name, bad in cases.items():
        assert load_code(bad) == PARSE_MODEL, name


def test_damaged_files_never_crash_under_random_mutation():
    """Random byte edits to JSON sections (with valid CRCs) always give an error or a valid model."""
    image, _ = mlp_image()
    rng = np.random.default_rng(7)
    secs = dict(sections(image))
    for _ in range(300):
        kind = [IODESC, GRAPH][int(rng.integers(0, 2))]
        data = bytearray(secs[kind])
        for _ in range(int(rng.integers(1, 4))):
            data[int(rng.integers(0, len(data)))] = int(rng.choice(list(b'0123456789-[]{}",:.e ')))
        try:
            model = tm.Model.from_bytes(replace_section(image, kind, bytes(data)))
        except tm.ModelError as e:
            assert e.code in (INVALID_FILE, PARSE_MODEL)
        else:
            assert model.profile_count == 1


def test_weights_section_may_be_empty():
    store = WeightStore()
    g = GraphBuilder(store)
    x = g.input("x", np.float32, [4], 0)
    y = g.output("y", np.float32, [4], 0)
    g.node("Relu", [x], [y])
    iodesc = {"inputs": [io_entry("x", np.float32, [4], 16)], "outputs": [io_entry("y", np.float32, [4], 16)]}
    image = build_image(iodesc, [g.to_json()], store)
    model = tm.Model.from_bytes(image)
    assert model.weight_size == 0 and model.work_size == 0
    np.testing.assert_array_equal(model.run([np.array([-1, 2, -3, 4], np.float32)])[0], [0, 2, 0, 4])
    assert dict(sections(image))[SECTION_WEIGHTS] == b""
