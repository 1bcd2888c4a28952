"""The one helper module of the kernel tests (tests/test_kernels_*.py, test_conv_residual.py) and benches.

Runs a registered operator through `acl_sim._core.testing.run_op` on NumPy arrays and
compares it against float64 NumPy references of the same ONNX op (activations, Conv,
ConvTranspose, pooling below), so kernels are checked against an independent
implementation. dtypes are NumPy dtypes; their aclDataType comes from acl_sim.dtypes.

- `run_op(op, inputs, out_shapes, out_dtypes, attrs)` returns the list of outputs;
  `run(op, inputs, out_shape(s), out_dtype(s), **attrs)` returns one output when given one.
- `assert_close` / `tol`: a kernel computed in `dtype` against a float64 reference;
  `assert_close_accum` / `accum_tol`: a result accumulating k products in fp32 (GEMM, Conv).
- `rand`: uniform floats / small ints / bools; `randn`: normal floats.
"""
import math

import numpy as np

from acl_sim import dtypes

BF16 = dtypes.BFLOAT16
FLOATS = [np.float32, np.float16, np.float64] + ([BF16] if BF16 is not None else [])
INTS = [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32, np.uint64]


def testing():
    """The `acl_sim._core.testing` module (direct kernel entry points)."""
    from acl_sim._core import testing as t

    return t


def acl_dtype(dt) -> int:
    return dtypes.from_numpy(dt)


def run_op(op, inputs, out_shapes, out_dtypes, attrs=None):
    """Runs `op` on host arrays (None: an absent optional input); returns the list of outputs."""
    ins = [None if a is None else np.require(a, requirements="C") for a in inputs]  # keeps 0-d arrays 0-d
    return testing().run_op(op, ins, [list(s) for s in out_shapes], [acl_dtype(d) for d in out_dtypes], attrs or {})


def bound_op(op, inputs, out_shapes, out_dtypes, attrs=None):
    """run_op with its arguments converted once: a zero-argument callable for benchmarks, so a timed call
    is the binding and the kernel (as numpy.matmul or an onnxruntime session call is), not this module's
    per-call argument conversion (~7 us, more than a small GEMV's difference)."""
    ins = [None if a is None else np.require(a, requirements="C") for a in inputs]
    shapes, dts, at = [list(s) for s in out_shapes], [acl_dtype(d) for d in out_dtypes], dict(attrs or {})
    t = testing()
    return lambda: t.run_op(op, ins, shapes, dts, at)


def run(op, inputs, out_shapes, out_dtypes, **attrs):
    """run_op with attributes as keywords; out_shapes / out_dtypes may be a single shape / dtype."""
    single = not isinstance(out_dtypes, (list, tuple))
    if single:
        out_shapes, out_dtypes = [out_shapes], [out_dtypes]
    outs = run_op(op, inputs, out_shapes, out_dtypes, attrs)
    return outs[0] if single else outs


def expect_error(fn, code=None):
    """Asserts fn() raises the run_op error (with `code` if given)."""
    t = testing()
    try:
        fn()
    except t.OpError as e:  # type: ignore[attr-defined]
        if code is not None:
            assert e.code == code, (e.code, str(e))
        return e
    raise AssertionError("expected an OpError")


# ---------------------------------------------------------------- data and tolerances

def rand(rng, shape, dtype=np.float32, lo=-3.0, hi=3.0):
    """Random array of `dtype` (floats uniform in [lo, hi), ints over a small range, bools)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dt)
    return rng.uniform(lo, hi, size=shape).astype(dt)


def randn(rng, shape, dtype=np.float32, scale=1.0):
    """Normal floats (standard deviation `scale`) stored as `dtype`."""
    return (rng.standard_normal(shape) * scale).astype(dtype)


def tol(dtype):
    """(rtol, atol) for comparing a kernel computed in `dtype` against a float64 reference."""
    dt = np.dtype(dtype)
    if dt == np.float16:
        return 2e-3, 2e-3
    if BF16 is not None and dt == BF16:
        return 1.6e-2, 1.6e-2
    if dt == np.float64:
        return 1e-12, 1e-12
    return 2e-5, 2e-6


def assert_close(got, want, dtype, scale=1.0):
    rtol, atol = tol(dtype)
    np.testing.assert_allclose(
        np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64), rtol=rtol * scale, atol=atol * scale
    )


def accum_tol(dtype, k=1):
    """(rtol, atol) for a result accumulated over k products in fp32 and stored as dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return 2e-3, 2e-3 * math.sqrt(k)
    if BF16 is not None and dtype == BF16:
        return 1.6e-2, 1.6e-2 * math.sqrt(k)
    return 1e-4, 1e-5 * math.sqrt(k)


