/* geometry.c - --tile's dot geometry: how a dot group is split into programs.
 *
 * The output tile, the K step, the warps and the K stagger by first-match rule tables
 * (tileDotGeometry; the steps are stated above the tables), then checks that the
 * lowering can run the tile. Options the user gives always win; 0 means "from the
 * shape". The measurements behind every default are in bench/geometry-rules.md.
 * Elementwise and row geometry is geometry-rows.c's.
 */
#include "tile.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Whether a dot's operands can be TMA boxes that wgmma reads: matrices whose rows are a
 * multiple of 16 bytes (TMA's stride rule), f16/bf16, or fp8 with both K-major (fp8
 * wgmma: the weight read transposed from [N, K]). Batched operands are read as their
 * batches' rows stacked (dot.c), a [B, K, N] operand whose K the step does not divide as
 * a batched (rank-3) box, whose rows the step may not pass: K of 64 at least. */
static bool tmaOperands(const DotOperands *d) {
  if (d->batch != 1 && !d->bT && d->k < 64)
    return false; /* a K step (one 128-byte row at least) would be deeper than K */
  if (ttTypeIsFp8(d->elem))
    return d->bT && d->k % 16 == 0;
  return d->k % 8 == 0 && (d->bT || d->n % 8 == 0);
}

/* Programs of a grid of gm tile rows over n columns in tiles of bn. */
static int64_t gridPrograms(int64_t gm, int64_t n, int64_t bn) {
  return gm * ((n + bn - 1) / bn);
}

/* The fewest columns, a multiple of 16, whose tiles spread gm tile rows over at most
 * `slots` programs; 0 when the slots are fewer than the rows. */
static int64_t spreadWidth(int64_t gm, int64_t n, int64_t slots) {
  int64_t per = slots / gm;
  return per < 1 ? 0 : ((n + per - 1) / per + 15) / 16 * 16;
}

/* Those columns for bm-row tiles where a tile of them on bm / 16 warps takes wgmma's
 * direct form (not a multiple of 64 per warpgroup: the transposed form's tiles do those
 * already; at most 256); else 0. */
static int64_t fitColumns(int64_t gm, int64_t n, int64_t slots, int64_t bm) {
  int64_t bn = spreadWidth(gm, n, slots);
  return bn && ttWgmmaDirect(bm, bn, bm / 16) ? bn : 0;
}

/* Dot geometry --------------------------------------------------------------------------
 * The defaults are rules: one first-match table per decision, each row a named predicate
 * on the dot (Facts), the pick it makes and the bench/ table that justified it. The
 * measurements behind each table are in bench/geometry-rules.md, one section per table
 * (named as the table). The decisions run in this order, each reading what the earlier
 * ones picked:
 *  operands TMA can read (option tma, tmaOperands; the wgmma-on-TMA-rings sweeps):
 *   0. prefill (f16PrefillShape, fp8PrefillShape): steps 1-8 run as they are, with
 *      128-row tiles (f16/bf16), and for the tiles of prefillTiles (128 x 256, 128 x 96 on
 *      8 warps; fp8 128 x 96 only; rows fitted to M, 144-256 x 128), and the model
 *      prefillCost (the busiest SM's work over the tile's rate) keeps the cheapest;
 *   1. block-m (tmaBlockM), and the grid's tile rows;
 *   2. block-n (tmaBlockN);
 *   3. the spread (tmaSpread): where the tiles so far leave SMs idle (or, fp8 past 64
 *      rows, always where it fits), 64- or 128-row tiles of the fewest columns that spread
 *      N over the SMs, in wgmma's direct form (B read K-major) (fp8 at 65-128 rows: 64-row
 *      tiles of 64 to 128 columns that make one wave, fp8FillColumns64);
 *   4. block-k (tmaBlockK);
 *   5. at most tmaMaxColumns columns (fp8: the promotion's second accumulator);
 *   6. 256-column rows (tmaRow256: up to 32 rows, one wave of 256 columns) with K steps of
 *      tmaRow256K;
 *   7. the K step's depth (tmaKDepth: keep, double, or halve until two blocks share an SM);
 *   8. warps (tmaWarps) and the K stagger (tmaStagger);
 *  otherwise (fp8 B not K-major, a batched [B, K, N] B with K < 64, rows TMA cannot
 *  stride; tma=0), operands staged
 *  through registers: block-m, block-n, block-k and warps (regBlockM ... regWarps).
 * An option the user gives replaces its decision's pick; steps 0, 3, 5, 6 and 7 leave alone
 * what the user gave (block-m, block-n or num-warps turn step 0 and the spread off; block-n
 * turns off 5 and 6; block-k 6's K step and 7). */

/* What the rules read: the dot, the user's options and the picks made so far. */
typedef struct {
  int64_t sms, smemTwoBlocks, smemBlock; /* of the GPU the picks are for */
  int64_t m, n, k, batch;
  bool fp8, bT;
  int64_t userBm, userBn, userBk, userWarps; /* 0: not given */
  int64_t bm, bn, bk; /* the picks so far */
  int64_t gm;         /* the grid's tile rows: cdiv(m, bm) */
  bool big;           /* 128-row tiles (block-m's pick) of 128 columns past 4 waves, K
                       * deeper than SHALLOW_K */
  int64_t spread;     /* rows of the spread tile (step 3), 0 when none */
  bool row256;        /* step 6 made 256-column rows */
  int prefill;        /* step 0: 0 undecided, 1 a prefill candidate (prefillRows128), -1
                       * the other rules */
  bool dynM;          /* M known only at run time (m: its bucket's size) */
} Facts;

/* One row of a rule table: where `when` holds (the first such row wins), `pick`. */
typedef struct {
  bool (*when)(const Facts *f);
  int64_t pick;
  const char *bench; /* the bench/ table that justified the row */
} Rule;

static int64_t pickRule(const Rule *rules, size_t n, const Facts *f) {
  for (size_t i = 0; i < n; i++)
    if (rules[i].when(f))
      return rules[i].pick;
  abort(); /* every table ends with `always` */
}
#define PICK(table, f) pickRule(table, sizeof table / sizeof table[0], f)

