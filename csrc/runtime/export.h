// Runtime classes are used by the pybind11 module and the C++ tests, which
// link libascendcl.so (built with hidden visibility): export them.
#pragma once

#define ACL_SIM_RT_API __attribute__((visibility("default")))
