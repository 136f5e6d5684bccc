"""Every page, declared once: its id, URL path, icon, the shared settings it uses and its own parameters.

The id names the page's file (``pages/<id>.py``), its texts (``assets/text/<lang>/<id>.toml``)
and its state. ``app.py`` builds the navigation from ``PAGES``; the tests, the benchmark and
the screenshots iterate it. A URL parameter names a value a teacher can read (``d_k=64``);
no two parameters of one page share a name (tests/test_shell_registry.py proves it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from attention_core import MODES, SCORES, SWEEP_D_K
from attention_core.corpus import DEFINITIONS as CORPUS_DEFINITIONS
from attention_core.corpus import SCORES as CORPUS_SCORES
from attention_core.fast import MODEL_SHAPES
from attention_core.positions import SHUFFLES
from attention_core.pretrained import MAX_WORD_PIECES, MiniLM
from attention_core.vision import PATCH_SIZES
from views.shell.params import (
    Choice,
    Choices,
    Flag,
    Float,
    Int,
    Param,
    Text,
    Token,
    Values,
    bitmask_code,
    flag_code,
    index_code,
    scaled_code,
)

ROOT = Path(__file__).resolve().parents[2]
MAX_TOKENS = 48  # tokens of a sentence shown: more make every matrix unreadable (texts say {max_tokens})
EXAMPLES = (
    "Thinking Machines",
    "The animal didn't cross the street because it was too tired",
    "the cat sat on the mat",
    "她正在吃一个绿色的苹果",
)
LONG_EXAMPLE = EXAMPLES[2]  # long enough that soft, hard and local differ and an RNN runs several steps
LONG_EXAMPLES = {"en": LONG_EXAMPLE, "zh": EXAMPLES[3]}  # a page that needs more tokens opens with this, in the language
LANGUAGES = ("en", "zh")


def is_local(values: Values) -> bool:
    return values.get("mode") in ("local", "local-monotonic")


# Settings shared by the pages (drawn in the sidebar where the page uses them).
SHARED: tuple[Param, ...] = (
    Text("text", EXAMPLES[0]),
    Int("d_model", 8, lo=2, hi=128),
    Int("d_k", 4, lo=1, hi=128),
    Int("heads", 1, lo=1, hi=8),
    Choice("score", "scaled_dot", options=SCORES),
    Choice("mode", "soft", options=MODES),
    Int("window", 2, lo=0, hi=16, when=is_local),
    Flag("pe", True),
    Int("seed", 0, lo=0, hi=99_999),
)
ALWAYS: tuple[Param, ...] = (Choice("lang", "en", options=LANGUAGES), Flag("present", False))
SENTENCE = ("text", "d_model", "d_k", "pe", "seed")  # what a one-head, scaled-dot page computes from
EVERYTHING = tuple(p.name for p in SHARED)
# Old links wrote every one of these on every page; today's links never hold all of them on a page whose
# own parameters were once codes, so their presence marks a link whose codes must be translated.
OLD_LINK_NAMES = ("text", "d_model", "d_k", "heads", "score", "mode", "window", "pe", "seed", "lang", "present")


@dataclass(frozen=True)
class Fixed:
    """A quantity the page sets itself: shown in the sidebar with its value and why (text ``<page>.fixed.<name>``,
    which may hold ``{value}``)."""

    name: str
    value: object  # shown in the text; None when the text says it all


@dataclass(frozen=True)
class Page:
    """One page. ``shared`` names the shared settings it uses (or gives them from its values); ``fixed``
    the quantities it sets itself, by the same rule; ``draws`` those of its shared settings it shows in its body."""

    id: str
    path: str
    icon: str
    shared: tuple[str, ...] | Callable[[Values], tuple[str, ...]] = ()
    params: tuple[Param, ...] = ()
    draws: tuple[str, ...] | Callable[[Values], tuple[str, ...]] = ()  # shared settings this page draws itself (in its body)
    browser: tuple[str, ...] = ()  # its own values the browser keeps and writes to the link (the step component), not the server
    min_tokens: int = 0  # a shorter sentence hides what the page shows: the page offers LONG_EXAMPLE
    opens_with_heads: int = 0  # one head hides what the page shows: it opens with this many while heads is untouched
    fixed: tuple[Fixed, ...] | Callable[[Values], tuple[Fixed, ...]] = ()
    default: bool = False

    @property
    def file(self) -> str:
        return f"pages/{self.id}.py"

    @property
    def file_path(self) -> Path:
        return ROOT / self.file

    @property
    def section(self) -> str:
        """Its section of the menu: the article's pages, then beyond it, a real model, the class."""
        return next((name for name, ids in MENU.items() if self.id in ids), "learn")

    def shared_names(self, values: Values) -> tuple[str, ...]:
        names = self.shared(values) if callable(self.shared) else self.shared
        return tuple(p.name for p in SHARED if p.name in names and p.when(values))

    def drawn(self, values: Values) -> tuple[str, ...]:
        """The shared settings the page draws in its body (the sidebar leaves them out)."""
        return self.draws(values) if callable(self.draws) else self.draws

    def fixed_quantities(self, values: Values) -> tuple[Fixed, ...]:
        return self.fixed(values) if callable(self.fixed) else self.fixed

    def own_params(self, values: Values) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.when(values))

    def param(self, name: str) -> Param | None:
        """The page's own parameter ``name`` (None when it has none of that name)."""
        return next((p for p in self.params if p.name == name), None)


