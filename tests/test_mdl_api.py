"""acl.mdl: loading, descriptions, datasets, execution and their error codes."""

import numpy as np
import pytest

from acl_helpers import D2H, H2D, from_device, to_device
from conftest import run_in_threads
from mdl_models import compile_to, reference, small_cnn

INVALID_PARAM, MODEL_ID_INVALID = 100000, 145003
INPUT_NOT_MATCH, OUTPUT_NOT_MATCH = 100017, 100018


@pytest.fixture(scope="module")
def static_om(tmp_path_factory):
    return compile_to(small_cnn(), tmp_path_factory.mktemp("mdl") / "cnn")


@pytest.fixture
def model(acl, device, static_om):
    model_id, ret = acl.mdl.load_from_file(static_om)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    yield model_id, desc
    acl.mdl.destroy_desc(desc)
    acl.mdl.unload(model_id)


class Io:
    """Device buffers and datasets for one execution, created the way pyACL samples do."""

    def __init__(self, acl, desc, inputs, zero_outputs=False):
        self.acl = acl
        self.ptrs, self.bufs = [], []
        self.in_ds = acl.mdl.create_dataset()
        for a in inputs:
            ptr, size = to_device(acl, a)
            buf = acl.create_data_buffer(ptr, size)
            self.ptrs.append(ptr)
            self.bufs.append(buf)
            ds, ret = acl.mdl.add_dataset_buffer(self.in_ds, buf)
            assert (ds, ret) == (self.in_ds, 0)
        self.out_ds = acl.mdl.create_dataset()
        self.out_ptrs = []
        for i in range(acl.mdl.get_num_outputs(desc)):
            if zero_outputs:
                buf = acl.create_data_buffer(0, 0)
                self.out_ptrs.append(None)
            else:
                size = acl.mdl.get_output_size_by_index(desc, i)
                ptr, ret = acl.rt.malloc(size, 0)
                assert ret == 0
                buf = acl.create_data_buffer(ptr, size)
                self.out_ptrs.append(ptr)
                self.ptrs.append(ptr)
            self.bufs.append(buf)
            acl.mdl.add_dataset_buffer(self.out_ds, buf)

    def output(self, i, shape):
        buf = self.acl.mdl.get_dataset_buffer(self.out_ds, i)
        return from_device(self.acl, self.acl.get_data_buffer_addr(buf), shape, np.float32)

    def close(self):
        acl = self.acl
        acl.mdl.destroy_dataset(self.in_ds)
        acl.mdl.destroy_dataset(self.out_ds)
        for b in self.bufs:
            acl.destroy_data_buffer(b)
        for p in self.ptrs:
            acl.rt.free(p)


def x_input(batch=1, seed=0, hw=(8, 8)):
    return np.random.default_rng(seed).standard_normal((batch, 3) + hw).astype(np.float32)


def test_description(acl, model):
    _, desc = model
    assert acl.mdl.get_num_inputs(desc) == 1
    assert acl.mdl.get_num_outputs(desc) == 2
    assert acl.mdl.get_input_size_by_index(desc, 0) == 3 * 8 * 8 * 4
    assert acl.mdl.get_output_size_by_index(desc, 1) == 5 * 4
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    assert ret == 0 and dims == {"name": "x", "dimCount": 4, "dims": [1, 3, 8, 8]}
    assert acl.mdl.get_input_dims_v2(desc, 0) == (dims, 0)
    out, ret = acl.mdl.get_output_dims(desc, 0)
    assert ret == 0 and out["dims"] == [1, 5] and out["name"] == "prob"
    assert acl.mdl.get_cur_output_dims(desc, 1)[0]["dims"] == [1, 5]
    assert acl.mdl.get_input_name_by_index(desc, 0) == "x"
    assert acl.mdl.get_output_name_by_index(desc, 1) == "logits"
    assert acl.mdl.get_input_data_type(desc, 0) == 0
    assert acl.mdl.get_output_data_type(desc, 0) == 0
    assert acl.mdl.get_input_format(desc, 0) in (0, 2)
    assert acl.mdl.get_output_index_by_name(desc, "logits") == (1, 0)
    assert acl.mdl.get_input_index_by_name(desc, "x") == (0, 0)
    assert acl.mdl.get_input_index_by_name(desc, "nope")[1] == INVALID_PARAM
    # out of range: dims getters return an empty dict, value getters 0 / ""
    assert acl.mdl.get_input_dims(desc, 5) == ({}, INVALID_PARAM)
    assert acl.mdl.get_output_size_by_index(desc, 9) == 0
    assert acl.mdl.get_input_name_by_index(desc, 3) == ""
    # a static model has no dynamic profiles
    assert acl.mdl.get_dynamic_batch(desc) == ({"batchCount": 0, "batch": []}, 0)
    assert acl.mdl.get_dynamic_hw(desc, -1) == ({"hwCount": 0, "hw": []}, 0)
    assert acl.mdl.get_input_dynamic_gear_count(desc, -1) == (0, 0)


