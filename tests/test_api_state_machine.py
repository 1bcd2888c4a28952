"""API-sequence fuzzing: hypothesis drives `import acl` with random valid and invalid call sequences.

The machine keeps a model of what should be alive (device allocations with
their contents, streams, events) and of what was destroyed, and mixes valid
calls with double frees, use after destroy, calls from a thread that has no
context, and out-of-range copies. After every step:

- nothing crashed (a native crash kills the pytest process);
- every call returned the documented code (0, 107000 for bad handles and
  ranges, 107002 without a context, 100000 for bad arguments);
- `get_mem_info` accounting matches the model: used = baseline + the sum of
  the live blocks, each ALIGN_UP(ALIGN_UP(size, 32) + 32, 128) bytes (the
  pool's ALIGN_UP(size,32)+32 rule, blocks 128-byte aligned);
- data written to device memory is the data read back.

ACL_SIM_STATE_MACHINE_EXAMPLES scales the run (default 300 sequences of up to
40 steps, about 30 s); the number of sequences and steps tried is printed
at the end of the module (run with -s to see it).
"""
import os
import threading

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule  # noqa: E402

H2H, H2D, D2H, D2D = 0, 1, 2, 3
OK, PARAM_INVALID, CONTEXT_NULL, INVALID_PARAM = 0, 107000, 107002, 100000
DEVICES = (0, 1)
EXAMPLES = int(os.environ.get("ACL_SIM_STATE_MACHINE_EXAMPLES", "300"))
STATS = {"sequences": 0, "steps": 0}


def usable(size):
    return (size + 31) // 32 * 32 + 32


def block(size):
    return (usable(size) + 127) // 128 * 128


