"""Ops ATC decomposes into the kernel library's ops once their input shapes are known (during
shape inference, like function expansion):

- QLinearMatMul: the zero-point-shifted integers are dequantised with scale 1 (exact small
  integers in float32), multiplied (MatMul), scaled by a_scale and b_scale, and requantised
  with y_scale / y_zero_point (QuantizeLinear rounds half to even and saturates).
- BatchNormalization with training_mode=1: batch statistics with ReduceMean (population
  variance), the normalised output and the momentum-updated running mean / variance.
- RNN / GRU / LSTM (layout 0, default activations, no clip): the input projection X @ W^T is one
  MatMul over all steps; the recurrence is unrolled over the static sequence length (per step a
  MatMul with R^T, Split into gates, the gate math), per direction; Y / Y_h / Y_c are stacked.
  `sequence_lens` must be a constant equal to the sequence length for every batch entry.
- Einsum: repeated indices of one operand take the diagonal (identity mask, ReduceSum); every
  operand is transposed and unsqueezed onto one index order, multiplied with broadcasting, and
  the contracted indices are summed. Two float32/float16 operands contract with MatMul instead.
- QLinearConv: ConvInteger (exact int32 accumulation of the zero-point-shifted operands) plus
  the int32 bias, scaled by x_scale * w_scale (per output channel when w_scale is a vector) and
  requantised with QuantizeLinear(y_scale, y_zero_point).
- ai.onnx.ml Binarizer: Cast(Greater(X, threshold)) to X's dtype (1 above the threshold, else 0).
- ai.onnx.ml ArrayFeatureExtractor: Gather on the last axis (a 1-D X gives [1, len(Y)]).
- ai.onnx.ml TreeEnsemble: becomes the kernel op TreeEnsemble with its tensor attributes as plain
  lists (.om attributes are JSON: no NaN): each MEMBER node's value set (NaN-separated in
  membership_values) as a [membership_begin, membership_end) range, its unused split as 0.
  post_transform other than NONE is refused.
"""
from __future__ import annotations

import numpy as np

from ..errors import CompileError
from ..ir import Graph, Node


RECURRENT = {"RNN": 1, "GRU": 3, "LSTM": 4}  # gates per op
_DEFAULT_ACTIVATIONS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def lowerable(g: Graph, node: Node) -> bool:
    if node.op in ("QLinearMatMul", "QLinearConv", "Einsum", "ai.onnx.ml.Binarizer", "ai.onnx.ml.ArrayFeatureExtractor",
                   "ai.onnx.ml.TreeEnsemble") or node.op in RECURRENT:
        return True
    return node.op == "BatchNormalization" and int(node.attrs.get("training_mode", 0)) == 1


def _emit(g: Graph, nodes: list, node: Node, op: str, inputs: list, attrs=None, out: str | None = None) -> str:
    name = out or g.fresh(f"{node.name}/{op.lower()}")
    nodes.append(Node(op, g.fresh(f"{node.name}/{op}"), inputs, [name], dict(attrs or {}), list(node.sources)))
    return name


def _lower_qlinear_matmul(g: Graph, node: Node) -> list[Node]:
    if len(node.inputs) != 8 or not all(node.inputs):
        raise CompileError(f"node '{node.name}' (QLinearMatMul): needs all 8 inputs")
    a, sa, za, b, sb, zb, sy, zy = node.inputs
    nodes: list[Node] = []
    f32 = int(1)  # TensorProto.FLOAT

    def shifted(x: str, z: str, axis: int) -> str:
        zshape = g.shape(z)
        one = g.add_const("qlinear_one", np.ones(zshape, np.float32))
        per_axis = len(zshape) == 1 and int(np.prod(zshape)) > 1
        return _emit(g, nodes, node, "DequantizeLinear", [x, one, z], {"axis": axis} if per_axis else {})

    def scale32(s: str, rows: bool) -> str:
        s32 = _emit(g, nodes, node, "Cast", [s], {"to": f32})
        shape = g.shape(s)
        if rows and len(shape) == 1 and shape[0] > 1:  # per-row scale of A: broadcast over columns
            s32 = _emit(g, nodes, node, "Unsqueeze", [s32, g.add_const("axes", np.array([-1], np.int64))])
        return s32

    rank_a, rank_b = len(g.shape(a)), len(g.shape(b))
    c = _emit(g, nodes, node, "MatMul", [shifted(a, za, rank_a - 2), shifted(b, zb, rank_b - 1)])
    c = _emit(g, nodes, node, "Mul", [c, scale32(sa, True)])
    c = _emit(g, nodes, node, "Mul", [c, scale32(sb, False)])
    _emit(g, nodes, node, "QuantizeLinear", [c, _emit(g, nodes, node, "Cast", [sy], {"to": f32}), zy],
          out=node.outputs[0])
    return nodes


