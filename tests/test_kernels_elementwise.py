"""Elementwise built-in kernels against NumPy: unary math, binary arithmetic with
broadcasting, comparisons / logic, Where, Cast, variadic Sum/Mean/Max/Min."""
import math

import numpy as np
import pytest

from kernel_harness import BF16, FLOATS, INTS, acl_dtype, assert_close, expect_error, rand, run

SHAPES = [(1,), (7,), (3, 5, 17), (70001,)]

_erf = np.frompyfunc(math.erf, 1, 1)


def erf(x):
    return _erf(x).astype(np.float64)


def softplus(x):
    return np.logaddexp(0, x)


UNARY = {
    "Relu": (lambda x: np.maximum(x, 0), {}),
    "Sigmoid": (lambda x: 1 / (1 + np.exp(-x)), {}),
    "Tanh": (np.tanh, {}),
    "Exp": (np.exp, {}),
    "Log": (np.log, {"positive": True}),
    "Sqrt": (np.sqrt, {"positive": True}),
    "Reciprocal": (lambda x: 1 / x, {"positive": True}),
    "Neg": (np.negative, {}),
    "Abs": (np.abs, {}),
    "Erf": (erf, {}),
    "Floor": (np.floor, {}),
    "Ceil": (np.ceil, {}),
    "Round": (np.round, {}),
    "Sign": (np.sign, {}),
    "Sin": (np.sin, {}),
    "Cos": (np.cos, {}),
    "Softplus": (softplus, {}),
    "Softsign": (lambda x: x / (1 + np.abs(x)), {}),
    "Mish": (lambda x: x * np.tanh(softplus(x)), {}),
    "HardSwish": (lambda x: x * np.clip(x / 6 + 0.5, 0, 1), {}),
    # Attribute values are exact in float32 (ONNX float attributes), so float64 runs match exactly.
    "LeakyRelu": (lambda x: np.where(x < 0, 0.125 * x, x), {"attrs": {"alpha": 0.125}}),
    "HardSigmoid": (lambda x: np.clip(0.25 * x + 0.375, 0, 1), {"attrs": {"alpha": 0.25, "beta": 0.375}}),
    "Elu": (lambda x: np.where(x < 0, 0.75 * np.expm1(x), x), {"attrs": {"alpha": 0.75}}),
    "Selu": (
        lambda x: float(np.float32(1.0507009873554805))
        * np.where(x > 0, x, float(np.float32(1.6732632423543772)) * np.expm1(x)),
        {},
    ),
    "Gelu": (lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))), {}),
}


def _unary_input(rng, shape, dtype, positive):
    x = rand(rng, shape, dtype, 0.05 if positive else -6.0, 6.0)
    if not positive and x.size > 4:
        # Hit the exact cases: zero, halves (Round is half-to-even), both signs.
        flat = x.reshape(-1)
        flat[:4] = np.array([0.0, 0.5, -2.5, 1.5]).astype(dtype)
    return x


@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_unary_float(op, dtype):
    rng = np.random.default_rng(hash(op) % 2**32)
    fn, opts = UNARY[op]
    for shape in SHAPES:
        x = _unary_input(rng, shape, dtype, opts.get("positive", False))
        got = run(op, [x], shape, dtype, **opts.get("attrs", {}))
        assert got.dtype == np.dtype(dtype)
        want = fn(x.astype(np.float64))
        # float16/bfloat16 round the input, which large-slope functions (exp) amplify.
        assert_close(got, want, dtype, scale=4.0 if op in ("Exp", "Mish", "Selu") else 1.0)


def test_unary_special_values():
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 100.0, -100.0, 1e-30], np.float32)
    got = run("Exp", [x], x.shape, np.float32)
    np.testing.assert_allclose(got[[0, 1, 3, 4, 7]], [np.inf, 0, 1, 1, 1])
    assert np.isnan(got[2]) and got[5] == np.inf and got[6] == 0
    got = run("Sigmoid", [x], x.shape, np.float32)
    np.testing.assert_allclose(got[[0, 1, 3, 4, 5, 6, 7]], [1, 0, 0.5, 0.5, 1, 0, 0.5], atol=1e-38)
    assert np.isnan(got[2])
    # Both branches (e^-|x| and e^-|x| / (1 + e^-|x|)) against float64, deep into both tails.
    t = np.linspace(-90, 90, 2001).astype(np.float32)
    want = 1 / (1 + np.exp(-t.astype(np.float64)))
    np.testing.assert_allclose(run("Sigmoid", [t], t.shape, np.float32), want, rtol=2e-6, atol=1e-37)
    got = run("Tanh", [x], x.shape, np.float32)
    np.testing.assert_allclose(got[[0, 1, 5, 6, 7]], [1, -1, 1, -1, 1e-30])
    got = run("Log", [np.array([0.0, np.inf, 1.0, -1.0], np.float32)], (4,), np.float32)
    assert got[0] == -np.inf and got[1] == np.inf and got[2] == 0 and np.isnan(got[3])


