"""Presentation shared by the pages: text loading, settings/URL state, figures, step rendering."""