def join_code(given: str) -> str:
    """A join code as typed or linked, in the stored form (upper case; spaces and dashes dropped)."""
    return "".join(c for c in given if c not in " -_.\t").upper()


def walk_shared(values: Values) -> tuple[str, ...]:
    return {"random": EVERYTHING, "pretrained": ("text",)}.get(values.get("walk"), ())


def walk_fixed(values: Values) -> tuple[Fixed, ...]:
    if values.get("walk") == "textbook":
        return (Fixed("sentence", "Thinking Machines"), Fixed("d_k", 64), Fixed("textbook_scores", "112, 96"))
    if values.get("walk") == "pretrained":
        return (Fixed("model", "all-MiniLM-L6-v2"), Fixed("d_model", MiniLM.d_model), Fixed("model_d_k", MiniLM.d_k),
                Fixed("heads", MiniLM.heads), Fixed("score", "scaled_dot"))
    return ()


def walk_draws(values: Values) -> tuple[str, ...]:
    """The walkthrough's sentence box sits at the top of the page on a screen; on a projector, in the sidebar."""
    return () if values.get("present") else ("text",)


def pretrained(values: Values) -> bool:
    return values.get("walk") == "pretrained"


def comparing(values: Values) -> bool:
    """Walk B beside walk A: a sentence walked through (random weights or a real model's, not the article's fixed
    example) compared with another setting (a link without one is a link of one walk, as before compare mode)."""
    return values.get("walk") != "textbook" and bool(values.get("compare"))


def several_heads(values: Values) -> bool:
    return pretrained(values) or (values.get("walk") == "random" and values.get("heads", 1) > 1)


TAUS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
TEMPERATURES = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
TYPE_SECTIONS = ("scores", "modes", "masks")
LAB_KEYS = (2, 4, 8, 16, 32, 64, 128, 256, 512)
LAB_SAMPLES = (500, 1000, 2000, 5000, 10000, 20000, 50000)
LAB_TEMPERATURES = (0.25, 0.5, 1.0, 2.0, 4.0)
RNN_D = (64, 128, 256, 512)
CROSS_PAIRS = ("translation", "reading")


def section(name: str) -> Callable[[Values], bool]:
    return lambda values: values.get("section") == name


LEARN_SECTIONS = ("watch", "decode", "train", "scaling")
LEARN_TASKS = ("copy", "reverse", "sort", "induction", "text")
LEARN_TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 5.0)
TRAIN_HEADS = (1, 2, 4)
TRAIN_D_K = (4, 8, 16, 32, 64)
TRAIN_LR = (0.001, 0.003, 0.01, 0.03, 0.1)
TRAIN_STEPS = (100, 200, 500, 1000, 1500, 2000)
LAST_STEP = 100_000  # "step" beyond a run's end shows its last snapshot


