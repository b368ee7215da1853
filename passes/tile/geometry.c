/* geometry.c - --tile's geometry: how a fused function is split into programs.
 *
 * Elementwise groups: blocks of `block-size` elements (1024 by default) on up to 4 warps.
 * Row groups: the block covers the row where it fits on chip, else half its power of two
 * in a loop (tileRowGeometry). Dot groups: the output tile, the K step and the warps
 * (tileDotGeometry), then checks that the lowering can run the tile. Options the user
 * gives always win; 0 means "from the shape".
 */
#include "tile.h"

#include <stdint.h>

/* Default row geometry, from sweeps on H100 (scripts/tune-rows.sh, bf16, us):
 * - a row on chip up to MAX_ROW elements, about 16 elements per thread below 8192, 32 from
 *   8192 and 64 at 32768 (fewer warps to combine: softmax 8192x8192 93.6 with 8 warps;
 *   4096x32768 191.7 on chip with 16 warps vs 218.6 looped);
 * - unless the registers would not hold it: elements per thread x row-length inputs above
 *   MAX_LIVE (layer_norm at 4096x32768 spills on chip: 355 us; looped 206);
 * - a loop steps over half the row's power of two, at most LOOP_BLOCK, with LOOP_WARPS:
 *   big programs keep few rows in flight, so each row stays in L2 between its passes
 *   (layer_norm 2048x65536: 205 us with 1024 threads over 32768 columns, 380 with 256
 *   threads over 4096). */
#define MAX_ROW 32768
#define MAX_LIVE 128
#define LOOP_BLOCK 32768
#define LOOP_WARPS 32

static int64_t clampI(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

Geometry tileGroupGeometry(bool row, int64_t block, int64_t warps) {
  Geometry geo = {.block = block, .warps = warps, .rowsPerProgram = 1};
  geo.row = row; /* tileRowGeometry fills the rest */
  if (!geo.row) { /* elementwise defaults: 1024 elements, up to 4 warps */
    geo.block = block ? block : 1024;
    geo.warps = warps ? warps : clampI(geo.block / 32, 1, 4);
  }
  return geo;
}

/* Step 1 for a row fusion: the row shape (from its first reduction) and the block, from
 * `block-size`/`num-warps` when given, else by the defaults above; a block shorter than
 * the row makes the kernel looped. Short rows: several per program, so a program moves
 * at least ~1024 elements. */
bool tileRowGeometry(MlirOperation fusion, MlirBlock body, Geometry *g) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttPrimIsRowReduction(op))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
    int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
    g->rowLen = shape[r - 1];
    g->rows = ttTensorNumel(t) / g->rowLen;
    int64_t fit = 32;
    while (fit < g->rowLen)
      fit *= 2;
    int64_t perThread = fit >= 32768 ? 64 : fit >= 8192 ? 32 : 16;
    int64_t onChipWarps = clampI(fit / perThread / 32, 1, 32);
    int64_t live = fit / (32 * onChipWarps) * mlirBlockGetNumArguments(body);
    bool onChip = fit <= MAX_ROW && live <= MAX_LIVE;
    if (!g->block)
      g->block = onChip ? fit : fit / 2 < LOOP_BLOCK ? fit / 2 : LOOP_BLOCK;
    g->looped = g->block < g->rowLen;
    if (!g->warps)
      g->warps = g->looped ? clampI(g->block / 32 / 16, 1, LOOP_WARPS)
                           : clampI(g->block / perThread / 32, 1, 32);
    g->rowsPerProgram = 1;
    while (!g->looped && g->rowsPerProgram * g->block < 1024 && g->rowsPerProgram < g->rows)
      g->rowsPerProgram *= 2;
    g->row = true;
    return true;
  }
  ttEmitError(fusion, "tile: a row fusion must contain a reduction over the last dimension");
  return false;
}

/* Whether a dot's operands can be TMA boxes that wgmma reads: 2-D matrices whose rows are
 * a multiple of 16 bytes (TMA's stride rule), f16/bf16, or fp8 with both K-major (fp8
 * wgmma: the weight read transposed from [N, K]). */
