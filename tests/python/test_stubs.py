"""The type stubs describe the modules as built: every class, attribute and function they name
exists (so editors do not complete things that fail)."""
import ast
from pathlib import Path

import pytest

import libpvti
import pva

PYTHON = Path(__file__).resolve().parents[2] / "python"


def names_in(stub):
    tree = ast.parse(stub.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            yield node.name, None
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    yield node.name, item.target.id
                elif isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    yield node.name, item.name
                elif isinstance(item, ast.ClassDef):
                    yield node.name, item.name
        elif isinstance(node, ast.FunctionDef):
            yield None, node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield None, node.target.id


@pytest.mark.parametrize("module,stub", [(pva, "pva/__init__.pyi"), (libpvti, "libpvti/__init__.pyi")])
def test_stub_names_exist(module, stub):
    missing = []
    for cls, attr in names_in(PYTHON / stub):
        if cls is None:
            if attr != "TileArray" and not hasattr(module, attr):
                missing.append(attr)
        elif not hasattr(module, cls):
            missing.append(cls)
        elif attr is not None and not hasattr(getattr(module, cls), attr):
            missing.append(f"{cls}.{attr}")
    assert not missing, f"in the stub but not the module: {missing}"


def test_docstrings():
    assert "openReport" in pva.__doc__
    assert pva.openReport.__doc__ and "profile.pop" in pva.openReport.__doc__
    assert pva.ProgramVisitor.__doc__
    assert libpvti.Tracepoint.__doc__ and libpvti.instrument_fn.__doc__