def _lower_batchnorm_training(g: Graph, node: Node) -> list[Node]:
    x, scale, bias, in_mean, in_var = (list(node.inputs) + [""] * 5)[:5]
    shape, dtype = g.shape(x), np.dtype(g.dtype(x))
    if shape is None or len(shape) < 2 or not all([scale, bias, in_mean, in_var]):
        raise CompileError(f"node '{node.name}' (BatchNormalization): training mode needs X of rank >= 2 and "
                           f"scale, B, input_mean, input_var")
    channels = int(shape[1])
    axes = [0] + list(range(2, len(shape)))
    eps = float(node.attrs.get("epsilon", 1e-5))
    momentum = float(node.attrs.get("momentum", 0.9))
    nodes: list[Node] = []
    c = lambda v: g.add_const("bn", np.asarray(v, dtype=dtype))  # noqa: E731
    per_channel = g.add_const("bn_shape", np.array([1, channels] + [1] * (len(shape) - 2), np.int64))
    mean_k = _emit(g, nodes, node, "ReduceMean", [x], {"axes": axes, "keepdims": 1})
    diff = _emit(g, nodes, node, "Sub", [x, mean_k])
    var_k = _emit(g, nodes, node, "ReduceMean", [_emit(g, nodes, node, "Mul", [diff, diff])],
                  {"axes": axes, "keepdims": 1})
    denom = _emit(g, nodes, node, "Sqrt", [_emit(g, nodes, node, "Add", [var_k, c(eps)])])
    norm = _emit(g, nodes, node, "Div", [diff, denom])
    scaled = _emit(g, nodes, node, "Mul", [norm, _emit(g, nodes, node, "Reshape", [scale, per_channel])])
    _emit(g, nodes, node, "Add", [scaled, _emit(g, nodes, node, "Reshape", [bias, per_channel])],
          out=node.outputs[0])
    flat = g.add_const("bn_flat", np.array([channels], np.int64))
    for k, (running, stat) in enumerate(((in_mean, mean_k), (in_var, var_k)), start=1):
        if len(node.outputs) <= k or not node.outputs[k]:
            continue
        old = _emit(g, nodes, node, "Mul", [running, c(momentum)])
        new = _emit(g, nodes, node, "Mul", [_emit(g, nodes, node, "Reshape", [stat, flat]), c(1.0 - momentum)])
        _emit(g, nodes, node, "Add", [old, new], out=node.outputs[k])
    return nodes


