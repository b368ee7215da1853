# Shared by make-gpu-cases.sh and tune-rows.sh (sourced): the output folder OUTDIR (from
# $1, else $default_out under the repository), emptied of PTX, and the helpers that compile
# an example into it. Needs tt-opt and tt-translate (TT_BIN, default build/).
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
