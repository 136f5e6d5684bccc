"""Hierarchical (multi-level) attention: words pooled into sentences, sentences into a document."""

from views import hierarchy
from views.shell import page

view = page.start("hierarchy")
trace = hierarchy.document(view)  # the formula, the document box and its trace (the page stops while it is empty)
hierarchy.words_section(view, trace)  # level 1: each sentence's words shaded by their weight
hierarchy.sentences_section(view, trace)  # level 2: the sentences' weights, their vectors and the document's
