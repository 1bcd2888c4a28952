// Run-time loading of the codec libraries (libjpeg-turbo's libjpeg.so.62 ABI
// and libpng16), so a plain acl_sim wheel decodes images without linking them.
// Search order for each library (first that loads wins; docs/dvpp.md):
//   1. the path in ACL_SIM_LIBJPEG / ACL_SIM_LIBPNG (when set, nothing else is tried);
//   2. the system's shared library by soname (libjpeg.so.62, libpng16.so.16);
//   3. the copies the Pillow wheel ships: <site-packages>/pillow.libs/, found
//      next to libascendcl.so's package (acl_sim/lib/../../pillow.libs) or in
//      the directory named by ACL_SIM_PILLOW_LIBS (the acl_sim Python package
//      sets it from Pillow's install location when it is unset).
#pragma once

#include <string>

namespace acl_sim::media {

/** A loaded codec library. */
struct CodecLibrary {
  void* handle = nullptr;  // dlopen handle, nullptr when not found
  std::string path;        // what was loaded
  std::string tried;       // every place looked at, for the error message
};

/** Load (once, thread-safe) the library for @p which ("jpeg" or "png"). Never throws. */
const CodecLibrary& codec_library(const std::string& which);

/** dlsym in @p lib; throws ACL_ERROR_FEATURE_UNSUPPORTED naming the symbol when it is missing. */
void* codec_symbol(const CodecLibrary& lib, const char* name);

/** Throws ACL_ERROR_FEATURE_UNSUPPORTED (200006) with the search list when @p lib was not found. */
void require_codec_library(const CodecLibrary& lib, const char* what);

}  // namespace acl_sim::media