/* K up to this is shallow: 4 K steps of 64 or fewer, where a big tile's epilogue (a
 * 128 x 256 C tile) takes as long as its main loop, so 128 x 128 tiles on one warpgroup,
 * two or more blocks per SM, overlap one block's epilogue with another's loads (H200,
 * attention scores 8 x 4096 x 4096 x 128: 128x256x64 on 8 warps 160 us, 128x128x64 on 4
 * warps 110; bench/2026-11-26-h200-bmm-tune.md). */
#define SHALLOW_K 256

/* The grid's programs on tiles of bn columns. */
static int64_t programsOf(const Facts *f, int64_t bn) {
  return f->batch * gridPrograms(f->gm, f->n, bn);
}

/* The predicates, in the order the tables use them. */
static bool always(const Facts *f) {
  (void)f;
  return true;
}
static bool mUpTo16(const Facts *f) { return f->m <= 16; }
static bool mUpTo32(const Facts *f) { return f->m <= 32; }
static bool mUpTo64(const Facts *f) { return f->m <= 64; }
static bool mPast64(const Facts *f) { return f->m > 64; }
/* f16/bf16 prefill (past 128 rows, one matrix, K deeper than 2048): 128-row tiles or the
 * rules' own pick (64-row tiles, from rows64OneWave or the spread), whichever prefillCost
 * says. A 64-row tile reads B twice as often for its flops; but 128-row tiles make half
 * the programs and pad M by up to 127 rows, so they can leave SMs idle that 64-row tiles
 * fill. Not at K <= 2048, where a tile's fill and epilogue weigh as much as its K loop and
 * two 64-row blocks an SM overlap one's epilogue with the other's loads (H200 warm,
 * 128-row tiles against the old defaults: 640 x 1536^2 1.16x the time, 640 x 2048^2
 * 1.12x, 256 x 3008 x 1024 1.31x). Over 76 prefill shapes timed both ways, the model's
 * pick is within 5% of the faster on 74, 0.87x the old defaults' time (geometric mean;
 * 512 x 3584^2 30.3 -> 22.8 us), and keeps 64-row tiles where 128-row ones would lose
 * (700 x 1536 x 8960: 72 programs, 1.37x; bench/2026-11-29-h200-prefill-tune.md). (That
 * was one rate for every 128-row tile; the rates of prefillRates and the two tiles of
 * prefillTiles were checked on 50 other shapes, section 7 there. At K <= 2048 those tiles
 * lose too: 128 x 96 0.91x-1.40x, 128 x 256 0.98x-1.71x the time on 12 shapes, section 8.) */
#define PREFILL_MIN_K 2048
static bool f16PrefillShape(const Facts *f) {
  return !f->fp8 && f->batch == 1 && f->m > 128 && f->k > PREFILL_MIN_K;
}
/* fp8 prefill, the same shapes: fp8's rules already take 128-row tiles (fp8Rows128), so
 * step 0 weighs only prefillTiles' fp8 rows against their pick. */
static bool fp8PrefillShape(const Facts *f) {
  return f->fp8 && f->batch == 1 && f->m > 128 && f->k > PREFILL_MIN_K;
}
/* A candidate of step 0 (f16/bf16 or fp8): 128-row tiles, no spread. */
static bool prefillRows128(const Facts *f) { return f->prefill > 0; }

/* Whether three stages of the tile so far (its A and B boxes, K step deep) fit the shared
 * memory each of two blocks on an SM may have: step 7's TWO_BLOCKS depth, and the prefill
 * model's two-blocks rate. */
static bool threeStagesFitTwoBlocks(const Facts *f) {
  return 3 * (f->bm + f->bn) * f->bk * (f->fp8 ? 1 : 2) <= f->smemTwoBlocks;
}

/* The prefill model's tensor rates: the per-SM tensor work a tile shape gets done in equal
 * time, in units of a 64-row tile's (the rules' 64-row picks, 4 warps). The first row whose
 * shape matches (0: any) and whose `pairs` holds (two blocks an SM: past one wave, three
 * K steps in the two-block budget; -1 either way) gives the rate. Where they came from
 * (H200 warm, bench/2026-11-29-h200-prefill-tune.md): 128-row tiles on one block an SM
 * over 64-row tiles: 512 x 3584^2 (64x112 on 256 programs 30.3 us, 128x128 on 112 22.8):
 * 1.52; 192 x 5120^2 (64x64 on 240, 23.9; 128x128 on 80, 32.4): 1.47 (section 2). The
 * others from the per-SM rates of section 6 (the busiest SM's bm x bn x K over the time,
 * medians over 3-14 shapes each), against 128 x 128 on one block an SM (2.75): two blocks
 * an SM 2.89, 128 x 256 on 8 warps 2.96, 128 x 96 on 8 warps (four 128-deep stages) 2.62.
 * fp8's rows are against fp8's own pick (128 x 128 x 256, one block an SM): 128 x 96 x 256
 * measured 0.82-0.91 of its rate where both make 6-7 rounds (3000 x 3584^2 and
 * 384 x 28672 x 8192, whose model costs are equal); 0.85 keeps the pick there and reproduces
 * the 22 fp8 decisions of sections 8-9 and the 12 held-out A/B of section 11. Tiles of
 * rows fitted past 128 (fitRows) take the 128-row rows: the same form, one block an SM. */
#define PREFILL_TUNE "2026-11-29-h200-prefill-tune.md"
typedef struct {
  bool fp8;
  int64_t bm, bn; /* 0: any */
  int pairs;      /* 1: two blocks an SM, 0: one, -1: either */
  double rate;
  const char *bench;
} PrefillRate;
static const PrefillRate prefillRates[] = {
    {false, 128, 256, -1, 1.5 * 2.96 / 2.75, PREFILL_TUNE " section 6"},
    {false, 128, 96, -1, 1.5 * 2.62 / 2.75, PREFILL_TUNE " section 6"},
    {false, 128, 0, 1, 1.5 * 2.89 / 2.75, PREFILL_TUNE " section 6"},
    {false, 128, 0, -1, 1.5, PREFILL_TUNE " section 2"},
    {false, 0, 0, -1, 1.0, PREFILL_TUNE " section 2"},
    {true, 128, 96, -1, 0.85, PREFILL_TUNE " sections 8-11"},
    {true, 0, 0, -1, 1.0, PREFILL_TUNE " sections 8-11"},
};

