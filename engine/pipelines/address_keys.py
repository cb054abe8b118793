"""The address keys of the pages (their URL parameters) and the config field each one sets.

A page keeps its short address keys (``?r=0.39&m=200``); its "Settings (JSON)" download is the
pipeline's config (``engine.pipelines.settings_file``). Downloads made before that, without a
``"schema"``, held the address keys themselves: ``translate`` turns such a file into config fields
through the page's table here, so an old download still runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class AddressKeys:
    """The address keys of one page.

    ``fields`` maps each key to the config field it sets; ``values`` turns a key's value into the field's
    where they differ (a toggle into a name); ``shown_only`` are keys that set no field of the run
    (which section is chosen, whether a slider is shown): an old download may hold them and they are skipped;
    ``application`` names the application (the settings' ``app``) a key's slider belongs to, if only one.
    """

    fields: dict[str, str]
    values: dict[str, Callable] = field(default_factory=dict)
    shown_only: tuple[str, ...] = ()
    application: dict[str, str] = field(default_factory=dict)


#: The applications of the Private optimization page (``engine.pipelines.private_optimization``).
_APPS = ("eigenvector", "frechet", "barycenter", "hyperbolic", "lrmc")
#: Its sliders kept per application, ``PREFIX_APP`` (``n_frechet``, ``eta_lrmc``), by the field they set.
_PER_APPLICATION = {f"{prefix}_{app}": name for prefix, name in (("n", "size"), ("T", "steps"), ("b", "batch"),
                                                                  ("eta", "eta")) for app in _APPS}


#: Each page's table, by the page name its settings file carries (``"page"``).
PAGES = {
    # ``adapt`` (on) is shown only: switched off, the address carries ``step``, which is the field.
    "playground": AddressKeys(
        fields={"space": "space", "k": "k", "source": "source", "state": "region", "n": "n", "r": "radius",
                "outside": "outside", "eps": "epsilon", "mech": "mechanisms", "delta": "delta", "burn": "burn_in",
                "thin": "thin", "step": "step", "m": "releases", "seed": "seed"},
        shown_only=("adapt",)),
    "regression": AddressKeys(
        fields={"reg_data": "dataset", "reg_n": "n", "reg_k": "k", "reg_eps_p": "epsilon_p", "reg_eps_v": "epsilon_v",
                "reg_tau": "tau", "reg_releases": "releases", "reg_paper_scale": "scale",
                "reg_clip": "clip_residuals", "reg_warmup": "warmup", "reg_seed": "seed"},
        values={"reg_paper_scale": lambda paper: "paper" if paper else "private"},
        shown_only=("reg_view",)),
    # ``Trule`` (on) leaves T to the paper's rule: switched off, the address carries ``T_APP``.
    "optimization": AddressKeys(
        fields={"app": "app", "data": "data", "taxonomy": "data", "height": "size", "eps": "epsilon",
                "delta": "delta", "noise": "noise", "reps": "reps", "seed": "seed", **_PER_APPLICATION},
        shown_only=("Trule", "grid", "burn", "opt_view"),
        application={key: key.split("_", 1)[1] for key in _PER_APPLICATION}),
}


def translate(page: str, settings: dict) -> tuple[dict, list[str]]:
    """The settings of an old download of ``page`` (address keys) as config fields, and the keys translated.

    A key that is already a field name (or no key of the page) is kept as it is, for the settings file's
    own check to accept or name; a key for another application's slider (``eta_lrmc`` in a download of
    the Fréchet mean) is dropped, as the page ignored it.
    """
    table = PAGES[page]
    app = settings.get("app")
    out, translated = {}, []
    for key, value in settings.items():
        if key in table.shown_only:
            translated.append(key)
            continue
        name = table.fields.get(key)
        if name is None or name == key:
            out[key] = value
            continue
        translated.append(key)
        if app is not None and table.application.get(key, app) != app:
            continue
        out[name] = table.values.get(key, lambda same: same)(value)
    return out, translated
