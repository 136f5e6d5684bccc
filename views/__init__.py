"""The UI layer: Streamlit pages' building blocks. Every number they show comes from attention_core.

Importing it (or any of its modules) sets nothing: what the process sets once is ``views.shell.process.start``.
"""