/* The model of a prefill tile's time: the busiest SM's tensor work over the tile's rate
 * (prefillRates). The grid's programs, times --splitk's slices (doubled, much as splitk.c
 * does within one wave, while twice the programs fit on the SMs and each slice keeps two K
 * steps; none for a dynamic M, whose grid splitk.c mostly leaves whole), over the SMs,
 * rounded up (whole programs an SM), times one program's bm x bn x K / slices. */
static int64_t prefillSplit(const Facts *f, int64_t programs) {
  int64_t steps = (f->k + f->bk - 1) / f->bk, split = 1;
  while (!f->dynM && programs * split * 2 <= f->sms && steps / (split * 2) >= 2)
    split *= 2;
  return split;
}
static double prefillCost(const Facts *f) {
  int64_t programs = gridPrograms((f->m + f->bm - 1) / f->bm, f->n, f->bn);
  int64_t steps = (f->k + f->bk - 1) / f->bk, split = prefillSplit(f, programs);
  bool pairs = programs * split > f->sms && threeStagesFitTwoBlocks(f);
  double rate = 1.0;
  int64_t rows = f->bm > 128 ? 128 : f->bm; /* (fitted rows: the 128-row rates) */
  for (size_t i = 0; i < sizeof prefillRates / sizeof prefillRates[0]; i++) {
    const PrefillRate *r = &prefillRates[i];
    if (r->fp8 == f->fp8 && (!r->bm || r->bm == rows) && (!r->bn || r->bn == f->bn) &&
        (r->pairs < 0 || r->pairs == pairs)) {
      rate = r->rate;
      break;
    }
  }
  double perSm = (double)((programs * split + f->sms - 1) / f->sms);
  double work = (double)(f->bm * f->bn * ((steps + split - 1) / split) * f->bk);
  return perSm * work / rate;
}
/* The prefill tiles the model weighs besides the rules' two picks (64-row tiles, and the
 * rules run with 128 rows), on 8 warps: 128 x 256 with K steps of 64 where its grid
 * passes one wave (the tune set's lead at M = 2048, N <= 4096: 1.05x-1.10x, section 1;
 * every rate measured past one wave: on one wave, with K steps of 128 on 2 stages, it lost
 * 1.25x-1.6x), and the widest 128-row tile whose four stages of 128-deep K steps fit a
 * block's shared memory (bn 0: 96 on sm_90's 225 KiB), more bytes in flight than 128 x
 * 128's three (0.80x-0.86x the time where its programs fill the SMs better, section 6),
 * where its programs (split-K's slices counted) fill 7/8 of the SMs or more: --pipeline
 * gives fewer only 3 stages (forms.c), and 128 x 96 on 96-108 programs of 3 stages lost
 * 1.04x-1.11x (section 7). And tiles of rows fitted to M (fit, fitRows): past 128 rows
 * (wgmma's swapped form takes M on its narrow side, any multiple of 8 up to 256), fewer
 * tile rows than 128-row tiles make, as cuBLAS's fp8 kernels run at 129-600 rows (ncu,
 * section 16: 257 rows as 2 tiles of 136, 160 as one of 160); 128 columns on 8 warps, K
 * steps of 256 bytes. H200 warm against the defaults: 257 x 6144 x 4096 fp8 21.9 -> 14.4
 * us, f16 36.1 -> 28.8; 0.76x-0.87x at 129-600 rows where they cut a wave (section 16). */
static const struct {
  int64_t bn, bk, warps; /* bk: of 2-byte elements (fp8: twice as many, the same bytes) */
  bool pastWave, fill; /* the candidate only past one wave / on 7/8 of the SMs or more */
  bool fp8;            /* weighed for fp8 too (fp8 takes at most 128 columns) */
  bool fit;            /* rows fitted to M (fitRows), else 128 */
} prefillTiles[] = {{256, 64, 8, true, false, false, false},
                    {0, 128, 8, false, true, true, false},
                    {128, 128, 8, false, false, true, true}};
/* Most rows of a fitted tile: wgmma's widest n (the swapped form's M). Shared memory binds
 * first on sm_90: three stages of 128 columns and 256-byte K steps hold at most 160 rows.
 * (fp8's two sums a tile, the promotion's, take rows registers a thread: at 160 rows they
 * spilled 36 bytes under the producer warp's 168 registers and none under the producer
 * warpgroup's 232, forms.c.) */
#define FIT_ROWS 256
/* The rows of a fitted tile for M: over the fewest tile rows whose tiles, rows a multiple
 * of 16, keep three stages of bn columns and bk-deep K steps in a block's shared memory
 * (two stages lost 1.8x-2.0x: 176 and 192 rows at K steps of 256 bytes, section 16) and
 * at most FIT_ROWS; 0 where that is 128 rows or fewer, or as many tile rows as 128 make.
 * The model prices tensor work, not split-K's own costs (a zero kernel, the atomic
 * epilogue): where the best pick so far is not split, a fitted tile that would be is weighed
 * only while each slice keeps K past PREFILL_MIN_K (the depth below which a program's fill
 * and epilogue weigh as much as its K loop). Held out (section 16, 41 changed shapes of 7
 * model families, M 145-777): 38 faster (0.61x-0.98x), the 3 slower (fp8 145-300 x 4096^2,
 * 1.05x-1.18x) all one wave split into slices of K <= 2048, which the rule keeps out. */
