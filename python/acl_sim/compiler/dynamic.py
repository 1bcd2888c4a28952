"""Dynamic shapes: per-profile concrete input shapes and the IODESC `dynamic` block.

--dynamic_batch_size fills dim 0, --dynamic_image_size the H/W dims, and
--dynamic_dims every -1 of every input; each profile compiles to its own
graph. The model gains the extra input `ascend_mbatch_shape_data` (int64,
one value per profile entry) through which the app selects the profile.
"""
from __future__ import annotations

from .errors import CompileError
from .options import Options

MBATCH_INPUT = "ascend_mbatch_shape_data"


def declared_shapes(inputs: list[str], specs: dict, options: Options) -> dict[str, list[int]]:
    """Input dims after --input_shape (-1 where dynamic); errors for unknown names or missing shapes."""
    for name in options.input_shape:
        if name not in specs:
            raise CompileError(f"--input_shape names '{name}', which is not a model input "
                               f"(inputs: {', '.join(inputs)})")
    shapes = {}
    for name in inputs:
        declared = specs[name][0]
        given = options.input_shape.get(name)
        if given is not None:
            if declared is not None and len(declared) != len(given):
                raise CompileError(f"--input_shape '{name}' has rank {len(given)}, the model says {len(declared)}")
            if declared is not None:
                for d_model, d_given in zip(declared, given):
                    if d_model > 0 and d_given > 0 and d_model != d_given:
                        raise CompileError(f"--input_shape '{name}': {given} conflicts with the model's {list(declared)}")
            shapes[name] = list(given)
        elif declared is None or any(d < 0 for d in declared):
            raise CompileError(f"input '{name}' has dynamic dims {list(declared or [])}; set them with --input_shape")
        else:
            shapes[name] = list(declared)
    return shapes


def profile_shapes(inputs: list[str], shapes: dict, options: Options) -> tuple[list[dict], list[list[int]]]:
    """([{input: concrete dims} per profile], profiles in IODESC order)."""
    kind = options.dynamic_kind
    if kind == "none":
        return [{k: list(v) for k, v in shapes.items()}], []
    result, stored = [], []
    # --dynamic_dims values follow the -1s in --input_shape order; IODESC lists them in model input order.
    order = [n for n in options.input_shape_order if n in shapes] + \
            [n for n in inputs if n not in options.input_shape_order]
    for profile in options.dynamic_profiles:
        concrete = {k: list(v) for k, v in shapes.items()}
        if kind == "batch":
            for dims in concrete.values():
                if dims and dims[0] == -1:
                    dims[0] = profile[0]
        elif kind == "hw":
            for name, dims in concrete.items():
                idx = [i for i, d in enumerate(dims) if d == -1]
                if idx:
                    dims[idx[0]], dims[idx[1]] = profile
        else:
            values = iter(profile)
            for name in order:
                concrete[name] = [next(values) if d == -1 else d for d in concrete[name]]
            stored_profile = [concrete[n][i] for n in inputs for i, d in enumerate(shapes[n]) if d == -1]
            stored.append(stored_profile)
            result.append(concrete)
            continue
        stored.append(list(profile))
        result.append(concrete)
    return result, stored
