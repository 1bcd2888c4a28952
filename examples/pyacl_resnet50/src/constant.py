# pyACL exports no constants: programs written for CANN define their own (values from acl_base.h / acl_rt.h).
ACL_SUCCESS = 0

# rt/memory
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3

# run mode
ACL_DEVICE = 0
ACL_HOST = 1

# data types
ACL_FLOAT = 0
ACL_FLOAT16 = 1

NPY_FLOAT32 = 11