static int64_t fitRows(const Facts *f, int64_t bn, int64_t bk) {
  int64_t eb = f->fp8 ? 1 : 2;
  for (int64_t gm = (f->m + FIT_ROWS - 1) / FIT_ROWS; gm < (f->m + 127) / 128; gm++) {
    int64_t bm = ((f->m + gm - 1) / gm + 15) / 16 * 16;
    if (bm <= 128)
      return 0;
    if (bm <= FIT_ROWS && 3 * (bm + bn) * bk * eb <= f->smemBlock)
      return bm;
  }
  return 0;
}
/* 64-row tiles of 128 columns make at most one wave (over all batches). */
static bool rows64OneWave(const Facts *f) {
  return f->batch * gridPrograms((f->m + 63) / 64, f->n, 128) <= f->sms;
}
/* Batched on 64-column tiles (N <= 64: P @ V at head dim 64), where 128-row tiles give
 * fewer than two programs an SM: the product streams P (at K = 1000 a 128 x 64 tile does
 * 43 flops a byte, a fifth of the tensor cores' ratio to bandwidth), so its time is the
 * bytes in flight on every SM, which 64-row tiles spread over twice the programs (H200,
 * P @ V 12 x 1000 x 64 x 1000 9.1 -> 7.7 us, 24 x 1000 15.8 -> 15.3, 32 x 1024 21.3 ->
 * 20.9). Not on 128-column tiles, where 64 x 128 lost (16 x 2048 x 128 x 2048 41.4 ->
 * 48.3; 4 x 1000^2 x 128 scores 5.9 -> 7.5; bench/2026-11-27-h200-bmm-rows64.md). */
static bool batchedNarrowUnderTwoPerSm(const Facts *f) {
  return f->batch != 1 && f->n <= 64 && f->batch * ((f->m + 127) / 128) < 2 * f->sms;
}
static bool bigGrid(const Facts *f) { return f->big; }
/* Past 64 rows on 64-row tiles, f16/bf16 with K <= N: two blocks per SM. */
static bool f16PairsPerSm(const Facts *f) {
  return f->m > 64 && f->bm == 64 && !f->fp8 && f->k <= f->n;
}
/* More programs of 64 columns than SMs. */
static bool wideGrid(const Facts *f) { return programsOf(f, 64) > f->sms; }

/* Step 3's columns for spread tiles of `rows` rows (fitColumns: 0 when none fit), over
 * one wave up to 64 rows and for fp8, two programs per SM for f16 past 64 rows; a batch's
 * share of them. */
static int64_t spreadColumns(const Facts *f, int64_t rows) {
  int64_t slots = f->m <= 64 || f->fp8 ? f->sms : 2 * f->sms;
  return fitColumns((f->m + rows - 1) / rows, f->n, slots / f->batch, rows);
}
/* fp8 past 64 rows where K has two K steps of 256. */
static bool fp8Rows128(const Facts *f) { return f->fp8 && f->m > 64 && f->k >= 512; }
static bool fp8Rows128Spreads(const Facts *f) {
  int64_t c = spreadColumns(f, 128);
  return fp8Rows128(f) && c >= 64 && c <= 128;
}
/* fp8 past 64 rows on two rows of 64-row tiles (M <= 128), where the 128-row spread does
 * not apply: the fewest columns, a multiple of 16 and at least 64, whose tiles make at
 * most one wave (one K-major fp8 tile an SM: no split-K, the K step doubled), where those
 * are at most 128 (tmaMaxColumns) and 64, 128 or of the direct form; else 0. Against
 * 64 x 128 tiles split over the idle SMs, H200 cold: 128 x 5120 x 4096 on 64x80 0.83x the
 * time, 6144 x 4096 on 64x96 0.89x, 2560^2 / 3584^2 / 4096^2 on 64x64 0.88x / 0.97x /
 * 0.96x (bench/2026-11-29-h200-m128.md). */
static int64_t fp8FillColumns64(const Facts *f) {
  int64_t gm = (f->m + 63) / 64, bn = spreadWidth(gm, f->n, f->sms);
  if (!f->fp8 || f->batch != 1 || gm != 2 || f->k < 512 || bn == 0)
    return 0;
  bn = bn < 64 ? 64 : bn;
  return bn <= 128 && (bn % 64 == 0 || ttWgmmaDirect(64, bn, 4)) ? bn : 0;
}
static bool fp8Rows64Fill(const Facts *f) { return fp8FillColumns64(f) > 0; }
/* 64-row tiles of 65 to 256 columns spread N where the tiles so far fill under 7/8 of the
 * SMs; not for tiles of 16 or 32 rows. */
static bool idleSmsSpread64(const Facts *f) {
  return spreadColumns(f, 64) > 64 && (f->m > 64 || f->bm == 64) &&
         programsOf(f, f->bn) * 8 < f->sms * 7;
}

static bool bigGridF16(const Facts *f) { return f->big && !f->fp8; }
/* Up to 32 rows on 64 columns. */
static bool narrow64Columns(const Facts *f) { return f->bn == 64 && f->bm <= 32; }
static bool fp8Operands(const Facts *f) { return f->fp8; }
/* Up to 32 rows where 128-column tiles pass one wave and 256-column ones make one. */
static bool rows256OneWave(const Facts *f) {
  return f->bm <= 32 && programsOf(f, 128) > f->sms && programsOf(f, 256) <= f->sms;
}
static bool row256Picked(const Facts *f) { return f->row256; }
/* fp8 up to 64 rows on at most one program per SM. */
static bool fp8OneWave(const Facts *f) {
  return f->fp8 && f->bm <= 64 && programsOf(f, f->bn) <= f->sms;
}
/* fp8 on 128-row tiles of the default columns (block-n not given), where K has two
 * steps of twice the K step: up to two waves (2026-11-24-h200-fp8-m128.md), and past them
 * too, one block an SM on 256-deep steps rather than two on 128-deep ones (H200 warm, 13
 * prefill shapes of 224-1792 programs: 0.84x-0.87x the time, 4096 x 4096 x 14336 468.8
 * -> 405.6 us; bench/2026-11-29-h200-prefill-tune.md section 9). */
static bool fp8Rows128Doubled(const Facts *f) {
  return f->fp8 && f->bm == 128 && !f->userBn && f->k >= 2 * f->bk;
}
static bool pastOneWave(const Facts *f) { return programsOf(f, f->bn) > f->sms; }
/* f16/bf16 64 x 64 tiles (not spread) up to 64 rows, more than half the SMs' worth of
 * programs and at most one wave: split-K leaves them whole (splitk.c), one program an SM,
 * so a deeper K step keeps more of the weight in flight (H100 cold, M = 64, K steps of 256
 * against 128: 5120 x 5120 1.11x, 6144 x 4096 1.02x, 8192 x 8192 1.01x;
 * bench/2026-11-26-h100-tune-m64-cold.md). */
