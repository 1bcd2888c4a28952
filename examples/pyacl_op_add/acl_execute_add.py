"""Single-operator execution with pyACL, in the shape of Ascend/samples acl_execute_add.py.

    acl-sim atc --singleop=op.json --soc_version=Ascend910B1 --output=op_models
    python3 acl_execute_add.py op_models

Runs Add on two int32 [8, 16] tensors through acl.op.execute_v2 on a stream, using the
single-op model compiled into `op_models`, and checks the result on the host.
"""
import sys

import numpy as np

import acl

ACL_SUCCESS = 0
ACL_INT32 = 3
ACL_FORMAT_ND = 2
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={} ({})".format(message, ret, acl.get_recent_err_msg()))


def main(model_dir):
    device_id = 0
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(device_id))
    context, ret = acl.rt.create_context(device_id)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    check_ret("acl.op.set_model_dir", acl.op.set_model_dir(model_dir))

    shape = [8, 16]
    op_attr = acl.op.create_attr()
    input_desc = acl.create_tensor_desc(ACL_INT32, shape, ACL_FORMAT_ND)
    output_desc = acl.create_tensor_desc(ACL_INT32, shape, ACL_FORMAT_ND)
    size = acl.get_tensor_desc_size(input_desc)

    host_a = np.random.randint(0, 100, size=shape, dtype=np.int32)
    host_b = np.random.randint(0, 100, size=shape, dtype=np.int32)
    dev_bufs = []
    data_bufs = []
    for host in (host_a, host_b, None):
        dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
        check_ret("acl.rt.malloc", ret)
        if host is not None:
            data = host.tobytes()
            ret = acl.rt.memcpy(dev, size, acl.util.bytes_to_ptr(data), size, ACL_MEMCPY_HOST_TO_DEVICE)
            check_ret("acl.rt.memcpy", ret)
        dev_bufs.append(dev)
        data_bufs.append(acl.create_data_buffer(dev, size))

    ret = acl.op.execute_v2("Add", [input_desc, input_desc], data_bufs[:2], [output_desc], data_bufs[2:],
                            op_attr, stream)
    check_ret("acl.op.execute_v2", ret)
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))

    host_out, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(host_out, size, dev_bufs[2], size, ACL_MEMCPY_DEVICE_TO_HOST))
    result = np.frombuffer(acl.util.ptr_to_bytes(host_out, size), dtype=np.int32).reshape(shape)
    ok = bool(np.array_equal(result, host_a + host_b))
    print("[Add] result matches: {}".format(ok))

    acl.rt.free_host(host_out)
    for buf in data_bufs:
        acl.destroy_data_buffer(buf)
    for dev in dev_bufs:
        acl.rt.free(dev)
    acl.destroy_tensor_desc(input_desc)
    acl.destroy_tensor_desc(output_desc)
    acl.op.destroy_attr(op_attr)
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(device_id))
    check_ret("acl.finalize", acl.finalize())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "op_models"))
