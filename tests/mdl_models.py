"""Tiny ONNX models compiled by ATC for the aclmdl tests (static, dynamic batch / HW / dims)."""
from __future__ import annotations

import numpy as np
from onnx import helper

from atc_util import make_model, ort_run
from acl_sim.compiler import compile_model

_RNG = np.random.default_rng(7)
W = _RNG.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.5
G = _RNG.standard_normal((4, 5)).astype(np.float32)


def small_cnn(batch=1, hw=(8, 8)):
    """Conv → Relu → GlobalAveragePool → Flatten → MatMul → Softmax; outputs prob and logits."""
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("MatMul", ["f", "g"], ["logits"]),
             helper.make_node("Softmax", ["logits"], ["prob"], axis=1)]
    h, w = hw
    return make_model(nodes, [("x", [batch, 3, h, w])], [("prob", [batch, 5]), ("logits", [batch, 5])],
                      {"w": W, "g": G})


def two_input_add():
    """y = a * b + a over [-1, 4] inputs (for dynamic dims)."""
    nodes = [helper.make_node("Mul", ["a", "b"], ["m"]), helper.make_node("Add", ["m", "a"], ["y"])]
    return make_model(nodes, [("a", [-1, 4]), ("b", [-1, 4])], [("y", [-1, 4])])


def compile_to(model, path, **options) -> str:
    options.setdefault("cache", False)
    return compile_model(model, str(path), **options)["om_path"]


def reference(model, feeds):
    return ort_run(model, feeds)
