"""WordNet 3.0 noun hierarchies (e.g. the mammal subtree) from Debian's ``wordnet-base`` package.

The files ``index.noun`` and ``data.noun`` (Princeton WordNet database format, ``wndb(5WN)``) are
read directly; nothing is downloaded. The hierarchy below a synset follows its hyponym pointers
``~`` and instance-hyponym pointers ``~i``; for mammal.n.01 this gives the 1,182 nouns and 6,542
transitive-closure edges used by Nickel & Kiela (2017) and, as a taxonomy, by Han et al.'s
hyperbolic experiments. For a tree embedding each noun keeps its first hypernym inside the subtree.
WordNet 3.0 licence: Princeton University's WordNet licence (free use, with its copyright notice).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

WORDNET_DIR = Path("/usr/share/wordnet")
_HYPONYMS = {"~", "~i"}
_HYPERNYMS = {"@", "@i"}


@dataclass(frozen=True)
class Hierarchy:
    """A noun subtree: ``tree`` (networkx DiGraph parent -> child, nodes are synset offsets with a
    ``lemma`` attribute), ``root`` offset and the number of transitive-closure (ancestor) edges."""

    tree: nx.DiGraph
    root: str
    closure_edges: int


def wordnet_available(directory: Path = WORDNET_DIR) -> tuple[bool, str]:
    """``(True, path)`` when the WordNet noun database is installed, else ``(False, why not)``."""
    missing = [name for name in ("index.noun", "data.noun") if not (Path(directory) / name).is_file()]
    if missing:
        return False, (f"WordNet's {', '.join(missing)} not found in {directory}: install Debian's "
                       "wordnet-base package (apt-get install wordnet-base) to use the WordNet taxonomy")
    return True, str(directory)


def _synset_offset(directory: Path, name: str) -> str:
    """Offset of ``lemma.n.NN`` (sense NN of the noun lemma) from ``index.noun``."""
    parts = name.rsplit(".", 2)
    if len(parts) != 3 or parts[1] != "n" or not parts[2].isdigit() or int(parts[2]) < 1:
        raise ValueError(f"root must look like 'mammal.n.01' (a noun sense), got {name!r}")
    lemma, sense = parts[0].lower(), int(parts[2])
    with open(directory / "index.noun", encoding="latin-1") as index:
        for line in index:
            fields = line.split()
            if fields and fields[0] == lemma and not line.startswith(" "):
                synsets = int(fields[2])
                offsets = fields[-synsets:]
                if sense > synsets:
                    raise ValueError(f"{lemma!r} has {synsets} noun senses, so sense {sense} in {name!r} does not exist")
                return offsets[sense - 1]
    raise ValueError(f"no noun {lemma!r} in WordNet (root {name!r})")


def _read_synsets(directory: Path) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """offset -> (first lemma, [(pointer symbol, target offset) for noun pointers])."""
    synsets = {}
    with open(directory / "data.noun", encoding="latin-1") as data:
        for line in data:
            if line.startswith("  "):  # licence header
                continue
            fields = line.split(" | ", 1)[0].split()
            words = int(fields[3], 16)
            at = 4 + 2 * words
            pointers = []
            for k in range(int(fields[at])):
                symbol, target, pos = fields[at + 1 + 4 * k: at + 4 + 4 * k]
                if pos == "n":
                    pointers.append((symbol, target))
            synsets[fields[0]] = (fields[4], pointers)
    return synsets


def load_hierarchy(root: str = "mammal.n.01", *, directory: Path = WORDNET_DIR) -> Hierarchy:
    """The noun hierarchy below ``root`` as a tree; ``ValueError`` saying what to install if absent."""
    available, reason = wordnet_available(directory)
    if not available:
        raise ValueError(reason)
    directory = Path(directory)
    top = _synset_offset(directory, root)
    synsets = _read_synsets(directory)
    members, stack = {top}, [top]
    while stack:
        for symbol, target in synsets[stack.pop()][1]:
            if symbol in _HYPONYMS and target not in members:
                members.add(target)
                stack.append(target)
    import networkx as nx  # imported here: networkx takes ~0.3 s and only this loader needs it

    parents = {node: [t for s, t in synsets[node][1] if s in _HYPERNYMS and t in members] for node in members}
    tree = nx.DiGraph()
    tree.add_nodes_from((node, {"lemma": synsets[node][0]}) for node in members)
    tree.add_edges_from((parents[node][0], node) for node in members if node != top)
    ancestors: dict[str, set[str]] = {}

    def ancestors_of(node: str) -> set[str]:
        if node not in ancestors:
            ancestors[node] = set().union(*({p} | ancestors_of(p) for p in parents[node])) if parents[node] else set()
        return ancestors[node]

    closure = sum(len(ancestors_of(node)) for node in nx.topological_sort(tree))
    return Hierarchy(tree=tree, root=top, closure_edges=closure)
