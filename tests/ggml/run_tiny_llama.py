#!/usr/bin/env python3
"""Greedy generation with llama-cpp-python on ggml's CANN backend (acl_sim) and on its CPU backend.

    python tests/ggml/run_tiny_llama.py MODEL.gguf [--tokens 16] [--prompt TEXT] [--backend cann|cann-fa|cpu]

Without --backend: runs the model three times, each in its own process, and compares with cpu:
  cpu      n_gpu_layers=0, offload_kqv off, op_offload off (ggml's CPU backend computes everything)
  cann     n_gpu_layers=-1, split_mode NONE, main_gpu 0 (every layer, the KV cache and the output on CANN0)
  cann-fa  the same with flash_attn=True (ggml-cann's FLASH_ATTN_EXT: aclnnFusedInferAttentionScoreV2)
Each run decodes the prompt, then samples --tokens tokens with llama.cpp's greedy sampler
(temp 0) and records the logits of every sampled position. Exit 0 when the token ids are equal.
Prints, per step, both tokens, the largest logit difference and the CPU's top-2 margin, and checks
from llama.cpp's log that the CANN run really offloaded all layers to CANN0 and the CPU run none.
Needs an installed llama-cpp-python built with -DGGML_CANN=on and the toolkit's set_env.sh sourced.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

PROMPT = "Once upon a time, the tiny model"


def run_backend(model: str, backend: str, n_tokens: int, prompt: str) -> dict:
    import numpy as np
    from llama_cpp import LLAMA_SPLIT_MODE_NONE, Llama

    kw = dict(n_gpu_layers=-1, split_mode=LLAMA_SPLIT_MODE_NONE, main_gpu=0) if backend.startswith("cann") else \
        dict(n_gpu_layers=0, offload_kqv=False, op_offload=False)
    llm = Llama(model_path=model, n_ctx=128, n_batch=64, n_threads=2, logits_all=True, seed=0,
                flash_attn=backend == "cann-fa", verbose=True, **kw)
    prompt_ids = llm.tokenize(prompt.encode(), add_bos=True)
    out: list[int] = []
    for tok in llm.generate(prompt_ids, temp=0.0, repeat_penalty=1.0):
        out.append(int(tok))
        if len(out) == n_tokens:
            break
    # scores[i] are the logits after position i: the sampled token k came from row len(prompt)-1+k
    rows = np.asarray(llm.scores[len(prompt_ids) - 1: len(prompt_ids) - 1 + n_tokens], dtype=np.float64)
    return {"backend": backend, "prompt_ids": list(map(int, prompt_ids)), "tokens": out,
            "text": llm.detokenize(out).decode("utf-8", "replace"), "logits": rows.tolist()}


def child(model: str, backend: str, n_tokens: int, prompt: str) -> tuple[dict, str]:
    cmd = [sys.executable, os.path.abspath(__file__), model, "--backend", backend,
           "--tokens", str(n_tokens), "--prompt", prompt]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        raise SystemExit(f"{backend} run failed with exit code {p.returncode}")
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def offloaded(log: str) -> tuple[int, int] | None:
    m = re.search(r"offloaded (\d+)/(\d+) layers to GPU", log)
    return (int(m.group(1)), int(m.group(2))) if m else None


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--prompt", default=PROMPT)
    ap.add_argument("--backend", choices=("cann", "cann-fa", "cpu"))
    ap.add_argument("--log-dir", help="write each run's llama.cpp log there")
    a = ap.parse_args(argv)
    if a.backend:
        print(json.dumps(run_backend(a.model, a.backend, a.tokens, a.prompt)))
        return 0

    import numpy as np

    cpu, cpu_log = child(a.model, "cpu", a.tokens, a.prompt)
    runs = {"cpu": (cpu, cpu_log)}
    for b in ("cann", "cann-fa"):
        runs[b] = child(a.model, b, a.tokens, a.prompt)
    if a.log_dir:
        os.makedirs(a.log_dir, exist_ok=True)
        for name, (_, log) in runs.items():
            with open(os.path.join(a.log_dir, f"llama-{name}.log"), "w") as f:
                f.write(log)
    ok = True
    off_cpu = offloaded(cpu_log)
    print(f"prompt ids: {cpu['prompt_ids']}")
    if not off_cpu or off_cpu[0] != 0:
        print(f"FAIL: the CPU run offloaded layers ({off_cpu})")
        ok = False
    lc = np.asarray(cpu["logits"])
    for b in ("cann", "cann-fa"):
        run, log = runs[b]
        off = offloaded(log)
        print(f"-- {b}: offloaded layers {off} (cpu {off_cpu})")
        if not off or off[0] != off[1] or "CANN0" not in log:
            print(f"FAIL: the {b} run did not offload every layer to CANN0")
            ok = False
        lg = np.asarray(run["logits"])
        print(f"{'step':>4} {'cpu':>5} {b:>7} {'max|dlogit|':>12} {'cpu top-2 gap':>14}")
        for i, (tc, tg) in enumerate(zip(cpu["tokens"], run["tokens"])):
            top2 = np.sort(lc[i])[-2:]
            print(f"{i:>4} {tc:>5} {tg:>7} {np.max(np.abs(lc[i] - lg[i])):>12.3g} {top2[1] - top2[0]:>14.3g}"
                  + ("" if tc == tg else "  <- differs"))
        print(f"cpu  text: {cpu['text']!r}")
        print(f"{b} text: {run['text']!r}")
        print(f"max |logit| {float(np.max(np.abs(lc))):.3g}, max |dlogit| {float(np.max(np.abs(lc - lg))):.3g}")
        if cpu["tokens"] != run["tokens"] or len(cpu["tokens"]) != a.tokens:
            print(f"FAIL: the token ids of {b} and cpu differ")
            ok = False
    print("tokens match" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
