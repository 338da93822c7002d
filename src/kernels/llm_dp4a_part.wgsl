// The first part of a kernel that uses dot4I8Packed: the WGSL language feature it requires (a
// directive, so it precedes every declaration of the composed module).
requires packed_4x8_integer_dot_product;
