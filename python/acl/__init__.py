"""pyACL-compatible `import acl`, served by acl_sim.

Follows pyACL's rules: ints for handles and pointers, `(value, ..., ret)`
tuples with ret last, positional arguments, no exceptions for API failures.
Like pyACL, this module exports no constants (see acl_sim.constants).
"""
from acl_sim._core import *  # noqa: F401,F403  (top-level functions: init, finalize, ...)
from acl_sim._core import blas, mdl, op, prof, rt, util  # noqa: F401
