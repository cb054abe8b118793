"""The applications of Han, Mishra, Jawanpuria & Gao (DP-RGD, Algorithm 1), one module each: the
data, objective, public clipping norm and step rule that the studies ``engine.experiments.dp_rgd_*``
and the Private optimization pipeline (``engine.pipelines.private_optimization``) share.
"""
