# Shared by the case scripts (make-gpu-cases.sh, make-reduce-cases.sh,
# make-composite-cases.sh, tune-rows.sh, tune-gemm.sh, make-gemm-cases.sh,
# make-gemm-bench.sh, make-gemm-ab.sh, make-gemm-kscan.sh, make-gemm-variants.sh; sourced):
# the output folder OUTDIR (from $1, else $default_out under the repository), emptied of
# PTX, and the helpers that compile a program into it. Needs tt-opt and tt-translate
# (TT_BIN, default build/); TT_MMA=sync|wgmma picks tile.dot's tensor-core instructions
# (default: tt-translate's, wgmma for its default sm_90a); TT_FUSE gives --fuse options
# (TT_FUSE=hoist=0: weights' kernels run at every call, as before `once` launches) and
# TT_DECOMPOSE --decompose options (TT_DECOMPOSE=align-k=0: no operand padded along K).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${TT_BIN:-$root/build}
out=${1:-$root/${default_out:?caselib.sh: set default_out or pass OUTDIR}}
mkdir -p "$out"
rm -f "$out"/*.ptx
compile_ab() { # dirA optsA dirB optsB name size-tag mlir-text: one case into two folders
  # (an A/B: the same names in both), each with its own --tile options
  local keep=$out
  out=$1; compile "$5" "$6" "$7" "$2"
  out=$3; compile "$5" "$6" "$7" "$4"
  out=$keep
}
compile() { # name size-tag mlir-text [tile options] -> OUTDIR/name_size-tag.ptx (the
  # options' --tile runs before --splitk, which tiles dot groups with --tile's defaults)
  printf '%s\n' "$3" | "$bin/tt-opt" --decompose${TT_DECOMPOSE:+="$TT_DECOMPOSE"} \
    --fuse${TT_FUSE:+="$TT_FUSE"} ${4:+--tile="$4"} --splitk |
    "$bin/tt-translate" --ptx ${TT_MMA:+--mma=$TT_MMA} -o "$out/$1_$2.ptx"
}
reduce() { # name op dtype shape dims keepdim [attrs]: prim.<op> over dims (comma-separated)
  # of a shape (AxB...) tensor, keepdim true or false, more attributes (", correction = 0")
  # after keepdim -> OUTDIR/name_shape_dtype.ptx
  local name=$1 op=$2 t=$3 shape=$4 dims=$5 keep=$6 extra=${7:-}
  IFS=x read -r -a s <<< "$shape"
  IFS=, read -r -a d <<< "$dims"
  local res="" i j red
  for i in "${!s[@]}"; do
    red=0
    for j in "${d[@]}"; do [ "$j" = "$i" ] && red=1; done
    if [ $red = 0 ]; then res="$res${s[$i]}x"; elif [ "$keep" = true ]; then res="${res}1x"; fi
  done
  local rt="tensor<${res}$t>"
  compile "$name" "${shape}_$t" "func.func @main(%x: tensor<${shape}x$t>) -> $rt {
  %s = \"prim.$op\"(%x) {dims = array<i64: $dims>, keepdim = $keep$extra} : (tensor<${shape}x$t>) -> $rt
  return %s : $rt
}"
}
rotary_mlir() { # dtype B S H D: a rotary embedding step, two outputs (x1*cos - x2*sin,
  # x2*cos + x1*sin) from the halves of x [B, S, H, D] (slices) and cos/sin [S, D/2]
  # broadcast over batch and heads
  local t=$1 b=$2 s=$3 h=$4 d=$5 e=$(($5 / 2))
  local xt="tensor<${b}x${s}x${h}x${d}x$t>" ht="tensor<${b}x${s}x${h}x${e}x$t>"
  local ct="tensor<${s}x${e}x$t>" one="array<i64: 1, 1, 1, 1>"
  cat <<MLIR
func.func @main(%x: $xt, %cos: $ct, %sin: $ct) -> ($ht, $ht) {
  %x1 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, 0>, stop = array<i64: $b, $s, $h, $e>, step = $one} : ($xt) -> $ht
  %x2 = "prim.slice"(%x) {start = array<i64: 0, 0, 0, $e>, stop = array<i64: $b, $s, $h, $d>, step = $one} : ($xt) -> $ht
  %c = "prim.broadcast_in_dim"(%cos) {broadcast_dimensions = array<i64: 1, 3>} : ($ct) -> $ht
  %n = "prim.broadcast_in_dim"(%sin) {broadcast_dimensions = array<i64: 1, 3>} : ($ct) -> $ht
  %a = "prim.mul"(%x1, %c) : ($ht, $ht) -> $ht
  %q = "prim.mul"(%x2, %n) : ($ht, $ht) -> $ht
  %o1 = "prim.sub"(%a, %q) : ($ht, $ht) -> $ht
  %u = "prim.mul"(%x2, %c) : ($ht, $ht) -> $ht
  %v = "prim.mul"(%x1, %n) : ($ht, $ht) -> $ht
  %o2 = "prim.add"(%u, %v) : ($ht, $ht) -> $ht
  return %o1, %o2 : $ht, $ht
}
MLIR
}
rows() { # example M N: the row example (written at 8192x8192 bf16) at M x N
  sed -e "s/8192x8192/$2x$3/g" -e "s/tensor<8192xbf16>/tensor<$3xbf16>/g" "$root/examples/$1_bf16.mlir"
}
f32rows() { rows "$1" "$2" "$3" | sed 's/bf16/f32/g'; } # the same rows in f32
dynrows() { rows "$1" 1 "$2" | sed "s/tensor<1x$2x/tensor<?x$2x/g"; } # name N: M dynamic
tt_ptx() { # name mlir-text [passes after --decompose --fuse] -> OUTDIR/name.ptx
  # (env TT_LOWER: --convert-tile-to-gpu's options for sm_90a, e.g. masked-loads=2, and
  # TT_PIPELINE: --pipeline's, e.g. resident=1, run as tt-translate's --pass-pipeline
  # after its own pipeline and pdl steps)
  local name=$1 text=$2
  shift 2
  local lower=
  [ -n "${TT_LOWER:-}${TT_PIPELINE:-}" ] &&
    lower="pipeline{stage-in=auto ${TT_PIPELINE:-}},pdl,convert-tile-to-gpu{mma=wgmma sm=90 ${TT_LOWER:-}}"
  printf '%s\n' "$text" | "$bin/tt-opt" --decompose${TT_DECOMPOSE:+="$TT_DECOMPOSE"} \
    --fuse${TT_FUSE:+="$TT_FUSE"} "$@" |
    "$bin/tt-translate" --ptx ${TT_MMA:+--mma=$TT_MMA} ${lower:+--pass-pipeline="$lower"} -o "$out/$name.ptx"
}
linear() { # M N K dtype bias(0/1) [activation [its attributes]]: x [M,K] @ w[N,K]^T (+ b)
  # (then the activation, e.g. gelu '{approximate = "tanh"}'); w is
  # marked tt.invariant (a weight: --pdl lets its TMA loads start before the wait)
  local m=$1 n=$2 k=$3 t=$4 args="%x, %w" types="tensor<$1x$3x$4>, tensor<$2x$3x$4>"
  local sig="%x: tensor<$m x${k}x$t>, %w: tensor<${n}x${k}x$t> {tt.invariant}"
  sig=${sig// x/x}
  if [ "$5" = 1 ]; then args="$args, %b"; types="$types, tensor<${n}x$t>"; sig="$sig, %b: tensor<${n}x$t>"; fi
  local body="  %y = \"prim.linear\"($args) : ($types) -> tensor<${m}x${n}x$t>"
  local ret=%y
  if [ -n "${6:-}" ]; then
    body="$body
  %z = \"prim.$6\"(%y)${7:+ $7} : (tensor<${m}x${n}x$t>) -> tensor<${m}x${n}x$t>"
    ret=%z
  fi
  printf 'func.func @main(%s) -> tensor<%sx%sx%s> {\n%s\n  return %s : tensor<%sx%sx%s>\n}\n' \
    "$sig" "$m" "$n" "$t" "$body" "$ret" "$m" "$n" "$t"
}
scaled_linear() { # M N K xdtype wdtype outdtype bias(0/1): torch._scaled_mm(x, w^T, sx, sw), w
  # tt.invariant as in linear
  local m=$1 n=$2 k=$3 xt=$4 wt=$5 ot=$6
  local sig="%x: tensor<${m}x${k}x$xt>, %w: tensor<${n}x${k}x$wt> {tt.invariant}, %sx: tensor<f32>, %sw: tensor<f32>"
  local args="%x, %wt, %sx, %sw" types="tensor<${m}x${k}x$xt>, tensor<${k}x${n}x$wt>, tensor<f32>, tensor<f32>"
  if [ "$7" = 1 ]; then sig="$sig, %b: tensor<${n}x$ot>"; args="$args, %b"; types="$types, tensor<${n}x$ot>"; fi
  printf 'func.func @main(%s) -> tensor<%sx%sx%s> {\n' "$sig" "$m" "$n" "$ot"
  printf '  %%wt = "prim.transpose"(%%w) {permutation = array<i64: 1, 0>} : (tensor<%sx%sx%s>) -> tensor<%sx%sx%s>\n' "$n" "$k" "$wt" "$k" "$n" "$wt"
  printf '  %%y = "prim.scaled_mm"(%s) : (%s) -> tensor<%sx%sx%s>\n' "$args" "$types" "$m" "$n" "$ot"
  printf '  return %%y : tensor<%sx%sx%s>\n}\n' "$m" "$n" "$ot"
}
bmm() { # B M N K dtype wT(0/1) [bias 1/0]: batched a [B,M,K] @ b (b [B,K,N], or [B,N,K]
  # transposed) + bias [N] (no bias input with a 0 seventh argument)
  local B=$1 m=$2 n=$3 k=$4 t=$5 win="tensor<$1x$3x$4x$5>"
  [ "$6" = 1 ] || win="tensor<$1x$4x$3x$5>"
  local out="tensor<${B}x${m}x${n}x$t>" kn="tensor<${B}x${k}x${n}x$t>"
  local bias=${7:-1} cin=""
  [ "$bias" = 1 ] && cin=", %c: tensor<${n}x$t>"
  printf 'func.func @main(%%a: tensor<%sx%sx%sx%s>, %%w: %s%s) -> %s {\n' "$B" "$m" "$k" "$t" "$win" "$cin" "$out"
  local b=%w
  if [ "$6" = 1 ]; then
    printf '  %%wt = "prim.transpose"(%%w) {permutation = array<i64: 0, 2, 1>} : (%s) -> %s\n' "$win" "$kn"
    b=%wt
  fi
  printf '  %%p = "prim.matmul"(%%a, %s) : (tensor<%sx%sx%sx%s>, %s) -> %s\n' "$b" "$B" "$m" "$k" "$t" "$kn" "$out"
  if [ "$bias" != 1 ]; then printf '  return %%p : %s\n}\n' "$out"; return; fi
  printf '  %%cb = "prim.broadcast_in_dim"(%%c) {broadcast_dimensions = array<i64: 2>} : (tensor<%sx%s>) -> %s\n' "$n" "$t" "$out"
  printf '  %%y = "prim.add"(%%p, %%cb) : (%s, %s) -> %s\n  return %%y : %s\n}\n' "$out" "$out" "$out" "$out"
}