def _lower_recurrent(g: Graph, node: Node) -> list[Node]:
    op, a = node.op, node.attrs
    where = f"node '{node.name}' ({op}, opset {g.source_opset})"
    ins = (list(node.inputs) + [""] * 8)[:8]
    x, w, r, b, seq_lens, init_h = ins[:6]
    init_c, peep = (ins[6], ins[7]) if op == "LSTM" else ("", "")
    if int(a.get("layout", 0)) != 0:
        raise CompileError(f"{where}: attribute layout=1 is not supported")
    if "clip" in a:
        raise CompileError(f"{where}: attribute clip is not supported")
    if op == "LSTM" and int(a.get("input_forget", 0)):
        raise CompileError(f"{where}: attribute input_forget=1 is not supported")
    direction = a.get("direction", "forward")
    dirs = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}.get(direction)
    if dirs is None:
        raise CompileError(f"{where}: unknown direction '{direction}'")
    acts = [str(v) for v in a.get("activations", [])]
    if acts and [v.lower() for v in acts] != [v.lower() for v in _DEFAULT_ACTIVATIONS[op] * len(dirs)]:
        raise CompileError(f"{where}: attribute activations={acts} is not supported (defaults only)")
    steps, batch, _ = (int(d) for d in g.shape(x))
    hidden = int(a["hidden_size"]) if "hidden_size" in a else int(g.shape(r)[-1])
    gates = RECURRENT[op]
    gh = gates * hidden
    dtype = np.dtype(g.dtype(x))
    if seq_lens:
        lens = g.const(seq_lens)
        if lens is None or np.any(np.asarray(lens) != steps):
            raise CompileError(f"{where}: sequence_lens must be a constant equal to the sequence length {steps}")
    nodes: list[Node] = []
    e = lambda o, i, at=None, out=None: _emit(g, nodes, node, o, i, at, out)  # noqa: E731
    i64 = lambda v: g.add_const("rnn_idx", np.asarray(v, np.int64))  # noqa: E731
    lbr = int(a.get("linear_before_reset", 0))

    def pick(t: str, d: int) -> str:
        return e("Gather", [t, i64(d)], {"axis": 0})

    ys, hs, cs = [], [], []
    for d, backward in enumerate(dirs):
        wt = e("Transpose", [pick(w, d)], {"perm": [1, 0]})  # [I, G*H]
        rt = e("Transpose", [pick(r, d)], {"perm": [1, 0]})  # [H, G*H]
        xw = e("MatMul", [x, wt])  # [T, B, G*H]: the input projection of every step at once
        if b:
            bd = pick(b, d)
            wb, rb = e("Slice", [bd, i64([0]), i64([gh])]), e("Slice", [bd, i64([gh]), i64([2 * gh])])
            xw = e("Add", [xw, wb])
            rb_parts = [e("Slice", [rb, i64([k * hidden]), i64([(k + 1) * hidden])]) for k in range(gates)]
        else:
            rb_parts = []
        h = pick(init_h, d) if init_h else g.add_const("rnn_h0", np.zeros((batch, hidden), dtype))
        c = (pick(init_c, d) if init_c else g.add_const("rnn_c0", np.zeros((batch, hidden), dtype))) \
            if op == "LSTM" else ""
        p_parts = [e("Slice", [pick(peep, d), i64([k * hidden]), i64([(k + 1) * hidden])]) for k in range(3)] \
            if peep else []
        split = i64([hidden] * gates)
        outs = [""] * steps
        order = range(steps - 1, -1, -1) if backward else range(steps)
        for t in order:
            xt = e("Gather", [xw, i64(t)], {"axis": 0})  # [B, G*H]
            xg = [g.fresh(f"{node.name}/x{t}g{k}") for k in range(gates)]
            nodes.append(Node("Split", g.fresh(f"{node.name}/xsplit"), [xt, split], xg, {"axis": 1},
                              list(node.sources)))
            hr = e("MatMul", [h, rt])
            hg = [g.fresh(f"{node.name}/h{t}g{k}") for k in range(gates)]
            nodes.append(Node("Split", g.fresh(f"{node.name}/hsplit"), [hr, split], hg, {"axis": 1},
                              list(node.sources)))
            if rb_parts and not (op == "GRU" and lbr == 0):
                hg = [e("Add", [hg[k], rb_parts[k]]) for k in range(gates)]
            if op == "RNN":
                h = e("Tanh", [e("Add", [xg[0], hg[0]])])
            elif op == "GRU":
                if rb_parts and lbr == 0:  # Rb_z, Rb_r join their gates; Rb_h joins the reset product
                    hg = [e("Add", [hg[0], rb_parts[0]]), e("Add", [hg[1], rb_parts[1]]), hg[2]]
                z = e("Sigmoid", [e("Add", [xg[0], hg[0]])])
                rg = e("Sigmoid", [e("Add", [xg[1], hg[1]])])
                if lbr:
                    cand = e("Tanh", [e("Add", [xg[2], e("Mul", [rg, hg[2]])])])
                else:
                    rh = e("Mul", [rg, h])
                    rh_r = e("MatMul", [rh, e("Slice", [rt, i64([2 * hidden]), i64([3 * hidden]), i64([1])])])
                    if rb_parts:
                        rh_r = e("Add", [rh_r, rb_parts[2]])
                    cand = e("Tanh", [e("Add", [xg[2], rh_r])])
                one_minus = e("Sub", [g.add_const("one", np.asarray(1, dtype)), z])
                h = e("Add", [e("Mul", [one_minus, cand]), e("Mul", [z, h])])
            else:  # LSTM gates i, o, f, c; peepholes i, o, f
                gi = e("Add", [xg[0], hg[0]])
                gf = e("Add", [xg[2], hg[2]])
                if p_parts:
                    gi = e("Add", [gi, e("Mul", [p_parts[0], c])])
                    gf = e("Add", [gf, e("Mul", [p_parts[2], c])])
                it, ft = e("Sigmoid", [gi]), e("Sigmoid", [gf])
                ct = e("Tanh", [e("Add", [xg[3], hg[3]])])
                c = e("Add", [e("Mul", [ft, c]), e("Mul", [it, ct])])
                go = e("Add", [xg[1], hg[1]])
                if p_parts:
                    go = e("Add", [go, e("Mul", [p_parts[1], c])])
                h = e("Mul", [e("Sigmoid", [go]), e("Tanh", [c])])
            outs[t] = h
        ys.append(e("Concat", [e("Unsqueeze", [o, i64([0, 1])]) for o in outs], {"axis": 0}))  # [T, 1, B, H]
        hs.append(e("Unsqueeze", [h, i64([0])]))
        if op == "LSTM":
            cs.append(e("Unsqueeze", [c, i64([0])]))
    results = [ys, hs, cs]
    for k, out in enumerate(node.outputs[:3]):
        if out:
            parts = results[k]
            e("Concat", parts, {"axis": 1 if k == 0 else 0}, out=out)
    return nodes


