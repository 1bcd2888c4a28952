// libascendcl.so is built with hidden visibility so only the C API is its
// ABI. Internal C++ entry points that the pybind11 module and the C++ tests
// call are marked ACL_SIM_EXPORT.
#pragma once

#define ACL_SIM_EXPORT __attribute__((visibility("default")))
