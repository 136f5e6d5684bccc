"""AppTest for Multi-head attention: the heads slider, d_model fixed or split, one head, the costs and the diversity."""

from conftest import SENTENCE, all_text, figure_titles, figures, open_app, tables, z_values

MH = "multihead"


def test_multi_head_heads_slider_and_fixed_d_model():
    at = open_app(MH, text=SENTENCE, d_model="16")
    assert "d_k" not in at.query_params and not [s for s in at.sidebar.slider if s.key == "shared.d_k"]  # d_k = d_model / heads
    assert len([s for s in at.slider if s.key == "shared.heads"]) == 1  # one heads control, on the page
    at.slider(key="shared.heads").set_value(4).run()
    assert at.slider(key="shared.heads").value == 4 and at.query_params["heads"] == "4"
    titles = figure_titles(at)
    assert sorted(t for t in titles if t.startswith("head ")) == ["head 1", "head 2", "head 3", "head 4"]
    concat = figures(at)[titles.index("Concat(Z₁ … Zₕ): each head's output side by side")]
    assert z_values(concat).shape == (6, 16) and len(concat["layout"]["shapes"]) == 3
    costs = next(t for caption, t in tables(at).items() if caption.startswith("Multiply-adds of 4 heads"))
    assert costs.iloc[-1, 1] == costs.iloc[-1, 2]  # same total as one head of size d_model
    diversity = z_values(figures(at)[titles.index("divergence between heads (bits)")])
    assert diversity.shape == (4, 4)
    at.toggle(key="multihead.split").set_value(False).run()
    at.slider(key="shared.heads").set_value(2).run()  # d_k = 4 from the sidebar, not 16 / 2
    assert "from the sidebar" in all_text(at) and at.query_params["split"] == "0" and at.query_params["d_k"] == "4"
    costs = next(t for caption, t in tables(at).items() if caption.startswith("Multiply-adds of 2 heads"))
    assert costs.iloc[-1, 1] != costs.iloc[-1, 2]


def test_multi_head_single_head_says_so():
    at = open_app(MH, heads="1")
    assert "nothing to compare" in all_text(at)
