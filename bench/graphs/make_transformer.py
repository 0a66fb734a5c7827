#!/usr/bin/env python3
"""Writes an N-block version of transformer_block.tg's training step.

    python3 bench/graphs/make_transformer.py 12 > /tmp/transformer12.tg
    tcc run /tmp/transformer12.tg --function=train_step --no-cache ...

Issue 22 asks that a 12-block model compile in at most 12 times the one-block
time. Each block has its own LayerNorms, attention and MLP parameters (12 per
block) and Adam moments; embeddings, the final LayerNorm and the output
projection are shared, as in transformer_block.tg, which this script gives
back (up to the names of its parameters) for N = 1.
"""

import sys

D, H, V, HID = 64, 4, 64, 256

BLOCK_PARAMS = [
    ("g1", f"f32[{D}]", "ones"),
    ("c1", f"f32[{D}]", "zeros"),
    ("Wq", f"f32[{D}, {D}]", "normal"),
    ("Wk", f"f32[{D}, {D}]", "normal"),
    ("Wv", f"f32[{D}, {D}]", "normal"),
    ("Wo", f"f32[{D}, {D}]", "normal"),
    ("g2", f"f32[{D}]", "ones"),
    ("c2", f"f32[{D}]", "zeros"),
    ("W1", f"f32[{D}, {HID}]", "normal"),
    ("b1", f"f32[{HID}]", "zeros"),
    ("W2", f"f32[{HID}, {D}]", "normal"),
    ("b2", f"f32[{D}]", "zeros"),
]
TOP_PARAMS = [
    ("E", f"f32[{V}, {D}]", "normal"),
    ("P", f"f32[{V}, {D}]", "normal"),
    ("gf", f"f32[{D}]", "ones"),
    ("cf", f"f32[{D}]", "zeros"),
    ("Wout", f"f32[{D}, {V}]", "normal"),
]


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: make_transformer.py BLOCKS")
    blocks = int(sys.argv[1])
    params = list(TOP_PARAMS)
    for b in range(blocks):
        params += [(f"{n}_{b}", t, i) for n, t, i in BLOCK_PARAMS]

    out = [
        "tg 1",
        f"# A {blocks}-block transformer language model's training step,",
        "# written by bench/graphs/make_transformer.py (see transformer_block.tg).",
    ]
    seed = 1
    for name, type_, init in params:
        if init == "normal":
            out.append(f"shared {name} : {type_} = normal(seed={seed}, std=0.02)")
            seed += 1
        else:
            out.append(f"shared {name} : {type_} = {init}")
    for name, type_, _ in params:
        out.append(f"shared m_{name} : {type_} = zeros")
        out.append(f"shared v_{name} : {type_} = zeros")
    out.append("shared step : f32[] = zeros")
    out += [
        "",
        "func layer_norm(x : f32[B, T, D], g : f32[D], c : f32[D]) -> (y : f32[B, T, D]) {",
        "  mu = mean(x, axis=2, keepdims=true)",
        "  y = (x - mu) / sqrt(var(x, axis=2, keepdims=true) + 1e-5) * g + c",
        "}",
        "",
        f"func heads(x : f32[B, T, {D}]) -> (y : f32[B, {H}, T, {D // H}]) {{",
        f"  y = transpose(reshape(x, shape=[B, T, {H}, {D // H}]), perm=[0, 2, 1, 3])",
        "}",
        "",
        f"func logits(ids : i32[B, T]) -> (z : f32[B, T, {V}]) {{",
        "  x0 = take(E, ids) + take(P, arange(T))",
        "  mask = tril(ones([T, T], dtype=bool))",
    ]
    for b in range(blocks):
        x, y = f"x{b}", f"x{b + 1}"
        s = f"_{b}"
        out += [
            f"  h{s} = layer_norm({x}, g1{s}, c1{s})",
            f"  q{s} = heads(matmul(h{s}, Wq{s}))",
            f"  k{s} = heads(matmul(h{s}, Wk{s}))",
            f"  v{s} = heads(matmul(h{s}, Wv{s}))",
            f"  s{s} = matmul(q{s}, transpose(k{s}, perm=[0, 1, 3, 2])) / 4",
            f"  p{s} = softmax(select(mask, s{s}, full([T, T], -inf)), axis=3)",
            f"  a{s} = reshape(transpose(matmul(p{s}, v{s}), perm=[0, 2, 1, 3]), shape=[B, T, {D}])",
            f"  r{s} = {x} + matmul(a{s}, Wo{s})",
            f"  u{s} = matmul(layer_norm(r{s}, g2{s}, c2{s}), W1{s}) + b1{s}",
            f"  gelu{s} = 0.5 * u{s} * (1 + erf(u{s} * 0.7071067811865476))",
            f"  {y} = r{s} + matmul(gelu{s}, W2{s}) + b2{s}",
        ]
    out += [f"  z = matmul(layer_norm(x{blocks}, gf, cf), Wout)", "}", ""]

    names = [n for n, _, _ in params]
    grads = ", ".join(f"d_{n}" for n in names)
    out += [
        "func train_step(ids : i32[B, T], targets : i32[B, T]) -> (loss : f32[]) {",
        "  lp = log_softmax(logits(ids), axis=2)",
        "  loss = -mean(take_along_axis(lp, reshape(targets, shape=[B, T, 1]), axis=2))",
        f"  {grads} = grad(loss, [{', '.join(names)}])",
        "  t = step + 1",
        "  r = sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)",
        "  updates {",
        "    step = t",
    ]
    for n in names:
        d = f"d_{n}"
        out += [
            f"    m_{n} = 0.9 * m_{n} + 0.1 * {d}",
            f"    v_{n} = 0.999 * v_{n} + 0.001 * {d} * {d}",
            f"    {n} = {n} - 0.001 * r * (0.9 * m_{n} + 0.1 * {d}) / "
            f"(sqrt(0.999 * v_{n} + 0.001 * {d} * {d}) + 1e-8)",
        ]
    out += ["  }", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
