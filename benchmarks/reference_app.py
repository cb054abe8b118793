"""The lower bound of the page benchmark: a bare Streamlit page with one small plotly chart.

``?chart=2d`` draws a 100-point line, ``?chart=3d`` three 3D markers (a WebGL scene). Whatever the
app's pages take beyond these is their own; these times are Streamlit, plotly.js and the browser.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.title("Reference page")
points = np.random.default_rng(0).normal(size=(100, 3))
if st.query_params.get("chart") == "3d":
    figure = go.Figure(go.Scatter3d(x=points[:3, 0], y=points[:3, 1], z=points[:3, 2], mode="markers"))
else:
    figure = go.Figure(go.Scatter(y=points[:, 0]))
st.plotly_chart(figure)
