# ACL_SIM_SANITIZE=address gives ASan+UBSan, =thread gives TSan.
#
# Sanitizer builds exist to run tests, and CI has 30 minutes on 2 cores for
# everything, so they trade code speed for build speed: -O1 (enough for
# sanitizers to be fast, much cheaper to compile than -O2 with the kernels'
# per-ISA clones) and -g1 (line tables for stack traces, no full debug info).
# The kernel files (csrc/kernels/) are left uninstrumented in both builds: they
# read and write device memory, which lives in the pool's own mmap'd segments
# that ASan does not track (a kernel overrunning a block stays inside the
# segment, so ASan could not see it anyway); they are data-parallel loops with
# no synchronisation of their own (the executor that runs them is instrumented
# for TSan); and instrumenting their per-ISA clones costs more build time than
# the rest of the library together (ASan+UBSan binary_ops.cpp alone: > 6 min).
function(acl_sim_skip_kernel_sources target flag)
  get_target_property(sources ${target} SOURCES)
  foreach(src ${sources})
    if(src MATCHES "/csrc/kernels/")
      set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS ${flag})
    endif()
  endforeach()
endfunction()

function(acl_sim_apply_sanitizers target)
  if(NOT ACL_SIM_SANITIZE)
    return()
  endif()
  target_compile_options(${target} PRIVATE -O1 -g1)
  if(ACL_SIM_SANITIZE STREQUAL "address")
    # -fno-sanitize=enum: the C API takes CANN's C enums (aclrtMemMallocPolicy, HcclDataType, ...)
    # by value from C, ctypes and pybind11 callers, where any int can arrive, and validates them;
    # UBSan's enum check would abort on loading the very value the entry point is about to reject.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize=enum -fno-omit-frame-pointer
                           -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    acl_sim_skip_kernel_sources(${target} -fno-sanitize=address,undefined)
  elseif(ACL_SIM_SANITIZE STREQUAL "thread")
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=thread)
    acl_sim_skip_kernel_sources(${target} -fno-sanitize=thread)
  else()
    message(FATAL_ERROR "ACL_SIM_SANITIZE must be '', 'address' or 'thread', not '${ACL_SIM_SANITIZE}'")
  endif()
endfunction()
