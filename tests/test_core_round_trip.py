"""testing.core_round_trip_ns (executor/core_round_trip.h): the benchmarks' measure of how far apart the host
placed the process's first two CPUs. It must give a plausible figure, refuse nonsense, and leave the caller
where it was allowed to run."""
import os

from acl_sim._core import testing
from acl_sim.tools import timing


def test_round_trip_is_plausible_where_there_are_two_cpus():
    ns = testing.core_round_trip_ns(2000)
    if len(os.sched_getaffinity(0)) >= 2:
        # A cache line between two cores: tens of ns on one die, hundreds across dies or sockets, never ms.
        assert 5 < ns < 100_000
    else:
        assert ns == -1


def test_bad_round_count_is_refused():
    assert testing.core_round_trip_ns(0) == -1
    assert testing.core_round_trip_ns(-5) == -1


def test_caller_affinity_is_restored():
    before = os.sched_getaffinity(0)
    testing.core_round_trip_ns(1000)
    assert os.sched_getaffinity(0) == before


def test_one_allowed_cpu_gives_minus_one():
    before = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(before)})
        assert testing.core_round_trip_ns(1000) == -1
        assert timing.round_trip_text(timing.core_round_trip_ns()) == "?"
    finally:
        os.sched_setaffinity(0, before)