def _einsum_terms(node: Node, ranks: list[int]) -> tuple[list[str], str]:
    """Operand and output index strings with '...' spelled out as upper-case letters."""
    eq = str(node.attrs.get("equation", "")).replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks) or any(not (c.islower() or c == ".") for c in lhs.replace(",", "") + rhs):
        raise CompileError(f"node '{node.name}' (Einsum): equation '{eq}' does not fit {len(ranks)} inputs "
                           f"(lower-case letters and '...' only)")
    n_ell = max([r - len(t.replace("...", "")) for t, r in zip(terms, ranks) if "..." in t] or [0])
    ell = "".join(chr(ord("A") + k) for k in range(n_ell))
    out_terms = []
    for t, r in zip(terms, ranks):
        k = r - len(t.replace("...", ""))
        out_terms.append(t.replace("...", ell[n_ell - k:] if k else ""))
        if len(out_terms[-1]) != r:
            raise CompileError(f"node '{node.name}' (Einsum): term '{t}' does not fit a rank-{r} input")
    if arrow:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(out_terms)
        out = ell + "".join(sorted(c for c in set(letters) if c.islower() and letters.count(c) == 1))
    return out_terms, out


def _lower_einsum(g: Graph, node: Node) -> list[Node]:
    nodes: list[Node] = []
    e = lambda o, i, at=None, out=None: _emit(g, nodes, node, o, i, at, out)  # noqa: E731
    i64 = lambda v: g.add_const("einsum_axes", np.asarray(v, np.int64))  # noqa: E731
    shapes = [tuple(int(d) for d in g.shape(i)) for i in node.inputs]
    dtype = np.dtype(g.dtype(node.inputs[0]))
    terms, out = _einsum_terms(node, [len(s) for s in shapes])
    operands = list(node.inputs)
    sizes: dict[str, int] = {}
    for t, shp in zip(terms, shapes):
        for c, d in zip(t, shp):
            sizes[c] = max(sizes.get(c, 1), d)
    everything = "".join(terms)
    for k, (t, shp) in enumerate(zip(terms, shapes)):
        x, t, shp = operands[k], list(t), list(shp)
        while True:  # a repeated index of one operand: its diagonal
            dup = next((c for c in t if t.count(c) > 1), None)
            if dup is None:
                break
            p1 = t.index(dup)
            p2 = t.index(dup, p1 + 1)
            mask_shape = [1] * len(t)
            mask_shape[p1] = mask_shape[p2] = shp[p1]
            mask = np.eye(shp[p1], dtype=dtype).reshape(mask_shape)
            x = e("ReduceSum", [e("Mul", [x, g.add_const("einsum_eye", mask)]), i64([p2])], {"keepdims": 0})
            del t[p2], shp[p2]
        own = [p for p, c in enumerate(t) if c not in out and everything.count(c) == terms[k].count(c)]
        if own:  # indices only this operand has and the output drops: sum them now
            x = e("ReduceSum", [x, i64(own)], {"keepdims": 0})
            t = [c for p, c in enumerate(t) if p not in own]
        operands[k], terms[k] = x, "".join(t)
    contracted = "".join(sorted({c for t in terms for c in t if c not in out}))
    order = out + contracted
    if len(operands) == 2 and dtype in (np.float32, np.float16) and contracted:
        return nodes + _einsum_matmul(g, node, operands, terms, out, contracted, sizes)
    aligned = []
    for x, t in zip(operands, terms):
        ordered = sorted(t, key=order.index)
        if list(t) != ordered:
            x = e("Transpose", [x], {"perm": [t.index(c) for c in ordered]})
        missing = [p for p, c in enumerate(order) if c not in t]
        if missing and len(operands) > 1:
            x = e("Unsqueeze", [x, i64(missing)])
        aligned.append(x)
    y = aligned[0]
    for other in aligned[1:]:
        y = e("Mul", [y, other])
    if contracted:
        y = e("ReduceSum", [y, i64(list(range(len(out), len(order))))], {"keepdims": 0})
    e("Identity", [y], out=node.outputs[0])
    return nodes