static bool f16Tiles64OneWave(const Facts *f) {
  int64_t p = programsOf(f, f->bn);
  return !f->fp8 && f->bm == 64 && f->bn == 64 && !f->spread && f->m <= 64 &&
         p * 2 > f->sms && p <= f->sms;
}
/* fp8 tiles past 64 x 128 (wgmma's promotion: 64 x 128 per warpgroup at most). */
static bool fp8Past64x128(const Facts *f) { return f->fp8 && f->bm * f->bn > 64 * 128; }
static bool spread128(const Facts *f) { return f->spread == 128; }
static bool manyTileRows(const Facts *f) { return f->gm != 1; }
static bool kPastN(const Facts *f) { return f->n < f->k; }
static bool columns256(const Facts *f) { return f->bn == 256; }
static bool rows128Up(const Facts *f) { return f->bm >= 128; }
static bool rows64(const Facts *f) { return f->bm == 64; }
static bool rows64Narrow(const Facts *f) { return f->bm == 64 && !wideGrid(f); }
static bool rows16(const Facts *f) { return f->bm <= 16; }
static bool rows32Narrow(const Facts *f) { return f->bm == 32 && !wideGrid(f); }
static bool rows32Columns32(const Facts *f) { return f->bm == 32 && f->bn == 32; }
/* More than 256 programs of 64 columns, on 32-row tiles or fp8. */
static bool veryWide32RowsOrFp8(const Facts *f) {
  return programsOf(f, 64) > 256 && (f->bm == 32 || f->fp8);
}

/* The tables: TMA operands. */
#define TMA_TUNE "2026-11-23-h100-tma-tune.md"
static const Rule tmaBlockM[] = {
    {mUpTo16, 16, TMA_TUNE},
    {mUpTo32, 32, TMA_TUNE},
    {mUpTo64, 64, TMA_TUNE},
    {prefillRows128, 128, PREFILL_TUNE},
    {rows64OneWave, 64, TMA_TUNE},
    {batchedNarrowUnderTwoPerSm, 64, "2026-11-27-h200-bmm-rows64.md"},
    {always, 128, TMA_TUNE},
};
static const Rule tmaBlockN[] = {
    {bigGrid, 256, TMA_TUNE},
    {f16PairsPerSm, 64, "2026-11-24-h200-m128-tune.md"},
    {mPast64, 128, TMA_TUNE},
    {wideGrid, 128, TMA_TUNE},
    {always, 64, TMA_TUNE},
};
/* Picks the rows of the spread tile; its columns are spreadColumns'. */
static const Rule tmaSpread[] = {
    {fp8Rows128Spreads, 128, "2026-11-25-h200-gemm-rounds.md"},
    {fp8Rows64Fill, 64, "2026-11-29-h200-m128.md"},
    {fp8Rows128, 0, "2026-11-25-h200-gemm-rounds.md"},
    {prefillRows128, 0, PREFILL_TUNE},
    {idleSmsSpread64, 64, "2026-11-25-h200-direct-wgmma.md"},
    {always, 0, "2026-11-25-h200-direct-wgmma.md"},
};
static const Rule tmaBlockK[] = {
    {bigGridF16, 64, TMA_TUNE},
    {narrow64Columns, 256, TMA_TUNE " 2026-11-24-h200-kheavy-tune.md 2026-11-29-h200-k-depth.md"},
    {always, 128, TMA_TUNE},
};
static const Rule tmaMaxColumns[] = {
    {fp8Operands, 128, "2026-11-23-h100-gemm-tma.md"},
    {always, 256, "2026-11-23-h100-gemm-tma.md"},
};
static const Rule tmaRow256[] = {
    {rows256OneWave, 1, "2026-11-24-h200-tune.md"},
    {always, 0, "2026-11-24-h200-tune.md"},
};
static const Rule tmaRow256K[] = {
    {fp8Operands, 128, "2026-11-24-h200-tune.md"},
    {always, 64, "2026-11-24-h200-tune.md"},
};
/* What step 7 does to the K step. */
enum { KEEP, DOUBLE, TWO_BLOCKS };
static const Rule tmaKDepth[] = {
    {row256Picked, KEEP, "2026-11-24-h200-tune.md"},
    {fp8OneWave, DOUBLE, "2026-11-24-h200-tune.md"},
    {fp8Rows128Doubled, DOUBLE, "2026-11-24-h200-fp8-m128.md " PREFILL_TUNE},
    {bigGrid, KEEP, TMA_TUNE},
    {pastOneWave, TWO_BLOCKS, "2026-11-24-h200-tune.md"},
    {f16Tiles64OneWave, DOUBLE, "2026-11-26-h100-tune-m64-cold.md"},
    {always, KEEP, TMA_TUNE},
};
static const Rule tmaWarps[] = {
    {fp8Past64x128, 8, "2026-11-23-h100-gemm-tma.md"},
    {bigGrid, 8, TMA_TUNE},
    {spread128, 8, "2026-11-25-h200-gemm-rounds.md"},
    {always, 4, TMA_TUNE},
};
static const Rule tmaStagger[] = {
    {manyTileRows, 0, "2026-11-24-h200-k-stagger.md"},
    {kPastN, 0, "2026-11-24-h200-k-stagger.md"},
    {columns256, 1, "2026-11-24-h200-k-stagger.md"},
    {always, 37, "2026-11-24-h200-k-stagger.md"},
};

/* The tables: operands in registers. */
#define GEOMETRY "2026-11-23-h100-geometry.md"
static const Rule regBlockM[] = {
    {mUpTo16, 16, GEOMETRY},
    {mUpTo32, 32, GEOMETRY},
    {always, 64, GEOMETRY},
};
static const Rule regBlockN[] = {
    {rows32Narrow, 32, GEOMETRY " 2026-11-23-h100-gemm.md"},
    {always, 64, GEOMETRY},
};
static const Rule regBlockK[] = {
    {rows16, 256, "2026-11-23-h100-pipeline.md"},
    {rows32Columns32, 256, GEOMETRY},
    {always, 128, "2026-11-23-h100-pipeline.md"},
};
static const Rule regWarps[] = {
    {rows128Up, 8, GEOMETRY},
    {rows64Narrow, 8, GEOMETRY},
    {rows64, 4, GEOMETRY},
    {veryWide32RowsOrFp8, 2, GEOMETRY " 2026-11-23-h100-fp8-tune.md"},
    {always, 4, GEOMETRY},
};

