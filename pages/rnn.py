"""RNN vs attention: sequential steps against one parallel step, and their cost as the sentence grows."""

from views import rnn
from views.shell import page

view = page.start("rnn")
rnn.steps_section(view)  # what the RNN has read at each step, beside attention's one parallel step
d = rnn.table_section(view)  # Table 1 of the article as curves over n, for a width d chosen here
rnn.measured_section(view, d)  # both layers of width d timed on this server