POSITION_SECTIONS = ("positions", "sharing", "fast", "latent", "sparse", "traffic")
VISION_SECTIONS = ("sentence", "steps", "looks", "glimpse", "draw")
VISION_STEPS = tuple(range(0, 601, 20))  # the shipped runs' watched training steps (a link says the step itself)
REAL_SECTIONS = ("heads", "layer", "moved", "sinks", "importance", "random", "scaling", "corpus")
CORPORA = ("built_in", "pasted")  # the real page's corpus: the shipped one, or the sentences pasted in this session
LAYER_STAGES = 5  # the input, attention's addition, + residual and LayerNorm, the feed-forward part's addition, the output


def sections(*names: str) -> Callable[[Values], bool]:
    return lambda values: values.get("section") in names
KV_HEADS = (1, 2, 4, 8)
CACHE_MODELS = tuple(MODEL_SHAPES)  # "llama-2-7b", "llama-2-70b", "mistral-7b", "gpt-2"
CACHE_TOKENS = (1024, 4096, 8192, 32768, 131072)


def positions_shared(values: Values) -> tuple[str, ...]:
    return {"fast": ("seed",), "traffic": ()}.get(values.get("section"), ("text", "d_model", "d_k", "seed"))


LATENT_HEADS = 2  # the latent attention's heads on the typed sentence (enough to see k_R shared by every head)
TRAFFIC_TOKENS = tuple(2**p for p in range(9, 18))  # N = 512 ... 131,072
TRAFFIC_HEAD_DIMS = (64, 128, 256)
SRAM_KIB = (48, 64, 100, 164, 228)  # FlashAttention's M: 100 KB in the paper; A100 up to 164 KB of shared memory per SM, H100 228
BLOCKS_C = (0, 16, 32, 64, 128, 256, 512)  # 0: the paper's rule, B_c = ceil(M / 4d)
BLOCKS_R = (0, 16, 32, 64, 128)  # 0: the paper's rule, B_r = min(ceil(M / 4d), d)
TRAFFIC_GPUS = ("a100", "h100", "h200", "b200")
FLASH_VERSIONS = ("fa2", "fa1")  # FlashAttention-2 (arXiv 2307.08691), as libraries run it today; the first paper's Algorithm 1


def positions_fixed(values: Values) -> tuple[Fixed, ...]:
    """What each section of "Positions and scale" sets itself (the sidebar shows it with its value)."""
    return {"latent": (Fixed("latent_fixed", LATENT_HEADS),), "sparse": (Fixed("score", "scaled_dot"), Fixed("sparse_fixed", None)),
            "traffic": (Fixed("traffic_fixed", None),)}.get(values.get("section"), (Fixed("score", "scaled_dot"), Fixed("positions_fixed", None)))


def learn_shared(values: Values) -> tuple[str, ...]:
    return ("seed",) if values.get("section") in ("decode", "train") else ()


def learn_fixed(values: Values) -> tuple[Fixed, ...]:
    if values.get("section") == "scaling":
        return (Fixed("experiment", None),)
    return (Fixed("model", None),)


def has_task(values: Values) -> bool:
    return values.get("section") != "scaling"


