#!/usr/bin/env bash
# ctest embed/install-and-build (test/embed/CMakeLists.txt):
#   install-and-build.sh BUILD SOURCE WORK GENERATOR CXX CCACHE HOST_FLAGS
set -euo pipefail
build=$1 src=$2 work=$3 generator=$4 cxx=$5 ccache=$6 flags=$7
# Nothing from the build tree or the environment may help the hosts.
unset TCC_KERNELS_LIBRARY TCC_CUDA_LIBRARY LD_LIBRARY_PATH
step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work/fresh"
prefix=$work/prefix

step "cmake --install into a fresh prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/tcc bin/tc-opt lib/libtcc_runtime.so lib/libtcc_kernels.a \
  lib/cmake/tcc/tccConfig.cmake lib/pkgconfig/tcc-runtime.pc \
  include/tcc/runtime/tcc_runtime.h include/tcc/runtime/train/TrainingLoop.h \
  include/tcc/compiler/tcc_compiler.h \
  include/tcc/dialects/tc/IR/TcOps.h.inc; do
  [ -e "$prefix/$f" ] || fail "the install has no $f"
done

step "configure and build examples/embed with find_package(tcc)"
launcher=()
[ -n "$ccache" ] && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$ccache")
cmake -G "$generator" -S "$src/examples/embed" -B "$work/hosts" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror $flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" > "$work/configure.log"
cmake --build "$work/hosts" > "$work/build.log" ||
  { cat "$work/build.log"; fail "the hosts do not build"; }

step "configure and build examples/train (the digits trainer) the same way"
cmake -G "$generator" -S "$src/examples/train" -B "$work/train" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror $flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" > "$work/configure-train.log"
cmake --build "$work/train" > "$work/build-train.log" ||
  { cat "$work/build-train.log"; fail "train_digits does not build"; }
[ -x "$work/train/train_digits" ] || fail "no train_digits"

step "the runtime-only host links the runtime and nothing of ours else"
needed=$(readelf -d "$work/hosts/run_artifact" | grep NEEDED)
echo "$needed"
echo "$needed" | grep -q 'libtcc_runtime.so' || fail "no libtcc_runtime.so"
if echo "$needed" | grep -E 'libtcc_cuda|libz|libMLIR|libLLVM'; then
  fail "run_artifact links more than the runtime"
fi

step "the installed tcc compiles an artifact; copied to a fresh directory"
"$prefix/bin/tcc" compile "$src/examples/mlp.tg" --emit=so \
  -o "$work/mlp-made.so"
cp "$work/mlp-made.so" "$work/fresh/mlp.so"
rm "$work/mlp-made.so"
dynamic=$(readelf -d "$work/fresh/mlp.so")
if echo "$dynamic" | grep -E 'RPATH|RUNPATH|libtcc'; then
  fail "the artifact names a path or a tcc library"
fi

step "run_artifact runs it from there; jit_graph compiles mlp.tg"
(cd "$work/fresh" && "$work/hosts/run_artifact" mlp.so) > "$work/aot.txt"
"$work/hosts/jit_graph" "$src/examples/mlp.tg" > "$work/jit.txt"
cat "$work/aot.txt"
[ "$(grep -c '^image [01]:' "$work/aot.txt")" = 2 ] || fail "no predictions"
# Each row is a softmax: ten probabilities that sum to 1.
awk '{ s = 0; for (i = 3; i <= NF; ++i) s += $i;
       if (NF != 12 || s < 0.99 || s > 1.01) exit 1 }' "$work/aot.txt" ||
  fail "the probabilities do not sum to 1"
diff "$work/aot.txt" "$work/jit.txt" || fail "the JIT and the artifact differ"
# CUDA support is opened only by CUDA programs.
(cd "$work/fresh" && LD_DEBUG=files "$work/hosts/run_artifact" mlp.so) \
  > /dev/null 2> "$work/ld-debug.txt"
