"""atheris driver: python tests/fuzz/fuzz_main.py <target> [libFuzzer flags] [corpus dir]

Coverage comes from the instrumented Python (the ONNX importer, the
bindings); the C++ parsers are reached through their public entry points.
The .om target repairs section CRCs after each mutation, so mutated bytes get
past the checksum into the section parsers.
"""
import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

with atheris.instrument_imports(include=["acl_sim"]):
    import targets  # noqa: E402

name = sys.argv[1]
fn, _ = targets.TARGETS[name]


def mutator(data: bytes, max_size: int, seed: int) -> bytes:
    out = atheris.Mutate(data, max_size)
    return targets.fix_om_crcs(out) if name == "om_reader" else out


atheris.Setup([sys.argv[0]] + sys.argv[2:], fn, custom_mutator=mutator if name == "om_reader" else None)
atheris.Fuzz()
