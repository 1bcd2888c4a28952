// `acl.rt`: devices, contexts, streams, events, memory, callbacks (pyACL shapes:
// ints for handles/pointers, (out..., ret) tuples, bare ret otherwise).
#include <acl/acl.h>

#include "python/bindings.h"

namespace acl_sim::py_bind {
namespace {

/** A Python callback and its argument, kept alive until the callback has run. */
struct PyCallback {
  py::object fn;
  py::object data;
};

// Runs on the thread inside aclrtProcessReport (which released the GIL while waiting).
void py_callback_trampoline(void* p) {
  py::gil_scoped_acquire gil;
  auto* cb = static_cast<PyCallback*>(p);
  try {
    cb->fn(cb->data);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("acl.rt.launch_callback callback");
  }
  delete cb;
}

}  // namespace

void bind_rt(py::module_& rt) {
  // ---- devices
  rt.def("set_device", [](int32_t id) { return aclrtSetDevice(id); });
  rt.def("reset_device", [](int32_t id) {
    py::gil_scoped_release nogil;
    return aclrtResetDevice(id);
  });
  rt.def("get_device", []() {
    int32_t id = -1;
    aclError ret = aclrtGetDevice(&id);
    return py::make_tuple(id, ret);
  });
  rt.def("get_device_count", []() {
    uint32_t n = 0;
    aclError ret = aclrtGetDeviceCount(&n);
    return py::make_tuple(n, ret);
  });
  rt.def("get_run_mode", []() {
    aclrtRunMode mode = ACL_HOST;
    aclError ret = aclrtGetRunMode(&mode);
    return py::make_tuple(static_cast<int>(mode), ret);
  });
  rt.def("synchronize_device", []() {
    py::gil_scoped_release nogil;
    return aclrtSynchronizeDevice();
  });
  rt.def("synchronize_device_with_timeout", [](int32_t ms) {
    py::gil_scoped_release nogil;
    return aclrtSynchronizeDeviceWithTimeout(ms);
  });
  rt.def("get_soc_name", []() {
    const char* name = aclrtGetSocName();
    return std::string(name ? name : "");
  });

  // ---- contexts
  rt.def("create_context", [](int32_t dev) {
    aclrtContext ctx = nullptr;
    aclError ret = aclrtCreateContext(&ctx, dev);
    return py::make_tuple(as_int(ctx), ret);
  });
  rt.def("destroy_context", [](uintptr_t ctx) {
    py::gil_scoped_release nogil;
    return aclrtDestroyContext(as_ptr(ctx));
  });
  rt.def("set_context", [](uintptr_t ctx) { return aclrtSetCurrentContext(as_ptr(ctx)); });
  rt.def("get_context", []() {
    aclrtContext ctx = nullptr;
    aclError ret = aclrtGetCurrentContext(&ctx);
    return py::make_tuple(as_int(ctx), ret);
  });

  // ---- streams
  rt.def("create_stream", []() {
    aclrtStream s = nullptr;
    aclError ret = aclrtCreateStream(&s);
    return py::make_tuple(as_int(s), ret);
  });
  rt.def("create_stream_with_config", [](uint32_t priority, uint32_t flag) {
    aclrtStream s = nullptr;
    aclError ret = aclrtCreateStreamWithConfig(&s, priority, flag);
    return py::make_tuple(as_int(s), ret);
  });
  rt.def("destroy_stream", [](uintptr_t s) {
    py::gil_scoped_release nogil;
    return aclrtDestroyStream(as_ptr(s));
  });
  rt.def("synchronize_stream", [](uintptr_t s) {
    py::gil_scoped_release nogil;
    return aclrtSynchronizeStream(as_ptr(s));
  });
  rt.def("synchronize_stream_with_timeout", [](uintptr_t s, int32_t ms) {
    py::gil_scoped_release nogil;
    return aclrtSynchronizeStreamWithTimeout(as_ptr(s), ms);
  });
  rt.def("stream_query", [](uintptr_t s) {
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    aclError ret = aclrtStreamQuery(as_ptr(s), &st);
    return py::make_tuple(static_cast<int>(st), ret);
  });
  rt.def("stream_wait_event", [](uintptr_t s, uintptr_t e) {
    py::gil_scoped_release nogil;
    return aclrtStreamWaitEvent(as_ptr(s), as_ptr(e));
  });

  // ---- events
  rt.def("create_event", []() {
    aclrtEvent e = nullptr;
    aclError ret = aclrtCreateEvent(&e);
    return py::make_tuple(as_int(e), ret);
  });
  rt.def("create_event_with_flag", [](uint32_t flag) {
    aclrtEvent e = nullptr;
    aclError ret = aclrtCreateEventWithFlag(&e, flag);
    return py::make_tuple(as_int(e), ret);
  });
  rt.def("destroy_event", [](uintptr_t e) { return aclrtDestroyEvent(as_ptr(e)); });
  rt.def("record_event", [](uintptr_t e, uintptr_t s) { return aclrtRecordEvent(as_ptr(e), as_ptr(s)); });
  rt.def("reset_event", [](uintptr_t e, uintptr_t s) { return aclrtResetEvent(as_ptr(e), as_ptr(s)); });
  rt.def("synchronize_event", [](uintptr_t e) {
    py::gil_scoped_release nogil;
    return aclrtSynchronizeEvent(as_ptr(e));
  });
  rt.def("query_event", [](uintptr_t e) {
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    aclError ret = aclrtQueryEvent(as_ptr(e), &st);
#pragma GCC diagnostic pop
    return py::make_tuple(static_cast<int>(st), ret);
  });
  rt.def("query_event_status", [](uintptr_t e) {
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclError ret = aclrtQueryEventStatus(as_ptr(e), &st);
    return py::make_tuple(static_cast<int>(st), ret);
  });
  rt.def("event_elapsed_time", [](uintptr_t start, uintptr_t end) {
    float ms = 0.0f;
    aclError ret = aclrtEventElapsedTime(&ms, as_ptr(start), as_ptr(end));
    return py::make_tuple(ms, ret);
  });

  // ---- memory
  auto def_malloc = [&](const char* name, aclError (*fn)(void**, size_t, aclrtMemMallocPolicy)) {
    rt.def(name, [fn](size_t size, int policy) {
      void* p = nullptr;
      aclError ret = fn(&p, size, static_cast<aclrtMemMallocPolicy>(policy));
      return py::make_tuple(as_int(p), ret);
    });
  };
  def_malloc("malloc", aclrtMalloc);
  def_malloc("malloc_align32", aclrtMallocAlign32);
  def_malloc("malloc_cached", aclrtMallocCached);
  rt.def("free", [](uintptr_t p) { return aclrtFree(as_ptr(p)); });
  rt.def("malloc_host", [](size_t size) {
    void* p = nullptr;
    aclError ret = aclrtMallocHost(&p, size);
    return py::make_tuple(as_int(p), ret);
  });
  rt.def("free_host", [](uintptr_t p) { return aclrtFreeHost(as_ptr(p)); });
  rt.def("get_mem_info", [](int attr) {
    size_t free_b = 0, total = 0;
    aclError ret = aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &free_b, &total);
    return py::make_tuple(free_b, total, ret);
  });
  rt.def("memcpy", [](uintptr_t dst, size_t dest_max, uintptr_t src, size_t count, int kind) {
    py::gil_scoped_release nogil;  // large copies should not stall other Python threads
    return aclrtMemcpy(as_ptr(dst), dest_max, as_ptr(src), count, static_cast<aclrtMemcpyKind>(kind));
  });
  rt.def("memcpy_async", [](uintptr_t dst, size_t dest_max, uintptr_t src, size_t count, int kind, uintptr_t s) {
    return aclrtMemcpyAsync(as_ptr(dst), dest_max, as_ptr(src), count, static_cast<aclrtMemcpyKind>(kind), as_ptr(s));
  });
  rt.def("memset", [](uintptr_t p, size_t max_count, int32_t value, size_t count) {
    return aclrtMemset(as_ptr(p), max_count, value, count);
  });
  rt.def("memset_async", [](uintptr_t p, size_t max_count, int32_t value, size_t count, uintptr_t s) {
    return aclrtMemsetAsync(as_ptr(p), max_count, value, count, as_ptr(s));
  });

  // ---- callbacks
  rt.def("subscribe_report", [](uint64_t tid, uintptr_t s) { return aclrtSubscribeReport(tid, as_ptr(s)); });
  rt.def("unsubscribe_report", [](uint64_t tid, uintptr_t s) { return aclrtUnSubscribeReport(tid, as_ptr(s)); });
  rt.def("process_report", [](int32_t timeout) {
    py::gil_scoped_release nogil;  // the callback itself re-acquires the GIL
    return aclrtProcessReport(timeout);
  });
  rt.def("launch_callback", [](py::object fn, py::object user_data, int block_type, uintptr_t s) {
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("acl.rt.launch_callback args parse failed");
    auto* cb = new PyCallback{std::move(fn), std::move(user_data)};
    aclError ret = aclrtLaunchCallback(py_callback_trampoline, cb, static_cast<aclrtCallbackBlockType>(block_type),
                                       as_ptr(s));
    if (ret != ACL_SUCCESS) delete cb;
    return ret;
  });
}

}  // namespace acl_sim::py_bind