def _einsum_matmul(g: Graph, node: Node, operands, terms, out, contracted, sizes) -> list[Node]:
    """Two operands: [batch, left, K] @ [batch, K, right] with the batch / left / right / K index
    groups reshaped flat, then back to the output's index order."""
    nodes: list[Node] = []
    e = lambda o, i, at=None, out_=None: _emit(g, nodes, node, o, i, at, out_)  # noqa: E731
    i64 = lambda v: g.add_const("einsum_shape", np.asarray(v, np.int64))  # noqa: E731
    (a, b), (ta, tb) = operands, terms
    batch = [c for c in out if c in ta and c in tb]
    left = [c for c in out if c in ta and c not in tb]
    right = [c for c in out if c in tb and c not in ta]
    k = list(contracted)
    prod = lambda cs: int(np.prod([sizes[c] for c in cs], dtype=np.int64)) if cs else 1  # noqa: E731
    for c in batch + k:
        if g.shape(a)[ta.index(c)] != g.shape(b)[tb.index(c)]:
            raise CompileError(f"node '{node.name}' (Einsum): index '{c}' has sizes that need broadcasting")
    a = e("Transpose", [a], {"perm": [ta.index(c) for c in batch + left + k]})
    b = e("Transpose", [b], {"perm": [tb.index(c) for c in batch + k + right]})
    a = e("Reshape", [a, i64([prod(batch), prod(left), prod(k)])])
    b = e("Reshape", [b, i64([prod(batch), prod(k), prod(right)])])
    y = e("Reshape", [e("MatMul", [a, b]), i64([sizes[c] for c in batch + left + right] or [1])])
    got = batch + left + right
    if not got:
        e("Reshape", [y, i64([])], out_=node.outputs[0])
    elif got != list(out):
        e("Transpose", [y], {"perm": [got.index(c) for c in out]}, out_=node.outputs[0])
    else:
        e("Identity", [y], out_=node.outputs[0])
    return nodes


def lower(g: Graph, node: Node) -> list[Node]:
    """The nodes that replace `node` (see the module doc)."""
    if node.op == "QLinearMatMul":
        return _lower_qlinear_matmul(g, node)
    if node.op in RECURRENT:
        return _lower_recurrent(g, node)
    if node.op == "Einsum":
        return _lower_einsum(g, node)
    if node.op == "QLinearConv":
        return _lower_qlinear_conv(g, node)
    if node.op == "ai.onnx.ml.Binarizer":
        return _lower_binarizer(g, node)
    if node.op == "ai.onnx.ml.ArrayFeatureExtractor":
        return _lower_array_feature_extractor(g, node)
    if node.op == "ai.onnx.ml.TreeEnsemble":
        return _lower_tree_ensemble(g, node)
    return _lower_batchnorm_training(g, node)


