"""The ONNX op types the acl_sim runtime executes (csrc/kernels registry), at the canonical opset.

ATC rejects any other op that survives folding, naming the op type and node.
Kept static so the compiler runs without the C++ core (the kernel library
registers ONNX op types by the same names; an op missing there fails at model
load, not here).
"""
from __future__ import annotations

SUPPORTED_OPS = frozenset({
    # GEMM / convolution (with fused epilogues)
    "Conv", "ConvTranspose", "Gemm", "MatMul",
    # elementwise
    "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal",
    "Floor", "Ceil", "Erf", "Tanh", "Sigmoid", "Relu", "LeakyRelu", "Clip", "HardSigmoid", "HardSwish",
    "Gelu", "Elu", "Softplus", "PRelu", "Equal", "Less", "Greater", "Where", "Not", "Cast",
    # normalisation / reductions
    "BatchNormalization", "LayerNormalization", "InstanceNormalization", "LRN", "Softmax", "LogSoftmax",
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ArgMax", "ArgMin",
    # pooling / resize
    "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Resize",
    # data movement
    "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice", "Gather",
    "Expand", "Tile", "Pad", "Identity",
})

# Ops ATC can evaluate at compile time; they are accepted as long as folding removes them.
FOLD_ONLY_OPS = frozenset({"Shape", "Size", "ConstantOfShape", "Range", "Constant", "Dropout", "Sum",
                           "Upsample", "Mean", "NonZero", "OneHot", "And", "Or", "LessOrEqual",
                           "GreaterOrEqual", "Mod", "Sign", "Round", "Sin", "Cos", "CumSum", "ScatterND",
                           "TopK", "ReduceL2", "ReduceSumSquare", "Hardmax"})

# ONNX op name -> names users may write in --modify_mixlist (CANN spellings).
CANN_NAMES = {
    "Conv": ["Conv2D", "Conv2d"], "ConvTranspose": ["Conv2DTranspose", "Deconvolution"],
    "Gemm": ["MatMulV2", "FullyConnection"], "MatMul": ["MatMulV2", "BatchMatMul", "BatchMatMulV2"],
    "LayerNormalization": ["LayerNorm", "LayerNormV3"], "Softmax": ["SoftmaxV2"], "LogSoftmax": ["LogSoftmaxV2"],
    "ReduceMean": ["ReduceMeanD"], "ReduceSum": ["ReduceSumD"], "BatchNormalization": ["BatchNorm", "BNInference"],
    "Div": ["RealDiv"], "Resize": ["ResizeBilinearV2", "ResizeNearestNeighborV2"], "Gelu": ["GeLU"],
    "MaxPool": ["MaxPoolV3"], "AveragePool": ["AvgPool", "AvgPoolV2"], "Pow": ["Pow"],
}


def check_supported(graph) -> None:
    """Raises CompileError for the first node the runtime cannot execute."""
    from .errors import CompileError

    for node in graph.nodes:
        if node.op not in SUPPORTED_OPS:
            raise CompileError(f"unsupported op '{node.op}' (node '{node.sources[0] if node.sources else node.name}')")


def check_importable(graph) -> None:
    """Early check before any pass: ops neither executable nor foldable fail fast."""
    from .errors import CompileError

    for node in graph.nodes:
        if node.op not in SUPPORTED_OPS and node.op not in FOLD_ONLY_OPS:
            raise CompileError(f"unsupported op '{node.op}' (node '{node.name}')")
