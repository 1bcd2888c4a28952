"""The ONNX op types the acl_sim runtime executes (csrc/kernels registry), at the canonical opset.

ATC rejects any other op that survives folding, naming the op type and node.
Kept static so the compiler runs without the C++ core (the kernel library
registers ONNX op types by the same names; an op missing there fails at model
load, not here).
"""
from __future__ import annotations

SUPPORTED_OPS = frozenset({
    # GEMM / convolution (with fused epilogues)
    "Conv", "ConvTranspose", "Gemm", "MatMul", "MatMulInteger", "ConvInteger",
    # elementwise math
    "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Sqrt", "Exp", "Log", "Neg", "Abs",
    "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",
    "Cosh", "Asinh", "Acosh", "Atanh", "IsInf", "IsNaN", "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
    "BitwiseNot",
    # activations
    "Tanh", "Sigmoid", "Relu", "LeakyRelu", "PRelu", "Clip", "HardSigmoid", "HardSwish", "Gelu", "Elu", "Selu",
    "Celu", "Softplus", "Softsign", "Mish", "Shrink", "ThresholdedRelu",
    # logic
    "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not", "Where",
    "Cast", "CastLike", "BitCast", "QuantizeLinear", "DequantizeLinear",
    # normalisation / reductions
    "BatchNormalization", "LayerNormalization", "InstanceNormalization", "GroupNormalization",
    "LpNormalization", "MeanVarianceNormalization", "LRN", "Softmax", "LogSoftmax", "Hardmax",
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceSumSquare", "ArgMax", "ArgMin", "TopK", "CumSum", "CumProd",
    # pooling / resize
    "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool", "GlobalLpPool", "Resize",
    "GridSample", "AffineGrid",
    # data movement
    "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice", "Gather",
    "GatherElements", "GatherND", "Expand", "Tile", "Pad", "Identity", "DepthToSpace", "SpaceToDepth", "Trilu",
    "EyeLike", "ScatterElements", "ScatterND", "OneHot", "ReverseSequence", "TensorScatter", "Col2Im",
    # linear algebra / text features
    "Det", "TfIdfVectorizer", "DeformConv", "MaxUnpool", "TreeEnsemble",
    # data-dependent output shapes (run-time dims: passes/runtime_dims.py)
    "NonZero", "Compress", "Unique", "NonMaxSuppression",
})

# ai.onnx.ml ops ATC accepts (IR op name "ai.onnx.ml.<op>"): Binarizer and ArrayFeatureExtractor
# are decomposed (passes/lowerings.py); TreeEnsemble runs as the kernel op TreeEnsemble.
ML_OPS = frozenset({"Binarizer", "ArrayFeatureExtractor", "TreeEnsemble"})

# Ops ATC can evaluate at compile time; they are accepted as long as folding removes them.
FOLD_ONLY_OPS = frozenset({"Shape", "Size", "ConstantOfShape", "Range", "Constant", "Dropout", "Upsample",
                           "Scatter", "MelWeightMatrix"})

# ONNX op name -> names users may write in --modify_mixlist (CANN spellings).
CANN_NAMES = {
    "Conv": ["Conv2D", "Conv2d"], "ConvTranspose": ["Conv2DTranspose", "Deconvolution"],
    "Gemm": ["MatMulV2", "FullyConnection"], "MatMul": ["MatMulV2", "BatchMatMul", "BatchMatMulV2"],
    "LayerNormalization": ["LayerNorm", "LayerNormV3"], "Softmax": ["SoftmaxV2"], "LogSoftmax": ["LogSoftmaxV2"],
    "ReduceMean": ["ReduceMeanD"], "ReduceSum": ["ReduceSumD"], "BatchNormalization": ["BatchNorm", "BNInference"],
    "Div": ["RealDiv"], "Resize": ["ResizeBilinearV2", "ResizeNearestNeighborV2"], "Gelu": ["GeLU"],
    "MaxPool": ["MaxPoolV3"], "AveragePool": ["AvgPool", "AvgPoolV2"], "Pow": ["Pow"],
}


def _node_line(graph, node, reason: str) -> str:
    from .node_check import describe

    dtypes = []
    for i in node.inputs:
        dt = graph.dtypes.get(i) if i else None
        dtypes.append(dt.name if dt is not None else "-")
    name = node.sources[0] if node.sources else node.name
    return f"{describe(node.op, name, graph.source_opset, dtypes)}: {reason}"


def check_supported(graph) -> None:
    """Raises CompileError for the first node the runtime cannot execute."""
    from .errors import CompileError

    for node in graph.nodes:
        if node.op not in SUPPORTED_OPS:
            reason = ("op must fold to a constant: its inputs are not known at compile time"
                      if node.op in FOLD_ONLY_OPS else "op is not supported")
            raise CompileError(_node_line(graph, node, reason))


def check_importable(graph) -> None:
    """Early check before any pass: ops neither executable nor foldable fail fast."""
    from .errors import CompileError
    from .node_check import attr_problem, op_problem

    for node in graph.nodes:
        reason = op_problem(node.op, graph.source_opset) or attr_problem(node.op, node.attrs)
        if reason is not None:
            raise CompileError(_node_line(graph, node, reason))