@pytest.mark.parametrize("approx", ["none", "tanh"])
def test_gelu_modes(approx):
    x = np.linspace(-8, 8, 1001).astype(np.float32)
    got = run("Gelu", [x], x.shape, np.float32, approximate=approx)
    x64 = x.astype(np.float64)
    if approx == "tanh":
        want = 0.5 * x64 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x64 + 0.044715 * x64**3)))
    else:
        want = 0.5 * x64 * (1 + erf(x64 / np.sqrt(2)))
    assert_close(got, want, np.float32)
    expect_error(lambda: run("Gelu", [x], x.shape, np.float32, approximate="fast"), 100023)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_unary_signed_int(dtype):
    rng = np.random.default_rng(1)
    x = rand(rng, (5, 33), dtype)
    for op, fn in [("Neg", np.negative), ("Abs", np.abs), ("Sign", np.sign), ("Relu", lambda v: np.maximum(v, 0))]:
        np.testing.assert_array_equal(run(op, [x], x.shape, dtype), fn(x))


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=lambda d: np.dtype(d).name)
def test_clip(dtype):
    rng = np.random.default_rng(2)
    x = rand(rng, (4, 1000), dtype)
    lo, hi = np.array(-2 if np.dtype(dtype).kind != "u" else 5, dtype), np.array(40, dtype)
    got = run("Clip", [x, lo, hi], x.shape, dtype)
    np.testing.assert_array_equal(got, np.clip(x, lo, hi))
    got = run("Clip", [x, None, hi], x.shape, dtype)
    np.testing.assert_array_equal(got, np.minimum(x, hi))
    got = run("Clip", [x], x.shape, dtype)
    np.testing.assert_array_equal(got, x)


def test_clip_opset6_attributes():
    x = np.linspace(-3, 3, 13).astype(np.float32)
    np.testing.assert_array_equal(run("Clip", [x], x.shape, np.float32, min=-1.0, max=0.5), np.clip(x, -1, 0.5))


def test_unary_rejects_bad_dtype():
    x = np.arange(4, dtype=np.int32)
    expect_error(lambda: run("Sigmoid", [x], x.shape, np.int32), 100026)
    y = np.zeros(4, np.float32)
    expect_error(lambda: run("Relu", [y], (5,), np.float32), 100022)


BROADCAST = [
    ((3, 4, 5), (3, 4, 5)),
    ((3, 4, 5), (5,)),
    ((3, 4, 5), (4, 1)),
    ((3, 1, 5), (1, 4, 1)),
    ((1,), (2, 3)),
    ((), (4,)),
    ((2, 3, 1, 7), (3, 5, 1)),
    ((1, 1), (1, 1)),
    ((40000,), (40000,)),
    ((2, 33000), (1,)),
    ((6, 1), (6, 9000)),
]


def _bshape(a, b):
    return np.broadcast_shapes(a, b)


ARITH = {
    "Add": np.add,
    "Sub": np.subtract,
    "Mul": np.multiply,
    "Max": np.maximum,
    "Min": np.minimum,
}


@pytest.mark.parametrize("op", sorted(ARITH))
@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=lambda d: np.dtype(d).name)
def test_binary_arith(op, dtype):
    rng = np.random.default_rng(3)
    for sa, sb in BROADCAST:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        out = _bshape(sa, sb)
        got = run(op, [a, b], out, dtype)
        if np.dtype(dtype).kind in "iu":
            np.testing.assert_array_equal(got, ARITH[op](a, b))  # wrap-around like C
        else:
            assert_close(got, ARITH[op](a.astype(np.float64), b.astype(np.float64)), dtype, scale=2.0)


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=lambda d: np.dtype(d).name)
def test_div(dtype):
    rng = np.random.default_rng(4)
    for sa, sb in BROADCAST[:7]:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        b = np.where(b == 0, np.array(3, dtype), b).astype(dtype)
        got = run("Div", [a, b], _bshape(sa, sb), dtype)
        if np.dtype(dtype).kind in "iu":
            want = np.trunc(a.astype(np.float64) / b.astype(np.float64)).astype(dtype)  # C truncation
            np.testing.assert_array_equal(got, want)
        else:
            assert_close(got, a.astype(np.float64) / b.astype(np.float64), dtype, scale=2.0)


