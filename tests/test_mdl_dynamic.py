"""Dynamic batch / image size / dims through ascend_mbatch_shape_data, as CANN programs use them."""
import numpy as np
import pytest

from acl_helpers import from_device, to_device
from mdl_models import compile_to, reference, small_cnn, two_input_add

PROFILE_INVALID, INVALID_PARAM = 145013, 100000
NOT_DYNAMIC = PROFILE_INVALID  # CANN: static model / wrong setter kind give the same GE code
MBATCH = "ascend_mbatch_shape_data"


@pytest.fixture(scope="module")
def oms(tmp_path_factory):
    d = tmp_path_factory.mktemp("dyn")
    return {
        "batch": compile_to(small_cnn(batch=-1), d / "batch", input_shape="x:-1,3,8,8", dynamic_batch_size="1,2,4"),
        "hw": compile_to(small_cnn(hw=(-1, -1)), d / "hw", input_shape="x:1,3,-1,-1",
                         dynamic_image_size="8,8;12,16"),
        "dims": compile_to(two_input_add(), d / "dims", input_shape="a:-1,4;b:-1,4", input_format="ND",
                           dynamic_dims="2,2;3,3;5,5"),
    }


class Loaded:
    def __init__(self, acl, path):
        self.acl = acl
        self.id, ret = acl.mdl.load_from_file(path)
        assert ret == 0
        self.desc = acl.mdl.create_desc()
        assert acl.mdl.get_desc(self.desc, self.id) == 0
        self.mbatch, ret = acl.mdl.get_input_index_by_name(self.desc, MBATCH)
        assert ret == 0
        self.frees = []
        n_in = acl.mdl.get_num_inputs(self.desc)
        self.in_ds = acl.mdl.create_dataset()
        self.in_ptrs = []
        for i in range(n_in):  # max-profile sized buffers, like acllite
            size = acl.mdl.get_input_size_by_index(self.desc, i)
            ptr, _ = acl.rt.malloc(size, 0)
            self.in_ptrs.append(ptr)
            buf = acl.create_data_buffer(ptr, size)
            self.frees.append((ptr, buf))
            acl.mdl.add_dataset_buffer(self.in_ds, buf)
        self.out_ds = acl.mdl.create_dataset()
        self.out_ptrs = []
        for i in range(acl.mdl.get_num_outputs(self.desc)):
            size = acl.mdl.get_output_size_by_index(self.desc, i)
            ptr, _ = acl.rt.malloc(size, 0)
            self.out_ptrs.append(ptr)
            buf = acl.create_data_buffer(ptr, size)
            self.frees.append((ptr, buf))
            acl.mdl.add_dataset_buffer(self.out_ds, buf)

    def feed(self, i, array):
        a = np.ascontiguousarray(array)
        assert self.acl.rt.memcpy(self.in_ptrs[i], a.nbytes, a.ctypes.data, a.nbytes, 1) == 0

    def output(self, i):
        dims = self.acl.mdl.get_cur_output_dims(self.desc, i)[0]["dims"]
        return from_device(self.acl, self.out_ptrs[i], dims, np.float32)

    def close(self):
        acl = self.acl
        acl.mdl.destroy_dataset(self.in_ds)
        acl.mdl.destroy_dataset(self.out_ds)
        for ptr, buf in self.frees:
            acl.destroy_data_buffer(buf)
            acl.rt.free(ptr)
        acl.mdl.destroy_desc(self.desc)
        acl.mdl.unload(self.id)


