"""Scaling lab: why divide by sqrt(d_k), shown by seeded Monte Carlo experiments."""

from views import scaling
from views.shell import page

view = page.start("scaling")
lab = scaling.controls(view)  # d_k, keys, samples and temperature (a lab too large for the server is refused)
scaling.distribution_section(view, lab)  # raw and scaled scores at the chosen d_k, their spreads beside the theory's
scaling.derivation_section(view, lab)  # Var(q · k) = d_k, derived and measured
scaling.saturation_section(view, lab)  # softmax's entropy and largest weight over d_k
scaling.gradients_section(view, lab)  # the gradient reaching the keys softmax did not pick
scaling.textbook_section(view)  # the article's two scores with and without ÷ √64
scaling.bug_section(view, lab)  # ÷ 1, ÷ √d_k and ÷ √d_model on the same scores
scaling.temperature_section(view, lab)
scaling.training_section(view)  # the same argument by training, from "Watch it learn"
