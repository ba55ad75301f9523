# The type stubs (qnsim.pyi, next to the built module) name everything the module has, and nothing else.
import ast
from pathlib import Path

import qnsim

STUB = Path(qnsim.__file__).with_name("qnsim.pyi")
HELPER_ALIASES = {"PathLike", "ParameterValue", "ParameterInput"}  # the stub's own type aliases


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    return top - HELPER_ALIASES, members


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_is_next_to_the_module():
    assert STUB.exists()


def test_stub_names_match_the_module():
    top, members = stub_names()
    assert public(top) == public(dir(qnsim))
    for cls, names in members.items():
        if cls == "Error":
            continue
        assert public(names) == public(dir(getattr(qnsim, cls))), cls


def test_everything_has_a_docstring():
    for name in public(dir(qnsim)):
        obj = getattr(qnsim, name)
        if callable(obj):
            assert obj.__doc__, name
