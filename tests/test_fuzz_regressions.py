"""Replays every kept fuzz crasher and every seed through its target: each must return normally."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz"))

import targets  # noqa: E402

@pytest.mark.parametrize("name", sorted(targets.TARGETS))
def test_kept_crashers_are_fixed(name):
    # One test per target (not per file), so a target without crashers passes instead of skipping.
    fn, _ = targets.TARGETS[name]
    for path in targets.crashers(name):
        with open(path, "rb") as f:
            fn(f.read())


@pytest.mark.parametrize("name", sorted(targets.TARGETS))
def test_seeds_and_truncations(name):
    fn, seeds = targets.TARGETS[name]
    for seed in seeds():
        fn(seed)
        for cut in (0, 1, 7, 64, len(seed) // 2, len(seed) - 1):
            fn(seed[:max(cut, 0)])
        flipped = bytearray(seed)
        for i in range(0, len(flipped), max(1, len(flipped) // 16)):
            flipped[i] ^= 0xFF
        fn(bytes(flipped))
        if name == "om_reader":
            fn(targets.fix_om_crcs(bytes(flipped)))
