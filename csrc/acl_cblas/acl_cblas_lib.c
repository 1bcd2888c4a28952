/*
 * libacl_cblas.so: CANN ships the aclblas* functions in a library of their own,
 * and CANN's build files link `-lacl_cblas`. acl_sim exports those functions
 * from libascendcl.so (csrc/capi/blas_api.cpp); this library only depends on
 * it, so that such build files link and run unchanged.
 */
#include "acl/ops/acl_cblas.h"
