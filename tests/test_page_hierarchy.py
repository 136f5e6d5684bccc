"""AppTest for Hierarchical attention: the levels, the limits and bad input."""

from conftest import all_text, figures, open_app, plotly_array

HAN = "hierarchy"


def test_hierarchical_page_levels_and_limits():
    at = open_app(HAN)
    html = at.get("html")[0].proto.body
    assert "han-word" in html and "mailman" in html
    bars = figures(at)[0]["data"][0]
    assert len(plotly_array(bars["x"])) == 4  # a bar per sentence, sent as a list or as a typed array
    at.text_area(key="hierarchy.doc").set_value(" ".join(f"Sentence {i} is here." for i in range(15))).run()
    assert "only the first 12 are used" in all_text(at)
    at.text_area(key="hierarchy.doc").set_value("<img src=x onerror=alert(1)>. 😀 ok!").run()
    assert "<img" not in at.get("html")[0].proto.body
    at.text_area(key="hierarchy.doc").set_value("   ").run()
    assert "Type a document" in all_text(at)
