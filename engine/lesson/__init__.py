"""The lesson's own numbers: what ε means to an observer (``odds``) and the "which data set?" game (``game``)."""