/* The user's value, else the table's pick. */
static int64_t decide(int64_t user, const Rule *rules, size_t n, const Facts *f) {
  return user ? user : pickRule(rules, n, f);
}
#define DECIDE(user, table, f) decide(user, table, sizeof table / sizeof table[0], f)

static void tmaGeometry(Facts *f, DotGeometry *g);
/* Step 0's candidate i for the dot of `given` (g0: its geometry before the rules) into c
 * and gc, and its prefillCost: i = 0 the rules with 128-row tiles, then prefillTiles[i -
 * 1], those only for a static M (they fill the SMs at a known M), without a user's
 * block-k (the rates were measured at their own K steps), where the rules' 128-row pick is
 * not a big grid's (`big`: 256 columns past 4 waves, tuned on its own, TMA_TUNE; the rates
 * were measured up to about 4 waves) and where the tile fits the block's shared memory (a
 * smaller chip would halve it into a tile no rate covers). bestSplit: whether the best
 * pick so far is split (fitRows' split rule). DBL_MAX where the candidate does not apply. */
static double prefillCandidate(const Facts *given, const DotGeometry *g0, size_t i, bool big,
                               bool bestSplit, Facts *c, DotGeometry *gc) {
  *c = *given, *gc = *g0;
  c->prefill = 1;
  if (i == 0 && given->fp8)
    return DBL_MAX; /* (fp8's rules took 128 rows already) */
  if (i > 0) {
    int64_t eb = given->fp8 ? 1 : 2, bk = prefillTiles[i - 1].bk * 2 / eb;
    int64_t bn = prefillTiles[i - 1].bn ? prefillTiles[i - 1].bn
                                        : (given->smemBlock / (4 * bk * eb) - 128) / 16 * 16;
    int64_t bm = prefillTiles[i - 1].fit ? fitRows(given, bn, bk) : 128;
    if (big || given->dynM || given->userBk || bn < 64 || bn > 256 || bm == 0 ||
        (given->fp8 && !prefillTiles[i - 1].fp8) ||
        (!ttWgmmaDirect(bm, bn, prefillTiles[i - 1].warps) && bn % 128) ||
        ttSmemDotBytes(bm, bn, bk) > given->smemBlock)
      return DBL_MAX;
    int64_t programs = gridPrograms((given->m + bm - 1) / bm, given->n, bn);
    c->bm = bm, c->bk = bk; /* (prefillSplit's) */
    int64_t split = prefillSplit(c, programs);
    if ((prefillTiles[i - 1].pastWave && programs <= given->sms) ||
        (prefillTiles[i - 1].fill && programs * split * 8 < given->sms * 7) ||
        (prefillTiles[i - 1].fit && !bestSplit && split > 1 && given->k / split <= PREFILL_MIN_K))
      return DBL_MAX; /* (fit: split-K's own costs, unpriced; see fitRows) */
    c->userBm = bm, c->userBn = bn, c->userBk = bk, c->userWarps = prefillTiles[i - 1].warps;
  }
  tmaGeometry(c, gc);
  c->userBm = given->userBm, c->userBn = given->userBn, c->userBk = given->userBk,
  c->userWarps = given->userWarps; /* (the candidate's picks are the rules', not the user's) */
  return prefillCost(c);
}

/* Steps 1-8 for operands TMA can read. */
static void tmaGeometry(Facts *f, DotGeometry *g) {
  if (f->prefill == 0) { /* f16/fp8PrefillShape: the cheapest candidate by prefillCost */
    f->prefill = -1;
    if ((f16PrefillShape(f) || fp8PrefillShape(f)) && !f->userBm && !f->userBn &&
        !f->userWarps) {
      Facts given = *f, c;
      DotGeometry g0 = *g, gc;
      tmaGeometry(f, g); /* the rules' own pick */
      double best = prefillCost(f);
      bool big = f->big; /* (fp8's own pick has 128 rows; f16's takes candidate 0's) */
      for (size_t i = 0; i <= sizeof prefillTiles / sizeof prefillTiles[0]; i++) {
        bool split = prefillSplit(f, programsOf(f, f->bn)) > 1; /* (the best so far) */
        double cost = prefillCandidate(&given, &g0, i, big, split, &c, &gc);
        big = big || (i == 0 && c.big);
        if (cost < best)
          best = cost, *f = c, *g = gc;
      }
      return;
    }
  }
  f->bm = DECIDE(f->userBm, tmaBlockM, f);
  f->gm = (f->m + f->bm - 1) / f->bm;
  f->big = f->m > 64 && f->bm >= 128 && programsOf(f, 128) > 4 * f->sms && f->k > SHALLOW_K;
  f->bn = DECIDE(f->userBn, tmaBlockN, f);
  while (!f->userBn && f->bn > 64 && f->bn / 2 >= f->n)
    f->bn /= 2; /* no wider than N: columns past it are masked work */
  if (!f->userBm && !f->userBn && !f->userWarps && f->bT) /* 3 */
    f->spread = PICK(tmaSpread, f);
  if (f->spread) {
    int64_t fill = f->spread == 64 ? fp8FillColumns64(f) : 0; /* (fp8Rows64Fill's row) */
    f->bn = fill ? fill : spreadColumns(f, f->spread);
    f->bm = f->spread;
    f->gm = (f->m + f->bm - 1) / f->bm;
  }
  f->bk = DECIDE(f->userBk, tmaBlockK, f);
  if (!f->userBn) { /* 5, 6 */
    int64_t most = PICK(tmaMaxColumns, f);
    f->bn = f->bn < most ? f->bn : most;
    f->row256 = PICK(tmaRow256, f);
  }
  if (f->row256) {
    f->bn = 256;
    f->bk = DECIDE(f->userBk, tmaRow256K, f);
  }
  int64_t depth = f->userBk ? KEEP : PICK(tmaKDepth, f), eb = f->fp8 ? 1 : 2;
  if (depth == DOUBLE)
    f->bk *= 2;
  else if (depth == TWO_BLOCKS) /* the deepest whose 3 stages fit two blocks, >= 128 bytes */
    while (f->bk * eb > 128 && !threeStagesFitTwoBlocks(f))
      f->bk /= 2;
  while (!f->userBk && f->bk / 2 >= f->k && f->bk * eb > 128)
    f->bk /= 2; /* no deeper than K (a step of 128 bytes at least: the swizzle row) */
  while (f->batch != 1 && !f->bT && !f->userBk && f->k % f->bk != 0 && f->bk * eb > 128)
    f->bk /= 2; /* a [B, K, N] operand: steps within one batch where a step divides K
                 * (else a batched box, dot.c) */
  g->warps = DECIDE(f->userWarps, tmaWarps, f);
  g->stagger = PICK(tmaStagger, f);
}

