#!/usr/bin/env python3
"""Times the peers refract's kernels are compared with (docs/KERNELS.md, issue "refract kernels"),
with PyTorch on CUDA, on the machine refract just measured: CUDA events around back-to-back
launches, cold weights by rotating copies larger than the L2 where the row is memory-bound.
Writes one JSON object {name: {"us": median microseconds, ...}} to the path given as argv[1];
argv[2], if given, runs only the peers whose names contain it.
Each peer is timed on its own; one that fails records its error instead of a time."""
import json
import sys
import time

import torch

L2_SPAN = 512 << 20  # bytes the rotated copies span together (the H200's L2 is ~50 MB)


def median_us(launch, repeats=50, warmup=10):
    """Median time of one launch [us] over `repeats` timed launches (CUDA events)."""
    for _ in range(warmup):
        launch()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3)
    times.sort()
    return times[len(times) // 2]


def rotating(make, nbytes):
    """Enough copies made by `make` to span L2_SPAN, and a cycling index over them."""
    copies = [make() for _ in range(max(1, -(-L2_SPAN // nbytes)))]
    state = {"i": 0}

    def next_copy():
        state["i"] = (state["i"] + 1) % len(copies)
        return copies[state["i"]]

    return next_copy


def peer_matmul_4096():
    a = torch.randn(4096, 4096, device="cuda")
    b = torch.randn(4096, 4096, device="cuda")
    us = median_us(lambda: torch.mm(a, b), repeats=30)
    return {"us": us, "tflops": 2 * 4096**3 / (us * 1e-6) / 1e12}


def peer_matmul(m, k, n):
    a = torch.randn(m, k, device="cuda")
    b = rotating(lambda: torch.randn(k, n, device="cuda"), k * n * 4)
    us = median_us(lambda: torch.mm(a, b()))
    return {"us": us, "tflops": 2 * m * k * n / (us * 1e-6) / 1e12}


def peer_matmul_128x2048x512():
    a = torch.randn(128, 512, device="cuda")
    b = torch.randn(512, 2048, device="cuda")
    us = median_us(lambda: torch.mm(a, b))
    return {"us": us, "tflops": 2 * 128 * 2048 * 512 / (us * 1e-6) / 1e12}


def peer_gemv(dtype):
    n, k = 14336, 4096
    x = torch.randn(1, k, device="cuda", dtype=dtype)
    weight = rotating(lambda: torch.randn(n, k, device="cuda", dtype=dtype),
                      n * k * x.element_size())
    us = median_us(lambda: torch.mm(x, weight().t()), repeats=100)
    nbytes = n * k * x.element_size()
    return {"us": us, "tbps": nbytes / (us * 1e-6) / 1e12, "bytes": nbytes}


INT4_GROUP = 32  # tinygemm's group size: a bf16 (scale, zero) pair a group of 32 weights


def int4_weights(n, k):
    """tinygemm's weights for N x K: a function making one copy (packed codes, scales and zeros)
    and the bytes a copy holds."""
    codes = torch.randint(0, 16, (n, k), device="cuda", dtype=torch.int32)

    def make():
        try:  # the uint8 packing of newer PyTorch releases
            packed = torch._convert_weight_to_int4pack((codes[:, ::2] << 4 | codes[:, 1::2]).to(
                torch.uint8), 8)
        except Exception:  # noqa: BLE001 — older releases take int32 codes
            packed = torch._convert_weight_to_int4pack(codes, 8)
        scales = torch.rand(k // INT4_GROUP, n, 2, device="cuda", dtype=torch.bfloat16)
        return packed, scales

    return make, n * k // 2 + (k // INT4_GROUP) * n * 4


def peer_gemv_int4(n=14336, k=4096, m=1):
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    make, nbytes = int4_weights(n, k)
    weight = rotating(make, nbytes)
    def launch():
        packed, scales = weight()
        torch._weight_int4pack_mm(x, packed, INT4_GROUP, scales)
    us = median_us(launch, repeats=100)
    return {"us": us, "tbps": nbytes / (us * 1e-6) / 1e12, "bytes": nbytes}


def peer_sdpa_decode(cache):
    heads, dim = 14, 64
    q = torch.randn(1, heads, 1, dim, device="cuda")
    kv = rotating(lambda: (torch.randn(1, heads, cache, dim, device="cuda"),
                           torch.randn(1, heads, cache, dim, device="cuda")),
                  2 * heads * cache * dim * 4)
    def launch():
        k, v = kv()
        torch.nn.functional.scaled_dot_product_attention(q, k, v)
    return {"us": median_us(launch, repeats=100)}


def peer_rmsnorm():
    x = torch.randn(2048, 896, device="cuda")
    w = torch.randn(896, device="cuda")
    def launch():
        variance = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(variance + 1e-6) * w
    return {"us": median_us(launch)}


def peer_fill():
    x = torch.empty(1 << 28, device="cuda")  # 1 GiB of f32
    us = median_us(lambda: x.fill_(1.5), repeats=30)
    return {"us": us, "tbps": x.numel() * 4 / (us * 1e-6) / 1e12}


def peer_sum():
    x = torch.randn(1 << 28, device="cuda")  # 1 GiB of f32
    us = median_us(lambda: x.sum(), repeats=30)
    return {"us": us, "tbps": x.numel() * 4 / (us * 1e-6) / 1e12}


# Peers in CUDA graphs: a decode step's kernels run one after another, each waiting on the last,
# as refract's rows run their dispatches in one pass. One eager call timed by events measures
# PyTorch's launch path (~16 us a call) instead; a graph of back-to-back launches from one stream
# (each depends on the previous one) measures what the device takes a kernel in such a chain.
GRAPH_LAUNCHES = 1024  # launches a graph holds at most (the rotated copies cycle through them)


def graph_us_per_launch(launches, repeats=20):
    """Time [us] of one launch when the callables in `launches` run back to back in one CUDA
    graph (captured from one stream, so each launch waits on the one before): {"us": the median
    over `repeats` replays, "us_min", "us_max": their spread}."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture: kernels loaded, workspaces made
        for launch in launches[:3]:
            launch()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for launch in launches:
            launch()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / len(launches))
    times.sort()
    return {"us": times[len(times) // 2], "us_min": times[0], "us_max": times[-1]}


def copies_spanning(make, nbytes, cold):
    """Copies made by `make`: enough to span L2_SPAN when `cold` (at most GRAPH_LAUNCHES),
    else one."""
    count = min(GRAPH_LAUNCHES, max(1, -(-L2_SPAN // nbytes))) if cold else 1
    return [make() for _ in range(count)]


def graph_floor(elements):
    """A tiny elementwise kernel (x += 1 over `elements` floats) in a chain of launches."""
    x = torch.zeros(elements, device="cuda")
    timed = graph_us_per_launch([lambda: x.add_(1.0)] * GRAPH_LAUNCHES)
    torch.cuda.synchronize()
    expected = float(3 + GRAPH_LAUNCHES * (1 + 20))  # warm-up, first replay, the repeats
    if x[0].item() != expected:
        raise RuntimeError(f"floor kernel ran {x[0].item()} times, expected {expected}")
    return {**timed, "elements": elements}


def graph_gemv_int4(n, k, cold):
    """tinygemm int4 (groups of 32, bf16 x) at N x K in a chain of launches."""
    x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
    make, nbytes = int4_weights(n, k)
    copies = copies_spanning(make, nbytes, cold)
    launches = [(lambda c=copies[i % len(copies)]:
                 torch._weight_int4pack_mm(x, c[0], INT4_GROUP, c[1]))
                for i in range(GRAPH_LAUNCHES)]
    timed = graph_us_per_launch(launches)
    return {**timed, "tbps": nbytes / (timed["us"] * 1e-6) / 1e12, "bytes": nbytes,
            "copies": len(copies)}


def graph_sdpa_decode(cache, dtype, backend):
    """Decode attention of Qwen2.5-0.5B (14 query heads over 2 KV heads, head dim 64, one query,
    `cache` keys) by scaled_dot_product_attention with one backend, in a chain of launches, the
    KV cache cold. GQA folded the usual way: a KV head's 7 query heads as 7 query rows (decode
    attends to every key, so no mask), checked once against the heads expanded."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    kv_heads, group, dim = 2, 7, 64
    q = torch.randn(1, kv_heads, group, dim, device="cuda", dtype=dtype)
    element = torch.tensor([], dtype=dtype).element_size()
    nbytes = 2 * kv_heads * cache * dim * element
    copies = copies_spanning(lambda: (torch.randn(1, kv_heads, cache, dim, device="cuda",
                                                  dtype=dtype),
                                      torch.randn(1, kv_heads, cache, dim, device="cuda",
                                                  dtype=dtype)), nbytes, True)
    k, v = copies[0]
    heads = q.reshape(1, kv_heads * group, 1, dim)
    expanded = torch.nn.functional.scaled_dot_product_attention(
        heads.float(), k.float().repeat_interleave(group, 1),
        v.float().repeat_interleave(group, 1))
    with sdpa_kernel([getattr(SDPBackend, backend)]):
        folded = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        error = (folded.float().reshape(expanded.shape) - expanded).abs().max().item()
        if error > (1e-5 if dtype == torch.float32 else 2e-2):
            raise RuntimeError(f"folded GQA differs from the expanded heads by {error}")
        launches = [(lambda c=copies[i % len(copies)]:
                     torch.nn.functional.scaled_dot_product_attention(q, c[0], c[1]))
                    for i in range(GRAPH_LAUNCHES)]
        timed = graph_us_per_launch(launches)
    return {**timed, "bytes": nbytes, "copies": len(copies), "max_error_vs_expanded": error}


# The q4 decode shapes of Qwen2.5-0.5B (N × K) and the 14336 × 4096 reference, for tinygemm.
Q4_DECODE_SHAPES = {"q+o": (896, 896), "k+v": (128, 896), "gate+up": (4864, 896),
                    "down": (896, 4864), "lm-head": (151936, 896)}
# The 50-token prefill matmuls (M × K × N) of Qwen2.5-0.5B, for cuBLAS.
PREFILL_50_SHAPES = {"q+o": (50, 896, 896), "k+v": (50, 896, 128), "gate+up": (50, 896, 4864),
                     "down": (50, 4864, 896)}

PEERS = {
    "cublas_fp32_4096": peer_matmul_4096,
    "cublas_fp32_128x2048x512": peer_matmul_128x2048x512,
    "gemv_fp32_14336x4096_cold": lambda: peer_gemv(torch.float32),
    "gemv_fp16_14336x4096_cold": lambda: peer_gemv(torch.float16),
    "gemv_int4_tinygemm_g32_14336x4096_cold": peer_gemv_int4,
    "sdpa_fp32_decode_14h_s1024": lambda: peer_sdpa_decode(1024),
    "sdpa_fp32_decode_14h_s4096": lambda: peer_sdpa_decode(4096),
    "rmsnorm_eager_2048x896": peer_rmsnorm,
    "fill_1gib": peer_fill,
    "sum_1gib": peer_sum,
    "sdpa_fp32_decode_14h_s128": lambda: peer_sdpa_decode(128),
}
for _name, (_n, _k) in Q4_DECODE_SHAPES.items():
    PEERS[f"gemv_int4_tinygemm_g32_{_name}_cold"] = (lambda n=_n, k=_k: peer_gemv_int4(n, k))
for _name, (_m, _k, _n) in PREFILL_50_SHAPES.items():
    PEERS[f"cublas_fp32_m50_{_name}"] = (lambda m=_m, k=_k, n=_n: peer_matmul(m, k, n))
# refract's M = 8 rows of matmul-q4 (N × K; k+v fused as refract's row, 2 × 128 rows).
Q4_M8_SHAPES = {"q+o": (896, 896), "k+v": (256, 896), "gate+up": (4864, 896),
                "down": (896, 4864), "lm-head": (151936, 896), "ffn": (14336, 4096)}
for _name, (_n, _k) in Q4_M8_SHAPES.items():
    PEERS[f"gemv_int4_tinygemm_g32_m8_{_name}_cold"] = (
        lambda n=_n, k=_k: peer_gemv_int4(n, k, 8))

PEERS["graph_floor_1_float"] = lambda: graph_floor(1)
PEERS["graph_floor_32768_floats"] = lambda: graph_floor(32768)
for _name, (_n, _k) in {**Q4_DECODE_SHAPES, "ffn": (14336, 4096)}.items():
    for _cold in (True, False):
        PEERS[f"graph_gemv_int4_tinygemm_g32_{_name}_{'cold' if _cold else 'warm'}"] = (
            lambda n=_n, k=_k, cold=_cold: graph_gemv_int4(n, k, cold))
for _cache in (128, 1024, 4096):
    for _dtype, _backends in ((torch.float32, ("EFFICIENT_ATTENTION", "MATH")),
                              (torch.bfloat16, ("FLASH_ATTENTION", "EFFICIENT_ATTENTION",
                                                "CUDNN_ATTENTION"))):
        for _backend in _backends:
            PEERS[f"graph_sdpa_gqa_decode_{str(_dtype)[6:]}_{_backend.lower()}_s{_cache}"] = (
                lambda c=_cache, d=_dtype, b=_backend: graph_sdpa_decode(c, d, b))


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    results = {"torch": torch.__version__, "device": torch.cuda.get_device_name(),
               "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    only = sys.argv[2] if len(sys.argv) > 2 else ""  # a substring the peers' names must hold
    for name, peer in PEERS.items():
        if only not in name:
            continue
        try:
            results[name] = peer()
        except Exception as error:  # noqa: BLE001 — a failing peer is recorded, the rest go on
            results[name] = {"error": repr(error)}
        torch.cuda.empty_cache()
        print(name, results[name], flush=True)
    with open(sys.argv[1], "w") as out:
        json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
