"""Cosine similarity: its range [-1, 1], how length leaves it unchanged, and why softmax needs it divided."""

from views import cosine
from views.shell import page

view = page.start("cosine")
cosine.vectors_section(view)  # two arrows, their cosine and dot product, and b stretched
cosine.sentence_sections(view)  # the sidebar's sentence: softmax over cosines times 1 to 100, and every pair's cosine
