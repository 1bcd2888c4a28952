"""Graph passes. Each module has `run(graph, ctx) -> dict of counts` (the --log=info report line).

`PROFILE_PIPELINE` is the order ATC applies them to every profile's graph,
after `normalize` and `const_fold` ran once on the shape-free graph.
"""
from __future__ import annotations

from . import (const_fold, dce, flush_subnormals, fold_bn, fuse_activation, fuse_post_affine, fuse_residual,
               layernorm_pattern, matmul_add_to_gemm, normalize, pool_before_pointwise, precision, shape_infer, simplify,
               softmax_pattern)

SHAPE_FREE_PIPELINE = [
    ("normalize", normalize.run),
    ("const_fold", const_fold.run),
    ("flush_subnormals", flush_subnormals.run),
]

PROFILE_PIPELINE = [
    ("shape_infer", shape_infer.run),
    ("simplify", simplify.run),
    ("dce", dce.run),
    ("matmul_add_to_gemm", matmul_add_to_gemm.run),
    ("fold_bn", fold_bn.run),
    ("layernorm_pattern", layernorm_pattern.run),
    ("softmax_pattern", softmax_pattern.run),
    ("fuse_residual", fuse_residual.run),
    ("pool_before_pointwise", pool_before_pointwise.run),
    ("fuse_activation", fuse_activation.run),
    ("fuse_post_affine", fuse_post_affine.run),
    ("simplify", simplify.run),
    ("dce", dce.run),
    ("precision", precision.run),
    ("dce", dce.run),
]
