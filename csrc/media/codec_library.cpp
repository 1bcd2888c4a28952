#include "media/codec_library.h"

#include <dirent.h>
#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#include "acl/acl_base.h"
#include "common/error.h"

namespace acl_sim::media {

namespace {

struct Spec {
  const char* env;
  std::vector<const char*> sonames;
  const char* pillow_prefix;  // file name start inside pillow.libs/
  const char* pillow_abi;     // and the ABI it must carry
};

Spec spec_for(const std::string& which) {
  if (which == "jpeg") return {"ACL_SIM_LIBJPEG", {"libjpeg.so.62"}, "libjpeg-", ".so.62"};
  return {"ACL_SIM_LIBPNG", {"libpng16.so.16"}, "libpng16-", ".so.16"};
}

/** <dir of libascendcl.so>/../../pillow.libs: site-packages/acl_sim/lib -> site-packages/pillow.libs. */
std::string pillow_dir_next_to_library() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&pillow_dir_next_to_library), &info) || !info.dli_fname) return {};
  std::string lib = info.dli_fname;
  size_t slash = lib.rfind('/');
  if (slash == std::string::npos) return {};
  return lib.substr(0, slash) + "/../../pillow.libs";
}

std::string find_in_dir(const std::string& dir, const char* prefix, const char* abi) {
  DIR* d = opendir(dir.c_str());
  if (!d) return {};
  std::string found;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.rfind(prefix, 0) == 0 && name.find(abi) != std::string::npos) {
      found = dir + "/" + name;
      break;
    }
  }
  closedir(d);
  return found;
}

CodecLibrary load(const std::string& which) {
  const Spec s = spec_for(which);
  CodecLibrary lib;
  auto attempt = [&](const std::string& path) {
    if (lib.handle || path.empty()) return;
    lib.tried += (lib.tried.empty() ? "" : ", ") + path;
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      lib.handle = h;
      lib.path = path;
    }
  };
  if (const char* p = std::getenv(s.env)) {  // an explicit choice: nothing else is tried
    attempt(p);
    return lib;
  }
  for (const char* so : s.sonames) attempt(so);
  std::vector<std::string> dirs;
  if (const char* p = std::getenv("ACL_SIM_PILLOW_LIBS")) dirs.push_back(p);
  dirs.push_back(pillow_dir_next_to_library());
  for (const auto& dir : dirs) {
    if (dir.empty()) continue;
    std::string f = find_in_dir(dir, s.pillow_prefix, s.pillow_abi);
    if (f.empty()) lib.tried += std::string(lib.tried.empty() ? "" : ", ") + dir + "/" + s.pillow_prefix + "*";
    attempt(f);
  }
  return lib;
}

}  // namespace

const CodecLibrary& codec_library(const std::string& which) {
  static std::mutex mu;
  static std::map<std::string, CodecLibrary> loaded;
  std::lock_guard<std::mutex> lock(mu);
  auto it = loaded.find(which);
  if (it == loaded.end()) it = loaded.emplace(which, load(which)).first;
  return it->second;
}

void require_codec_library(const CodecLibrary& lib, const char* what) {
  if (!lib.handle)
    fail(ACL_ERROR_FEATURE_UNSUPPORTED, what, " codec library not found (tried ", lib.tried,
         "); install Pillow (pip install pillow) or the system library, or point ",
         std::string(what) == "JPEG" ? "ACL_SIM_LIBJPEG" : "ACL_SIM_LIBPNG", " at it");
}

void* codec_symbol(const CodecLibrary& lib, const char* name) {
  void* f = dlsym(lib.handle, name);
  if (!f) fail(ACL_ERROR_FEATURE_UNSUPPORTED, "codec library ", lib.path, " has no symbol ", name);
  return f;
}

}  // namespace acl_sim::media