static bool tmaOperands(const DotOperands *d) {
  if (d->batch != 1)
    return false;
  if (ttTypeIsFp8(d->elem))
    return d->bT && d->k % 16 == 0;
  return d->k % 8 == 0 && (d->bT || d->n % 8 == 0);
}

/* Programs of a grid of gm tile rows over n columns in tiles of bn. */
static int64_t gridPrograms(int64_t gm, int64_t n, int64_t bn) {
  return gm * ((n + bn - 1) / bn);
}

/* Columns that spread gm rows of bm-row tiles over at most `slots` programs: the fewest,
 * a multiple of 16, where a bm-row tile of them on bm / 16 warps takes wgmma's direct form
 * (not a multiple of 64 per warpgroup: the transposed form's tiles do those already; at
 * most 256); else 0. */
static int64_t fitColumns(int64_t gm, int64_t n, int64_t slots, int64_t bm) {
  int64_t per = slots / gm;
  if (per < 1)
    return 0;
  int64_t bn = ((n + per - 1) / per + 15) / 16 * 16;
  return ttWgmmaDirect(bm, bn, bm / 16) ? bn : 0;
}

bool tileDotGeometry(MlirOperation fusion, const DotOperands *d, const TtPassOptions *o,
                     DotGeometry *g) {
  int64_t m = d->m, sms = TT_SMS;
  bool fp8 = ttTypeIsFp8(d->elem);
  g->stagger = 0;
  if (o->v[7] && tmaOperands(d)) { /* option tma (1 by default) */
    /* matrices TMA can read: the defaults come from the f16 TMA sweep on an H100
     * (scripts/tune-tma.sh; bench/2026-11-23-h100-tma-tune.md; wgmma on 3-4 TMA stages)
     * and the f16/fp8 sweeps on an H200 (bench/2026-11-24-h200-tune.md), with "wide" =
     * more programs of 64 columns than SMs:
     *  - M <= 64: block-m 16, 32 or 64; 64 columns and K steps of 256 (16, 32 rows) or
     *    128 (64 rows) on a narrow grid (16 x 8192 x 8192: 49.6 us; 64 x 8192 x 8192:
     *    52.2), 128 x 128 on a wide one (16 x 28672 x 8192: 162.8; 64 x 10240: 64.4).
     *  - M > 64: 64 x 128 x 128 tiles while they make one wave (128 x 8192 x 8192: 54.0),
     *    else 128 rows (128 x 10240: 67.2 against 91.9), and 128 x 256 x 64 on 8 warps
     *    past 4 waves (4096 x 8192 x 8192: 841 against 936 for 128 x 128 x 128).
     *  - of those one-wave 64-row tiles, f16 with K <= N takes 64 x 64 x 128: two blocks
     *    per SM on 3 stages (H200, 128 x 8192 x 8192: 39.5-40.3 us against 44.5-44.9 on
     *    64x128x128 with wgmma in flight; tt's defaults 41.5 against 44.0-44.8; fp8 kept
     *    64x128x256, 23.6 against 24.0; bench/2026-11-24-h200-m128-tune.md).
     *  - 4 warps: one warpgroup. fp8 (e4m3/e5m2, K-major) takes the same tiles, at most
     *    128 columns unless the next rule says 256.
     *  - up to 32 rows where 128-column tiles pass one wave and 256-column ones make one
     *    (N = 28672: 224 against 112 programs): 256 columns, K steps of one 128-byte row
     *    (H200: 4 x 28672 x 8192 on 16x256x64 114.0 against 118.4 on 16x128x128, 1 and 16
     *    rows 113.5 and 113.9 against 121.5 and 120.2; fp8 16x256x128 60.8 against 62.1).
     *  - K steps past one wave (not past 4): the deepest whose 3 stages let two blocks
     *    share an SM (TT_SMEM_TWO_BLOCKS), at least one 128-byte row; else the second
     *    wave runs alone (H200, 64 x 28672 x 8192: 64x128x64 120.8 against 125.6 on
     *    64x128x128; on an H100 164.9 and 164.6).
     *  - fp8 K steps up to 64 rows on at most one program per SM: the f16 tiles' bytes,
     *    twice the elements (H200, 16 x 10240 x 8192: 16x128x256 25.5 against 31.9 on
     *    16x128x128; 64 x 8192 x 28672: 64x64x256 61.7 against 79.4; past one wave no
     *    better: 16 x 28672 x 8192 on 16x128x128 62.4, x256 63.1); likewise on 128-row
     *    tiles of the default columns, up to two waves, where K has two such steps (H200,
     *    128 x 10240 x 8192, 80 programs, on 128x128x256 30.8 against 36.2 on 128x128x128;
     *    128 x 28672 x 8192, 224 programs, 70.0 against 76.1 on 4 stages;
     *    bench/2026-11-24-h200-fp8-m128.md; more waves were not measured).
     *  - K > N up to 32 rows: f16 K steps of 128, not 256: H200, 8192 x 28672 f16 M = 1
     *    115.5 us against 118.8, M = 4 115.9 against 118.2, M = 16 114.3 against 115.2
     *    (bench/2026-11-24-h200-k-stagger.md, section 4); fp8 keeps 512 (after the rule
     *    above): timed back to back, M = 16 56.3 against 57.6 on 256, M = 32 56.3
     *    against 58.0, M = 1 57.1 against 57.4 (bench/2026-11-24-h200-kheavy-tune.md).
     *  - where those tiles leave SMs idle (fewer programs than 7/8 of the SMs: N = 10240
     *    on 128 columns makes 80) and 64-row tiles of 65 to 256 columns, not a multiple of
     *    64, spread N over one wave (M <= 64) or two programs per SM (f16, M > 64): those
     *    (fitColumns; wgmma's direct form). H200, N = 10240 on 64x80 tiles: 64 x 10240 x
     *    8192 fp8 22.2 us against 24.4, f16 41.7 against 44.5; 128 x 10240 x 8192 f16 on
     *    256 programs 48.2-49.3 against 55.1; not 16 rows on 64-row tiles (f16 50.4
     *    against 42.1) (bench/2026-11-25-h200-direct-wgmma.md).
     *  - fp8 past 64 rows: 128-row tiles on 8 warps (direct form, 64 rows a warpgroup) of
     *    the columns that spread N over one wave, where those are 64 to 128 (the
     *    promotion's limit above), K steps of 256 (where K has two of them): H200, 128 x
     *    10240 x 8192 on 128x80x256 26.3 us against 30.9 on 128x128x256 (80 programs;
     *    64x80 tiles, 256 programs: 33.6), 128 x 8192 x 28672 on 128x64x256 69.3 against
     *    75.6 on 64x128x256, 128 x 8192 x 8192 23.5 against 23.5 (bench/
     *    2026-11-25-h200-gemm-rounds.md). Not f16: 128x64 and 128x80 on 8 warps lost to
     *    its 64-row tiles (47.2 against 39.4 at 128 x 8192 x 8192, 51.3 against 48.9 at
     *    N = 10240). */
    int64_t waves64 = gridPrograms((m + 63) / 64, d->n, 128);
    g->bm = o->v[2] ? o->v[2] : m <= 16 ? 16 : m <= 32 ? 32 : m <= 64 || waves64 <= sms ? 64 : 128;
    int64_t gm = (m + g->bm - 1) / g->bm;
    bool wide = gridPrograms(gm, d->n, 64) > sms, huge = gridPrograms(gm, d->n, 128) > 4 * sms;
    bool big = m > 64 && g->bm >= 128 && huge;
    bool pairs = m > 64 && g->bm == 64 && !fp8 && d->k <= d->n; /* two blocks per SM: above */
    g->bn = o->v[3] ? o->v[3] : big ? 256 : pairs ? 64 : m > 64 || wide ? 128 : 64;
    /* a grid that leaves SMs idle, in 64-row tiles of other widths (wgmma's direct form,
     * which reads B K-major: a weight [N, K]): M <= 64 one per SM, f16 M > 64 two; fp8
     * past 64 rows (with two K steps of 256, as measured) on 128-row tiles of 8 warps,
     * one per SM, idle SMs or not (see above) */
    bool rows128 = fp8 && m > 64 && d->k >= 512;
    int64_t sbm = rows128 ? 128 : 64, gmS = (m + sbm - 1) / sbm;
    int64_t fit = fitColumns(gmS, d->n, m <= 64 || fp8 ? sms : 2 * sms, sbm);
    bool spread = !o->v[2] && !o->v[3] && !o->v[1] && d->bT &&
                  (rows128 ? fit >= 64 && fit <= 128
                           : fit > 64 && (m > 64 || g->bm == 64) &&
                                 gridPrograms(gm, d->n, g->bn) * 8 < sms * 7);
    if (spread) {
      g->bm = sbm;
      g->bn = fit;
      gm = gmS;
    }
    bool deepK = g->bn == 64 && g->bm <= 32 && (d->k <= d->n || fp8); /* K > N: above */
    g->bk = o->v[4] ? o->v[4] : big && !fp8 ? 64 : deepK ? 256 : 128;
    g->warps = o->v[1] ? o->v[1] : big || (spread && rows128) ? 8 : 4;
    /* fp8 wgmma's promotion holds a second accumulator: at most 64 x 128 per warpgroup
     * (128 x 128 on 4 warps spilled: 128 x 10240 x 8192 59.3 us against 41.3 before the
     * promotion) */
    if (fp8)
      g->bn = o->v[3] || g->bn <= 128 ? g->bn : 128;
    int64_t eb = fp8 ? 1 : 2; /* 256 columns, then the K steps: see above */
    bool row256 = !o->v[3] && g->bm <= 32 && gridPrograms(gm, d->n, 128) > sms &&
                  gridPrograms(gm, d->n, 256) <= sms;
    if (row256) {
      g->bn = 256;
      g->bk = o->v[4] ? o->v[4] : 128 / eb;
    }
    int64_t programs = gridPrograms(gm, d->n, g->bn);
    bool deep128 = g->bm == 128 && !o->v[3] && programs <= 2 * sms && d->k >= 2 * g->bk;
    if (!o->v[4] && fp8 && ((g->bm <= 64 && programs <= sms) || deep128) && !row256)
      g->bk *= 2;
    else if (!o->v[4] && !big && programs > sms)
      while (g->bk * eb > 128 && 3 * (g->bm + g->bn) * g->bk * eb > TT_SMEM_TWO_BLOCKS)
        g->bk /= 2;
    if (fp8)
      g->warps = o->v[1] ? o->v[1] : g->bm * g->bn > 64 * 128 ? 8 : g->warps;
    /* K stagger: on one row of tiles each program streams weight rows no other reads, so
     * starting them at different K steps costs no L2 reuse and spreads their reads over
     * the DRAM channels (H200, stride 37: 16 x 8192 x 8192 f16 36.0 us against 37.0, fp8
     * 21.2 against 21.6; 64 x 28672 x 8192 f16 118.4 against 120.5; on 256-column tiles
     * stride 1: 16 x 28672 x 8192 f16 111.9 against 114.0, where 37 took 115.0); where K
     * > N it lost at M = 1 (fp8 1 x 8192 x 28672: 63.0 against 61.5), so none there
     * (bench/2026-11-24-h200-k-stagger.md) */
    g->stagger = gm != 1 || d->n < d->k ? 0 : g->bn == 256 ? 1 : 37;
  } else {
    /* fp8 and batched dots (and rows TMA cannot stride): from the H100 sweeps with
     * operands staged through registers (scripts/tune-gemm.sh; bench/2026-11-23-h100-
     * geometry.md, -pipeline.md, -fp8-tune.md), each a time in us for f16 unless fp8:
     *  - block-m: 16, 32, else 64 (M = 128 on 64-row tiles 93.4 at 128 x 8192 x 8192,
     *    against 155.5 for 128x64x32 on 8 warps).
     *  - "wide" = the grid of 64-column tiles has more programs than the GPU has SMs (132,
     *    H100/H200), e.g. N = 10240 (160): there 32x64x128 tiles on 4 warps ran M = 32 in
     *    76.1, 32x32x256 in 96.6 (bench/2026-11-22 and -23-h100-gemm.md).
     *  - block-n 64; 32 for 32-row tiles on a narrow grid (32 x 8192 x 8192: 32x32x256 54.5,
     *    32x64x128 64.1).
     *  - block-k: the deepest that 48 KiB of shared memory holds: 256 for 16 rows (16 x
     *    8192 x 8192: 53.5 against 62.3 for 128) and 32x32 tiles, else 128 (64 x 8192 x
     *    8192: 70.4, against 92.5 for 64).
     *  - warps: 8 for 64-row tiles on a narrow grid (66.0 against 70.7), 2 for 32-row and
     *    fp8 16-row tiles on a very wide one, above 256 programs (32 x 28672 x 8192: 168.4
     *    against 199.9; fp8 1 x 28672 x 8192: 94.8 against 111.5; at N = 10240, 160
     *    programs, 2 warps lost: M = 32 88.5 against 76.1, fp8 M = 16 59.4 against 46.8),
     *    else 4. */
    g->bm = o->v[2] ? o->v[2] : m <= 16 ? 16 : m <= 32 ? 32 : 64;
    int64_t programs = d->batch * gridPrograms((m + g->bm - 1) / g->bm, d->n, 64);
    bool wide = programs > sms, veryWide = programs > 256;
    g->bn = o->v[3] ? o->v[3] : g->bm == 32 && !wide ? 32 : 64;
    g->bk = o->v[4] ? o->v[4] : g->bm <= 16 || (g->bm == 32 && g->bn == 32) ? 256 : 128;
    g->warps = o->v[1]         ? o->v[1]
               : g->bm >= 128  ? 8
               : g->bm == 64   ? (wide ? 4 : 8)
               : veryWide && (g->bm == 32 || fp8) ? 2
                                                  : 4;
  }
  g->order = o->v[5];
  g->group = o->v[6];
  if (o->v[8] >= 0) /* option k-stagger; -1: the shape's (above) */
    g->stagger = o->v[8];
  int64_t vec = 8; /* 16-byte runs of f16/bf16 */
  bool pow2 = !(g->bm & (g->bm - 1)) && !(g->bk & (g->bk - 1));
  if (!pow2 || g->bm < 16 || g->bn < 16 || g->bn % 16 || g->bk < 32) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld: block-m must be a power of two >= "
                        "16, block-n a multiple of 16 and block-k a power of two >= 32",
                (long long)g->bm, (long long)g->bn, (long long)g->bk);
    return false;
  }
  /* shared memory (convert-tile-to-gpu): the operands with rows padded by 8 elements, and
   * later the f32 accumulator with rows padded by 4 */
  int64_t smem = ttSmemDotBytes(g->bm, g->bn, g->bk);
  if (smem > TT_SMEM_DYNAMIC_LIMIT) { /* (past 48 KiB: dynamic shared memory) */
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld needs %lld bytes of shared memory; "
                        "at most %d (225 KiB) are supported",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)smem,
                TT_SMEM_DYNAMIC_LIMIT);
    return false;
  }
  int64_t t = 32 * g->warps;
  if ((g->bm * g->bk) % (t * vec) || (g->bn * g->bk) % (t * vec) || (g->bm * g->bn) % (t * vec)) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld is too small for %lld warps: each of "
                        "the A, B and C tiles must hold at least 8 elements per thread",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)g->warps);
    return false;
  }
  return true;
}
