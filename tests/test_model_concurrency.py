"""Concurrency of the model runtime through the product path (`import acl`):
several threads, each with its own context and stream, execute the same loaded
model at once with their own datasets (sync and async), next to a second
model, and every result matches NumPy. Uses a hand-built .om so the test does
not depend on ATC."""
import threading

import numpy as np

from test_om_reader import mlp_image, mlp_reference

H2D, D2H = 1, 2


class Buffers:
    """Device input/output buffers + datasets for one thread."""

    def __init__(self, acl, in_size, out_size):
        self.acl = acl
        self.in_ptr, ret = acl.rt.malloc(in_size, 0)
        assert ret == 0
        self.out_ptr, ret = acl.rt.malloc(out_size, 0)
        assert ret == 0
        self.in_size, self.out_size = in_size, out_size
        self.inputs = acl.mdl.create_dataset()
        self.outputs = acl.mdl.create_dataset()
        self.in_buf = acl.create_data_buffer(self.in_ptr, in_size)
        self.out_buf = acl.create_data_buffer(self.out_ptr, out_size)
        acl.mdl.add_dataset_buffer(self.inputs, self.in_buf)
        acl.mdl.add_dataset_buffer(self.outputs, self.out_buf)

    def write(self, x):
        ptr = x.ctypes.data
        assert self.acl.rt.memcpy(self.in_ptr, self.in_size, ptr, x.nbytes, H2D) == 0

    def read(self, shape):
        out = np.empty(shape, np.float32)
        ptr = out.ctypes.data
        assert self.acl.rt.memcpy(ptr, out.nbytes, self.out_ptr, self.out_size, D2H) == 0
        return out

    def free(self):
        acl = self.acl
        for b in (self.in_buf, self.out_buf):
            acl.destroy_data_buffer(b)
        acl.mdl.destroy_dataset(self.inputs)
        acl.mdl.destroy_dataset(self.outputs)
        acl.rt.free(self.in_ptr)
        acl.rt.free(self.out_ptr)


def test_threads_and_streams_share_one_model(acl, device, tmp_path):
    image_a, weights_a = mlp_image(seed=0)
    image_b, weights_b = mlp_image(seed=1)
    (tmp_path / "a.om").write_bytes(image_a)
    (tmp_path / "b.om").write_bytes(image_b)
    model_a, ret = acl.mdl.load_from_file(str(tmp_path / "a.om"))
    assert ret == 0
    model_b, ret = acl.mdl.load_from_file(str(tmp_path / "b.om"))
    assert ret == 0
    context, ret = acl.rt.get_context()
    assert ret == 0
    errors = []

    def worker(index):
        try:
            assert acl.rt.set_context(context) == 0
            stream, ret = acl.rt.create_stream()
            assert ret == 0
            bufs = Buffers(acl, 3 * 8 * 4, 3 * 4 * 4)
            rng = np.random.default_rng(index)
            for i in range(25):
                use_b = (index + i) % 3 == 0
                model, weights = (model_b, weights_b) if use_b else (model_a, weights_a)
                x = rng.standard_normal((3, 8)).astype(np.float32)
                bufs.write(x)
                if i % 2:
                    assert acl.mdl.execute_async(model, bufs.inputs, bufs.outputs, stream) == 0
                    assert acl.rt.synchronize_stream(stream) == 0
                else:
                    assert acl.mdl.execute(model, bufs.inputs, bufs.outputs) == 0
                y = bufs.read((3, 4))
                if not np.allclose(y, mlp_reference(x, *weights), rtol=1e-5, atol=1e-6):
                    errors.append((index, i, "mismatch"))
            bufs.free()
            assert acl.rt.destroy_stream(stream) == 0
        except AssertionError as exc:  # surfaced in the main thread
            errors.append((index, repr(exc)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert acl.mdl.unload(model_a) == 0
    assert acl.mdl.unload(model_b) == 0
    assert not errors, errors[:5]


def test_user_work_and_weight_memory_shared_by_threads(acl, device, tmp_path):
    """load_from_file_with_mem: weights copied into the user's memory, the workspace is the user's;
    concurrent executes of that model are serialised on that one workspace and stay correct."""
    image, weights = mlp_image(seed=3)
    path = tmp_path / "m.om"
    path.write_bytes(image)
    work_size, weight_size, ret = acl.mdl.query_size(str(path))
    assert ret == 0 and work_size > 0 and weight_size > 0
    work, ret = acl.rt.malloc(work_size, 0)
    assert ret == 0
    weight, ret = acl.rt.malloc(weight_size, 0)
    assert ret == 0
    model, ret = acl.mdl.load_from_file_with_mem(str(path), work, work_size, weight, weight_size)
    assert ret == 0
    # The weights now live in the user's buffer: its first bytes are w1.
    w1_bytes = np.empty(8 * 16, np.float32)
    assert acl.rt.memcpy(w1_bytes.ctypes.data, w1_bytes.nbytes, weight, w1_bytes.nbytes, D2H) == 0
    np.testing.assert_array_equal(w1_bytes.reshape(8, 16), weights[0])
    context, _ = acl.rt.get_context()
    errors = []

    def worker(index):
        acl.rt.set_context(context)
        bufs = Buffers(acl, 3 * 8 * 4, 3 * 4 * 4)
        rng = np.random.default_rng(100 + index)
        for _ in range(20):
            x = rng.standard_normal((3, 8)).astype(np.float32)
            bufs.write(x)
            if acl.mdl.execute(model, bufs.inputs, bufs.outputs) != 0:
                errors.append("execute failed")
            elif not np.allclose(bufs.read((3, 4)), mlp_reference(x, *weights), rtol=1e-5, atol=1e-6):
                errors.append("mismatch")
        bufs.free()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert acl.mdl.unload(model) == 0
    acl.rt.free(work)
    acl.rt.free(weight)
    assert not errors, errors[:5]
