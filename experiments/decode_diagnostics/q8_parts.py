#!/usr/bin/env python3
"""Writes a diagnostic part of the committed q8 GEMV (src/kernels/llm_matmul_q4_tuned_gemv_q8.wgsl)
into DIR/llm_matmul_q4_tuned_gemv_q8.wgsl, for REFRACT_KERNEL_DIR:
    q8_parts.py PART DIR
Parts compute no product: they run on refract-diag with REFRACT_DIAG_UNVERIFIED=1 and give
diagnostic times, never rows (issue 16; docs/results/archive/NOTEBOOK.md, "Where the q8 GEMV's time goes").
  empty        its grid and bindings, each row's first invocation storing its index: no load, no
               math, no reduction
  reduce       empty + the row reduction over values made from the invocation index: no load
  load         empty + one 16-byte weight load a lane, each made to count: no reduction
  weights      the kernel with its activation loads replaced by constants
  activations  the kernel with its weight and scale loads replaced by constants
  no_scales    the kernel with its scale loads replaced by a constant of the block
  loads        the kernel with its nibble unpacking and dot4I8Packed replaced by one xor-and-add
               of the same words (its loads, row reduction and stores kept)
Exits 1 where the committed kernel no longer has the text a part changes, so that no step times
the unchanged kernel by mistake; 2 on an unknown part or a DIR that is the kernel's own folder."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]  # the repository
KERNEL = ROOT / "src/kernels/llm_matmul_q4_tuned_gemv_q8.wgsl"

# Keeps every binding statically used (a pipeline's automatic layout drops the others, and the
# op's bind group names all six) without a load on the path that runs.
NEVER = """  if (wid.x == 0xFFFFFFFFu) {  // never taken
    C[0] = f32(xq[0].x) + f32(B[0].x) + scales[0] + x_scale_sums[0].x + f32(params.M);
  }
"""

ENTRY = """@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let k = select(params.K, K_COLS, K_COLS != 0u);
  let n = select(params.N, N_ROWS, N_ROWS != 0u);
  let blocks = (k + 31u) / 32u;
  let row0 = first_row(wid, groups, lid);
""" + NEVER + """  var acc: array<f32, MAX_ROWS>;
{body}  if (lid % TPR == 0u) {
    for (var r = 0u; r < ROWS; r++) {
      if (row0 + r < n) {
        C[row0 + r] = acc[r];
      }
    }
  }
}
"""

# Entry points that replace the kernel's main (its own renamed main_full).
ENTRIES = {
    "empty": """  for (var r = 0u; r < ROWS; r++) {
    acc[r] = f32(row0 + r);
  }
""",
    "reduce": """  for (var r = 0u; r < ROWS; r++) {
    acc[r] = f32(lid + r);
  }
  reduce_rows(&acc, lid);
""",
    "load": """  for (var r = 0u; r < ROWS; r++) {
    let row = min(row0 + r, n - 1u);
    let w = B[row * blocks + min(lid % TPR, blocks - 1u)];
    acc[r] = f32(w.x ^ w.y ^ w.z ^ w.w);
    if (acc[r] == 12345.0) {  // makes every lane's load count without a reduction
      C[row] = acc[r];
    }
  }
""",
}

# Edits of the kernel's main: (text, replacement) pairs, each required.
TRIP_LOOP = "  for (var trip = 0u; trip < trips; trip++) {\n"
EDITS = {
    "weights": [("""          let ds = x_scale_sums[xb];
          let x0 = xq[2u * xb];
          let x1 = xq[2u * xb + 1u];""", """          let ds = vec2<f32>(1.0, f32(xb));
          let x0 = vec4<u32>(0x01010101u * (xb & 7u));
          let x1 = vec4<u32>(0x02020202u);"""), (TRIP_LOOP, NEVER + TRIP_LOOP)],
    "activations": [("""        w[r * K_BATCH + u] = B[row * blocks + kb];
        scale[r * K_BATCH + u] = scales[row * blocks + kb];""",
                     """        w[r * K_BATCH + u] = vec4<u32>(row * blocks + kb);
        scale[r * K_BATCH + u] = f32(kb);"""), (TRIP_LOOP, NEVER + TRIP_LOOP)],
    "no_scales": [("        scale[r * K_BATCH + u] = scales[row * blocks + kb];",
                   "        scale[r * K_BATCH + u] = f32(kb);"), (TRIP_LOOP, NEVER + TRIP_LOOP)],
    "loads": [("""        var nibbles: array<Nibbles, MAX_ROWS>;
        for (var r = 0u; r < ROWS; r++) {
          nibbles[r] = nibbles_of(w[r * K_BATCH + u]);
        }
""", ""), ("""            let dot_block = block_dot(nibbles[r], x0, x1) - 8i * i32(ds.y);
            acc[r * M_ROWS + m] =
                fma(scale[r * K_BATCH + u] * ds.x, f32(dot_block), acc[r * M_ROWS + m]);""",
               """            let word = w[r * K_BATCH + u];
            let mixed = (word.x ^ x0.x) + (word.y ^ x0.z) + (word.z ^ x1.x) + (word.w ^ x1.z);
            acc[r * M_ROWS + m] += scale[r * K_BATCH + u] * ds.x + f32(mixed & 0xffu) + ds.y;""")],
}


def part_source(part: str, kernel: str) -> str:
    header = f"// DIAGNOSTIC part '{part}' of the q8 GEMV (q8_parts.py; unverified by design)\n"
    if part in ENTRIES:
        entry = "\nfn main("
        if kernel.count(entry) != 1:
            raise ValueError("the kernel has no single `fn main(` to rename")
        return header + kernel.replace(entry, "\nfn main_full(") + ENTRY.replace(
            "{body}", ENTRIES[part])
    for old, new in EDITS[part]:
        if kernel.count(old) != 1:
            raise ValueError(f"the kernel no longer has the text part '{part}' changes:\n{old}")
        kernel = kernel.replace(old, new)
    return header + kernel


def main() -> int:
    parts = sorted([*ENTRIES, *EDITS])
    if len(sys.argv) != 3 or sys.argv[1] not in parts:
        print(f"usage: q8_parts.py {{{','.join(parts)}}} DIR", file=sys.stderr)
        return 2
    try:
        source = part_source(sys.argv[1], KERNEL.read_text())
    except ValueError as error:
        print(f"q8_parts.py: {error}", file=sys.stderr)
        return 1
    target = pathlib.Path(sys.argv[2]) / KERNEL.name
    if target.resolve() == KERNEL:
        print(f"q8_parts.py: {target} is the committed kernel itself", file=sys.stderr)
        return 2
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
