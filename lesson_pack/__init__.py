"""The Lesson in a pocket (issue 47): the Lesson page's nine steps as one static folder that opens from a file
with no server and no network.

``content`` reads every step through the Lesson's own definitions (``ui.lesson.steps.STEPS``: the same
builders, pipelines and seeds as the page, run in Streamlit's bare mode, no server), ``folder`` writes the
folder (``index.html``, the installed plotly package's ``plotly.min.js``, the page's own script and style from
``static/``, and the data) or a zip of it. ``python -m lesson_pack --out DIR`` builds it from the command line.
"""
