"""An `onnx.backend.base.Backend` over acl_sim: `prepare` compiles the model with ATC into a
temporary `.om` and loads it with aclmdl; `run` copies the inputs to the device, executes and
reads the outputs back. Everything goes through the pyACL-compatible `import acl` API, so this
is also a worked example of an aclmdl program.

    import onnx, acl_sim.onnx_backend as backend
    rep = backend.prepare(onnx.load("model.onnx"))
    outputs = rep.run([x])

It lets the official ONNX backend test suite (`onnx.backend.test`) run against acl_sim
(tests/test_onnx_backend.py).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep, namedtupledict

from . import dtypes

_H2D, _D2H = 1, 2
_DEVICE_ID = 0
_init_lock = threading.Lock()
_initialised = False


def _acl():
    """`import acl`, initialised once per process, with device 0 set on the calling thread."""
    global _initialised
    import acl

    with _init_lock:
        if not _initialised:
            ret = acl.init()
            if ret not in (0, 100002):
                raise RuntimeError(f"acl.init failed: {ret}")
            _initialised = True
    ret = acl.rt.set_device(_DEVICE_ID)  # per thread; shares the device's default context
    if ret != 0:
        raise RuntimeError(f"acl.rt.set_device failed: {ret}")
    return acl


def _check(ret, what):
    if ret != 0:
        import acl

        raise RuntimeError(f"{what} failed with {ret}: {acl.get_recent_err_msg()}")


class AclSimRep(BackendRep):
    """A compiled and loaded model. Not thread-safe (one dataset pair per rep)."""

    def __init__(self, om_path: str, workdir: str, graph_inputs: list[str]):
        acl = _acl()
        self._acl = acl
        self._workdir = workdir
        self.model_id, ret = acl.mdl.load_from_file(om_path)
        _check(ret, "acl.mdl.load_from_file")
        self.desc = acl.mdl.create_desc()
        _check(acl.mdl.get_desc(self.desc, self.model_id), "acl.mdl.get_desc")
        n_in = acl.mdl.get_num_inputs(self.desc)
        self.input_names = [acl.mdl.get_input_name_by_index(self.desc, i) for i in range(n_in)]
        self.output_names = [acl.mdl.get_output_name_by_index(self.desc, i)
                             for i in range(acl.mdl.get_num_outputs(self.desc))]
        self.graph_inputs = graph_inputs
        self._ptrs, self._bufs = [], []
        self.in_ds = self._dataset([acl.mdl.get_input_size_by_index(self.desc, i) for i in range(n_in)])
        self.out_ds = self._dataset([acl.mdl.get_output_size_by_index(self.desc, i)
                                     for i in range(len(self.output_names))])
        self._in_ptrs = self._ptrs[:n_in]
        self._out_ptrs = self._ptrs[n_in:]

    def _dataset(self, sizes):
        acl = self._acl
        ds = acl.mdl.create_dataset()
        for size in sizes:
            ptr, ret = acl.rt.malloc(max(size, 1), 0)
            _check(ret, "acl.rt.malloc")
            buf = acl.create_data_buffer(ptr, size)
            self._ptrs.append(ptr)
            self._bufs.append(buf)
            _, ret = acl.mdl.add_dataset_buffer(ds, buf)
            _check(ret, "acl.mdl.add_dataset_buffer")
        return ds

    def run(self, inputs, **kwargs):
        acl = _acl()
        if isinstance(inputs, dict):
            feeds = dict(inputs)
        else:
            if not isinstance(inputs, (list, tuple)):
                inputs = [inputs]
            feeds = dict(zip(self.graph_inputs, inputs))
        for i, name in enumerate(self.input_names):
            if name not in feeds:
                raise ValueError(f"missing input '{name}'")
            dtype = dtypes.to_numpy(acl.mdl.get_input_data_type(self.desc, i))
            array = np.ascontiguousarray(np.asarray(feeds[name]), dtype=dtype)
            capacity = acl.mdl.get_input_size_by_index(self.desc, i)
            if array.nbytes > capacity:
                raise ValueError(f"input '{name}' has {array.nbytes} bytes, the model takes {capacity}")
            if array.nbytes:
                _check(acl.rt.memcpy(self._in_ptrs[i], capacity, array.ctypes.data, array.nbytes, _H2D),
                       "acl.rt.memcpy")
        _check(acl.mdl.execute(self.model_id, self.in_ds, self.out_ds), "acl.mdl.execute")
        outputs = []
        for i in range(len(self.output_names)):
            dims, ret = acl.mdl.get_cur_output_dims(self.desc, i)
            _check(ret, "acl.mdl.get_cur_output_dims")
            out = np.empty(dims["dims"], dtype=dtypes.to_numpy(acl.mdl.get_output_data_type(self.desc, i)))
            if out.nbytes:
                _check(acl.rt.memcpy(out.ctypes.data, out.nbytes, self._out_ptrs[i], out.nbytes, _D2H),
                       "acl.rt.memcpy")
            outputs.append(out)
        return namedtupledict("Outputs", self.output_names)(*outputs)

    def close(self):
        acl = self._acl
        if self.model_id is None:
            return
        acl.mdl.destroy_dataset(self.in_ds)
        acl.mdl.destroy_dataset(self.out_ds)
        for buf in self._bufs:
            acl.destroy_data_buffer(buf)
        for ptr in self._ptrs:
            acl.rt.free(ptr)
        acl.mdl.destroy_desc(self.desc)
        acl.mdl.unload(self.model_id)
        self.model_id = None
        shutil.rmtree(self._workdir, ignore_errors=True)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


# Inputs ATC needs as constants on a static-shape NPU (shape, axes, pads, sizes, ...): when a model
# only compiles with their values known, the adapter specialises on the values given to run().
# The data inputs of those nodes still flow through the runtime kernels.
_PARAMETER_INPUTS = {
    "Reshape": {1}, "Expand": {1}, "Tile": {1}, "Slice": {1, 2, 3, 4}, "Pad": {1, 2, 3}, "Resize": {1, 2, 3},
    "Upsample": {1}, "Squeeze": {1}, "Unsqueeze": {1}, "Split": {1}, "TopK": {1}, "OneHot": {1}, "CumSum": {1},
    "ReduceSum": {1}, "ReduceMean": {1}, "ReduceMax": {1}, "ReduceMin": {1}, "ReduceProd": {1}, "ReduceL1": {1},
    "ReduceL2": {1}, "ReduceLogSum": {1}, "ReduceLogSumExp": {1}, "ReduceSumSquare": {1}, "CenterCropPad": {1},
    "AffineGrid": {1}, "Col2Im": {1, 2}, "MaxUnpool": {2},
}


def _parameter_inputs(model) -> set[str]:
    """Graph inputs consumed only in parameter positions (see _PARAMETER_INPUTS)."""
    uses: dict[str, list[bool]] = {}
    for node in model.graph.node:
        params = _PARAMETER_INPUTS.get(node.op_type, set())
        for k, name in enumerate(node.input):
            uses.setdefault(name, []).append(k in params)
    return {i.name for i in model.graph.input if uses.get(i.name) and all(uses[i.name])}


def _shape_like(a: np.ndarray) -> bool:
    """A scalar, or a short integer vector: the inputs that can carry a shape or a length."""
    return a.ndim == 0 or (a.ndim == 1 and a.dtype.kind in "iu" and a.size <= 8)


def _specialise(model, feeds: dict, fold: set[str]):
    """A copy of `model` with the inputs in `fold` turned into initializers holding their fed values."""
    from onnx import numpy_helper

    m = onnx.ModelProto()
    m.CopyFrom(model)
    kept = [i for i in m.graph.input if i.name not in fold]
    del m.graph.input[:]
    m.graph.input.extend(kept)
    for name in sorted(fold):
        m.graph.initializer.append(numpy_helper.from_array(np.asarray(feeds[name]), name))
    m.ir_version = max(m.ir_version, 4)
    return m


class AclSimDeferredRep(BackendRep):
    """A model ATC could not compile without concrete input shapes (or parameter values): it is
    compiled at run() for the shapes (and parameter values) given, one `.om` per distinct key."""

    def __init__(self, model, options: dict, graph_inputs: list[str]):
        self.model, self.options, self.graph_inputs = model, options, graph_inputs
        self._params = _parameter_inputs(model)
        self._reps: dict = {}

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            feeds = dict(inputs)
        else:
            feeds = dict(zip(self.graph_inputs, inputs if isinstance(inputs, (list, tuple)) else [inputs]))
        arrays = {k: np.asarray(v) for k, v in feeds.items()}
        fold = {n for n in self._params if n in arrays}
        key = tuple(sorted((k, a.shape, a.dtype.str, a.tobytes() if k in fold else b"") for k, a in arrays.items()))
        rep = self._reps.get(key)
        if rep is None:
            rep = self._compile(arrays, fold)
            self._reps[key] = rep
        return rep.run({k: v for k, v in arrays.items() if k not in rep.folded})

    def _compile(self, arrays: dict, fold: set[str]):
        from acl_sim.compiler import CompileError

        shapes = {k: list(a.shape) for k, a in arrays.items()}
        try:  # first with the shapes alone: parameters stay runtime inputs if ATC can handle that
            rep = _compile(self.model, dict(self.options, input_shape=shapes), self.graph_inputs)
            rep.folded = set()
            return rep
        except CompileError as exc:
            error = exc
        # Then specialise on the parameter inputs; failing that, also on every scalar or short
        # integer vector input: a value that decides an output shape (Range limits, a window
        # length, ConstantOfShape's shape) must be a constant on a static-shape NPU.
        attempts = [fold] if fold else []
        shape_like = fold | {k for k, a in arrays.items() if k in self.graph_inputs and _shape_like(a)}
        if shape_like and shape_like != fold:
            attempts.append(shape_like)
        for names in attempts:
            model = _specialise(self.model, arrays, names)
            rest = [n for n in self.graph_inputs if n not in names]
            try:
                rep = _compile(model, dict(self.options, input_shape={k: shapes[k] for k in rest}), rest)
            except CompileError as exc:
                error = exc
                continue
            rep.folded = names
            return rep
        raise error

    def close(self):
        for rep in self._reps.values():
            rep.close()
        self._reps.clear()


def _compile(model, options: dict, graph_inputs: list[str]) -> AclSimRep:
    from acl_sim.compiler import compile_model

    workdir = tempfile.mkdtemp(prefix="acl_sim_backend_")
    try:
        report = compile_model(model, os.path.join(workdir, "model"), **options)
        return AclSimRep(report["om_path"], workdir, graph_inputs)
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)
        raise


class AclSimBackend(Backend):
    @classmethod
    def supports_device(cls, device: str) -> bool:
        return device.upper().startswith("CPU")

    @classmethod
    def prepare(cls, model, device: str = "CPU", **kwargs):
        """Compile with ATC and load. A model whose shapes ATC cannot fix without the inputs
        (dynamic input dims, shape/axes given as inputs) is compiled at run() instead."""
        from acl_sim.compiler import CompileError

        if isinstance(model, (bytes, str, os.PathLike)):
            model = onnx.load_from_string(model) if isinstance(model, bytes) else onnx.load(model)
        super().prepare(model, device, **kwargs)
        initializers = {t.name for t in model.graph.initializer}
        graph_inputs = [i.name for i in model.graph.input if i.name not in initializers]
        try:
            return _compile(model, kwargs, graph_inputs)
        except CompileError as exc:
            text = str(exc)
            if "dynamic dims" in text or "static shape" in text or "must be constant" in text or \
                    "must be a constant" in text or "must be constants" in text:
                return AclSimDeferredRep(model, kwargs, graph_inputs)
            raise

    @classmethod
    def run_model(cls, model, inputs, device: str = "CPU", **kwargs):
        rep = cls.prepare(model, device, **kwargs)
        try:
            return rep.run(inputs)
        finally:
            rep.close()


prepare = AclSimBackend.prepare
run_model = AclSimBackend.run_model
supports_device = AclSimBackend.supports_device