if grep 'file=.*libtcc_cuda' "$work/ld-debug.txt"; then
  fail "a CPU artifact loaded libtcc_cuda.so"
fi

step "train_loop trains with the installed runtime/train and keeps its work"
mkdir -p "$work/trained"
"$work/hosts/train_loop" "$work/trained" > "$work/train-loop.txt"
cat "$work/train-loop.txt"
grep -q "^history: loss of 400 steps: f32(400,) -> $work/trained/loss.npy\$" \
  "$work/train-loop.txt" || fail "train_loop kept no history"
grep -q "^shared variables -> $work/trained/trained.npz\$" \
  "$work/train-loop.txt" || fail "train_loop saved no parameters"
grep -qx "a = 2.000" "$work/train-loop.txt" &&
  grep -qx "b = -1.000" "$work/train-loop.txt" || fail "train_loop did not fit"
[ -s "$work/trained/loss.npy" ] && [ -s "$work/trained/trained.npz" ] ||
  fail "train_loop wrote nothing"

step "an artifact of another manifest version is refused with a message"
sed 's/tcc-manifest 1/tcc-manifest 9/' "$work/fresh/mlp.so" \
  > "$work/fresh/future.so"
if (cd "$work/fresh" && "$work/hosts/run_artifact" future.so) \
  2> "$work/future.txt"; then
  fail "a manifest of version 9 was accepted"
fi
cat "$work/future.txt"
grep -q "unsupported manifest version 9 (this runtime reads version 1)" \
  "$work/future.txt" || fail "no clear message for another version"

step "a CUDA artifact: the runtime opens libtcc_cuda.so from the prefix"
"$prefix/bin/tcc" compile "$src/examples/seeds.tg" --target=nvptx \
  --emit=so -o "$work/fresh/gpu.so"
dynamic=$(readelf -d "$work/fresh/gpu.so")
echo "$dynamic" | grep -q 'NEEDED.*\[libtcc_cuda.so\]' ||
  fail "a CUDA artifact names libtcc_cuda.so"
if echo "$dynamic" | grep -E 'RPATH|RUNPATH'; then
  fail "the CUDA artifact names a path"
fi
if (cd "$work/fresh" && TCC_CUDA_LIBRARY=/nonexistent/libtcc_cuda.so \
  "$work/hosts/run_artifact" gpu.so) 2> "$work/nocuda.txt"; then
  fail "a CUDA artifact loaded without libtcc_cuda.so"
fi
cat "$work/nocuda.txt"
grep -q "cannot load 'gpu.so', compiled for CUDA: the CUDA support library" \
  "$work/nocuda.txt" || fail "no clear message without libtcc_cuda.so"
fake=$build/lib/libtcc_fake_cuda.so # the tests' driver on host memory
if [ -e "$fake" ]; then
  # Loaded, its variables placed on the (fake) device; it has no `predict`.
  (cd "$work/fresh" && TCC_CUDA_DRIVER=$fake \
    "$work/hosts/run_artifact" gpu.so) 2> "$work/gpu.txt" || true
  cat "$work/gpu.txt"
  grep -q "no function named 'predict' (loaded: accumulate, twice)" \
    "$work/gpu.txt" || fail "the CUDA artifact did not load"
fi

step "pkg-config: the runtime-only host built by hand"
if command -v pkg-config > /dev/null; then
  pc=$prefix/lib/pkgconfig/tcc-runtime.pc
  # shellcheck disable=SC2046 # the flags are words
  "$cxx" -std=c++17 $flags -o "$work/run_artifact_pc" \
    "$src/examples/embed/run_artifact.cpp" $(pkg-config --cflags "$pc") \
    $(pkg-config --libs "$pc") -Wl,-rpath,"$prefix/lib"
  (cd "$work/fresh" && "$work/run_artifact_pc" mlp.so) | diff "$work/aot.txt" -
else
  echo "no pkg-config: skipped"
fi
echo "PASS"
