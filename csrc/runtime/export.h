// Runtime classes are used by the pybind11 module and the C++ tests, which
// link libascendcl.so (built with hidden visibility): export them.
#pragma once

#include "common/export.h"

#define ACL_SIM_RT_API ACL_SIM_EXPORT