def _lower_qlinear_conv(g: Graph, node: Node) -> list[Node]:
    ins = list(node.inputs) + [""] * (9 - len(node.inputs))
    x, sx, zx, w, sw, zw, sy, zy, bias = ins[:9]
    if not all([x, sx, w, sw, sy]):
        raise CompileError(f"node '{node.name}' (QLinearConv): x, x_scale, w, w_scale and y_scale are required")
    nodes: list[Node] = []
    acc = _emit(g, nodes, node, "ConvInteger", [x, w, zx, zw], dict(node.attrs))
    if bias:
        acc = _emit(g, nodes, node, "Add", [acc, _bias_column(g, nodes, node, bias, len(g.shape(x)))])
    f32 = 1  # TensorProto.FLOAT
    acc = _emit(g, nodes, node, "Cast", [acc], {"to": f32})
    scale = _emit(g, nodes, node, "Mul", [_emit(g, nodes, node, "Cast", [sx], {"to": f32}),
                                          _emit(g, nodes, node, "Cast", [sw], {"to": f32})])
    if int(np.prod(g.shape(sw) or (1,))) > 1:
        scale = _bias_column(g, nodes, node, scale, len(g.shape(x)))
    acc = _emit(g, nodes, node, "Mul", [acc, scale])
    _emit(g, nodes, node, "QuantizeLinear", [acc, _emit(g, nodes, node, "Cast", [sy], {"to": f32})] + ([zy] if zy else []),
          out=node.outputs[0])
    return nodes


def _bias_column(g: Graph, nodes: list, node: Node, v: str, rank: int) -> str:
    """A per-channel vector [M] reshaped to [M, 1, ...] to broadcast over an [N, M, spatial...] tensor."""
    shape = np.array([-1] + [1] * (rank - 2), dtype=np.int64)
    return _emit(g, nodes, node, "Reshape", [v, g.add_const("channel_shape", shape)])


def _lower_binarizer(g: Graph, node: Node) -> list[Node]:
    from onnx import helper

    x = node.inputs[0]
    dtype = np.dtype(g.dtype(x))
    threshold = g.add_const("binarizer_threshold", np.array(node.attrs.get("threshold", 0.0), dtype=dtype))
    nodes: list[Node] = []
    above = _emit(g, nodes, node, "Greater", [x, threshold])
    _emit(g, nodes, node, "Cast", [above], {"to": helper.np_dtype_to_tensor_dtype(dtype)}, out=node.outputs[0])
    return nodes


def _lower_array_feature_extractor(g: Graph, node: Node) -> list[Node]:
    x, indices = node.inputs[:2]
    nodes: list[Node] = []
    if len(g.shape(x)) == 1:
        picked = _emit(g, nodes, node, "Gather", [x, indices], {"axis": 0})
        _emit(g, nodes, node, "Unsqueeze", [picked, g.add_const("axes", np.array([0], np.int64))],
              out=node.outputs[0])
    else:
        _emit(g, nodes, node, "Gather", [x, indices], {"axis": -1}, out=node.outputs[0])
    return nodes


_TREE_MEMBER = 6  # nodes_modes value of BRANCH_MEMBER


def _lower_tree_ensemble(g: Graph, node: Node) -> list[Node]:
    a = dict(node.attrs)
    where = f"node '{node.name}' (ai.onnx.ml.TreeEnsemble)"
    if int(a.get("post_transform", 0)) != 0:
        raise CompileError(f"{where}: attribute post_transform={a['post_transform']} is not supported (NONE only)")
    if "nodes_hitrates" in a:
        a.pop("nodes_hitrates")  # informational
    modes = [int(m) for m in np.asarray(a.get("nodes_modes", [])).reshape(-1)]
    splits = np.asarray(a.get("nodes_splits", []), dtype=np.float64).reshape(-1)
    members = np.asarray(a.pop("membership_values", []), dtype=np.float64).reshape(-1)
    begin, end, values, pos = [], [], [], 0
    for k, mode in enumerate(modes):
        if mode != _TREE_MEMBER:
            begin.append(len(values))
            end.append(len(values))
            continue
        begin.append(len(values))
        while pos < len(members) and not np.isnan(members[pos]):
            values.append(float(members[pos]))
            pos += 1
        if pos >= len(members):
            raise CompileError(f"{where}: membership_values has no NaN-terminated set for MEMBER node {k}")
        pos += 1
        end.append(len(values))
        splits[k] = 0.0
    if np.isnan(splits).any() or np.isnan(np.asarray(a.get("leaf_weights", []), np.float64)).any():
        raise CompileError(f"{where}: NaN splits or leaf weights are not supported")
    a.update(nodes_modes=modes, nodes_splits=[float(v) for v in splits],
             leaf_weights=[float(v) for v in np.asarray(a.get("leaf_weights", []), np.float64).reshape(-1)],
             membership_values=values, membership_begin=begin, membership_end=end)
    return [Node("TreeEnsemble", node.name, list(node.inputs), list(node.outputs), a, list(node.sources))]