/* (Step 0 included: a prefill shape's columns may be 96 or 256 with `big` false; fuse's
 * K-pad model, the only caller, charges A's re-reads by them.) */
/* The TMA rules' picks for a 2-D m x n x k dot of a transposed weight, default options. */
static Facts defaultTmaFacts(int64_t m, int64_t n, int64_t k, bool fp8) {
  const TtTarget *target = ttTargetDefault();
  Facts f = {.sms = target->numSms, .smemTwoBlocks = ttTargetSmemTwoBlocks(target),
             .smemBlock = ttTargetSmemDynamic(target), .m = m,
             .n = n, .k = k, .batch = 1, .bT = true, .fp8 = fp8};
  DotGeometry g = {0};
  tmaGeometry(&f, &g);
  return f;
}

void tileDotDefaultColumns(int64_t m, int64_t n, int64_t k, int64_t *bn, bool *big) {
  Facts f = defaultTmaFacts(m, n, k, false);
  *bn = f.bn;
  *big = f.big;
}

bool tileDotResidentFits(int64_t m, int64_t n, int64_t k, int64_t kPad, int64_t eb) {
  Facts f = defaultTmaFacts(m, n, k, eb == 1);
  if (f.bm > 64 || f.bm % 8 || f.bk <= 0 || (k * eb) % 4)
    return false; /* (rows under 4-byte pieces: lane by lane, forms.c) */
  TtPassOptions so; /* --splitk's defaults (its floor) */
  TtStr err = {0};
  bool parsed = ttPassParseOptionsTo(ttPassLookup("splitk"), "", &so, &err);
  ttStrDestroy(&err);
  int64_t programs = (m + f.bm - 1) / f.bm * ((n + f.bn - 1) / f.bn), slot = f.bn * f.bk * eb;
  int64_t split = parsed ? ttSplitKShapeSplit(f.bm, f.bn, f.bk, eb, kPad, programs, f.sms,
                                              so.v[TT_SPLITK_FLOOR_NS])
                         : 0;
  split = split < 1 ? 1 : split; /* (under the floor: unsplit, the most bytes) */
  int64_t steps = (kPad + f.bk - 1) / f.bk;
  int64_t bytes = f.bm * ((steps + split - 1) / split) * f.bk * eb + 1024;
  return programs * split > f.sms ? bytes + 3 * slot <= f.smemTwoBlocks /* (forms.c) */
                                  : bytes + 2 * slot <= f.smemBlock;
}

/* Operands staged through registers. */
static void registerGeometry(Facts *f, DotGeometry *g) {
  f->bm = DECIDE(f->userBm, regBlockM, f);
  f->gm = (f->m + f->bm - 1) / f->bm;
  f->bn = DECIDE(f->userBn, regBlockN, f);
  f->bk = DECIDE(f->userBk, regBlockK, f);
  g->warps = DECIDE(f->userWarps, regWarps, f);
  g->stagger = 0;
}

/* The tuning cache's key of a dot (lib/tune.c): "dot BxMxNxK AxB nk|kn", a dynamic M as
 * ?<its bucket's geometry size>, a dynamic batch as ?. */
static void tuneKey(const DotOperands *d, char *buf, size_t n) {
  char batch[24] = "?";
  if (!d->dynBatch)
    snprintf(batch, sizeof batch, "%lld", (long long)d->batch);
  snprintf(buf, n, "dot %sx%s%lldx%lldx%lld %sx%s %s", batch, d->dynM ? "?" : "",
           (long long)d->m, (long long)d->n, (long long)d->k, ttDtypeName(d->elem),
           ttDtypeName(d->belem), d->bT ? "nk" : "kn");
}

/* The rules' picks (steps 1-8) for dot d at m rows under options o, into f and g; true
 * where the operands are TMA boxes. */
static bool dotRules(const DotOperands *d, const TtPassOptions *o, int64_t m, Facts *f,
                     DotGeometry *g) {
  const TtTarget *target = ttTargetForSm((int)o->v[TT_TILE_SM]);
  *f = (Facts){.sms = target->numSms, .smemTwoBlocks = ttTargetSmemTwoBlocks(target),
               .smemBlock = ttTargetSmemDynamic(target),
               /* k: A's own K (a K pad's operand, whose pad only rounds K up to whole
                * lines: the rules were fitted on the shapes' own K) */
               .m = m, .n = d->n, .k = d->ka, .batch = d->dynBatch ? 1 : d->batch,
               .fp8 = ttTypeIsFp8(d->elem), .bT = d->bT, .dynM = d->dynM,
               .userBm = o->v[TT_TILE_BLOCK_M], .userBn = o->v[TT_TILE_BLOCK_N],
               .userBk = o->v[TT_TILE_BLOCK_K], .userWarps = o->v[TT_TILE_NUM_WARPS]};
  bool tma = o->v[TT_TILE_TMA] && target->tma &&
             (d->batch == 1 || (o->v[TT_TILE_TMA_BATCHED] && !d->dynBatch)) &&
             tmaOperands(d); /* options tma and tma-batched (1 by default), on a TMA chip */
  if (tma)
    tmaGeometry(f, g);
  else
    registerGeometry(f, g);
  return tma;
}

