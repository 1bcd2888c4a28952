"""acl.op: CANN op types on the built-in kernels, attributes, handles, and their error codes."""
import numpy as np
import pytest

from acl_helpers import ACL_FLOAT, ACL_FORMAT_ND, ACL_INT32, OpRunner

OP_NOT_FOUND, OP_INPUT_NOT_MATCH, OP_OUTPUT_NOT_MATCH, OP_ATTR_NOT_MATCH = 100024, 100021, 100022, 100023
INVALID_PARAM, FORMAT_NOT_MATCH = 100000, 100027


@pytest.fixture
def runner(acl, device):
    r = OpRunner(acl)
    yield r
    r.close()


def rng():
    return np.random.default_rng(1234)


@pytest.mark.parametrize("op_type,ref", [
    ("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply), ("RealDiv", np.divide),
    ("Maximum", np.maximum), ("Minimum", np.minimum),
])
def test_binary_ops_broadcast(runner, op_type, ref):
    a = rng().standard_normal((4, 1, 5)).astype(np.float32)
    b = rng().uniform(0.5, 2.0, (3, 1)).astype(np.float32)
    ret, (out,) = runner.run(op_type, [a, b], [((4, 3, 5), np.float32)])
    assert ret == 0
    np.testing.assert_allclose(out, ref(a, b), rtol=1e-6, atol=1e-6)


def test_add_int32_matches_sample(runner):
    # Ascend/samples acl_execute_add.py: two int32 [8, 16] tensors.
    a = np.arange(128, dtype=np.int32).reshape(8, 16)
    b = np.full((8, 16), 7, dtype=np.int32)
    ret, (out,) = runner.run("Add", [a, b], [((8, 16), np.int32)])
    assert ret == 0
    np.testing.assert_array_equal(out, a + b)


@pytest.mark.parametrize("op_type,ref", [
    ("Relu", lambda x: np.maximum(x, 0)), ("Exp", np.exp), ("Abs", np.abs), ("Neg", np.negative),
    ("Sigmoid", lambda x: 1 / (1 + np.exp(-x))), ("Tanh", np.tanh),
])
def test_unary_ops(runner, op_type, ref):
    x = rng().standard_normal((3, 7, 9)).astype(np.float32)
    ret, (out,) = runner.run(op_type, [x], [((3, 7, 9), np.float32)])
    assert ret == 0
    np.testing.assert_allclose(out, ref(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("t1,t2", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_transposes(acl, runner, t1, t2):
    a = rng().standard_normal((6, 5) if t1 else (5, 6)).astype(np.float32)
    b = rng().standard_normal((7, 6) if t2 else (6, 7)).astype(np.float32)
    attr = acl.op.create_attr()
    assert acl.op.set_attr_bool(attr, "transpose_x1", int(t1)) == 0
    assert acl.op.set_attr_bool(attr, "transpose_x2", int(t2)) == 0
    ret, (out,) = runner.run("MatMul", [a, b], [((5, 7), np.float32)], attr)
    acl.op.destroy_attr(attr)
    assert ret == 0
    ref = (a.T if t1 else a) @ (b.T if t2 else b)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_batch_matmul_adj(acl, runner):
    a = rng().standard_normal((3, 4, 5)).astype(np.float32)
    b = rng().standard_normal((3, 6, 5)).astype(np.float32)
    attr = acl.op.create_attr()
    acl.op.set_attr_bool(attr, "adj_x2", True)
    ret, (out,) = runner.run("BatchMatMul", [a, b], [((3, 4, 6), np.float32)], attr)
    acl.op.destroy_attr(attr)
    assert ret == 0
    np.testing.assert_allclose(out, a @ b.transpose(0, 2, 1), rtol=1e-4, atol=1e-4)


def conv_ref(x, w, stride, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return out


def test_conv2d_nchw(acl, runner):
    x = rng().standard_normal((1, 3, 9, 9)).astype(np.float32)
    w = rng().standard_normal((4, 3, 3, 3)).astype(np.float32)
    attr = acl.op.create_attr()
    acl.op.set_attr_list_int(attr, "strides", [1, 1, 2, 2])
    acl.op.set_attr_list_int(attr, "pads", [1, 1, 1, 1])
    ret, (out,) = runner.run("Conv2D", [x, w], [((1, 4, 5, 5), np.float32)], attr, fmt=0)
    acl.op.destroy_attr(attr)
    assert ret == 0
    np.testing.assert_allclose(out, conv_ref(x, w, 2, 1), rtol=1e-4, atol=1e-4)


def test_conv2d_nhwc(acl, runner):
    """x's NHWC desc format (CANN's acl_execute_conv2d sample) or data_format=NHWC: strides and
    dilations in NHWC order, the filter in its own desc format (here NHWC: out, kh, kw, in)."""
    x = rng().standard_normal((2, 3, 9, 9)).astype(np.float32)
    w = rng().standard_normal((4, 3, 3, 3)).astype(np.float32)
    attr = acl.op.create_attr()
    acl.op.set_attr_list_int(attr, "strides", [1, 2, 2, 1])
    acl.op.set_attr_list_int(attr, "pads", [1, 1, 1, 1])
    x_nhwc, w_nhwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1)), np.ascontiguousarray(w.transpose(0, 2, 3, 1))
    ret, (out,) = runner.run("Conv2D", [x_nhwc, w_nhwc], [((2, 5, 5, 4), np.float32)], attr, fmt=1)
    assert ret == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(out, conv_ref(x, w, 2, 1).transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-4)
    acl.op.set_attr_string(attr, "data_format", "NCHW")  # contradicts x's NHWC desc
    assert runner.run("Conv2D", [x_nhwc, w_nhwc], [((2, 5, 5, 4), np.float32)], attr, fmt=1)[0] == FORMAT_NOT_MATCH
    acl.op.set_attr_string(attr, "data_format", "NCWH")
    assert runner.run("Conv2D", [x, w], [((2, 4, 5, 5), np.float32)], attr)[0] == FORMAT_NOT_MATCH
    acl.op.destroy_attr(attr)


def test_cast_softmax_reducesum_transpose(acl, runner):
    x = rng().standard_normal((2, 3, 4)).astype(np.float32)
    attr = acl.op.create_attr()
    acl.op.set_attr_int(attr, "dst_type", 1)
    ret, (half,) = runner.run("Cast", [x], [((2, 3, 4), np.float16)], attr)
    assert ret == 0
    np.testing.assert_array_equal(half, x.astype(np.float16))
    acl.op.destroy_attr(attr)

    ret, (sm,) = runner.run("SoftmaxV2", [x], [((2, 3, 4), np.float32)])
    assert ret == 0
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(sm, e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-6)

    attr = acl.op.create_attr()
    acl.op.set_attr_bool(attr, "keep_dims", True)
    ret, (rs,) = runner.run("ReduceSum", [x, np.array([1], np.int64)], [((2, 1, 4), np.float32)], attr)
    acl.op.destroy_attr(attr)
    assert ret == 0
    np.testing.assert_allclose(rs, x.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)

    ret, (tr,) = runner.run("Transpose", [x, np.array([2, 0, 1], np.int32)], [((4, 2, 3), np.float32)])
    assert ret == 0
    np.testing.assert_array_equal(tr, x.transpose(2, 0, 1))


def test_error_codes(acl, runner):
    a = np.ones((2, 3), np.float32)
    assert runner.run("NoSuchOp", [a, a], [((2, 3), np.float32)])[0] == OP_NOT_FOUND
    assert "NoSuchOp" in acl.get_recent_err_msg()
    # dtype mismatch between inputs
    assert runner.run("Add", [a, a.astype(np.int32)], [((2, 3), np.float32)])[0] == OP_INPUT_NOT_MATCH
    # wrong output shape
    assert runner.run("Add", [a, a], [((3, 2), np.float32)])[0] == OP_OUTPUT_NOT_MATCH
    assert "[3,2]" in acl.get_recent_err_msg()
    # shapes that do not broadcast
    assert runner.run("Mul", [a, np.ones((4,), np.float32)], [((2, 4), np.float32)])[0] == OP_INPUT_NOT_MATCH
    # wrong input count
    assert runner.run("Relu", [a, a], [((2, 3), np.float32)])[0] == OP_INPUT_NOT_MATCH
    # inner dims differ
    assert runner.run("MatMul", [a, a], [((2, 3), np.float32)])[0] == OP_INPUT_NOT_MATCH
    # attribute of the wrong kind
    attr = acl.op.create_attr()
    acl.op.set_attr_string(attr, "transpose_x1", "yes")
    assert runner.run("MatMul", [a, a.T.copy()], [((2, 2), np.float32)], attr)[0] == OP_ATTR_NOT_MATCH
    acl.op.destroy_attr(attr)
    # data_format NHWC reads x as NHWC: (1, 3, 4, 4) has 4 channels, the filter expects 3
    attr = acl.op.create_attr()
    acl.op.set_attr_list_int(attr, "strides", [1, 1, 1, 1])
    acl.op.set_attr_string(attr, "data_format", "NHWC")
    x = np.ones((1, 3, 4, 4), np.float32)
    w = np.ones((2, 3, 1, 1), np.float32)
    assert runner.run("Conv2D", [x, w], [((1, 3, 4, 2), np.float32)], attr)[0] == OP_INPUT_NOT_MATCH
    acl.op.destroy_attr(attr)


def test_buffer_too_small_and_bad_handles(acl, runner):
    d = runner.desc(np.float32, (4, 4))
    small_ptr, small = runner.buffer(nbytes=32)
    _, good = runner.buffer(np.ones((4, 4), np.float32))
    ret = acl.op.execute_v2("Add", [d, d], [good, small], [d], [good], 0, 0)
    assert ret == OP_INPUT_NOT_MATCH
    assert "input 1 expects 64 bytes, buffer has 32" in acl.get_recent_err_msg()
    assert acl.op.execute_v2("Add", [d, 12345], [good, good], [d], [good], 0, 0) == INVALID_PARAM
    assert acl.op.execute_v2("Add", [d, d], [good, good], [d], [good], 999, 0) == INVALID_PARAM


def test_handle_api(acl, runner):
    a = rng().standard_normal((5, 5)).astype(np.float32)
    d = runner.desc(np.float32, (5, 5))
    _, ba = runner.buffer(a)
    out_ptr, bo = runner.buffer(nbytes=100)
    h, ret = acl.op.create_handle("Add", [d, d], [d], 0)
    assert ret == 0 and h != 0
    for _ in range(3):
        assert acl.op.execute_with_handle(h, [ba, ba], [bo], 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    from acl_helpers import from_device
    np.testing.assert_allclose(from_device(acl, out_ptr, (5, 5), np.float32), a + a, rtol=1e-6)
    assert acl.op.execute_with_handle(h, [ba], [bo], 0) == OP_INPUT_NOT_MATCH
    acl.op.destroy_handle(h)
    assert acl.op.execute_with_handle(h, [ba, ba], [bo], 0) == INVALID_PARAM
    _, ret = acl.op.create_handle("Bogus", [d], [d], 0)
    assert ret == OP_NOT_FOUND


def test_tensor_desc_api(acl):
    d = acl.create_tensor_desc(ACL_FLOAT, [2, 3, 4], ACL_FORMAT_ND)
    assert d != 0
    assert acl.get_tensor_desc_size(d) == 96
    assert acl.get_tensor_desc_type(d) == ACL_FLOAT
    assert acl.get_tensor_desc_format(d) == ACL_FORMAT_ND
    assert acl.get_tensor_desc_num_dims(d) == 3
    assert acl.get_tensor_desc_element_count(d) == 24
    assert acl.get_tensor_desc_dim(d, 1) == 3
    assert acl.get_tensor_desc_dim_v2(d, 2) == (4, 0)
    dim, ret = acl.get_tensor_desc_dim_v2(d, 3)
    assert ret == INVALID_PARAM
    acl.set_tensor_desc_name(d, "x")
    assert acl.get_tensor_desc_name(d) == "x"
    assert acl.destroy_tensor_desc(d) is None
    assert acl.get_tensor_desc_size(d) == 0  # destroyed handle: value-returning getters give 0
    scalar = acl.create_tensor_desc(ACL_INT32, [], ACL_FORMAT_ND)
    assert acl.get_tensor_desc_size(scalar) == 4 and acl.get_tensor_desc_num_dims(scalar) == 0
    acl.destroy_tensor_desc(scalar)
    assert acl.create_tensor_desc(999, [1], ACL_FORMAT_ND) == 0


def test_attr_api(acl):
    attr = acl.op.create_attr()
    assert attr != 0
    assert acl.op.set_attr_int(attr, "n", 3) == 0
    assert acl.op.set_attr_float(attr, "f", 0.5) == 0
    assert acl.op.set_attr_string(attr, "s", "x") == 0
    assert acl.op.set_attr_list_int(attr, "li", [1, 2]) == 0
    assert acl.op.set_attr_list_float(attr, "lf", [1.0]) == 0
    assert acl.op.set_attr_list_bool(attr, "lb", [1, 0]) == 0
    assert acl.op.set_attr_list_string(attr, "ls", ["a", "b"]) == 0
    assert acl.op.set_attr_list_list_int(attr, "lli", [[1], [2, 3]]) == 0
    assert acl.op.set_attr_int(attr, "", 1) == INVALID_PARAM
    assert acl.op.destroy_attr(attr) is None
    assert acl.op.set_attr_int(attr, "n", 1) == INVALID_PARAM
