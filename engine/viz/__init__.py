"""Pure figure builders: plotly figures and pyvista meshes, no Streamlit.

One concept per module, imported from the module itself so that a 2D chart never pays for
pyvista's import:

- ``palette``   one fixed Okabe–Ito colour and marker per mechanism, the shared plotly layout;
- ``sphere``    S^2 in 3D: surface, geodesic ball, data, mean, release clouds;
- ``spd_cone``  SPD(2) as the open cone ac > b² in 3D, non-positive-definite releases counted;
- ``tangent_view`` releases on S² seen from the true mean (Log coordinates), a fast 2D animation;
- ``poincare``  the Poincaré disk: geodesic circles, tree edges, release clouds;
- ``shapes``    Kendall planar shapes: mean outline and Procrustes-aligned private means;
- ``curves``    bands of mean ± 2 SE, bound curves, histograms against densities, MCMC traces;
- ``export``    offline HTML, PNG through kaleido, off-screen pyvista renderings.
"""
