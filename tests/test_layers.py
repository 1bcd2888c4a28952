"""The layer order of the C++ core, as the build declares it (CMakeLists.txt, acl_sim_layer lines).

The link check (cmake/Layers.cmake) proves no layer *calls* an undeclared one; these tests cover
what a link cannot see: headers included for inline code or types only, and the C API calling
its own public entry points (which would run api_call inside api_call: two error records, a
second call-gate entry)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
LAYER_LINE = re.compile(r"^acl_sim_layer\((\w+)([^)]*)\)", re.M)


def declared_layers():
    text = (ROOT / "CMakeLists.txt").read_text()
    direct = {}
    for name, rest in LAYER_LINE.findall(text):
        m = re.search(r"DEPS((?:\s+\w+)+?)(?:\s+LIBS|\s*$)", rest)
        direct[name] = m.group(1).split() if m else []
    closure = {}

    def below(name):
        if name not in closure:
            deps = set()
            for d in direct[name]:
                deps |= {d} | below(d)
            closure[name] = deps
        return closure[name]

    for name in direct:
        below(name)
    return direct, closure


def sources(layer):
    return sorted(p for p in (CSRC / layer).rglob("*") if p.suffix in (".h", ".cpp"))


def test_every_core_folder_is_a_declared_layer():
    direct, _ = declared_layers()
    folders = {p.name for p in CSRC.iterdir() if p.is_dir()}
    # include/: public headers; python/: the pybind module over libascendcl.so; compat_libs/: C shims
    assert folders - set(direct) == {"include", "python", "compat_libs"}
    for name, deps in direct.items():
        assert set(deps) <= set(direct), f"{name} declares an unknown layer"


def test_layers_include_only_their_own_and_lower_layers():
    direct, closure = declared_layers()
    include = re.compile(r'^\s*#\s*include\s+"((\w+)/[^"]+)"', re.M)
    wrong = []
    for layer in direct:
        allowed = {layer} | closure[layer]
        for path in sources(layer):
            for header, target in include.findall(path.read_text()):
                if (CSRC / "include" / header).exists():
                    continue  # a public header (csrc/include/hccl/, aclnn/, ...), not a layer's
                if target in direct and target not in allowed:
                    wrong.append(f"{path.relative_to(ROOT)} includes {header} (allowed: {sorted(allowed)})")
    assert not wrong, "\n".join(wrong)


def test_capi_never_calls_its_own_entry_points():
    definition = re.compile(
        r'^(?:extern "C"\s+)?(?:ACL_FUNC_VISIBILITY\s+|ACLNN_API\s+)?(?:const\s+)?[A-Za-z_]\w*\s*\**\s*'
        r"((?:acl[a-z]*|Hccl)[A-Z]\w*)\s*\(", re.M)
    files = sources("capi")
    entry_points = set()
    for path in files:
        entry_points |= set(definition.findall(path.read_text()))
    assert len(entry_points) > 300  # the parse found the C API
    call = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
    wrong = []
    for path in files:
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            if definition.match(line):
                continue
            code = re.sub(r'"(?:\\.|[^"\\])*"', '""', line.split("//")[0])
            if code.lstrip().startswith("*"):
                continue
            for m in call.finditer(code):
                if m.group(1) in entry_points:
                    wrong.append(f"{path.relative_to(ROOT)}:{lineno}: calls {m.group(1)}: {line.strip()}")
    assert not wrong, "\n".join(wrong)