int64_t tileDotBlockM(const DotOperands *d, const TtPassOptions *o, int64_t m) {
  Facts f;
  DotGeometry g = {0};
  dotRules(d, o, m, &f, &g);
  return f.bm;
}

/* Option multicast's clusters where they apply (static M, not batched, TMA operands),
 * the shared box split into whole 8-row groups of the 128-byte swizzle, one per block:
 * a grid of one tile row: C column tiles share A's tile when C divides the column tiles
 * (block-m / C a multiple of 8; *operand 0); a grid of exactly C tile rows: the C row
 * tiles of each column share B's tile (its box rows, block-n of an [N, K] B, else
 * block-k, over C a multiple of 8; *operand 1), the programs then in column-major order
 * so that a cluster's C consecutive programs are one column's row tiles. Else 1. */
static int64_t multicastOf(const DotOperands *d, int64_t c, bool tma, const DotGeometry *g,
                           int *operand) {
  int64_t gn = (d->n + g->bn - 1) / g->bn, gm = (d->m + g->bm - 1) / g->bm;
  bool some = c > 1 && tma && !d->dynM && d->batch == 1;
  *operand = 0;
  if (some && gm == 1 && gn % c == 0 && g->bm % (8 * c) == 0)
    return c;
  *operand = 1;
  if (some && gm == c && (d->bT ? g->bn : g->bk) % (8 * c) == 0)
    return c;
  *operand = 0;
  return 1;
}

bool tileDotGeometry(MlirOperation fusion, const DotOperands *d, const TtPassOptions *given,
                     DotGeometry *g) {
  /* The options: the user's where given, else a tuning cache entry's, else the rules'. */
  TtPassOptions tuned = *given;
  const TtPassOptions *o = &tuned;
  tuneKey(d, g->tuneKey, sizeof g->tuneKey);
  g->tuned = ttTuneLookup(g->tuneKey);
  if (g->tuned)
    ttTuneOptions(g->tuned, ttPassLookup("tile"), &tuned);
  const TtTarget *target = ttTargetForSm((int)o->v[TT_TILE_SM]);
  Facts f;
  bool tma = dotRules(d, o, d->m, &f, g);
  /* The rules were fitted on sm_90's 227 KiB a block: on a chip of less (sm_86, sm_89,
   * sm_120: 99 KiB) the columns, then the rows, are halved until the tile fits. */
  while (ttSmemDotBytes(f.bm, f.bn, f.bk) > ttTargetSmemDynamic(target) && !f.userBn && f.bn >= 128)
    f.bn /= 2;
  while (ttSmemDotBytes(f.bm, f.bn, f.bk) > ttTargetSmemDynamic(target) && !f.userBm && f.bm >= 128)
    f.bm /= 2;
  g->bm = f.bm;
  g->bn = f.bn;
  g->bk = f.bk;
  /* Batched, the boxes are of the batches' rows stacked, a [B, K, N] operand whose K the
   * step does not divide a batched box (dot.c). */
  g->boxes = d->batch == 1 || tma;
  g->order = o->v[TT_TILE_ORDER];
  g->group = o->v[TT_TILE_GROUP_M];
  if (o->v[TT_TILE_K_STAGGER] >= 0) /* -1: the shape's (above) */
    g->stagger = o->v[TT_TILE_K_STAGGER];
  g->multicast = multicastOf(d, o->v[TT_TILE_MULTICAST], tma, g, &g->multicastOperand);
  g->clampRows = o->v[TT_TILE_CLAMP_ROWS] == 1;
  if (g->multicast > 1) /* the cluster's blocks walk K together: they share a tile */
    g->stagger = 0;
  if (g->multicast > 1 && g->multicastOperand == 1) /* one column's row tiles in a row */
    g->order = TT_ORDER_COLUMN_MAJOR;
  int64_t vec = 8; /* 16-byte runs of f16/bf16 */
  /* block-m past a power of two: rows fitted to M (step 0's fit), which only wgmma's
   * swapped form runs (M on its narrow side: TMA operands, N whole 64-column blocks a
   * warpgroup) */
  bool fitted = tma && g->bm % 16 == 0 && g->bm <= 256 && g->warps >= 4 && g->warps % 4 == 0 &&
                g->bn % (64 * (g->warps / 4)) == 0;
  bool pow2 = (!(g->bm & (g->bm - 1)) || fitted) && !(g->bk & (g->bk - 1));
  if (!pow2 || g->bm < 16 || g->bn < 16 || g->bn % 16 || g->bk < 32) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld: block-m must be a power of two >= "
                        "16 (or a multiple of 16 up to 256 where operands are TMA boxes and "
                        "block-n is 64 columns a warpgroup), block-n a multiple of 16 and "
                        "block-k a power of two >= 32",
                (long long)g->bm, (long long)g->bn, (long long)g->bk);
    return false;
  }
  /* shared memory (convert-tile-to-gpu): the operands with rows padded by 8 elements, and
   * later the f32 accumulator with rows padded by 4 */
  int64_t smem = ttSmemDotBytes(g->bm, g->bn, g->bk);
  if (smem > ttTargetSmemDynamic(target)) { /* (past 48 KiB: dynamic shared memory) */
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld needs %lld bytes of shared memory; "
                        "at most %lld (%lld KiB) are supported",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)smem,
                (long long)ttTargetSmemDynamic(target), (long long)ttTargetSmemDynamic(target) / 1024);
    return false;
  }
  int64_t t = 32 * g->warps;
  if ((g->bm * g->bk) % (t * vec) || (g->bn * g->bk) % (t * vec) || (g->bm * g->bn) % (t * vec)) {
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld does not split over %lld warps: each of "
                        "the A, B and C tiles must hold a multiple of 8 elements per thread "
                        "(block-m x block-k, block-n x block-k and block-m x block-n multiples "
                        "of 256 x num-warps; with block-m not a power of two, a larger block-k)",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)g->warps);
    return false;
  }
  return true;
}
