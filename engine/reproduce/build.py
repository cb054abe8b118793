"""The command line, snippet, notebook and script that reproduce a view (``engine.reproduce``)."""

from __future__ import annotations

import dataclasses
import shlex

from engine.reproduce.views import Figure, View


def _flag_value(value) -> str:
    """A config value as the command line spells it: tuples comma-separated, floats exactly (``repr``)."""
    if isinstance(value, tuple):
        return ",".join(_flag_value(item) for item in value)
    return repr(value) if isinstance(value, float) else str(value)


def command(view: View, config) -> str:
    """``python -m engine.pipelines PIPELINE --FIELD VALUE ... --json``, every field given explicitly but
    those the config's ``idle_fields`` name (none by default: e.g. the airports' region on SPD data), which
    change nothing in the run.

    A field left ``None`` (its default, e.g. an adaptive MCMC step) is left out: the command line
    cannot spell ``None`` and its default is that ``None``.
    """
    words = ["python", "-m", "engine.pipelines", view.pipeline]
    idle = getattr(config, "idle_fields", ())
    for field in dataclasses.fields(config):
        if field.name in idle:
            continue
        value, flag = getattr(config, field.name), "--" + field.name.replace("_", "-")
        if value is None:
            if field.default is not None:
                raise ValueError(f"{field.name} = None cannot be given on the command line; give a value")
            continue
        words += [flag if value else f"--no-{flag[2:]}"] if isinstance(value, bool) else [flag, _flag_value(value)]
    return shlex.join([*words, "--json"])


def _config_code(config) -> str:
    """``Config(field=value, ...)``, one field a line, every value as Python spells it (``repr``)."""
    fields = "".join(f"    {f.name}={getattr(config, f.name)!r},\n" for f in dataclasses.fields(config))
    return f"config = {type(config).__name__}(\n{fields})"


def snippet(view: View, config) -> str:
    """A short Python snippet: the config and ``run``, printing the summary the page's tables show."""
    module = type(config).__module__
    return (f"from {module} import {type(config).__name__}, run\n\n{_config_code(config)}\n"
            f"result = run(config)\nprint(result.summary())")


def _steps(view: View, config) -> list[tuple[str, str, Figure | None]]:
    """(markdown, code, figure) of each step; a figure step's code leaves its ``figure`` in ``fig``."""
    module, name = type(config).__module__, type(config).__name__
    imports = ["import json", "", f"from {module} import {name}, run",
               *sorted({line for f in view.figures for line in f.imports})]
    steps = [
        (f"## 1. The settings\nThe page's settings, key for key as in its \"Settings (JSON)\" download: the "
         f"pipeline's frozen config `{name}`, the seed included, so every draw is the page's.",
         "\n".join(imports) + "\n\n" + _config_code(config), None),
        (f"## 2. Run the pipeline\n{view.steps}", "result = run(config)", None),
        ("## 3. The numbers\nThe summary the page's tables are made of, as JSON; the command line "
         f"`{command(view, config)}` prints the same text.",
         "print(json.dumps(result.summary(), indent=2, ensure_ascii=False))", None),
    ]
    for number, figure in enumerate(view.figures, start=4):
        steps.append((f"## {number}. Figure: `{figure.name}`\n{figure.note}", f"fig = {figure.call}", figure))
    return [(f"{markdown}\n\nPaper: {view.paper}", code, figure) for markdown, code, figure in steps]


def _introduction(view: View, config) -> str:
    return (f"# {view.title}: the view, reproduced\nThis notebook runs what the page *{view.title}* of Manifold "
            f"Privacy Explorer showed, with the same settings and seed, through the same engine "
            f"(`engine.pipelines`) and figure builders (`engine.viz`). Run it from the repository's root folder "
            f"with the project's requirements installed.\n\nPaper: {view.paper}")


def notebook(view: View, config) -> str:
    """The view as a Jupyter notebook (nbformat 4, JSON text): one markdown cell per step, then its code."""
    import nbformat  # 0.5 s of imports (jsonschema), paid when a notebook is built, not by every page load
    from nbformat import v4

    # Cell ids name the step, so the same settings always give the same file.
    cells = [v4.new_markdown_cell(_introduction(view, config), id="introduction")]
    for number, (markdown, code, figure) in enumerate(_steps(view, config), start=1):
        if figure is not None:
            code += "\nfig.show()"
        cells += [v4.new_markdown_cell(markdown, id=f"step-{number}-note"),
                  v4.new_code_cell(code, id=f"step-{number}-code")]
    book = v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                 "language": "python"}})
    nbformat.validate(book)
    return nbformat.writes(book)


def script(view: View, config) -> str:
    """The view as a Python script: the notebook's steps, markdown as comments, each figure written
    to ``PAGE-BUILDER.html`` beside the working folder instead of shown."""
    parts = [f'"""{view.title}: the view, reproduced ({view.paper})\n\nRun from the repository\'s root folder: '
             f'python {view.page}.py\n"""']
    for markdown, code, figure in _steps(view, config):
        comment = "\n".join(f"# {line}".rstrip() for line in markdown.replace("## ", "").splitlines())
        if figure is not None:
            name = f"{view.page}-{figure.name}.html"
            code += f"\nfig.write_html({name!r})\nprint('wrote {name}')"
        parts.append(f"{comment}\n{code}")
    return "\n\n".join(parts) + "\n"
