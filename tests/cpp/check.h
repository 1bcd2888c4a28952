// The one assertion helper of the C++ tests. Each test is a plain executable
// (ggml-style): CHECK records a failure and goes on; main returns non-zero
// when any check failed.
#pragma once

#include <atomic>
#include <cstdio>

inline std::atomic<int> g_failures{0};

#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      ++g_failures;                                                                  \
    }                                                                                \
  } while (0)