PAGES: tuple[Page, ...] = (
    Page("walkthrough", "walkthrough", ":material/footprint:", walk_shared, default=True, fixed=walk_fixed, draws=walk_draws,
         browser=("step", "head", "focus", "values", "all", "predict"), params=(
        Choice("walk", "random", options=("random", "textbook", "pretrained"),
               legacy={"example": flag_code("textbook"), "weights": flag_code("pretrained")}),
        Int("step", 1, lo=1, hi=7),
        Int("head", 1, lo=1, hi=MiniLM.heads, when=several_heads),  # the real model's heads (a random walk has at most 8)
        Int("layer", 1, lo=1, hi=MiniLM.layers_count, when=pretrained),
        Flag("values", True),
        Flag("all", False),
        Int("focus", 1, lo=1, hi=MAX_WORD_PIECES),
        Flag("predict", False),
        # Compare mode: what walk B changes from A, readably ("score:dot", "d_k:64,heads:4"): views/widgets/compare.read_spec
        # reads it, and says what it cannot use (a link without it, or with nothing usable, is a link of one walk)
        Token("compare", "", most=160, when=comparing),
    )),
    Page("why_qkv", "why-qkv", ":material/key:", SENTENCE, min_tokens=4,
         fixed=(Fixed("heads", 1), Fixed("score", "scaled_dot"), Fixed("mode", "soft"))),
    Page("types", "types", ":material/tune:", SENTENCE, min_tokens=5, fixed=(Fixed("heads", 1), Fixed("score_mode", None)), params=(
        Choice("section", "scores", options=TYPE_SECTIONS, legacy={"section": index_code(TYPE_SECTIONS)}),
        Choices("scores", ("dot", "scaled_dot", "cosine"), options=SCORES, when=section("scores"),
                legacy={"scores": bitmask_code(SCORES)}),
        Choice("tau", 1.0, options=TAUS, when=section("modes"), legacy={"tau": index_code(TAUS)}),
        Int("window", 1, lo=0, hi=8, when=section("modes")),
        Flag("causal", True, when=section("masks")),
        Choice("temperature", 1.0, options=TEMPERATURES, when=section("masks"), legacy={"temp": index_code(TEMPERATURES)}),
    )),
    Page("cosine", "cosine", ":material/architecture:", SENTENCE, min_tokens=4,
         fixed=(Fixed("heads", 1), Fixed("score", "cosine"), Fixed("mode", "soft")), params=(
        Int("angle_a", 20, lo=-180, hi=180),
        Float("length_a", 2.0, lo=0.1, hi=5.0, step=0.1, legacy={"length_a": scaled_code(0.1)}),
        Int("angle_b", 75, lo=-180, hi=180),
        Float("length_b", 3.0, lo=0.1, hi=5.0, step=0.1, legacy={"length_b": scaled_code(0.1)}),
        Int("query", 1, lo=1, hi=MAX_TOKENS),
    )),
    Page("scaling", "scaling-lab", ":material/science:", ("seed",), fixed=(Fixed("lab_d_k", "1 … 4096"), Fixed("lab_vectors", "N(0, 1)")),
         params=(
        Choice("d_k", 64, options=SWEEP_D_K, legacy={"dk": index_code(SWEEP_D_K)}),
        Choice("n_keys", 64, options=LAB_KEYS, legacy={"keys": index_code(LAB_KEYS)}),
        Choice("samples", 2000, options=LAB_SAMPLES, legacy={"samples": index_code(LAB_SAMPLES)}),
        Choice("temperature", 1.0, options=LAB_TEMPERATURES, legacy={"temp": index_code(LAB_TEMPERATURES)}),
    )),
    Page("multihead", "multi-head", ":material/view_column:", min_tokens=4, opens_with_heads=4,
         shared=lambda values: tuple(n for n in EVERYTHING if not (n == "d_k" and values.get("split"))), draws=("heads",),
         fixed=lambda values: (Fixed("d_k_split", None),) if values.get("split") else (), params=(
        Flag("split", True, legacy={"fixed": lambda code: code}),
    )),
    Page("cross", "self-vs-cross", ":material/translate:", ("d_model", "d_k", "score", "mode", "window", "pe", "seed"),
         fixed=(Fixed("heads", 1),), params=(
        Choice("pair", "translation", options=CROSS_PAIRS, labels="cross.pairs.{}", legacy={"pair": index_code(CROSS_PAIRS)}),
        Text("source", "cross.defaults.{pair}_source"),
        Text("target", "cross.defaults.{pair}_target"),
    )),
    Page("hierarchy", "hierarchical", ":material/account_tree:", ("d_model", "pe", "seed"), params=(
        Text("doc", "hierarchy.default"),
    )),
    Page("rnn", "rnn-vs-attention", ":material/timeline:", SENTENCE, min_tokens=5,
         fixed=(Fixed("heads", 1), Fixed("score", "scaled_dot"), Fixed("mode", "soft")), params=(
        Int("step", 1, lo=1, hi=MAX_TOKENS),
        Choice("d", 512, options=RNN_D, legacy={"d": index_code(RNN_D)}),
    )),
    Page("lesson", "lesson", ":material/school:", browser=("stop",), params=(
        Int("stop", 1, lo=1, hi=11, when=lambda values: bool(values.get("present"))),  # presenter mode: one stop at a time
    )),
    Page("live", "live", ":material/groups:", params=(
        Token("join", "", pattern="[A-HJ-NP-Z2-9]{6}", normal=join_code),
    )),
    Page("learn", "watch-it-learn", ":material/model_training:", learn_shared, fixed=learn_fixed, browser=("step",), params=(
        Choice("section", "watch", options=LEARN_SECTIONS),
        Choice("task", "induction", options=LEARN_TASKS, when=has_task),
        Int("step", LAST_STEP, lo=0, hi=LAST_STEP, when=section("watch")),
        Text("prompt", "learn.prompts.{task}", when=section("decode")),
        Int("layer", 2, lo=1, hi=2, when=section("decode")),
        Int("head", 1, lo=1, hi=4, when=section("decode")),
        Choice("temperature", 0.5, options=LEARN_TEMPERATURES, when=section("decode")),
        Int("top_k", 0, lo=0, hi=32, when=section("decode")),
        Int("generate", 6, lo=0, hi=24, when=section("decode")),
        Choice("heads", 2, options=TRAIN_HEADS, when=section("train")),
        Choice("d_k", 16, options=TRAIN_D_K, when=section("train")),
        Flag("scaled", True, when=section("train")),
        Choice("lr", 0.01, options=TRAIN_LR, when=section("train")),
        Choice("steps", 1500, options=TRAIN_STEPS, when=section("train")),  # induction forms by then (tests/test_page_learn.py)
    )),
    Page("positions", "positions-and-scale", ":material/pin_drop:", positions_shared, min_tokens=4, fixed=positions_fixed, params=(
        Choice("section", "positions", options=POSITION_SECTIONS),
        Choice("shuffle", "reverse", options=SHUFFLES, labels="positions.shuffles.{}", when=section("positions")),
        Flag("causal", False, when=section("positions")),
        Int("slope_heads", 8, lo=1, hi=16, when=section("positions")),
        Choice("kv_heads", 2, options=KV_HEADS, when=section("sharing")),
        Choice("model", "llama-2-70b", options=CACHE_MODELS, when=section("sharing")),
        Choice("tokens", 4096, options=CACHE_TOKENS, when=section("sharing")),
        Int("n", 12, lo=2, hi=48, when=section("fast")),
        Int("block", 4, lo=1, hi=48, when=section("fast")),
        Int("fold", 1, lo=1, hi=48, when=section("fast")),
        Int("window", 64, lo=1, hi=4096, when=section("fast")),
        Int("global_tokens", 4, lo=0, hi=64, when=section("fast")),
        Int("d_c", 4, lo=1, hi=16, when=section("latent")),
        Choice("d_rope", 2, options=(2, 4, 6, 8), when=section("latent")),
        Int("latent_head", 1, lo=1, hi=LATENT_HEADS, when=section("latent")),
        Choice("context", 131072, options=CACHE_TOKENS, when=section("latent")),
        Int("top_k", 2, lo=1, hi=MAX_TOKENS, when=section("sparse")),
        Choice("seq", 4096, options=TRAFFIC_TOKENS, when=section("traffic")),
        Choice("head_dim", 64, options=TRAFFIC_HEAD_DIMS, when=section("traffic")),
        Choice("sram", 100, options=SRAM_KIB, when=section("traffic")),
        Choice("block_c", 0, options=BLOCKS_C, when=section("traffic")),
        Choice("block_r", 0, options=BLOCKS_R, when=section("traffic")),
        Choice("gpu", "h100", options=TRAFFIC_GPUS, labels="positions.traffic.gpus.{}", when=section("traffic")),
        Choice("flash", "fa2", options=FLASH_VERSIONS, labels="positions.traffic.versions.{}", when=section("traffic")),
    )),
    Page("real", "real-model", ":material/psychology:", ("text",),
         fixed=(Fixed("model", "all-MiniLM-L6-v2"), Fixed("d_model", MiniLM.d_model), Fixed("d_k", MiniLM.d_k), Fixed("heads", MiniLM.heads),
                Fixed("layers", MiniLM.layers_count)),
         params=(
        Choice("section", "heads", options=REAL_SECTIONS),
        Int("layer", 1, lo=1, hi=MiniLM.layers_count, when=sections("heads", "layer", "moved", "random", "corpus")),
        Int("head", 1, lo=1, hi=MiniLM.heads, when=sections("heads", "moved", "random", "corpus")),
        Int("stage", 1, lo=1, hi=LAYER_STAGES, when=section("layer")),
        Flag("hide", False, when=sections("heads", "moved", "random")),
        Int("query", 2, lo=1, hi=MAX_WORD_PIECES, when=section("heads")),
        Flag("predict", False, when=section("heads")),
        Choice("corpus", "built_in", options=CORPORA, labels="corpus.sources.{}", when=section("corpus")),  # a pasted corpus stays in its session
        Choice("measure", "previous", options=CORPUS_SCORES, labels="corpus.scores.{}", when=section("corpus")),  # the heads coloured by it
        Choice("versus", "cls", options=CORPUS_SCORES, labels="corpus.scores.{}", when=section("corpus")),  # the scatter's second score
        Choice("definitions", "ours", options=CORPUS_DEFINITIONS, labels="corpus.definitions_names.{}", when=section("corpus")),  # or Clark's
    )),
    Page("vision", "vision", ":material/image:", browser=("step", "head"), params=(
        Choice("section", "sentence", options=VISION_SECTIONS),
        Choice("digit", 7, options=tuple(range(10))),
        Choice("patch", 2, options=PATCH_SIZES, when=sections("sentence", "steps", "glimpse")),
        Int("head", 1, lo=1, hi=2, when=section("steps")),
        Int("step", 1, lo=1, hi=5, when=section("steps")),
        Choice("training", VISION_STEPS[-1], options=VISION_STEPS, when=section("looks")),
        Int("query", 1, lo=1, hi=16, when=section("looks")),
        Flag("predict", False, when=section("looks")),
        Token("drawn", "", pattern="[0-9a-g]{64}", when=section("draw")),  # a digit drawn by hand (views/vision.drawn_code)
    )),  # after the real model: attention on images, where the article says it was born
)
BY_ID = {page.id: page for page in PAGES}
MENU_SECTIONS = ("learn", "explore", "models", "class")  # the menu's sections, in order (texts common.menu.<name>)
MENU = {"explore": ("learn", "positions", "vision"), "models": ("real",), "class": ("lesson", "live")}  # the rest: learn
SHARED_BY_NAME = {p.name: p for p in SHARED + ALWAYS}