def test_execute_matches_onnxruntime(acl, model):
    model_id, desc = model
    x = x_input()
    io = Io(acl, desc, [x])
    assert acl.mdl.execute(model_id, io.in_ds, io.out_ds) == 0
    prob, logits = reference(small_cnn(), {"x": x})
    np.testing.assert_allclose(io.output(1, (1, 5)), logits, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(io.output(0, (1, 5)), prob, rtol=1e-4, atol=1e-6)
    io.close()


def test_execute_async_and_runtime_allocated_outputs(acl, model):
    model_id, desc = model
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    x = x_input(seed=3)
    io = Io(acl, desc, [x], zero_outputs=True)
    assert acl.mdl.execute_async(model_id, io.in_ds, io.out_ds, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    _, logits = reference(small_cnn(), {"x": x})
    np.testing.assert_allclose(io.output(1, (1, 5)), logits, rtol=1e-4, atol=1e-5)
    # the runtime allocated the outputs: the user frees them and resets the buffers
    for i in range(2):
        buf = acl.mdl.get_dataset_buffer(io.out_ds, i)
        assert acl.get_data_buffer_size_v2(buf) == acl.mdl.get_output_size_by_index(desc, i)
        assert acl.rt.free(acl.get_data_buffer_addr(buf)) == 0
        assert acl.update_data_buffer(buf, 0, 0) == 0
    io.close()
    assert acl.rt.destroy_stream(stream) == 0


def test_dataset_api(acl, device):
    ds = acl.mdl.create_dataset()
    assert ds != 0
    assert acl.mdl.get_dataset_num_buffers(ds) == 0
    assert acl.mdl.get_dataset_buffer(ds, 0) == 0
    buf = acl.create_data_buffer(0, 0)
    assert acl.mdl.add_dataset_buffer(ds, buf) == (ds, 0)
    assert acl.mdl.get_dataset_num_buffers(ds) == 1
    assert acl.mdl.get_dataset_buffer(ds, 0) == buf
    assert acl.mdl.get_dataset_buffer(ds, 1) == 0
    assert acl.mdl.add_dataset_buffer(ds, 0)[1] == INVALID_PARAM
    assert acl.mdl.destroy_dataset(ds) == 0
    assert acl.mdl.destroy_dataset(ds) == INVALID_PARAM
    assert acl.mdl.get_dataset_num_buffers(ds) == 0
    acl.destroy_data_buffer(buf)


def test_execute_errors(acl, model):
    model_id, desc = model
    x = x_input()
    io = Io(acl, desc, [x])
    assert acl.mdl.execute(987654, io.in_ds, io.out_ds) == MODEL_ID_INVALID
    assert acl.mdl.execute(model_id, io.out_ds, io.out_ds) == INPUT_NOT_MATCH  # 2 buffers for 1 input
    assert "the model has 1 inputs" in acl.get_recent_err_msg()
    assert acl.mdl.execute(model_id, io.in_ds, io.in_ds) == OUTPUT_NOT_MATCH
    assert acl.mdl.execute(model_id, 0, io.out_ds) == INVALID_PARAM
    # an input buffer that is too small
    small_ptr, ret = acl.rt.malloc(256, 0)
    small = acl.create_data_buffer(small_ptr, 256)
    ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ds, small)
    assert acl.mdl.execute(model_id, ds, io.out_ds) == INPUT_NOT_MATCH
    assert "input 0 ('x') expects 768 bytes, buffer has 256" in acl.get_recent_err_msg()
    # an output buffer that is too small
    out_ds = acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(out_ds, small)
    acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(small_ptr, 4))
    assert acl.mdl.execute(model_id, io.in_ds, out_ds) == OUTPUT_NOT_MATCH
    assert "expects 20 bytes, buffer has 4" in acl.get_recent_err_msg()
    # the setter on a static model
    assert acl.mdl.set_dynamic_batch_size(model_id, io.in_ds, 0, 1) == 145013  # as GeExecutor::SetDynamicBatchSize
    assert acl.mdl.get_desc(desc, 424242) == MODEL_ID_INVALID
    assert acl.mdl.unload(424242) == MODEL_ID_INVALID
    acl.mdl.destroy_dataset(ds)
    acl.mdl.destroy_dataset(out_ds)
    io.close()


