"""A page's settings file: the pipeline's frozen config as JSON, plus the page it came from and a schema.

``{"page": "playground", "schema": 1, "space": "sphere", "radius": 0.3927, "mechanisms": ["exact",
"euclid"], "releases": 200, ...}``: the keys are the config's field names, so the page's "Settings
(JSON)" download, ``python -m engine.pipelines NAME --settings FILE`` and ``Config(**fields)`` in a
notebook say the same thing in the same words. ``read`` refuses a file that is missing, not JSON, of
another page or another schema, with an unknown key or an ill-typed value, in one ``ValueError``
line naming the key and the fix. A download from before the schema, which held the page's address
keys (``{"r": 0.3927, "m": 200}``), is read through the page's table (``engine.pipelines.address_keys``)
and said so in one line.

``load_json`` is the one reader of settings files for every command line (the pipelines' and the
studies'): a regular file (a FIFO or a device is refused before it is opened, so it never waits or
reads for ever) of at most ``MAX_BYTES``, UTF-8 (a byte-order mark accepted), JSON nested at most
``MAX_DEPTH`` deep and without a key given twice; anything else is one ``ValueError`` line.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import stat
from pathlib import Path
from typing import Callable

from engine.pipelines import address_keys

#: Version of the file's layout; a file of another schema is refused rather than half-understood.
SCHEMA = 1
#: Keys of the file that are not fields of the config.
HEADER = ("page", "schema")
#: Largest settings file read (a download is a few kB).
MAX_BYTES = 4 * 2**20
#: Deepest nesting of lists and objects in a settings file (a download nests two deep).
MAX_DEPTH = 32


def scalar_type(field: dataclasses.Field) -> type:
    """The type of one value of ``field``: that of its default, or the first of its annotation."""
    default = field.default
    if isinstance(default, tuple):
        default = default[0] if default else None
    if default is not None:
        return type(default)
    annotation = str(field.type).removeprefix("tuple[")
    return next((kind for kind in (int, float) if annotation.startswith(kind.__name__)), str)


def payload(page: str, config) -> dict:
    """The settings file of ``config`` shown on ``page``: header, then every field (tuples as lists)."""
    fields = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    return {"page": page, "schema": SCHEMA,
            **{name: list(value) if isinstance(value, tuple) else value for name, value in fields.items()}}


def _is(kind: type, value) -> bool:
    """Whether the JSON value ``value`` is a ``kind`` (an int is a float; a bool is neither)."""
    if kind is bool or isinstance(value, bool):
        return kind is bool and isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float))
    return isinstance(value, kind)


def _optional(field: dataclasses.Field) -> bool:
    """Whether ``field`` may be ``None`` (JSON null)."""
    return "None" in str(field.type)


def _well_typed(field: dataclasses.Field, value) -> bool:
    """Whether the JSON value ``value`` has the type of ``field`` (a list where its default is a tuple)."""
    kind = scalar_type(field)
    if value is None:
        return _optional(field)
    if isinstance(field.default, tuple):
        return isinstance(value, list) and all(_is(kind, item) for item in value)
    return _is(kind, value)


def fields_of(config_type: type, page: str, settings: dict, source: str,
              notify: Callable[[str], None] | None = None) -> dict:
    """The config fields of the JSON object ``settings`` read from ``source`` (a file name), typed as
    the config takes them (lists as tuples, ints as floats where the field is a float). Settings
    without a ``"schema"`` that hold the page's address keys are translated first, and ``notify``
    receives one line saying which keys were read so.

    ``ValueError`` naming the key and the fix for another page or schema, an unknown key or a value
    of the wrong JSON type; the values themselves are checked by the config.
    """
    if settings.get("page", page) != page:
        raise ValueError(f"{source} holds the settings of the {settings['page']!r} page, not of {page!r}; pass it "
                         f"to that page's pipeline (`python -m engine.pipelines --list`) or download this page's")
    if settings.get("schema", SCHEMA) != SCHEMA:
        raise ValueError(f"{source} has \"schema\": {settings['schema']!r}, this engine reads schema {SCHEMA}; "
                         f"download the settings again from this version of the page")
    translated = []
    if "schema" not in settings and page in address_keys.PAGES:
        settings, translated = address_keys.translate(page, settings)
    fields = {f.name: f for f in dataclasses.fields(config_type)}
    out = {}
    for name, value in settings.items():
        if name in HEADER:
            continue
        if name not in fields:
            close = difflib.get_close_matches(name, fields, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ValueError(f"{source}: unknown key {name!r}; {hint}the keys of {page!r} are {', '.join(fields)}")
        field, kind = fields[name], scalar_type(fields[name])
        many = isinstance(field.default, tuple)
        if not _well_typed(field, value):
            shape = f"a list of {kind.__name__}" if many else kind.__name__
            default = list(field.default) if many else field.default
            fix = (f"write it like the default, {json.dumps(default)}" if default is not None
                   else f"write a bare {shape} (no quotes) or null")
            raise ValueError(f"{source}: key {name!r} must be {shape}{' or null' if _optional(field) else ''}, "
                             f"got {json.dumps(value)}; {fix}")
        out[name] = tuple(kind(item) for item in value) if many else value if value is None else kind(value)
    if translated and notify is not None:
        notify(f"{source} is an older download with the {page!r} page's address keys; read "
               f"{', '.join(translated)} as the config's fields (download it again for a settings file)")
    return out


def load_json(path: Path, what: str = "settings file"):
    """The JSON value of the file ``path`` (``what`` names it in messages); ``ValueError`` in one line if it is
    missing, not a regular file, larger than ``MAX_BYTES``, not UTF-8, not JSON, nested deeper than
    ``MAX_DEPTH`` or gives a key twice."""
    name = f"{what} {str(path)!r}"
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{name} is not a regular file (a folder, FIFO or device); give a JSON file")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"{name} holds {info.st_size} bytes, more than a settings file's {MAX_BYTES}; give "
                             f"the page's \"Settings (JSON)\" download")
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ValueError(f"{name} does not exist; give the path of the page's \"Settings (JSON)\" download") from None
    except OSError as err:
        raise ValueError(f"cannot read the {name} ({err.strerror or err}); give a readable JSON file") from None
    if len(data) > MAX_BYTES:  # it grew since the check
        raise ValueError(f"{name} holds more than a settings file's {MAX_BYTES} bytes; give a settings file")
    try:
        value = json.loads(data.decode("utf-8-sig"), object_pairs_hook=_no_duplicates)
    except UnicodeDecodeError as err:
        raise ValueError(f"{name} is not UTF-8 text ({err}); save it as UTF-8 JSON") from None
    except RecursionError:
        raise ValueError(f"{name} nests deeper than {MAX_DEPTH} levels; give a flat object of settings") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{name} is not JSON ({err}); download it again from the page") from None
    except _DuplicateKey as err:
        raise ValueError(f"{name} gives the key {err.args[0]!r} twice; keep one") from None
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"{name} nests deeper than {MAX_DEPTH} levels; give a flat object of settings")
    return value


class _DuplicateKey(Exception):
    """A JSON object gave a key twice (its ``args[0]``)."""


def _no_duplicates(pairs: list) -> dict:
    """The object of ``pairs``; ``_DuplicateKey`` if a key comes twice (``json.loads`` would keep the last)."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _depth(value) -> int:
    """Nesting depth of lists and objects in the JSON value ``value`` (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def read(path: Path, config_type: type, page: str, notify: Callable[[str], None] | None = None) -> dict:
    """The config fields of the settings file ``path`` of ``page`` (see ``fields_of``, which tells
    ``notify`` of a translated old download); ``ValueError`` in one line if the file cannot be read by
    ``load_json`` or is not a JSON object."""
    settings = load_json(path)
    if not isinstance(settings, dict):
        raise ValueError(f"settings file {str(path)!r} holds a JSON {type(settings).__name__}, not an object of "
                         f"settings; download it again from the page")
    return fields_of(config_type, page, settings, repr(str(path)), notify)
