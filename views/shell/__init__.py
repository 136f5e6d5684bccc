"""The frame every page shares: the page registry and its parameters, the link's state, the page's start and parts, the
sidebar, the theme, messages, the page's script, what the process sets once at its start, and the one module that
reaches into Streamlit's private parts.

The shell imports no page's views and none of the widgets: a page's views and the widgets import it.
"""
