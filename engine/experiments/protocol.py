"""The study protocol: one frozen parameter dataclass, tasks with stable keys, one combine step.

A study module (see the package docstring for the full contract) declares

* ``Config``: a frozen dataclass of every setting, validated in ``__post_init__`` (``ValueError``
  naming the field and quoting the value), with ``reps`` and ``seed`` among its fields;
* ``tasks(config) -> list[Task]``: the grid cells and replicate blocks of the run, in a fixed order;
* ``TABLES``: the names of its tables, in the order ``combine`` returns them;
* ``combine(config, outputs) -> dict[str, DataFrame]``: the tidy tables from the tasks' outputs,
  given in the order of ``tasks(config)`` whatever the order in which they finished;
* ``figures(results) -> dict[str, plotly Figure]``;
* ``footprint(config) -> {what: bytes}``: a lower estimate of the run's largest allocations (its tables,
  its largest task's arrays), from the settings alone; ``check_footprint`` refuses a run whose total
  exceeds the machine's memory before anything is allocated.

Seeds: a run has one root ``numpy.random.SeedSequence(config.seed)``; task ``key`` draws from the
child ``SeedSequence(config.seed, spawn_key=digest(key))`` (``task_seed``). The child depends on the
key alone, never on how many tasks ran before it, on which worker, or in which order, so a result is
bit-identical under every scheduler. Replicate blocks are a parameter of the study (``block``), not
of the scheduler, for the same reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from engine.budget import physical_memory
from engine.validation import check_int

#: Bytes of one float64 (or one int64, or one pointer of an object column): the unit of ``footprint``.
WORD = 8

#: Stable task key: a tuple of strings, ints and floats, e.g. ``("spd", 40, 1000)`` for the replicate
#: block starting at 1000 of the cell (space = SPD, n = 40).
Key = tuple


@dataclass(frozen=True)
class Task:
    """One unit of work: ``fn(*args, rng=Generator)`` with ``rng`` seeded by ``key``.

    ``fn`` is a module-level function (shipped to workers by reference) and ``args`` are small values
    (settings, counts, floats): large arrays are built inside the task, never sent to it. ``cost`` is
    a relative estimate of its run time (e.g. n × replicates): workers take the costliest tasks first,
    so that no long task is left running alone at the end; it changes no result.
    """

    key: Key
    fn: Callable[..., Any]
    args: tuple = field(default=())
    cost: float = 1.0

    def __call__(self, seed) -> Any:
        """Run the task with the generator of ``task_seed(seed, self.key)``."""
        return self.fn(*self.args, rng=np.random.default_rng(task_seed(seed, self.key)))


def key_words(key: Key) -> tuple[int, ...]:
    """Four 32-bit words digesting ``repr(key)`` (BLAKE2b): stable across processes and runs,
    unlike ``hash``. Keys are tuples of str, int and float, whose ``repr`` is canonical."""
    digest = hashlib.blake2b(repr(tuple(key)).encode(), digest_size=16).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))


def task_seed(seed, key: Key) -> np.random.SeedSequence:
    """The child of the run's root ``SeedSequence(seed)`` spawned by the stable ``key``.

    ``seed`` is an int >= 0 or a sequence of them (the entropy of the root).
    """
    root = np.random.SeedSequence(seed)
    return np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + key_words(key))


def normalise_seed(seed) -> int | tuple[int, ...]:
    """``seed`` as an int >= 0 or a tuple of them (hashable, JSON-able); ``ValueError`` otherwise."""
    if isinstance(seed, (list, tuple, np.ndarray)):
        return tuple(check_int("seed", s, minimum=0) for s in seed)
    return check_int("seed", seed, minimum=0)


def replicate_blocks(reps: int, block: int) -> list[tuple[int, int]]:
    """Half-open ranges ``[(start, stop), ...]`` cutting ``reps`` replicates into blocks of ``block``."""
    return [(start, min(start + block, reps)) for start in range(0, reps, block)]


def make_config(config_type: type, settings: dict):
    """``config_type(**settings)``, refusing unknown names with a ``ValueError`` that lists the known ones.

    A setting whose default is a tuple must be given as a list (or tuple), or as a string where the
    study names things; any ``TypeError`` of the constructor becomes a ``ValueError`` naming the type.
    """
    fields = {f.name: f for f in dataclasses.fields(config_type)}
    unknown = sorted(set(settings) - set(fields))
    if unknown:
        raise ValueError(f"unknown setting {unknown[0]!r} for {config_type.__module__}; known: {', '.join(fields)}")
    for name, value in settings.items():
        if isinstance(fields[name].default, tuple) and not isinstance(value, (list, tuple, str)):
            example = list(fields[name].default[:2])
            raise ValueError(f"setting {name!r} must be a list such as {example}, got {value!r}")
        if isinstance(fields[name].default, tuple) and fields[name].default and not len(value):
            raise ValueError(f"setting {name!r} is empty; give at least one value, such as "
                             f"{list(fields[name].default[:2])}")
    try:
        return config_type(**settings)
    except TypeError as err:
        raise ValueError(f"settings of {config_type.__module__} are ill-typed ({err}); give each as its "
                         f"default's type") from None


def check_footprint(study, config) -> None:
    """``ValueError`` if ``study.footprint(config)`` adds up to more than ``physical_memory()``.

    The message gives the total, its largest term (which names the settings it grows with) and the
    machine's memory: the upper bound of every size setting is what fits in it.
    """
    terms = study.footprint(config)
    need, have = sum(terms.values()), physical_memory()
    if need > have:
        largest = max(terms, key=terms.get)
        gib = 2.0 ** 30
        raise ValueError(f"these settings of {study.__name__.rsplit('.', 1)[-1]} need at least {need / gib:.3g} GiB "
                         f"of memory, {terms[largest] / gib:.3g} GiB for {largest}, and this machine has "
                         f"{have / gib:.3g} GiB; lower the sizes named there")