def test_int_div_by_zero_does_not_trap():
    a = np.array([7, -7, np.iinfo(np.int32).min], np.int32)
    b = np.array([0, 0, -1], np.int32)
    got = run("Div", [a, b], (3,), np.int32)
    assert got[0] == 0 and got[1] == 0
    run("Mod", [a, b], (3,), np.int32)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_mod(dtype):
    rng = np.random.default_rng(5)
    a = rand(rng, (4, 50), dtype)
    b = rand(rng, (50,), dtype)
    b = np.where(b == 0, np.array(7, dtype), b).astype(dtype)
    if np.dtype(dtype).kind == "i":
        np.testing.assert_array_equal(run("Mod", [a, b], a.shape, dtype), np.mod(a, b))
        np.testing.assert_array_equal(run("Mod", [a, b], a.shape, dtype, fmod=1), np.fmod(a, b))
    else:
        got = run("Mod", [a, b], a.shape, dtype, fmod=1)
        assert_close(got, np.fmod(a.astype(np.float64), b.astype(np.float64)), dtype, scale=4.0)


def test_pow():
    rng = np.random.default_rng(6)
    a = rand(rng, (3, 40), np.float32, 0.1, 3.0)
    b = rand(rng, (40,), np.float32, -2.0, 2.0)
    assert_close(run("Pow", [a, b], a.shape, np.float32), np.power(a.astype(np.float64), b), np.float32, 4.0)
    # Exponent of another dtype (T1 != T).
    e = np.array(3, np.int64)
    assert_close(run("Pow", [a, e], a.shape, np.float32), a.astype(np.float64) ** 3, np.float32, 4.0)
    ai = np.arange(-5, 6, dtype=np.int64)
    np.testing.assert_array_equal(run("Pow", [ai, np.array(3, np.int64)], ai.shape, np.int64), ai**3)


@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=lambda d: np.dtype(d).name)
def test_prelu(dtype):
    rng = np.random.default_rng(7)
    x = rand(rng, (2, 3, 5, 7), dtype)
    slope = rand(rng, (3, 1, 1), dtype, 0.0, 1.0)
    got = run("PRelu", [x, slope], x.shape, dtype)
    assert_close(got, np.where(x < 0, x.astype(np.float64) * slope, x), dtype)


COMPARE = {
    "Equal": np.equal,
    "Less": np.less,
    "Greater": np.greater,
    "LessOrEqual": np.less_equal,
    "GreaterOrEqual": np.greater_equal,
}


@pytest.mark.parametrize("op", sorted(COMPARE))
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_compare(op, dtype):
    rng = np.random.default_rng(8)
    for sa, sb in BROADCAST[:8]:
        a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
        if np.dtype(dtype).kind == "f" or dtype is BF16:
            a = np.round(a).astype(dtype)  # make Equal hit both outcomes
            b = np.round(b).astype(dtype)
        got = run(op, [a, b], _bshape(sa, sb), np.bool_)
        np.testing.assert_array_equal(got, COMPARE[op](a, b))


def test_logic():
    rng = np.random.default_rng(9)
    for sa, sb in BROADCAST[:8]:
        a, b = rand(rng, sa, np.bool_), rand(rng, sb, np.bool_)
        out = _bshape(sa, sb)
        np.testing.assert_array_equal(run("And", [a, b], out, np.bool_), a & b)
        np.testing.assert_array_equal(run("Or", [a, b], out, np.bool_), a | b)
        np.testing.assert_array_equal(run("Xor", [a, b], out, np.bool_), a ^ b)
    a = rand(rng, (3, 7), np.bool_)
    np.testing.assert_array_equal(run("Not", [a], a.shape, np.bool_), ~a)
    expect_error(lambda: run("And", [np.ones(2, np.float32)] * 2, (2,), np.bool_), 100026)


