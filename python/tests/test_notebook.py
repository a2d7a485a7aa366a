"""The example notebooks run from top to bottom on Debian's python3 kernel (python3-nbclient,
python3-ipykernel): every cell executes, every assertion in them holds, and the plots render."""

import os

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import SOURCE_DIR

NOTEBOOKS = sorted((SOURCE_DIR / "examples" / "notebooks").glob("*.ipynb"))


def test_there_is_a_notebook():
    assert NOTEBOOKS, f"no notebook under {SOURCE_DIR / 'examples' / 'notebooks'}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    notebook = nbformat.read(path, as_version=4)
    # The kernel inherits this environment: PYTHONPATH points at the build tree's package.
    assert "PYTHONPATH" in os.environ
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    images = [output for cell in notebook.cells if cell.cell_type == "code"
              for output in cell.get("outputs", []) if "image/png" in output.get("data", {})]
    assert len(images) == 3, "each plot cell draws its figure"
