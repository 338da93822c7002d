#!/usr/bin/env python3
"""Runs a model `refract decode --export DIR` wrote through Hugging Face transformers and compares
its logits and tokens with refract's GPU steps: an independent check of the network's conventions
(RoPE pairing, grouped-query heads, norms, biases, tied embeddings, Llama 3 RoPE scaling).

    python3 scripts/check_decode_hf.py DIR [--tolerance 1e-3] [--device cuda|cpu]

DIR holds config.json and model.safetensors (the dequantized f32 weights), history.safetensors
(each layer's KV history, [positions, kv_heads, head_dim], keys already rotated as a cache holds
them), steps.safetensors (tokens: each step's input then the last step's argmax; logits
[steps, vocab]) and decode.json. The history goes into a DynamicCache, the steps' tokens run as
one forward pass at positions history .. history + steps - 1, and each step's logits are compared:
max |hf - refract| over the largest |hf logit| must be within the tolerance and every step's
argmax must agree (or lie within the tolerance of the top). Prints one JSON line; exit 0 when it
passes, 1 when it does not, 2 when DIR cannot be read. Needs torch, transformers, safetensors.
"""
import argparse
import json
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--tolerance", type=float, default=1e-3,
                        help="max |difference| over the largest |logit| (default 1e-3)")
    parser.add_argument("--device", default=None, help="cuda or cpu (default: cuda if there)")
    args = parser.parse_args()
    try:
        import torch
        from safetensors.torch import load_file
        from transformers import AutoConfig, AutoModelForCausalLM, DynamicCache
    except ImportError as error:
        print(json.dumps({"check": "hf", "error": f"missing package: {error}"}))
        return 2
    try:
        with open(os.path.join(args.dir, "decode.json")) as f:
            manifest = json.load(f)
        steps = load_file(os.path.join(args.dir, "steps.safetensors"))
        history = load_file(os.path.join(args.dir, "history.safetensors"))
        config = AutoConfig.from_pretrained(args.dir)
    except (OSError, ValueError) as error:
        print(json.dumps({"check": "hf", "dir": args.dir, "error": str(error)}))
        return 2
    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    model = AutoModelForCausalLM.from_pretrained(args.dir, dtype=torch.float32,
                                                 attn_implementation="eager").to(device).eval()
    positions = int(manifest["history_positions"])
    tokens = steps["tokens"].to(torch.long)
    refract_logits = steps["logits"].to(torch.float64)
    count = refract_logits.shape[0]

    try:
        cache = DynamicCache(config=config)
    except TypeError:  # transformers before 4.56 takes no config
        cache = DynamicCache()
    if positions > 0:
        for layer in range(config.num_hidden_layers):
            # [positions, kv_heads, head_dim] -> [1, kv_heads, positions, head_dim]
            keys = history[f"layers.{layer}.keys"].permute(1, 0, 2).unsqueeze(0).to(device)
            values = history[f"layers.{layer}.values"].permute(1, 0, 2).unsqueeze(0).to(device)
            cache.update(keys, values, layer)
    if cache.get_seq_length() != positions:
        print(json.dumps({"check": "hf", "error": f"the cache holds {cache.get_seq_length()} "
                          f"positions, not {positions}"}))
        return 2
    inputs = tokens[:count].unsqueeze(0).to(device)
    position_ids = torch.arange(positions, positions + count, device=device).unsqueeze(0)
    attention_mask = torch.ones(1, positions + count, dtype=torch.long, device=device)
    with torch.no_grad():
        output = model(input_ids=inputs, position_ids=position_ids, past_key_values=cache,
                       attention_mask=attention_mask, use_cache=True)
    hf_logits = output.logits[0].to(torch.float64).cpu()

    scale = hf_logits.abs().max().item()
    deviation = (hf_logits - refract_logits).abs().max().item() / scale
    token_problems = []
    for step in range(count):
        refract_token = int(tokens[step + 1])
        hf_token = int(hf_logits[step].argmax())
        gap = (hf_logits[step, hf_token] - hf_logits[step, refract_token]).item()
        if refract_token != hf_token and gap > args.tolerance * scale:
            token_problems.append({"step": step, "refract": refract_token, "hf": hf_token,
                                   "gap": gap})
    passed = deviation <= args.tolerance and not token_problems
    print(json.dumps({"check": "hf", "model": manifest["model"], "family": manifest["family"],
                      "architecture": config.architectures[0], "history_positions": positions,
                      "steps": count, "device": device, "max_logit": scale,
                      "deviation": deviation, "tolerance": args.tolerance,
                      "tokens_agree": not token_problems, "token_problems": token_problems,
                      "passed": passed}))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