def test_load_from_mem_with_mem_and_query(acl, device, static_om):
    data = open(static_om, "rb").read()
    work, weight, ret = acl.mdl.query_size(static_om)
    assert ret == 0 and weight >= (4 * 3 * 3 * 3 + 4 * 5) * 4
    assert acl.mdl.query_size_from_mem(acl.util.bytes_to_ptr(data), len(data)) == (work, weight, 0)
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    work_ptr, _ = acl.rt.malloc(max(work, 1), 0)
    weight_ptr, _ = acl.rt.malloc(max(weight, 1), 0)
    id2, ret = acl.mdl.load_from_file_with_mem(static_om, work_ptr, max(work, 1), weight_ptr, max(weight, 1))
    assert ret == 0 and id2 != model_id
    desc = acl.mdl.create_desc()
    acl.mdl.get_desc(desc, id2)
    x = x_input(seed=5)
    for mid in (model_id, id2):
        io = Io(acl, desc, [x])
        assert acl.mdl.execute(mid, io.in_ds, io.out_ds) == 0
        np.testing.assert_allclose(io.output(1, (1, 5)), reference(small_cnn(), {"x": x})[1], rtol=1e-4, atol=1e-5)
        io.close()
    assert acl.mdl.unload(id2) == 0
    assert acl.mdl.unload(model_id) == 0
    assert acl.mdl.unload(model_id) == MODEL_ID_INVALID
    acl.rt.free(work_ptr)
    acl.rt.free(weight_ptr)
    acl.mdl.destroy_desc(desc)


def test_damaged_models_fail_cleanly(acl, device, static_om, tmp_path):
    data = bytearray(open(static_om, "rb").read())
    assert acl.mdl.load_from_file(str(tmp_path / "missing.om"))[1] != 0
    for damaged in (bytes(data[:40]), bytes(data[:len(data) // 2]), b"\0" * 256, b"ACLSIMOM" + bytes(200)):
        p = tmp_path / "bad.om"
        p.write_bytes(damaged)
        mid, ret = acl.mdl.load_from_file(str(p))
        assert ret != 0
        assert acl.mdl.load_from_mem(acl.util.bytes_to_ptr(damaged), len(damaged))[1] != 0
    # flipped bytes in every region: either rejected or (if the flip hit padding) loads cleanly
    rng = np.random.default_rng(0)
    for _ in range(20):
        bad = bytearray(data)
        pos = int(rng.integers(0, len(bad)))
        bad[pos] ^= 0xFF
        mid, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(bytes(bad)), len(bad))
        if ret == 0:
            acl.mdl.unload(mid)
    assert acl.mdl.load_from_mem(0, 10)[1] == INVALID_PARAM
    assert acl.mdl.load_from_mem(acl.util.bytes_to_ptr(bytes(data)), 0)[1] == INVALID_PARAM


def test_threads_share_one_model(acl, model):
    model_id, desc = model
    context, ret = acl.rt.get_context()
    assert ret == 0

    def worker(seed):
        assert acl.rt.set_context(context) == 0
        x = x_input(seed=seed)
        expected = reference(small_cnn(), {"x": x})[1]
        io = Io(acl, desc, [x])
        for _ in range(5):
            assert acl.mdl.execute(model_id, io.in_ds, io.out_ds) == 0
            np.testing.assert_allclose(io.output(1, (1, 5)), expected, rtol=1e-4, atol=1e-5)
        io.close()

    run_in_threads(worker, [(s,) for s in range(4)])


def test_desc_errors(acl, device):
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_num_inputs(desc) == 0  # not filled yet
    assert acl.mdl.get_input_dims(desc, 0) == ({}, INVALID_PARAM)
    assert acl.mdl.destroy_desc(desc) == 0
    assert acl.mdl.destroy_desc(desc) == INVALID_PARAM
    assert acl.mdl.get_num_outputs(12345) == 0