def test_dynamic_batch(acl, device, oms):
    m = Loaded(acl, oms["batch"])
    desc = m.desc
    assert acl.mdl.get_num_inputs(desc) == 2
    assert m.mbatch == 1
    assert acl.mdl.get_input_dims(desc, 0)[0]["dims"] == [-1, 3, 8, 8]
    assert acl.mdl.get_input_size_by_index(desc, 0) == 4 * 3 * 8 * 8 * 4  # the largest profile
    assert acl.mdl.get_output_dims(desc, 0)[0]["dims"] == [4, 5]
    assert acl.mdl.get_dynamic_batch(desc) == ({"batchCount": 3, "batch": [1, 2, 4]}, 0)
    for batch in (2, 1, 4):
        x = np.random.default_rng(batch).standard_normal((batch, 3, 8, 8)).astype(np.float32)
        m.feed(0, x)
        assert acl.mdl.set_dynamic_batch_size(m.id, m.in_ds, m.mbatch, batch) == 0
        assert acl.mdl.execute(m.id, m.in_ds, m.out_ds) == 0
        assert acl.mdl.get_cur_output_dims(desc, 1)[0]["dims"] == [batch, 5]
        np.testing.assert_allclose(m.output(1), reference(small_cnn(batch), {"x": x})[1], rtol=1e-4, atol=1e-5)
    # a batch that was not compiled, a wrong index, the wrong setter kind
    assert acl.mdl.set_dynamic_batch_size(m.id, m.in_ds, m.mbatch, 3) == PROFILE_INVALID
    assert "[1] [2] [4]" in acl.get_recent_err_msg()
    assert acl.mdl.set_dynamic_batch_size(m.id, m.in_ds, 0, 2) == INVALID_PARAM
    assert acl.mdl.set_dynamic_hw_size(m.id, m.in_ds, m.mbatch, 8, 8) == NOT_DYNAMIC
    m.close()


def test_execute_without_setter_is_refused(acl, device, oms):
    m = Loaded(acl, oms["batch"])
    zeros = np.zeros(1, np.int64)
    m.feed(m.mbatch, zeros)
    assert acl.mdl.execute(m.id, m.in_ds, m.out_ds) == PROFILE_INVALID
    assert "aclmdlSetDynamicBatchSize" in acl.get_recent_err_msg() or "setter" in acl.get_recent_err_msg()
    m.close()


def test_dynamic_hw(acl, device, oms):
    m = Loaded(acl, oms["hw"])
    hw, ret = acl.mdl.get_dynamic_hw(m.desc, -1)
    assert ret == 0 and hw["hwCount"] == 2 and [list(p) for p in hw["hw"]] == [[8, 8], [12, 16]]
    assert acl.mdl.get_input_dims(m.desc, 0)[0]["dims"] == [1, 3, -1, -1]
    for h, w in ((12, 16), (8, 8)):
        x = np.random.default_rng(h).standard_normal((1, 3, h, w)).astype(np.float32)
        m.feed(0, x)
        assert acl.mdl.set_dynamic_hw_size(m.id, m.in_ds, m.mbatch, h, w) == 0
        assert acl.mdl.execute(m.id, m.in_ds, m.out_ds) == 0
        np.testing.assert_allclose(m.output(1), reference(small_cnn(hw=(h, w)), {"x": x})[1], rtol=1e-4, atol=1e-5)
    assert acl.mdl.set_dynamic_hw_size(m.id, m.in_ds, m.mbatch, 10, 10) == PROFILE_INVALID
    assert acl.mdl.set_dynamic_batch_size(m.id, m.in_ds, m.mbatch, 1) == NOT_DYNAMIC
    m.close()


def test_dynamic_dims(acl, device, oms):
    m = Loaded(acl, oms["dims"])
    count, ret = acl.mdl.get_input_dynamic_gear_count(m.desc, -1)
    assert (count, ret) == (3, 0)
    gears, ret = acl.mdl.get_input_dynamic_dims(m.desc, -1, count)
    assert ret == 0
    assert [g["dims"] for g in gears] == [[2, 4, 2, 4], [3, 4, 3, 4], [5, 4, 5, 4]]
    assert acl.mdl.get_input_dynamic_dims(m.desc, -1, 2)[1] == INVALID_PARAM
    for n in (3, 5):
        rng = np.random.default_rng(n)
        a = rng.standard_normal((n, 4)).astype(np.float32)
        b = rng.standard_normal((n, 4)).astype(np.float32)
        m.feed(0, a)
        m.feed(1, b)
        dims = {"name": "", "dimCount": 4, "dims": [n, 4, n, 4]}
        assert acl.mdl.set_input_dynamic_dims(m.id, m.in_ds, m.mbatch, dims) == 0
        assert acl.mdl.execute(m.id, m.in_ds, m.out_ds) == 0
        np.testing.assert_allclose(m.output(0), a * b + a, rtol=1e-6)
    bad = {"name": "", "dimCount": 4, "dims": [4, 4, 4, 4]}
    assert acl.mdl.set_input_dynamic_dims(m.id, m.in_ds, m.mbatch, bad) == PROFILE_INVALID
    m.close()
