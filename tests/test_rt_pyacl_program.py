"""A pyACL program in the style of the CANN samples (inline constants, bytes_to_ptr,
malloc_host, two streams, memset_async/memcpy_async, the start_thread +
process_report callback flow, full teardown) runs unchanged under `import acl`."""
from conftest import run_python

PROGRAM = r'''
import sys
import numpy as np
import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_BLOCK = 1
DEVICE_ID = 0
SIZE = 1 << 20


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={} ({})".format(message, ret, acl.get_recent_err_msg()))


class Sample(object):
    def __init__(self):
        self.context = None
        self.streams = []
        self.callback_run_flag = True
        self.results = []

    def init_resource(self):
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
        self.context, ret = acl.rt.create_context(DEVICE_ID)
        check_ret("acl.rt.create_context", ret)
        for _ in range(2):
            stream, ret = acl.rt.create_stream()
            check_ret("acl.rt.create_stream", ret)
            self.streams.append(stream)
        free, total, ret = acl.rt.get_mem_info(0)
        check_ret("acl.rt.get_mem_info", ret)
        print("DDR free {} total {}".format(free, total))

    def _process_callback(self, args_list):
        context, timeout = args_list
        acl.rt.set_context(context)
        while self.callback_run_flag:
            acl.rt.process_report(timeout)

    def _callback(self, user_data):
        self.results.append(("callback", user_data[0], user_data[1]))

    def run(self):
        host_buffer, ret = acl.rt.malloc_host(SIZE)
        check_ret("acl.rt.malloc_host", ret)
        dev_a, ret = acl.rt.malloc(SIZE, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        dev_b, ret = acl.rt.malloc(SIZE, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)

        # synchronous part: memset host, H2D, D2H into a bytes object
        check_ret("acl.rt.memset", acl.rt.memset(host_buffer, SIZE, 7, SIZE))
        check_ret("acl.rt.memcpy", acl.rt.memcpy(dev_a, SIZE, host_buffer, SIZE, ACL_MEMCPY_HOST_TO_DEVICE))
        out_bytes = bytes(SIZE)
        out_ptr = acl.util.bytes_to_ptr(out_bytes)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(out_ptr, SIZE, dev_a, SIZE, ACL_MEMCPY_DEVICE_TO_HOST))
        data = np.frombuffer(out_bytes, dtype=np.byte)
        self.results.append(("sync", int(data.min()), int(data.max())))

        # asynchronous part on two streams, with a blocking callback
        tid, ret = acl.util.start_thread(self._process_callback, [self.context, 50])
        check_ret("acl.util.start_thread", ret)
        check_ret("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, self.streams[1]))
        check_ret("acl.rt.memset_async", acl.rt.memset_async(dev_b, SIZE, 9, SIZE, self.streams[0]))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.streams[0]))
        check_ret("acl.rt.memcpy_async",
                  acl.rt.memcpy_async(dev_a, SIZE, dev_b, SIZE, ACL_MEMCPY_DEVICE_TO_DEVICE, self.streams[1]))
        check_ret("acl.rt.memcpy_async",
                  acl.rt.memcpy_async(host_buffer, SIZE, dev_a, SIZE, ACL_MEMCPY_DEVICE_TO_HOST, self.streams[1]))
        check_ret("acl.rt.launch_callback",
                  acl.rt.launch_callback(self._callback, [1, "done"], ACL_CALLBACK_BLOCK, self.streams[1]))
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.streams[1]))
        check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, self.streams[1]))
        self.callback_run_flag = False
        check_ret("acl.util.stop_thread", acl.util.stop_thread(tid))
        back = acl.util.ptr_to_bytes(host_buffer, SIZE)
        self.results.append(("async", back[0], back[-1]))

        check_ret("acl.rt.free", acl.rt.free(dev_a))
        check_ret("acl.rt.free", acl.rt.free(dev_b))
        check_ret("acl.rt.free_host", acl.rt.free_host(host_buffer))

    def release_resource(self):
        for stream in self.streams:
            check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
        check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    sample = Sample()
    sample.init_resource()
    sample.run()
    sample.release_resource()
    print(sample.results)
'''


def test_pyacl_memory_stream_callback_program(tmp_path):
    script = tmp_path / "sample.py"
    script.write_text(PROGRAM)
    r = run_python(f"exec(open({str(script)!r}).read())", env={"ASCEND_GLOBAL_LOG_LEVEL": "2"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().split("\n")
    assert lines[0].startswith("DDR free ")
    assert lines[-1] == "[('sync', 7, 7), ('callback', 1, 'done'), ('async', 9, 9)]"
    assert "[WARNING]" not in r.stderr and "[ERROR]" not in r.stderr   # everything was released
