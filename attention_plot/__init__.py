"""The app's own figures for a notebook (``pip install ".[plot]"``): ``from attention_plot import plot``.

figures: the Plotly figure builders every page uses (heatmaps, lines, bars). plot: those figures for any
trace of ``attention_core``, e.g. ``plot.weights(trace)`` or ``plot.step(explanation, "softmax")``. text: the
student-facing texts (assets/text) in English and Chinese. Needs plotly; never imports streamlit.
"""
