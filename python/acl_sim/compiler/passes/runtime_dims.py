"""Run-time dims: output shapes that depend on input values (docs/dynamic_shapes.md).

NonZero, Compress (with a non-constant condition), Unique and NonMaxSuppression produce
tensors whose size is only known when they run. ATC gives each such dim a *symbol* with an
upper bound (`Graph.symbols`); the tensor's static shape is the bound (memory is planned for
it) and `Graph.syms[tensor]` says which dims are symbols. Nodes downstream inherit the symbols
through the rules below (elementwise, Cast, Transpose, Squeeze/Unsqueeze, Gather/GatherND/
GatherElements, Slice and Concat off the symbolic axes, reductions); any other op reading a symbolic dim is refused with
the node, the op and the symbol named. At run time the executor patches every symbolic dim into
the nodes' views before they run (csrc/model/graph_executor.cpp).
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node

DATA_DEPENDENT = {"NonZero", "Compress", "Unique", "NonMaxSuppression"}

_SAME_SHAPE = {
    "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Neg", "Abs", "Erf", "Reciprocal", "Floor", "Ceil",
    "HardSigmoid", "HardSwish", "LeakyRelu", "Elu", "Selu", "Softplus", "Softsign", "Gelu", "Clip", "Identity",
    "Sin", "Cos", "Round", "Sign", "Not", "Mish", "Celu", "ThresholdedRelu", "Shrink", "IsInf", "IsNaN", "Acos",
    "Asin", "Atan", "Tan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "BitwiseNot", "Cast", "CastLike", "Dropout",
}
_BROADCAST = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "And", "Or", "Xor", "Equal", "Less",
              "Greater", "LessOrEqual", "GreaterOrEqual", "Mod", "Where", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
              "PRelu"}
_REDUCE = {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
           "ReduceLogSumExp", "ReduceSumSquare"}


def new_symbol(g: Graph, node: Node, what: str, bound: int) -> int:
    g.symbols.append({"name": f"{node.name}:{what}", "bound": int(bound)})
    return len(g.symbols) - 1


def _set(g: Graph, name: str, shape, dtype, syms=None):
    if not name:
        return
    g.shapes[name] = tuple(int(d) for d in shape)
    g.dtypes[name] = np.dtype(dtype)
    if syms is not None and any(s is not None for s in syms):
        g.syms[name] = tuple(syms)
    else:
        g.syms.pop(name, None)


def _sym_name(g: Graph, s: int) -> str:
    return g.symbols[s]["name"]


def infer_data_dependent(g: Graph, node: Node) -> None:
    """Output shapes (bounds), dtypes and symbols of a data-dependent op."""
    x = node.inputs[0]
    shape, dtype = g.shape(x), g.dtype(x)
    if shape is None:
        raise CompileError(f"shape of '{x}' unknown at node '{node.name}'")
    numel = int(np.prod(shape, dtype=np.int64))
    if node.op == "NonZero":
        if not shape:
            raise CompileError(f"node '{node.name}' (NonZero): a scalar input is not supported")
        s = new_symbol(g, node, "count", numel)
        _set(g, node.outputs[0], (len(shape), numel), np.int64, (None, s))
    elif node.op == "Compress":
        cond = node.input(1)
        axis = node.attrs.get("axis")
        out = list(shape) if axis is not None else [numel]
        a = int(axis) % len(shape) if axis is not None else 0
        value = g.const(cond)
        syms = [None] * len(out)
        if value is not None:  # a constant condition: a static selection
            out[a] = int(np.count_nonzero(np.asarray(value).reshape(-1)[:out[a]]))
        else:
            out[a] = min(out[a], int(np.prod(g.shape(cond), dtype=np.int64)))
            syms[a] = new_symbol(g, node, "count", out[a])
        _set(g, node.outputs[0], out, dtype, syms)
    elif node.op == "Unique":
        axis = node.attrs.get("axis")
        if axis is None:
            y, a, n = [numel], 0, numel
        else:
            y, a = list(shape), int(axis) % len(shape)
            n = shape[a]
        s = new_symbol(g, node, "unique", y[a])
        syms = [None] * len(y)
        syms[a] = s
        _set(g, node.outputs[0], y, dtype, syms)
        outs = list(node.outputs) + [""] * 4
        _set(g, outs[1], (y[a],), np.int64, (s,))
        _set(g, outs[2], (n,), np.int64)
        _set(g, outs[3], (y[a],), np.int64, (s,))
    elif node.op == "NonMaxSuppression":
        if len(shape) != 3 or g.shape(node.inputs[1]) is None or len(g.shape(node.inputs[1])) != 3:
            raise CompileError(f"node '{node.name}' (NonMaxSuppression): boxes must be 3-D and scores 3-D")
        batches, boxes = shape[0], shape[1]
        classes = g.shape(node.inputs[1])[1]
        per_class = boxes
        limit = g.const(node.input(2)) if node.input(2) else np.array(0)
        if limit is not None:  # a constant max_output_boxes_per_class tightens the bound
            per_class = min(boxes, max(int(np.asarray(limit).reshape(-1)[0]) if np.asarray(limit).size else 0, 0))
        bound = batches * classes * per_class
        s = new_symbol(g, node, "selected", bound)
        _set(g, node.outputs[0], (bound, 3), np.int64, (s, None))
    for name in node.outputs[1:] if node.op != "Unique" else []:
        if name:
            raise CompileError(f"node '{node.name}' ({node.op}): unexpected extra output '{name}'")


def _refuse(g: Graph, node: Node, name: str, why: str = ""):
    s = next(s for s in g.syms[name] if s is not None)
    raise CompileError(f"node '{node.name}' ({node.op}): input '{name}' has a dim set at run time "
                       f"(by {_sym_name(g, s)}); {why or node.op + ' is not supported on run-time dims'}")


def _merge(g: Graph, node: Node, a, b, name: str):
    if a is None:
        return b
    if b is None or a == b:
        return a
    _refuse(g, node, name, f"it meets another run-time dim ({_sym_name(g, b)}) that may differ")


def _axes(g: Graph, node: Node, rank: int, idx: int = 1):
    if "axes" in node.attrs:
        return [int(a) % rank for a in node.attrs["axes"]]
    if node.input(idx):
        value = g.const(node.input(idx))
        if value is None:
            return None
        return [int(a) % rank for a in np.asarray(value).reshape(-1)]
    return []


def propagate(g: Graph, node: Node) -> None:
    """Symbols of `node`'s outputs from those of its inputs (called after its bound shapes are inferred)."""
    sym_inputs = [i for i in node.inputs if i and i in g.syms]
    if not sym_inputs:
        return
    first = sym_inputs[0]
    out = node.outputs[0]
    out_shape = g.shape(out)
    in_syms = lambda n: g.syms.get(n, (None,) * len(g.shape(n)))  # noqa: E731
    result = None
    if (node.op in _SAME_SHAPE or node.op in ("Softmax", "LogSoftmax", "Hardmax", "LayerNormalization",
                                              "LpNormalization")) and node.inputs[0] == first:
        if any(i != node.inputs[0] for i in sym_inputs):
            _refuse(g, node, sym_inputs[-1])
        result = in_syms(node.inputs[0])
        axis = node.attrs.get("axis", -1)
        if node.op in ("LayerNormalization",) and any(s is not None for s in result[int(axis) % len(result):]):
            _refuse(g, node, first, "normalising over a run-time dim needs its size at compile time")
    elif node.op in _BROADCAST:
        rank = len(out_shape)
        merged = [None] * rank
        for name in (i for i in node.inputs if i):
            shape, syms = g.shape(name), in_syms(name)
            for k in range(len(shape)):
                pos = rank - len(shape) + k
                if syms[k] is not None:
                    merged[pos] = _merge(g, node, merged[pos], syms[k], name)
        for name in (i for i in node.inputs if i):  # a static dim > 1 cannot meet a run-time dim
            shape, syms = g.shape(name), in_syms(name)
            for k in range(len(shape)):
                pos = rank - len(shape) + k
                if merged[pos] is not None and syms[k] is None and shape[k] != 1:
                    _refuse(g, node, first, f"its dim {pos} meets static size {shape[k]} of '{name}'")
        result = tuple(merged)
    elif node.op == "Transpose":
        syms = in_syms(first)
        perm = node.attrs.get("perm") or list(range(len(syms)))[::-1]
        result = tuple(syms[int(p)] for p in perm)
    elif node.op in ("Unsqueeze", "Squeeze") and node.inputs[0] == first:
        syms = list(in_syms(first))
        axes = _axes(g, node, len(out_shape) if node.op == "Unsqueeze" else len(syms))
        if axes is None:
            _refuse(g, node, first, "its axes must be constant")
        if node.op == "Unsqueeze":
            it = iter(syms)
            result = tuple(None if k in axes else next(it) for k in range(len(out_shape)))
        else:
            if not axes:
                axes = [k for k, d in enumerate(g.shape(first)) if d == 1]
            if any(syms[a] is not None for a in axes):
                _refuse(g, node, first, "a run-time dim cannot be squeezed")
            result = tuple(s for k, s in enumerate(syms) if k not in axes)
    elif node.op == "Gather" and len(sym_inputs) >= 1:
        data, idx = node.inputs[0], node.inputs[1]
        ds, is_ = in_syms(data), in_syms(idx)
        axis = int(node.attrs.get("axis", 0)) % len(ds)
        result = tuple(ds[:axis]) + tuple(is_) + tuple(ds[axis + 1:])
    elif node.op == "GatherND":
        data, idx = node.inputs[0], node.inputs[1]
        ds, is_ = in_syms(data), in_syms(idx)
        if is_[-1] is not None:
            _refuse(g, node, idx, "the index tuple length must be static")
        batch = int(node.attrs.get("batch_dims", 0))  # indexing into a run-time dim is fine (checked at run)
        result = tuple(is_[:-1]) + tuple(ds[batch + g.shape(idx)[-1]:])
    elif node.op == "GatherElements":
        result = in_syms(node.inputs[1])
    elif node.op == "Slice" and node.inputs[0] == first and len(sym_inputs) == 1:
        syms = in_syms(first)
        axes = _axes(g, node, len(syms), 3) if node.input(3) else list(range(len(syms)))
        starts = g.const(node.input(1))
        if axes is None or starts is None:
            _refuse(g, node, first, "its starts and axes must be constant")
        if any(syms[a] is not None for a in axes[:np.asarray(starts).size]):
            _refuse(g, node, first, "slicing a run-time dim is not supported")
        result = syms
    elif node.op == "Concat":
        rank = len(out_shape)
        axis = int(node.attrs.get("axis", 0)) % rank
        merged = [None] * rank
        for name in (i for i in node.inputs if i):
            syms = in_syms(name)
            if syms[axis] is not None:
                _refuse(g, node, name, "concatenating along a run-time dim is not supported")
            for k in range(rank):
                if k != axis and syms[k] is not None:
                    merged[k] = _merge(g, node, merged[k], syms[k], name)
        result = tuple(merged)
    elif (node.op in _REDUCE or node.op in ("ArgMax", "ArgMin")) and node.inputs[0] == first:
        syms = in_syms(first)
        keep = int(node.attrs.get("keepdims", 1))
        if node.op in ("ArgMax", "ArgMin"):
            axes = [int(node.attrs.get("axis", 0)) % len(syms)]
        else:
            axes = _axes(g, node, len(syms))
            if axes is None:
                _refuse(g, node, first, "its axes must be constant")
            if not axes and not int(node.attrs.get("noop_with_empty_axes", 0)):
                axes = list(range(len(syms)))
        result = tuple(None if k in axes else s for k, s in enumerate(syms) if keep or k not in axes)
    else:
        _refuse(g, node, first)
    if len(result) != len(out_shape):
        _refuse(g, node, first, "its output rank does not follow from its input")
    if any(s is not None for s in result):
        g.syms[out] = tuple(result)
    extra = [o for o in node.outputs[1:] if o]
    if extra and node.op != "Dropout":
        _refuse(g, node, first, "ops with several outputs are not supported on run-time dims")
    for o in extra:  # Dropout's mask has the data's shape
        if any(s is not None for s in result):
            g.syms[o] = tuple(result)