class AclApiMachine(RuleBasedStateMachine):
    """One random call sequence against the live runtime."""

    def __init__(self):
        super().__init__()
        import acl

        self.acl = acl
        self.device = 0
        # Draws must not depend on addresses (they differ between runs, and hypothesis
        # replays draws): everything is kept in insertion order and drawn by position.
        self.allocs = {}      # ptr -> [device, size, np.uint8 contents], in allocation order
        self.freed = []       # ptrs freed (append only; an address may be live again)
        self.streams = {}     # handle -> device, in creation order
        self.dead_streams = []
        self.events = {}      # handle -> device
        self.dead_events = []
        self.baseline = {}
        self.rng = np.random.default_rng(0)

    @initialize()
    def start(self):
        assert self.acl.init() in (0, 100002)
        for dev in reversed(DEVICES):
            assert self.acl.rt.set_device(dev) == OK
            free, total, ret = self.acl.rt.get_mem_info(0)
            assert ret == OK and 0 < free <= total
            self.baseline[dev] = total - free
        self.device = 0
        STATS["sequences"] += 1

    # ------------------------------------------------------------------ helpers

    def _used(self):
        free, total, ret = self.acl.rt.get_mem_info(0)
        assert ret == OK
        return total - free

    def _live_on(self, dev):
        return [p for p, a in self.allocs.items() if a[0] == dev]

    # ------------------------------------------------------------------ devices and contexts

    @rule(dev=st.sampled_from(DEVICES))
    def switch_device(self, dev):
        assert self.acl.rt.set_device(dev) == OK
        self.device = dev

    @rule(dev=st.sampled_from(DEVICES))
    def context_use_after_destroy(self, dev):
        ctx, ret = self.acl.rt.create_context(dev)
        assert ret == OK and ctx
        p, ret = self.acl.rt.malloc(100, 0)
        assert ret == OK
        assert self.acl.rt.free(p) == OK
        assert self.acl.rt.destroy_context(ctx) == OK
        assert self.acl.rt.destroy_context(ctx) == PARAM_INVALID
        assert self.acl.rt.set_context(ctx) == PARAM_INVALID
        # the destroyed context was current: nothing is, until a device is set again
        assert self.acl.rt.malloc(64, 0)[1] == CONTEXT_NULL
        assert self.acl.rt.create_stream()[1] == CONTEXT_NULL
        assert self.acl.rt.set_device(self.device) == OK

    @rule()
    def calls_from_a_thread_without_context(self):
        live = list(self.allocs)
        out = {}

        def body():
            out["malloc"] = self.acl.rt.malloc(64, 0)[1]
            out["stream"] = self.acl.rt.create_stream()[1]
            out["event"] = self.acl.rt.create_event()[1]
            out["meminfo"] = self.acl.rt.get_mem_info(0)[2]
            out["sync"] = self.acl.rt.synchronize_stream(0)
            if live:
                buf = np.zeros(8, np.uint8)
                out["memcpy"] = self.acl.rt.memcpy(buf.ctypes.data, 8, live[0], 8, D2H)

        t = threading.Thread(target=body)
        t.start()
        t.join(30)
        assert not t.is_alive(), "a call from a thread without a context hung"
        for name in ("malloc", "stream", "event", "meminfo", "sync"):
            assert out[name] == CONTEXT_NULL, (name, out)
        assert out.get("memcpy", CONTEXT_NULL) in (OK, CONTEXT_NULL), out

    # ------------------------------------------------------------------ memory

    @rule(size=st.integers(1, 5000))
    def malloc(self, size):
        p, ret = self.acl.rt.malloc(size, 0)
        assert ret == OK and p % 128 == 0
        assert p not in self.allocs
        self.allocs[p] = [self.device, size, np.zeros(usable(size), np.uint8)]
        # fresh memory has undefined contents: define it
        assert self.acl.rt.memset(p, usable(size), 0, usable(size)) == OK

    @rule(data=st.data())
    def write_then_read(self, data):
        live = self._live_on(self.device)
        if not live:
            return
        p = data.draw(st.sampled_from(live))
        dev, size, shadow = self.allocs[p]
        off = data.draw(st.integers(0, usable(size) - 1))
        n = data.draw(st.integers(1, usable(size) - off))
        src = self.rng.integers(0, 256, n, dtype=np.uint8)
        assert self.acl.rt.memcpy(p + off, usable(size) - off, src.ctypes.data, n, H2D) == OK
        shadow[off:off + n] = src
        out = np.empty(usable(size), np.uint8)
        assert self.acl.rt.memcpy(out.ctypes.data, out.nbytes, p, out.nbytes, D2H) == OK
        assert np.array_equal(out, shadow)

    @rule(data=st.data(), value=st.integers(0, 255))
    def memset_range(self, data, value):
        live = self._live_on(self.device)
        if not live:
            return
        p = data.draw(st.sampled_from(live))
        size = self.allocs[p][1]
        n = data.draw(st.integers(1, usable(size)))
        assert self.acl.rt.memset(p, n, value, n) == OK
        self.allocs[p][2][:n] = value

    @rule(data=st.data(), use_stream=st.booleans())
    def device_to_device(self, data, use_stream):
        live = self._live_on(self.device)
        if len(live) < 2:
            return
        dst, src = data.draw(st.permutations(live))[:2]
        n = min(usable(self.allocs[dst][1]), usable(self.allocs[src][1]))
        streams = [s for s, d in self.streams.items() if d == self.device]
        if use_stream and streams:
            s = data.draw(st.sampled_from(streams))
            assert self.acl.rt.memcpy_async(dst, n, src, n, D2D, s) == OK
            assert self.acl.rt.synchronize_stream(s) == OK
        else:
            assert self.acl.rt.memcpy(dst, n, src, n, D2D) == OK
        self.allocs[dst][2][:n] = self.allocs[src][2][:n]

    @rule(data=st.data(), extra=st.integers(1, 100))
    def out_of_range_copies(self, data, extra):
        live = self._live_on(self.device)
        if not live:
            return
        p = data.draw(st.sampled_from(live))
        room = usable(self.allocs[p][1])
        buf = np.zeros(room + extra, np.uint8)
        # past the end of the allocation, and count > destMax: 107000, nothing written
        assert self.acl.rt.memcpy(p, room + extra, buf.ctypes.data, room + extra, H2D) == PARAM_INVALID
        assert self.acl.rt.memcpy(p, room, buf.ctypes.data, room + extra, H2D) == PARAM_INVALID
        assert self.acl.rt.memset(p, room + extra, 0, room + extra) == PARAM_INVALID
        assert self.acl.rt.memcpy(buf.ctypes.data, buf.nbytes, p + room, 1, D2H) in (PARAM_INVALID, OK)
        assert self.acl.rt.memcpy(p, room, buf.ctypes.data, room, 9) == INVALID_PARAM

    @rule(data=st.data())
    def free(self, data):
        if not self.allocs:
            return
        p = data.draw(st.sampled_from(list(self.allocs)))
        # freeing needs a context, but not the allocation's device: CANN frees by address
        assert self.acl.rt.free(p) == OK
        del self.allocs[p]
        self.freed.append(p)

    @precondition(lambda self: bool(self.freed))
    @rule(data=st.data())
    def double_free_and_use_after_free(self, data):
        p = data.draw(st.sampled_from(self.freed))
        if p in self.allocs:
            return  # handed out again by a later malloc
        # an address inside a live block (a neighbour's interior) is still not a live allocation
        assert self.acl.rt.free(p) == PARAM_INVALID
        buf = np.zeros(16, np.uint8)
        inside_live = any(q <= p < q + usable(a[1]) for q, a in self.allocs.items() if a[0] == self.device)
        if not inside_live:
            assert self.acl.rt.memcpy(buf.ctypes.data, 16, p, 16, D2H) == PARAM_INVALID
            assert self.acl.rt.memset(p, 16, 1, 16) == PARAM_INVALID

    @rule(junk=st.sampled_from([1, 12345, 2**40 + 64, 2**63 - 64]))
    def free_junk(self, junk):
        assert self.acl.rt.free(junk) == PARAM_INVALID

    # ------------------------------------------------------------------ streams and events

    @rule()
    def create_stream(self):
        s, ret = self.acl.rt.create_stream()
        assert ret == OK and s
        self.streams[s] = self.device

    @rule(data=st.data())
    def destroy_stream(self, data):
        mine = [s for s, d in self.streams.items() if d == self.device]
        if not mine:
            return
        s = data.draw(st.sampled_from(mine))
        assert self.acl.rt.destroy_stream(s) == OK
        del self.streams[s]
        self.dead_streams.append(s)

    @precondition(lambda self: bool(self.dead_streams))
    @rule(data=st.data())
    def stream_use_after_destroy(self, data):
        s = data.draw(st.sampled_from(self.dead_streams))
        if s in self.streams:
            return  # the handle was reused by a later create
        assert self.acl.rt.destroy_stream(s) == PARAM_INVALID
        assert self.acl.rt.synchronize_stream(s) == PARAM_INVALID
        e, ret = self.acl.rt.create_event()
        assert ret == OK
        assert self.acl.rt.record_event(e, s) == PARAM_INVALID
        assert self.acl.rt.destroy_event(e) == OK

    @rule()
    def create_event(self):
        e, ret = self.acl.rt.create_event()
        assert ret == OK and e
        self.events[e] = self.device

    @rule(data=st.data())
    def record_and_wait(self, data):
        events = [e for e, d in self.events.items() if d == self.device]
        if not events:
            return
        e = data.draw(st.sampled_from(events))
        streams = [s for s, d in self.streams.items() if d == self.device] + [0]
        s = data.draw(st.sampled_from(streams))
        assert self.acl.rt.record_event(e, s) == OK
        assert self.acl.rt.synchronize_event(e) == OK
        status, ret = self.acl.rt.query_event_status(e)
        assert ret == OK and status == 1

    @rule(data=st.data())
    def destroy_event(self, data):
        if not self.events:
            return
        e = data.draw(st.sampled_from(list(self.events)))
        assert self.acl.rt.destroy_event(e) == OK
        del self.events[e]
        self.dead_events.append(e)

    @precondition(lambda self: bool(self.dead_events))
    @rule(data=st.data())
    def event_use_after_destroy(self, data):
        e = data.draw(st.sampled_from(self.dead_events))
        if e in self.events:
            return  # the handle was reused by a later create
        assert self.acl.rt.destroy_event(e) == PARAM_INVALID
        assert self.acl.rt.record_event(e, 0) == PARAM_INVALID
        assert self.acl.rt.synchronize_event(e) == PARAM_INVALID
        assert self.acl.rt.query_event_status(e)[1] == PARAM_INVALID

    # ------------------------------------------------------------------ invariants

    @invariant()
    def accounting_matches_live_blocks(self):
        if not self.baseline:
            return
        STATS["steps"] += 1
        expected = self.baseline[self.device] + sum(block(a[1]) for a in self.allocs.values() if a[0] == self.device)
        assert self._used() == expected

    def teardown(self):
        if not self.baseline:
            return
        for dev in DEVICES:
            assert self.acl.rt.set_device(dev) == OK
            for p in [p for p, a in self.allocs.items() if a[0] == dev]:
                assert self.acl.rt.free(p) == OK
            for s in [s for s, d in self.streams.items() if d == dev]:
                assert self.acl.rt.destroy_stream(s) == OK
            for e in [e for e, d in self.events.items() if d == dev]:
                assert self.acl.rt.destroy_event(e) == OK
            assert self._used() == self.baseline[dev]


AclApiMachine.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None,
                                           suppress_health_check=list(HealthCheck), derandomize=False)
TestAclApiSequences = AclApiMachine.TestCase


def teardown_module(module):
    print(f"\napi state machine: {STATS['sequences']} sequences, {STATS['steps']} steps checked")
