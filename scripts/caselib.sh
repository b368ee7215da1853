# Shared by the case scripts (make-gpu-cases.sh, tune-rows.sh, make-gemm-cases.sh,
# make-gemm-bench.sh; sourced): the output folder OUTDIR (from $1, else $default_out under
# the repository), emptied of PTX, and the helpers that compile a program into it. Needs
# tt-opt and tt-translate (TT_BIN, default build/).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${TT_BIN:-$root/build}
out=${1:-$root/$default_out}
mkdir -p "$out"
rm -f "$out"/*.ptx
compile() { # name size-tag mlir-text [tile options] -> OUTDIR/name_size-tag.ptx
  printf '%s\n' "$3" | "$bin/tt-opt" --decompose --fuse --splitk ${4:+--tile="$4"} |
    "$bin/tt-translate" --ptx -o "$out/$1_$2.ptx"
}
rows() { # example M N: the row example (written at 8192x8192 bf16) at M x N
  sed -e "s/8192x8192/$2x$3/g" -e "s/tensor<8192xbf16>/tensor<$3xbf16>/g" "$root/examples/$1_bf16.mlir"
}
tt_ptx() { # name mlir-text [passes after --decompose --fuse] -> OUTDIR/name.ptx
  local name=$1 text=$2
  shift 2
  printf '%s\n' "$text" | "$bin/tt-opt" --decompose --fuse "$@" |
    "$bin/tt-translate" --ptx -o "$out/$name.ptx"
}
linear() { # M N K dtype bias(0/1) [activation]: x [M,K] @ w[N,K]^T (+ b) (then gelu)
  local m=$1 n=$2 k=$3 t=$4 args="%x, %w" types="tensor<$1x$3x$4>, tensor<$2x$3x$4>"
  local sig="%x: tensor<$m x${k}x$t>, %w: tensor<${n}x${k}x$t>"
  sig=${sig// x/x}
  if [ "$5" = 1 ]; then args="$args, %b"; types="$types, tensor<${n}x$t>"; sig="$sig, %b: tensor<${n}x$t>"; fi
  local body="  %y = \"prim.linear\"($args) : ($types) -> tensor<${m}x${n}x$t>"
  local ret=%y
  if [ -n "${6:-}" ]; then
    body="$body
  %z = \"prim.$6\"(%y) : (tensor<${m}x${n}x$t>) -> tensor<${m}x${n}x$t>"
    ret=%z
  fi
  printf 'func.func @main(%s) -> tensor<%sx%sx%s> {\n%s\n  return %s : tensor<%sx%sx%s>\n}\n' \
    "$sig" "$m" "$n" "$t" "$body" "$ret" "$m" "$n" "$t"
}
scaled_linear() { # M N K xdtype wdtype outdtype bias(0/1): torch._scaled_mm(x, w^T, sx, sw)
  local m=$1 n=$2 k=$3 xt=$4 wt=$5 ot=$6
  local sig="%x: tensor<${m}x${k}x$xt>, %w: tensor<${n}x${k}x$wt>, %sx: tensor<f32>, %sw: tensor<f32>"
  local args="%x, %wt, %sx, %sw" types="tensor<${m}x${k}x$xt>, tensor<${k}x${n}x$wt>, tensor<f32>, tensor<f32>"
  if [ "$7" = 1 ]; then sig="$sig, %b: tensor<${n}x$ot>"; args="$args, %b"; types="$types, tensor<${n}x$ot>"; fi
  printf 'func.func @main(%s) -> tensor<%sx%sx%s> {\n' "$sig" "$m" "$n" "$ot"
  printf '  %%wt = "prim.transpose"(%%w) {permutation = array<i64: 1, 0>} : (tensor<%sx%sx%s>) -> tensor<%sx%sx%s>\n' "$n" "$k" "$wt" "$k" "$n" "$wt"
  printf '  %%y = "prim.scaled_mm"(%s) : (%s) -> tensor<%sx%sx%s>\n' "$args" "$types" "$m" "$n" "$ot"
  printf '  return %%y : tensor<%sx%sx%s>\n}\n' "$m" "$n" "$ot"
}