def assert_close_accum(got, want, dtype, k=1):
    rtol, atol = accum_tol(dtype, k)
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64), rtol=rtol,
                               atol=atol)


# ---------------------------------------------------------------- activations

_erf = np.vectorize(math.erf, otypes=[np.float64])

ACTIVATIONS = ["Relu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish", "Silu", "Gelu", "GeluTanh", "LeakyRelu", "Tanh"]


def activation(x, name, alpha=None, beta=None):
    """The fused epilogue's activation in float64, with ONNX defaults."""
    x = np.asarray(x, dtype=np.float64)
    if name in (None, "", "None"):
        return x
    if name == "Relu":
        return np.maximum(x, 0)
    if name == "Clip":
        lo = -np.inf if alpha is None else alpha
        hi = np.inf if beta is None else beta
        return np.minimum(np.maximum(x, lo), hi)
    if name == "Sigmoid":
        return 1 / (1 + np.exp(-x))
    if name == "HardSigmoid":
        a = 0.2 if alpha is None else alpha
        b = 0.5 if beta is None else beta
        return np.clip(a * x + b, 0, 1)
    if name == "HardSwish":
        return x * np.clip(x / 6 + 0.5, 0, 1)
    if name == "Silu":
        return x / (1 + np.exp(-x))
    if name == "Gelu":
        return 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    if name == "GeluTanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    if name == "LeakyRelu":
        a = 0.01 if alpha is None else alpha
        return np.where(x >= 0, x, a * x)
    if name == "Tanh":
        return np.tanh(x)
    raise ValueError(name)


def activation_attrs(name, alpha=None, beta=None):
    attrs = {"activation": name}
    if alpha is not None:
        attrs["activation_alpha"] = float(alpha)
    if beta is not None:
        attrs["activation_beta"] = float(beta)
    return attrs


# ---------------------------------------------------------------- conv / pool geometry

