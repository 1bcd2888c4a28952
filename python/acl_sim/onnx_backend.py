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

    def __init__(self, om_path: str, workdir: str, graph_inputs: list[str], report: dict | None = None,
                 graph_outputs: list[str] | None = None):
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
        # ONNX outputs that are sequences (model outputs '<name>:<k>') or empty optionals (none): see
        # compiler/passes/sequences.py; regrouped in run().
        report = report or {}
        self._sequences = dict(report.get("sequence_outputs", {}))
        self._absent = set(report.get("absent_outputs", []))
        self.graph_outputs = graph_outputs or self.output_names
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
        if not self._sequences and not self._absent:
            return namedtupledict("Outputs", self.output_names)(*outputs)
        by_name = dict(zip(self.output_names, outputs))
        values = [None if name in self._absent else
                  [by_name[f"{name}:{k}"] for k in range(self._sequences[name])] if name in self._sequences else
                  by_name[name] for name in self.graph_outputs]
        return namedtupledict("Outputs", [n.replace(":", "_") for n in self.graph_outputs])(*values)

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
    "AffineGrid": {1}, "Col2Im": {1, 2}, "MaxUnpool": {2}, "SequenceAt": {1}, "SequenceInsert": {2},
    "SequenceErase": {1}, "SplitToSequence": {1},
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


def _value_inputs(model) -> dict:
    """Graph inputs of sequence or optional type: name -> TypeProto."""
    return {vi.name: vi.type for vi in model.graph.input if vi.type.WhichOneof("value") != "tensor_type"}


def _elem_type(type_proto) -> int:
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        return type_proto.tensor_type.elem_type
    inner = type_proto.sequence_type.elem_type if kind == "sequence_type" else type_proto.optional_type.elem_type
    return _elem_type(inner)


def _flatten_values(model, feeds: dict):
    """Sequence / optional graph inputs as tensors: a model input per element ('<name>:<k>') rebuilt into the
    value by SequenceConstruct / Optional at the top of the graph (ATC resolves sequences at compile time, so
    a compiled model is specific to the lengths given). Returns (model, tensor feeds)."""
    from onnx import helper

    values = _value_inputs(model)
    if not values:
        return model, {k: np.asarray(v) for k, v in feeds.items()}
    m = onnx.ModelProto()
    m.CopyFrom(model)
    kept = [vi for vi in m.graph.input if vi.name not in values]
    del m.graph.input[:]
    m.graph.input.extend(kept)
    nodes, arrays = [], {}
    for name, type_proto in values.items():
        value = feeds.get(name)
        elem = _elem_type(type_proto)
        optional = type_proto.WhichOneof("value") == "optional_type"
        target = f"{name}:value" if optional else name
        if optional and value is None:
            nodes.append(helper.make_node("Optional", [], [name], type=type_proto.optional_type.elem_type))
            continue
        is_seq = isinstance(value, (list, tuple))
        elements = list(value) if is_seq else [value]
        parts = []
        for k, v in enumerate(elements):
            a = np.asarray(v)
            part = f"{name}:{k}"
            m.graph.input.append(helper.make_tensor_value_info(part, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape))
            arrays[part] = a
            parts.append(part)
        if is_seq:
            nodes.append(helper.make_node("SequenceConstruct", parts, [target]) if parts else
                         helper.make_node("SequenceEmpty", [], [target], dtype=elem))
        elif optional:
            target = parts[0]
        if optional:
            nodes.append(helper.make_node("Optional", [target], [name]))
    old_nodes = list(m.graph.node)
    del m.graph.node[:]
    m.graph.node.extend(nodes + old_nodes)
    for k, v in feeds.items():
        if k not in values:
            arrays[k] = np.asarray(v)
    return m, arrays


def _value_key(v):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return tuple(_value_key(e) for e in v)
    a = np.asarray(v)
    return (a.shape, a.dtype.str)


class AclSimDeferredRep(BackendRep):
    """A model ATC could not compile without concrete input shapes (or parameter values, or sequence
    lengths): it is compiled at run() for the shapes (and parameter values) given, one `.om` per distinct key."""

    def __init__(self, model, options: dict, graph_inputs: list[str]):
        self.model, self.options, self.graph_inputs = model, options, graph_inputs
        self._params = _parameter_inputs(model)
        self._values = _value_inputs(model)
        self._reps: dict = {}

    def run(self, inputs, **kwargs):
        if isinstance(inputs, dict):
            feeds = dict(inputs)
        else:
            feeds = dict(zip(self.graph_inputs, inputs if isinstance(inputs, (list, tuple)) else [inputs]))
        structure = tuple(sorted((k, _value_key(feeds.get(k))) for k in self._values))
        model, arrays = _flatten_values(self.model, feeds)
        fold = {n for n in self._params if n in arrays}
        key = (structure,) + tuple(sorted((k, a.shape, a.dtype.str, a.tobytes() if k in fold else b"")
                                          for k, a in arrays.items()))
        rep = self._reps.get(key)
        if rep is None:
            rep = self._compile(model, arrays, fold)
            self._reps[key] = rep
        return rep.run({k: v for k, v in arrays.items() if k not in rep.folded})

    def _compile(self, model, arrays: dict, fold: set[str]):
        from acl_sim.compiler import CompileError

        graph_inputs = [n for n in self.graph_inputs if n not in self._values] + \
            [n for n in arrays if n not in self.graph_inputs]
        shapes = {k: list(a.shape) for k, a in arrays.items()}
        try:  # first with the shapes alone: parameters stay runtime inputs if ATC can handle that
            rep = _compile(model, dict(self.options, input_shape=shapes), graph_inputs)
            rep.folded = set()
            return rep
        except CompileError as exc:
            error = exc
        # Then specialise on the parameter inputs; failing that, also on every scalar or short
        # integer vector input: a value that decides an output shape (Range limits, a window
        # length, ConstantOfShape's shape) must be a constant on a static-shape NPU.
        attempts = [fold] if fold else []
        shape_like = fold | {k for k, a in arrays.items() if k in graph_inputs and _shape_like(a)}
        if shape_like and shape_like != fold:
            attempts.append(shape_like)
        for names in attempts:
            specialised = _specialise(model, arrays, names)
            rest = [n for n in graph_inputs if n not in names]
            try:
                rep = _compile(specialised, dict(self.options, input_shape={k: shapes[k] for k in rest}), rest)
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
        return AclSimRep(report["om_path"], workdir, graph_inputs, report, [o.name for o in model.graph.output])
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
        if _value_inputs(model):  # sequence / optional inputs: compiled per sequence length at run()
            return AclSimDeferredRep(model, kwargs, graph_inputs)
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