def test_isnan_isinf():
    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], np.float32)
    np.testing.assert_array_equal(run("IsNaN", [x], x.shape, np.bool_), np.isnan(x))
    np.testing.assert_array_equal(run("IsInf", [x], x.shape, np.bool_), np.isinf(x))
    np.testing.assert_array_equal(run("IsInf", [x], x.shape, np.bool_, detect_negative=0), x == np.inf)
    x16 = x.astype(np.float16)
    np.testing.assert_array_equal(run("IsNaN", [x16], x.shape, np.bool_), np.isnan(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.uint8, np.bool_, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_where(dtype):
    rng = np.random.default_rng(10)
    for sc, sx, sy in [((4, 5), (4, 5), (4, 5)), ((4, 1), (5,), (1, 5)), ((), (3, 2), (2,)), ((70000,),) * 3]:
        c = rand(rng, sc, np.bool_)
        x, y = rand(rng, sx, dtype), rand(rng, sy, dtype)
        out = np.broadcast_shapes(sc, sx, sy)
        np.testing.assert_array_equal(run("Where", [c, x, y], out, dtype), np.where(c, x, y))


ALL_TYPES = FLOATS + INTS + [np.uint16, np.bool_]


@pytest.mark.parametrize("src", ALL_TYPES, ids=lambda d: np.dtype(d).name)
def test_cast_matrix(src):
    rng = np.random.default_rng(11)
    # Values exactly representable in every target (small non-negative integers plus halves for floats).
    base = rng.integers(0, 100, size=(3, 67)).astype(np.float64)
    if np.dtype(src).kind == "f" or src is BF16:
        base += 0.5 * (rng.random(base.shape) < 0.5)
    x = base.astype(src)
    for dst in ALL_TYPES:
        got = run("Cast", [x], x.shape, dst, to=acl_dtype(dst))
        want = x.astype(np.float64).astype(dst) if dst is not np.bool_ else x.astype(np.float64) != 0
        if np.dtype(dst).kind in "iub" and np.dtype(src).kind == "f":
            want = np.trunc(x.astype(np.float64)).astype(dst) if dst is not np.bool_ else want
        np.testing.assert_array_equal(got.astype(np.float64), np.asarray(want).astype(np.float64), err_msg=f"to {dst}")


def test_cast_rounding_and_saturation():
    x = np.array([1.0 + 2**-11, 65520.0, 3.0e38, -1.5, np.nan], np.float32)
    got = run("Cast", [x], x.shape, np.float16)
    with np.errstate(over="ignore"):
        want = x[:4].astype(np.float16)
    np.testing.assert_array_equal(got[:4].view(np.uint16), want.view(np.uint16))
    assert np.isnan(got[4])
    got = run("Cast", [np.array([3e9, -3e9, np.nan, -1.7], np.float32)], (4,), np.int32)
    np.testing.assert_array_equal(got, [2**31 - 1, -(2**31), 0, -1])


@pytest.mark.parametrize("op,fn", [("Sum", np.add), ("Max", np.maximum), ("Min", np.minimum)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32], ids=lambda d: np.dtype(d).name)
def test_variadic(op, fn, dtype):
    rng = np.random.default_rng(12)
    a, b, c = rand(rng, (3, 1, 5), dtype), rand(rng, (4, 1), dtype), rand(rng, (2, 1, 1, 1), dtype)
    out = np.broadcast_shapes(a.shape, b.shape, c.shape)
    want = fn(fn(a.astype(np.float64), b), c)
    assert_close(run(op, [a, b, c], out, dtype), want, dtype, 2.0)
    assert_close(run(op, [a], (2, 3, 4, 5), dtype), np.broadcast_to(a, (2, 3, 4, 5)), dtype)


def test_mean():
    rng = np.random.default_rng(13)
    a, b = rand(rng, (3, 5), np.float32), rand(rng, (5,), np.float32)
    assert_close(run("Mean", [a, b], (3, 5), np.float32), (a.astype(np.float64) + b) / 2, np.float32)


def test_binary_errors():
    a = np.zeros((3, 4), np.float32)
    expect_error(lambda: run("Add", [a, np.zeros((5,), np.float32)], (3, 4), np.float32), 100021)
    expect_error(lambda: run("Add", [a, np.zeros((4,), np.int32)], (3, 4), np.float32), 100021)
    expect_error(lambda: run("Add", [a, a], (3, 4), np.int32), 100022)
    expect_error(lambda: run("Add", [a], (3, 4), np.float32), 100021)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.int8, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_bitshift(dtype):
    bits = np.iinfo(dtype).bits
    a = np.array([1, 5, 100, 7, 3, 9], dtype)
    if np.dtype(dtype).kind == "i":
        a[3] = -7
    b = np.array([0, 1, 3, bits - 1, bits, 2], dtype)
    for direction in ("LEFT", "RIGHT"):
        got = run("BitShift", [a, b], a.shape, dtype, direction=direction)
        want = []
        for x, s in zip(a.tolist(), b.tolist()):
            if s >= bits:
                want.append(-1 if direction == "RIGHT" and x < 0 else 0)
            elif direction == "LEFT":
                want.append(np.array(x, dtype).view(f"u{np.dtype(dtype).itemsize}") << np.uint64(s))
            else:
                want.append(x >> s)
        want = np.array([int(w) & ((1 << bits) - 1) for w in want], np.uint64).astype(f"u{np.dtype(dtype).itemsize}")
        np.testing.assert_array_equal(got.view(want.dtype), want, err_msg=direction)


def test_clip_min_greater_than_max():
    x = np.array([-2.0, 0.0, 3.0], np.float32)
    got = run("Clip", [x, np.array(2.0, np.float32), np.array(1.0, np.float32)], x.shape, np.float32)
    np.testing.assert_array_equal(got, [1.0, 1.0, 1.0])