def resolve_pads(in_sp, kernel, strides, dilations, pads, auto_pad):
    """ONNX Conv/Pool padding -> (begins, ends) for the given auto_pad."""
    n = len(in_sp)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        begins, ends = [], []
        for i in range(n):
            out = -(-in_sp[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in_sp[i])
            small = total // 2
            begins.append(small if auto_pad == "SAME_UPPER" else total - small)
            ends.append(total - begins[-1])
        return begins, ends
    if auto_pad == "VALID":
        return [0] * n, [0] * n
    pads = list(pads) if pads else [0] * (2 * n)
    return pads[:n], pads[n:]


def conv_out_shape(in_sp, kernel, strides, dilations, begins, ends, ceil_mode=False):
    out = []
    for i in range(len(in_sp)):
        span = in_sp[i] + begins[i] + ends[i] - ((kernel[i] - 1) * dilations[i] + 1)
        o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= in_sp[i] + begins[i]:
            o -= 1  # the last window must start inside the input or the begin padding
        out.append(o)
    return out


def conv_ref(x, w, b=None, strides=None, dilations=None, pads=None, group=1, auto_pad="NOTSET"):
    """ONNX Conv in float64 (any number of spatial dims)."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    nsp = x.ndim - 2
    strides = strides or [1] * nsp
    dilations = dilations or [1] * nsp
    kernel = list(w.shape[2:])
    begins, ends = resolve_pads(list(x.shape[2:]), kernel, strides, dilations, pads, auto_pad)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(begins[i], ends[i]) for i in range(nsp)])
    out_sp = conv_out_shape(list(x.shape[2:]), kernel, strides, dilations, begins, ends)
    N, C = x.shape[:2]
    M = w.shape[0]
    cg, mg = C // group, M // group
    y = np.zeros([N, M] + out_sp)
    for g in range(group):
        xg = xp[:, g * cg:(g + 1) * cg]
        wg = w[g * mg:(g + 1) * mg]
        for kidx in np.ndindex(*kernel):
            sl = tuple(slice(kidx[i] * dilations[i], kidx[i] * dilations[i] + (out_sp[i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(nsp))
            patch = xg[(slice(None), slice(None)) + sl]  # N, cg, out...
            wk = wg[(slice(None), slice(None)) + kidx]  # mg, cg
            y[:, g * mg:(g + 1) * mg] += np.einsum("nc...,mc->nm...", patch, wk)
    if b is not None:
        y += b.astype(np.float64).reshape([1, M] + [1] * nsp)
    return y


def conv_transpose_ref(x, w, b=None, strides=None, dilations=None, pads=None, group=1, output_padding=None,
                       out_sp=None):
    """ONNX ConvTranspose in float64 with explicit pads (scatter form)."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    nsp = x.ndim - 2
    strides = strides or [1] * nsp
    dilations = dilations or [1] * nsp
    output_padding = output_padding or [0] * nsp
    pads = pads or [0] * (2 * nsp)
    kernel = list(w.shape[2:])
    in_sp = list(x.shape[2:])
    N, C = x.shape[:2]
    mg = w.shape[1]
    M = mg * group
    cg = C // group
    if out_sp is None:
        out_sp = [strides[i] * (in_sp[i] - 1) + output_padding[i] + (kernel[i] - 1) * dilations[i] + 1 - pads[i]
                  - pads[nsp + i] for i in range(nsp)]
    full = [strides[i] * (in_sp[i] - 1) + (kernel[i] - 1) * dilations[i] + 1 + output_padding[i] for i in range(nsp)]
    big = [max(full[i], pads[i] + out_sp[i]) for i in range(nsp)]
    y = np.zeros([N, M] + big)
    for g in range(group):
        xg = x[:, g * cg:(g + 1) * cg]
        wg = w[g * cg:(g + 1) * cg]  # cg, mg, k...
        for kidx in np.ndindex(*kernel):
            contrib = np.einsum("nc...,cm->nm...", xg, wg[(slice(None), slice(None)) + kidx])
            sl = tuple(slice(kidx[i] * dilations[i], kidx[i] * dilations[i] + (in_sp[i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(nsp))
            y[(slice(None), slice(g * mg, (g + 1) * mg)) + sl] += contrib
    y = y[(slice(None), slice(None)) + tuple(slice(pads[i], pads[i] + out_sp[i]) for i in range(nsp))]
    if b is not None:
        y = y + b.astype(np.float64).reshape([1, M] + [1] * nsp)
    return y


def pool_ref(x, kind, kernel, strides=None, pads=None, dilations=None, ceil_mode=False, count_include_pad=False,
             auto_pad="NOTSET", p=2):
    """ONNX MaxPool / AveragePool / LpPool in float64; returns (y, argmax flat indices or None)."""
    x = x.astype(np.float64)
    nsp = x.ndim - 2
    strides = strides or [1] * nsp
    dilations = dilations or [1] * nsp
    in_sp = list(x.shape[2:])
    begins, ends = resolve_pads(in_sp, kernel, strides, dilations, pads, auto_pad)
    out_sp = conv_out_shape(in_sp, kernel, strides, dilations, begins, ends, ceil_mode)
    N, C = x.shape[:2]
    y = np.zeros([N, C] + out_sp)
    idx = np.zeros([N, C] + out_sp, dtype=np.int64)
    for o in np.ndindex(*out_sp):
        coords, valid_pad = [], []
        for i in range(nsp):
            start = o[i] * strides[i] - begins[i]
            c = start + np.arange(kernel[i]) * dilations[i]
            coords.append(c)
        inside = [(c >= 0) & (c < in_sp[i]) for i, c in enumerate(coords)]
        # Window clipped to the padded extent, for count_include_pad.
        padded = [(c >= -begins[i]) & (c < in_sp[i] + ends[i]) for i, c in enumerate(coords)]
        grids = np.meshgrid(*[coords[i][inside[i]] for i in range(nsp)], indexing="ij")
        vals = x[(slice(None), slice(None)) + tuple(grids)].reshape(N, C, -1)
        if kind == "max":
            if vals.shape[2] == 0:
                y[(slice(None), slice(None)) + o] = -np.inf
                continue
            am = vals.argmax(axis=2)
            y[(slice(None), slice(None)) + o] = vals.max(axis=2)
            flat = np.ravel_multi_index(tuple(g.reshape(-1) for g in grids), in_sp)
            plane = (np.arange(N)[:, None] * C + np.arange(C)[None, :]) * int(np.prod(in_sp))
            idx[(slice(None), slice(None)) + o] = plane + flat[am]
        elif kind == "avg":
            count = int(np.prod([m.sum() for m in padded])) if count_include_pad else vals.shape[2]
            y[(slice(None), slice(None)) + o] = vals.sum(axis=2) / max(count, 1)
        else:
            y[(slice(None), slice(None)) + o] = (np.abs(vals) ** p).sum(axis=2) ** (1.0 / p)
    return y, (idx if kind == "max" else None)
