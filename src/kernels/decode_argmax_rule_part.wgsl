// Which logit the decode step's argmax takes (a part before decode_argmax.wgsl and
// decode_head_argmax_store_part.wgsl): the largest, the lowest index among equal largest values
// (the CPU model's rule), NaN never; Best(_, kNone) is "none yet".
struct Best {
  value: f32,
  index: u32,
}

const kNone = 0xffffffffu;

// a beats b: a larger value, or an equal one at a lower index; "none" loses to anything.
fn beats(a: Best, b: Best) -> bool {
  if (a.index == kNone) {
    return false;
  }
  if (b.index == kNone) {
    return true;
  }
  return a.value > b.value || (a.value == b.value && a.index < b.index);
}

// `value` at `index` as a candidate: none where it is NaN.
fn candidate(value: f32, index: u32) -> Best {
  return Best(value, select(kNone, index, value == value));
}
