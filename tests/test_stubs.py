"""The committed type stubs (python/acl/*.pyi) describe exactly the `acl` module's real members:
every pyACL submodule a program uses has a stub, every real function is in it with its
positional arity, and the stub names nothing the module lacks."""
import ast
import re
import types
from pathlib import Path

import pytest

# The acl submodules programs use (acl.blas is acl_sim's binding of acl_cblas.h), and acl_sim's
# own submodules a program may call (hccl, kernel launches, simulator controls). Only the test
# hooks acl.testing / acl.testing_model have no stub of their own.
PYACL_SUBMODULES = ("mdl", "op", "prof", "rt", "util", "blas", "media", "hccl", "kernel", "sim")


def _stub(name: str) -> ast.Module:
    import acl as acl_pkg

    return ast.parse((Path(acl_pkg.__file__).parent / f"{name}.pyi").read_text())


def _functions(tree: ast.Module) -> dict:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def _constants(tree: ast.Module) -> set:
    return {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def _arity(fn) -> int | None:
    """Positional parameter count from pybind11's signature line ("name(arg0: int, ...) -> ...")."""
    doc = (getattr(fn, "__doc__", None) or "").strip().splitlines()
    m = re.match(r"\w+\((.*)\) -> ", doc[0]) if doc else None
    if m is None:
        return None
    args, depth, count = m.group(1), 0, 0
    for ch in args:
        depth += ch == "["
        depth -= ch == "]"
        count += ch == "," and depth == 0
    return count + 1 if args.strip() else 0


def _present_submodules(acl):
    return [s for s in PYACL_SUBMODULES if isinstance(getattr(acl, s, None), types.ModuleType)]


def test_every_pyacl_submodule_in_use_has_a_stub(acl):
    import acl as acl_pkg

    present = _present_submodules(acl)
    assert {"mdl", "op", "prof", "rt", "util"} <= set(present)
    for sub in present:
        assert (Path(acl_pkg.__file__).parent / f"{sub}.pyi").is_file(), f"acl.{sub} has no stub"


@pytest.mark.parametrize("sub", PYACL_SUBMODULES)
def test_submodule_stub_matches_the_module(acl, sub):
    module = getattr(acl, sub, None)
    if not isinstance(module, types.ModuleType):
        import acl as acl_pkg

        # no module, so no stub either (a stub for a missing module would promise too much)
        assert not (Path(acl_pkg.__file__).parent / f"{sub}.pyi").exists()
        return
    tree = _stub(sub)
    stubbed, constants = _functions(tree), _constants(tree)
    actual = {n: getattr(module, n) for n in dir(module) if not n.startswith("_")}
    assert set(stubbed) | constants == set(actual), (sub, sorted((set(stubbed) | constants) ^ set(actual)))
    for name in constants:
        assert not callable(actual[name]), (sub, name, "is a function, the stub says a constant")
    for name, fn in actual.items():
        if name in constants:
            continue
        arity = _arity(fn)
        if arity is not None:
            assert len(stubbed[name].args.args) == arity, (sub, name, arity)


def test_top_level_stub_matches_the_module(acl):
    tree = _stub("__init__")
    names = set(_functions(tree))
    for n in tree.body:
        if isinstance(n, ast.ImportFrom):
            names |= {a.asname or a.name for a in n.names if n.level == 1}
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
    actual = {n for n in dir(acl) if not n.startswith("_")}
    assert names == actual, sorted(names ^ actual)
    for name, node in _functions(tree).items():
        arity = _arity(getattr(acl, name))
        if arity is not None:
            assert len(node.args.args) - len(node.args.defaults) <= arity <= len(node.args.args), name
