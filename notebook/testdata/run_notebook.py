"""Run every cell of an exported notebook in a fresh Jupyter kernel, in the
notebook's directory (where its uploads are put), as Run All does.

Used by the tests of handlers and e2e: python3 run_notebook.py NOTEBOOK.
Exits 3 with the failing cell and its error when a cell raises.
"""
import os
import sys

import nbclient
import nbformat

path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                 resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
try:
    client.execute()
except nbclient.exceptions.CellExecutionError as e:
    print(str(e)[-3000:])
    sys.exit(3)
print("ran", sum(c.cell_type == "code" for c in nb.cells), "cells")