def page(page_id: str) -> Page:
    return BY_ID[page_id]


def _edits(a: str, b: str) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions that turn ``a`` into ``b``."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row, last = [i], row
        for j, y in enumerate(b, 1):
            row.append(min(last[j] + 1, row[j - 1] + 1, last[j - 1] + (x != y)))
    return row[-1]


def views_of(page_: Page) -> tuple[str, ...]:
    """The page's sections (its ``section`` parameter's options), or () for a page of one view."""
    return next((tuple(p.options) for p in page_.params if p.name == "section"), ())


def _common_prefix(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def nearest_page(path: str) -> tuple[Page, str | None] | None:
    """The page an address that is not a page most likely meant, and the section it names, or None. The address is
    compared with every page's path, id and sections: first equal (``/real`` → real-model, ``/corpus`` → real-model's
    corpus), then one inside the other (``/positions`` inside positions-and-scale: the closest in length), then the
    longest shared start of 4 letters or more (``/walkthru``), then within a third of its letters' edits (``/mulit-head``)."""
    name = "-".join(part for part in str(path).lower().replace("_", "-").split("/") if part)[:100]
    if len(name) < 3:
        return None
    names = [(candidate, page_) for page_ in PAGES for candidate in (page_.path, page_.id.replace("_", "-"))]
    same = [page_ for candidate, page_ in names if candidate == name]
    if same:
        return same[0], None
    section = next(((page_, s) for page_ in PAGES for s in views_of(page_) if s.replace("_", "-") == name), None)
    if section:
        return section
    inside = [(abs(len(candidate) - len(name)), page_) for candidate, page_ in names if name in candidate or candidate in name]
    if inside:
        return min(inside, key=lambda pair: pair[0])[1], None
    start = [(_common_prefix(name, candidate), page_) for candidate, page_ in names]
    best = max(start, key=lambda pair: pair[0])
    if best[0] >= 4:
        return best[1], None
    edits = [(_edits(name, candidate), page_) for candidate, page_ in names]
    best = min(edits, key=lambda pair: pair[0])
    return (best[1], None) if best[0] <= max(1, len(name) // 3) else None
