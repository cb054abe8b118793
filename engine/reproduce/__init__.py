"""Reproduce a page's view outside the app, from the pipeline's config alone (no Streamlit).

For a page described in ``VIEWS`` and the config of its current settings, ``build`` writes the
exact command line (``python -m engine.pipelines NAME --FIELD VALUE ... --json``), a short Python
snippet, a Jupyter notebook (``nbformat``) and a script: each runs the same pipeline with the same
seed, prints the same summary as the command line's ``--json`` and draws the page's figures with the
same ``engine.viz`` builders. Adding a page is one ``View`` entry.
"""

from engine.reproduce.build import command, notebook, script, snippet
from engine.reproduce.views import VIEWS, Figure, View

__all__ = ["VIEWS", "Figure", "View", "command", "notebook", "script", "snippet"]
