/* geometry-rows.c - --tile's geometry of elementwise and row groups: how such a fused
 * function is split into programs.
 *
 * Elementwise groups: blocks of `block-size` elements on up to 4 warps (tileGroupGeometry):
 * 1024 by default, 8 elements a thread; 2048 where every output is fp8 and the grid still
 * fills the SMs (elementBlock). Row groups (tileRowGeometry): the block covers the row where it
 * fits on chip, else a loop over its chunks (the looped form), the row staged in shared
 * memory (the staged form, its last chunks in registers where the row fits once, not
 * twice), or split over a thread-block cluster; the rules and the measurements behind
 * them are below. Options the user gives always win; 0 means "from the shape". Dot
 * geometry is geometry.c's.
 */
#include "tile.h"

#include <stdint.h>

/* Default row geometry, from sweeps on H100 (the times: bench/geometry-rules.md, "Row
 * groups"):
 * - a row on chip up to MAX_ROW elements, about 16 elements per thread below 8192 and 64
 *   from 8192 on (fewer warps to combine, and fewer threads a row: more rows in flight on
 *   an SM; layer_norm 8192x8192 95% of copy bandwidth on 4 warps, 88% on 8);
 * - unless the registers would not hold it: elements per thread x inputs that vary by row
 *   above MAX_LIVE (a weight broadcast along the rows is loaded late, emit.c 5b);
 * - a longer row (a static M) that registers would hold over up to the `cluster` option's
 *   blocks, where the looped form's rows in flight would not stay in L2 (LOOP_L2_BYTES)
 *   and the staged form below does not take it (rows not a multiple of 16 bytes under
 *   stage-odd=0, or row-stage=0), is split over a thread-block cluster of cdiv(its
 *   length, MAX_ROW) blocks, each holding MAX_ROW columns on chip (the reductions
 *   combined across the cluster: rows.c);
 * - else a loop steps over half the row's power of two, at most LOOP_BLOCK, with
 *   LOOP_WARPS (rows off 16-byte alignment: at most UNALIGNED_LOOP_BLOCK): big programs
 *   keep few rows in flight, so each row stays in L2 between its passes. */
#define MAX_ROW 32768
#define MAX_LIVE 128
#define LOOP_BLOCK 32768
#define LOOP_WARPS 32
#define LOOP_INFLIGHT 128
/* Rows off 16-byte alignment (an odd width: an input's row * element bytes not a
 * multiple of 16) load element by element; looped (stage-odd=0, or a row the staged
 * form does not take), they take blocks of at most this many
 * elements (16 warps, 16 elements a thread: two programs an SM). H200, bf16 unless said,
 * the default (32768-element blocks, 16384 for a variance pair) -> 8192: softmax 1000 x
 * 70001 291.8 -> 234.3 us, rms_norm 2048 x 50257 400.6 -> 228.8, layer_norm 1000 x 70001
 * 225.6 -> 202.7, log_softmax f32 2048 x 50257 482.5 -> 425.9; 16384 on 32 warps 0.67x-
 * 1.00x, 4096 on 8 warps 0.60x-1.02x (bench/2026-11-28-h200-odd-rows.md, run 3). */
#define UNALIGNED_LOOP_BLOCK 8192
/* The looped form's L2 budget: its re-reads hit L2 while the rows in flight (one an SM)
 * hold at most this many bytes of inputs that vary by row (H100, 2048 x 65536 bf16, 132
 * rows in flight: softmax's 17 MB all hit; residual + rms_norm's 35 MB miss a third of the
 * time, and split over clusters it runs 1.34x faster; softmax split: 0.86x,
 * bench/2026-11-26-h100-rows.md). Half the 50 MB L2 of H100 and H200. */
#define LOOP_L2_BYTES (25LL << 20)
/* A cluster's block holds 64 elements a thread on 512 threads (128 registers a thread at
 * most): its output needs the row in f32 (64 registers) and each weight's packed row (16
 * registers a byte of element), within this many (layer_norm's weight and bias, 64 + 64:
 * spills, 0.72x of the looped form at 512 x 131072; rms_norm's weight, 64 + 32: 1.05x). */
#define CLUSTER_REGS 112
/* The looped form's online pair (rows.c, 4a': softmax's sum of exp(x - max) in its max's
 * loop, two block reductions a step) saves a pass over the row but holds each step's
 * values across both reductions: they take at most this many bytes a thread as f32
 * (half of 32 warps' 64 registers; two chunks of 32 spill 128 bytes). It runs where the
 * three-pass form's reduction loop takes more than one step a row (one step: its second
 * pass re-reads what the first just read). H100, tt-run us, three passes -> online
 * (bench/2026-11-26-h100-online-rows.md): softmax bf16 1024 x 98304 310 -> 177, 300 x
 * 70001 180 -> 122, f32 1024 x 40000 192 -> 148; one step a row: 2048 x 65536 213 ->
 * 219, 4096 x 40000 258 -> 394. Rows past L2 stay split over clusters (f32 2048 x 65536:
 * 459 split, 526 online). */
#define ONLINE_BYTES 128

/* The staged form (rows.c, 3'): a long row whose on-chip form holds fewer than two rows
 * an SM, where the SM's shared memory holds at least two, is copied there once and each
 * pass reads it there; it walks the row in chunks of STAGE_BLOCK elements on STAGE_WARPS
 * warps, one chunk a step (shared-memory reads need no loads in flight). The on-chip form
 * takes about ONCHIP_REG_BYTES bytes of registers an element of each input that varies by
 * row (ptxas: 95-128 registers a thread holding 64 bf16 elements of one such input,
 * softmax and the norms at 32768 columns: one 512-thread block an SM, 65,536 registers).
 * H200, tt-run, 4096 x 32768 bf16 softmax: on chip 166.8 us (77% of copy), a hand-written
 * staged kernel 137.0 (93.5%; bench/2026-11-27-h200-rows-staged.md). Rows with two or
 * more inputs that vary by row stay on chip: each row's loads are long enough to cover
 * its reductions (residual + rms_norm 4096 x 16384, H200: on chip 95.7 us, staged 104.5;
 * at 32768 on chip 99.7-101.6% of copy; same file, run 3). Rows past the looped form's
 * L2 budget (LOOP_L2_BYTES) are staged too, over the fewest cluster blocks whose parts two
 * fit an SM: read from DRAM once, two or three blocks an SM overlap each other's copies,
 * where the register cluster form holds one half-row an SM and the looped form re-reads
 * DRAM (H200, row-stage=2 against the default: rms_norm 1024 x 131072 0.73x the time,
 * softmax 512 x 131072 0.76x, layer_norm 1024 x 131072 0.87x, residual + rms_norm 2048,
 * 1000 and 512 rows of 65536-98304 0.93x-0.98x; H100: softmax 512 x 131072 0.78x,
 * residual + rms_norm 300 x 70000 0.59x, 512 x 131072 0.97x, 2048 x 65536 0.95x-1.05x
 * in two runs; bench/2026-11-27-h200-rows-past-l2.md). */
/* Few long rows (a static M under 3/8 of the SM count, rows past 16384 elements) are
 * staged over the fewest cluster blocks (up to the `cluster` option) that give a program
 * an SM, each block's part at least FEW_PART_CHUNKS chunks: the looped or staged form
 * keeps one SM a row busy, each waiting on its own loads. H200, bf16, the default
 * against the split (bench/2026-11-27-h200-rows-few.md, runs 1, 3; softmax, layer_norm,
 * rms_norm): 8-48 rows of 32768-131072 0.34x-0.92x the time (8 x 65536 softmax 10.0 ->
 * 4.3 us, 16 x 131072 20.4 -> 7.4, 48 x 65536 layer_norm 9.5 -> 7.6); at 64 rows (48%
 * of the SMs) it went either way (0.78x-1.23x), at 100-200 it lost (1.02x-1.97x);
 * parts of one 4096-element chunk lost to parts of two (32 x 32768: 0.87x-1.02x against
 * 0.76x-0.91x). H100 (run 6): 8-48 rows 0.39x-0.94x. */
/* The same split, at any M within the L2 budget, takes a looped row whose last chunk is
 * partial and whose reductions take more than one step (the row's chunks past the chunks
 * in flight, chunksInFlight): H200, bf16, row-stage=2 against the looped form
 * (bench/2026-11-27-h200-rows-few.md, run 4): 512 rows of 70000, 80000, 90000 and 2000 x
 * 70000: layer_norm 0.40x-0.48x the time, softmax and log_softmax 0.57x-0.89x, rms_norm
 * 0.82x-0.87x; f32 512 x 40000 / 45000 0.70x-0.96x; not where the chunks are whole (512 x
 * 98304: 0.97x-1.11x) or one step takes the row (512 x 60000, two chunks a step: 0.94x-
 * 1.10x). H100 (run 6): 512 x 70000-80000, 2000 x 70000 0.41x-0.90x. */
#define FEW_ROWS_8THS 3
#define FEW_PART_CHUNKS 2
#define STAGE_BLOCK 4096
#define STAGE_WARPS 16
#define ONCHIP_REG_BYTES 6
#define STAGE_OUT_BYTES 64
#define STAGE_OUT_REG_NUM 5
#define STAGE_OUT_REG_DEN 8
/* An on-chip row kernel asks for the programs an SM whose registers give each thread
 * ONCHIP_REG_SLACK times its row's f32 registers (elements a thread x inputs that vary
 * by row): ptxas otherwise spends what a lower count allows (layer_norm 8192 x 8192: 162
 * registers, 3 programs an SM, 70.5 us; capped at 128, 4 programs, no spills, 66.8;
 * every other bench_rows kernel within 128 already; H200,
 * bench/2026-11-27-h200-rows-staged.md). */
#define ONCHIP_REG_SLACK 2

static int64_t clampI(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The looped form's block for a row of power of two `fit` (loops whose lanes carry two
 * values - an argmax's best and column, a variance pair's Welford mean and m2 - hold 16
 * elements a thread: at 32 ptxas spills, 48-1144 bytes for layer_norm's pair), and its
 * warps (16 elements a thread). */
static int64_t loopBlock(int64_t fit, bool twoValues, bool unaligned) {
  int64_t most = LOOP_BLOCK / (twoValues ? 2 : 1);
  if (unaligned && most > UNALIGNED_LOOP_BLOCK)
    most = UNALIGNED_LOOP_BLOCK;
  return fit / 2 < most ? fit / 2 : most;
}
static int64_t loopWarps(int64_t block) { return clampI(block / 32 / 16, 1, LOOP_WARPS); }

/* The default elementwise block: 8 elements a thread on 4 warps, or 16 where every output
 * is one byte (fp8), so that each thread stores one whole 16-byte vector (and loads 32
 * bytes of a 2-byte input), as long as the grid still fills every SM's resident blocks
 * (FILL_BLOCKS of 128 threads an SM, the fewest of the targets: 1536 threads on sm_86 and
 * sm_89): below, more and smaller programs put more SMs to the reads. H200, tt-run --batch,
 * medians of 3-7 rounds (bench/2026-11-30-h200-fp8-quant.md): bf16 -> e4m3 quantization
 * 0.90x-0.92x the time at 4096^2-16384 x 8192, an e4m3 pad of 8192 x 8100 0.81x; at
 * small grids 16 a thread lost (an fp8 GEMM's per-call x pad of 16 x 12352 elements: 97
 * programs, not 193: 17.5 -> 22.9 us; 1.04x-1.07x at 3-128 rows); where the output is 2
 * bytes, 16 a thread changes nothing (bf16 -> f16 0.99x-1.01x) or loses (e4m3 -> bf16
 * 1.34x-1.49x: twice the stores a thread). */
#define FILL_BLOCKS 12
static int64_t elementBlock(MlirOperation fusion, const TtTarget *target) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  bool bytes1 = mlirOperationGetNumOperands(ret) > 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(ret); k++)
    bytes1 &= ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetOperand(ret, k))));
  int64_t n = bytes1 ? ttTensorNumel(mlirValueGetType(mlirOperationGetOperand(ret, 0))) : -1;
  return n > 0 && n / 2048 >= (int64_t)target->numSms * FILL_BLOCKS ? 2048 : 1024;
}

Geometry tileGroupGeometry(MlirOperation fusion, bool row, const TtPassOptions *o) {
  int64_t block = o->v[TT_TILE_BLOCK_SIZE], warps = o->v[TT_TILE_NUM_WARPS];
  Geometry geo = {.block = block,
                  .warps = warps,
                  .rowsPerProgram = 1,
                  .chunksPerStep = 1,
                  .chunksPerStepOut = 1,
                  .rowStage = o->v[TT_TILE_ROW_STAGE],
                  .loopedArg = o->v[TT_TILE_LOOPED_ARG] == 1,
                  .stageRegs = o->v[TT_TILE_STAGE_REGS],
                  .welford = o->v[TT_TILE_ONLINE_VAR] == 1,
                  .stageOdd = o->v[TT_TILE_STAGE_ODD] == 1,
                  .peel = o->v[TT_TILE_PEEL_LAST] == 1,
                  .rowFrame = o->v[TT_TILE_ROW_FRAME] == 1,
                  .persistentOpt = o->v[TT_TILE_PERSISTENT] == 1,
                  .target = ttTargetForSm((int)o->v[TT_TILE_SM]),
                  /* rows: the most; tileRowGeometry picks */
                  .cluster = row ? o->v[TT_TILE_CLUSTER] : 1};
  geo.row = row; /* tileRowGeometry fills the rest */
  if (!geo.row) { /* elementwise defaults: 1024 or 2048 elements, up to 4 warps */
    geo.block = block ? block : elementBlock(fusion, geo.target);
    geo.warps = warps ? warps : clampI(geo.block / 32, 1, 4);
  }
  return geo;
}

/* True when body holds an argmax/argmin: its rows stay on chip up to MAX_ROW whatever
 * their registers (emit.c), and past MAX_ROW take the looped form under the looped-arg
 * option (one pass: rows.c, step 4a''), staged only as few rows split over a cluster. */
static MlirOperation argReduction(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttPrimKind(op) == TT_PRIM_ARGREDUCE)
      return op;
  return (MlirOperation){NULL};
}

/* The inputs of a row fusion that differ from row to row (more than one row of
 * elements, or a dynamic size): their loads are hoisted to the kernel's start (emit.c,
 * 5b), so their registers are held across the reductions. A vector broadcast along the
 * rows (a norm's weight) is loaded where it is used. *bytes: the register bytes an
 * element of each varying input takes, summed; *allBytes: the same over every row-length
 * input (weights too); *memBytes: the bytes of an element of each varying input, summed;
 * *unaligned: a row-length input's rows are off 16-byte alignment. */
/* Whether an input of type t differs from row to row (more than one row of elements, a
 * dynamic size, or with one row (M = 1) the row itself, of the rows' rank), rather than
 * being a vector broadcast along the rows (a norm's weight). */
static bool variesByRow(MlirType t, int64_t rowLen, int64_t rows, int64_t rowRank) {
  int64_t shape[TT_MAX_RANK], numel = ttTensorNumel(t);
  return numel < 0 || numel > rowLen ||
         (rows == 1 && numel == rowLen && ttTensorShape(t, shape) == rowRank);
}

static int64_t rowVaryingInputs(MlirBlock body, int64_t rowLen, int64_t rows,
                                int64_t rowRank, int64_t *bytes, int64_t *allBytes,
                                int64_t *memBytes, bool *unaligned) {
  int64_t n = 0;
  *bytes = *allBytes = *memBytes = 0;
  *unaligned = false;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    int64_t numel = ttTensorNumel(t), eb = ttDtypeBytes(t);
    bool varies = variesByRow(t, rowLen, rows, rowRank);
    if (varies)
      *memBytes += eb;
    if (rowLen * eb % 16 != 0 && (numel < 0 || numel >= rowLen))
      *unaligned = true;
    if (rowLen * eb % 16 != 0 && eb < 4)
      eb = 4; /* rows off 16-byte alignment load element by element, a register each */
    if (varies) {
      n++;
      *bytes += eb;
    }
    if (numel < 0 || numel >= rowLen)
      *allBytes += eb;
  }
  return n;
}

/* The aligned frame of rows off 16-byte alignment (rows.c, 3a; the row-frame option):
 * 16 bytes of the narrowest row-length input, in elements, for a row where some
 * row-length input's rows are off 16-byte alignment, where the frame aligns more of the
 * row's accesses than it puts off alignment (the inputs that vary by row and the outputs
 * of full rows, against the weights: a vector broadcast along the rows, read at the row's
 * own columns), and where the columns it adds (at most that many less one, before the
 * row's start) fit: the staged parts (of a cluster too: part p holds frame columns p * P
 * ..), any looped row (its loops run on to N + frame - 1), an on-chip row's block (not
 * one over a cluster). Not for a variance pair's one loop (welford.c counts a lane's
 * elements as a prefix of the chunks, which the masked head breaks). On chip only for
 * rows of no weights: with one (rms_norm) the frame reads it lane by lane (off alignment)
 * for every row. H200, on chip in the frame against not (groups wholly past the span
 * folded away, rows.c): softmax 0.61x-1.01x the time (8192 x 1001 15.3 -> 9.4 us, 4096 x
 * 4097 0.92x, f32 0.96x, 4096 x 301 0.84x), rms_norm 0.76x-1.24x (4096 x 4097 21.8 ->
 * 27.1), residual + rms_norm 4096 x 4097 1.23x (bench/2026-11-28-h200-rows.md, run 2);
 * looped and staged: runs 10-11 of bench/2026-11-28-h200-odd-rows.md. Returns 0 where
 * none. */
static int64_t rowFrameOf(MlirBlock body, const Geometry *g, bool pairs) {
  int64_t narrowest = 0, aligned = 0, weights = 0, shape[TT_MAX_RANK];
  bool off = false;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    int64_t numel = ttTensorNumel(t), eb = ttDtypeBytes(t);
    if (eb < 1 || 16 % eb || (numel >= 0 && numel < g->rowLen))
      continue;
    bool varies = variesByRow(t, g->rowLen, g->rows, g->rowRank);
    aligned += varies, weights += !varies;
    off = off || g->rowLen * eb % 16 != 0;
    narrowest = narrowest && narrowest < eb ? narrowest : eb;
  }
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(ret, i));
    int64_t r = ttTensorShape(t, shape);
    aligned += r == g->rowRank && r > 0 && shape[r - 1] == g->rowLen;
  }
  if (!g->rowFrame || !off || (!g->looped && weights > 0) || aligned <= weights ||
      (g->welford && pairs))
    return 0;
  int64_t frame = 16 / narrowest, span = g->rowLen + frame - 1;
  if ((g->staged && g->partLen * g->cluster < span) ||
      (!g->looped && (g->cluster > 1 || g->block < span)))
    return 0;
  return frame;
}

/* Chunks a loop step of a looped row kernel computes: the most (a power of two, no more
 * than the row has) whose loads, `bytes` an element of a chunk, stay within LOOP_INFLIGHT
 * bytes a thread; for a reduction loop (`whole`) also a divisor of the row's chunks, so
 * that no step holds a chunk wholly past the row (its selects and adds cost a chunk of
 * math for nothing: H100, 512 x 90000 bf16, two chunks a step against one: rms_norm
 * 103.4 -> 93.8 us, layer_norm 216.7 -> 200.7; the output loop keeps two, softmax 1024 x
 * 98304 176.7 against 185.4 with one; bench/2026-11-26-h100-online-rows.md). */
static int64_t chunksInFlight(const Geometry *g, int64_t bytes, bool whole) {
  int64_t chunks = 1, all = (g->rowLen + g->block - 1) / g->block;
  while (bytes > 0 && chunks * 2 <= all && (!whole || all % (chunks * 2) == 0) &&
         chunks * 2 * g->block / (32 * g->warps) * bytes <= LOOP_INFLIGHT)
    chunks *= 2;
  return chunks;
}

/* Chunks a loop step of an online pair (rows.c, step 4a') computes: the most whose
 * values take, as f32, at most ONLINE_BYTES a thread; at least one, at most
 * chunksPerStep. */
int64_t tileOnlineChunks(const Geometry *g) {
  int64_t chunks = 1, perThread = g->block / (32 * g->warps);
  while (chunks * 2 <= g->chunksPerStep && chunks * 2 * perThread * 4 <= ONLINE_BYTES)
    chunks *= 2;
  return chunks;
}

bool tileStageable(MlirType t, const Geometry *g) {
  int64_t shape[TT_MAX_RANK], eb = ttDtypeBytes(t);
  int64_t r = ttTensorShape(t, shape);
  if (r != g->rowRank || r < 1 || shape[r - 1] != g->rowLen || eb < 1 ||
      (g->rowLen * eb % 16 && !g->stageOdd))
    return false;
  int64_t numel = ttTensorNumel(t); /* full rows of the row space (a dynamic M: any) */
  return numel < 0 ? g->rows < 0 : g->rows > 0 && numel == g->rows * g->rowLen;
}

/* Bytes of shared memory the staged form holds a block's part of a row in (`part`
 * columns): each stageable input's part, in chunks of `block` elements with the
 * lowering's 16-byte pad a chunk (ttSmemTileBytes). */
static int64_t stageBytes(MlirBlock body, const Geometry *g, int64_t block, int64_t part) {
  int64_t bytes = 0, chunks = (part + block - 1) / block;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    if (tileStageable(t, g))
      bytes += chunks * ttSmemTileBytes(1, block, ttDtypeBytes(t));
  }
  return bytes;
}

/* The staged form's warps for chunks of `block`: up to STAGE_WARPS (or the num-warps
 * option). */
static int64_t stageWarps(const Geometry *g, int64_t block) {
  return g->warps ? g->warps : clampI(block / 256, 1, STAGE_WARPS);
}

/* Makes g the staged form: chunks of `block` on stageWarps, each of `cluster` blocks
 * holding `part` columns of the row. */
static void stageRows(Geometry *g, int64_t block, int64_t part, int64_t cluster) {
  g->staged = true;
  g->block = block;
  g->partLen = part;
  g->cluster = cluster;
  g->warps = stageWarps(g, block);
}

/* The staged form's output loop reads the staged inputs from shared memory, but the
 * others (a norm's weight and bias, `bytes` an element) from global memory, whose latency
 * one chunk a step leaves exposed: it takes the most chunks a step (a power of two
 * dividing the `slots`, `per` elements a thread a chunk) whose weight loads stay within
 * STAGE_OUT_BYTES a thread and whose loads (weights and the `staged` bytes an element
 * read from shared memory), as 4-byte registers, stay within STAGE_OUT_REG_NUM /
 * STAGE_OUT_REG_DEN of the `regs` a thread has, their loads issued together (emit.c,
 * 5b): the peeled loop's unmasked steps let ptxas hoist every load of a step. The
 * fraction lies between what spilled and what did not, H200: at 40 registers a thread
 * (three blocks an SM) rms_norm's 4 chunks (32 registers of loads) spilled 16 bytes,
 * 4096 x 32768 147.6 us against 137.9 with 2, layer_norm's 2 (24) did not and 1 was 1.01x-
 * 1.04x slower (bench/2026-11-28-h200-rows.md, run 2); at 64, layer_norm's 4 (48)
 * spilled 60 bytes, rms_norm's 4 did not and 8 (64) spilled
 * (bench/2026-11-27-h200-rows-after-regs.md, run 3). */
static int64_t stagedOutChunks(int64_t per, int64_t slots, int64_t bytes, int64_t staged,
                               int64_t regs) {
  int64_t u = 1;
  while (bytes > 0 && slots % (2 * u) == 0 && 2 * u * per * bytes <= STAGE_OUT_BYTES &&
         2 * u * per * (bytes + staged) / 4 * STAGE_OUT_REG_DEN <= regs * STAGE_OUT_REG_NUM)
    u *= 2;
  return u;
}

/* The registers a thread has where `blocks` blocks of `threads` share an SM (the
 * lowering asks ptxas for that many, .minnctapersm): ptxas allots them 8 at a time. */
static int64_t threadRegs(int64_t blocks, int64_t threads) {
  return clampI(TT_SM_REGISTERS / (blocks * threads), 8, 255) / 8 * 8;
}

/* The staged form with the row's last chunks held in registers (rows.c, 3''): a row
 * whose shared-memory form fits an SM once but not twice keeps its last chunks in
 * registers, as few as leave a part two blocks fit (ttTargetBlocksBySmem, as the
 * lowering counts) and a multiple of the output loop's step
 * (stagedOutChunks, `weightBytes` an element), within stage-regs bytes a thread: two
 * blocks an SM overlap one row's copy with the other's passes, where one block an SM
 * waits on each row's copy. The caller takes it for rows of two or more reduction
 * loops (tileLevelLoops: levels, less a variance's that joins its mean's loop),
 * whose looped form reads the row three times. H200, against that looped form
 * (bench/2026-11-27-h200-rows-regs.md, run B): softmax 2048 x 65536 bf16 (13 chunks in
 * shared memory, 3 in registers) 188.9 -> 136.9 us, log_softmax 0.78x, layer_norm 0.96x,
 * softmax 2048 x 60000 0.75x, f32 1024 x 30000 0.89x; rms_norm's one level 1.03x-1.04x
 * slower (H100, run A: 1.02x-1.10x). Hand-written probes: 128 bytes a thread (8 chunks)
 * spilled at 64 registers; one block an SM of the whole row ran 72.7% of copy on the
 * H200. Returns whether g took it. */
static bool stageWithRegisters(MlirBlock body, Geometry *g, int64_t block,
                               int64_t weightBytes) {
  int64_t chunks = (g->rowLen + block - 1) / block, eb = 0;
  int64_t threads = 32 * stageWarps(g, block);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    eb += tileStageable(t, g) ? ttDtypeBytes(t) : 0;
  }
  /* slots a multiple of the output loop's chunks a step (stagedOutChunks) */
  int64_t step =
      stagedOutChunks(block / threads, 1 << 30, weightBytes, eb, threadRegs(2, threads));
  for (int64_t rc = 1; eb > 0 && rc < chunks && rc * block * eb / threads <= g->stageRegs; rc++)
    if ((chunks - rc) % step == 0 &&
        ttTargetBlocksBySmem(g->target, stageBytes(body, g, block, (chunks - rc) * block)) >= 2) {
      stageRows(g, block, chunks * block, 1);
      g->regChunks = rc;
      return true;
    }
  return false;
}

/* True when every row reduction of body gives f32 (what tile.cluster_reduce combines; an
 * argmax/argmin's index comes from f32 reductions too). */
static bool f32Reductions(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttPrimIsRowReduction(op) && ttPrimKind(op) != TT_PRIM_ARGREDUCE && /* (f32 inside) */
        !mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0)))))
      return false;
  return true;
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
    if (shape[r - 1] < 0) { /* a 1-D dynamic operand: its one dim is the row */
      ttEmitError(op, "tile: a reduction along a dynamic dimension that is the last (a 1-D "
                      "tensor<?>: the row's length known at run time only) is not supported "
                      "yet; reduce a static last dimension, or over the leading dimension of "
                      "a 2-D tensor<?xN> (a column kernel)");
      return false;
    }
    g->rowLen = shape[r - 1];
    g->rowRank = r;
    g->rows = tileIsDynamic(t) ? -1 : ttTensorNumel(t) / g->rowLen; /* -1: at run time */
    int64_t fit = 32;
    while (fit < g->rowLen)
      fit *= 2;
    int64_t perThread = fit >= 8192 ? 64 : 16;
    int64_t onChipWarps = clampI(fit / perThread / 32, 1, 32);
    int64_t rowBytes, allBytes, memBytes; /* rowVaryingInputs' */
    bool unaligned;
    int64_t varying = rowVaryingInputs(body, g->rowLen, g->rows, r, &rowBytes, &allBytes,
                                       &memBytes, &unaligned);
    int64_t sms = g->target->numSms, inFlight = g->rows < 0 || g->rows > sms ? sms : g->rows;
    int64_t live = fit / (32 * onChipWarps) * varying;
    MlirOperation arg = argReduction(body);
    if (!mlirOperationIsNull(arg) && g->rowLen > ((int64_t)1 << 24)) {
      ttEmitError(arg, "tile: argmax/argmin over rows of more than 2^24 elements (%lld) is "
                       "not supported: the column index is found in f32",
                  (long long)g->rowLen);
      return false;
    }
    bool onChip = fit <= MAX_ROW && (live <= MAX_LIVE || !mlirOperationIsNull(arg));
    /* persistent: a static M's row on chip wherever it fits a block, never staged */
    bool persist = g->persistentOpt && g->rows > 0 && fit <= MAX_ROW && !g->block;
    onChip = onChip || persist;
    /* The staged form where the SM's shared memory holds more rows than its registers
     * (row-stage=1: and they hold fewer than two, a row whole, or the rows in flight pass
     * the L2 budget, split over a cluster as for 2; 2: wherever a row fits
     * whole two an SM, else split over the fewest blocks of a cluster whose parts do (up
     * to the `cluster` option; a static M, f32 reductions), else whole where one fits).
     * The split within the L2 budget is not the default: at 65536 columns it ran 0.95x-
     * 1.04x the looped form on an H100 and 0.90x-1.05x on an H200
     * (bench/2026-11-27-h200-rows-staged.md, run 2; bench/2026-11-27-h200-rows-past-l2.md). */
    int64_t maxCluster = g->cluster;
    g->cluster = 1;
    int64_t sblock = fit / 2 < STAGE_BLOCK ? fit / 2 : STAGE_BLOCK;
    int64_t onChipRows = /* the SM's registers, 4 bytes each */
        onChip ? TT_SM_REGISTERS * 4 / (fit * (varying > 0 ? varying : 1) * ONCHIP_REG_BYTES)
               : 1;
    /* a static M whose rows in flight (one an SM) pass the looped form's L2 budget */
    bool pastL2 = g->rows > 0 && inFlight * g->rowLen * memBytes > LOOP_L2_BYTES;
    /* few rows: a static M of long rows that would keep under FEW_ROWS_8THS / 8 of the
     * SMs busy, split until there is a program an SM (parts of FEW_PART_CHUNKS chunks) */
    bool few = g->rows > 0 && g->rows * 8 < FEW_ROWS_8THS * sms && fit > MAX_ROW / 2;
    /* an argmax/argmin reads its row once (rows.c 4a''): staging pays only as the few-rows
     * split over a cluster, each block a part and the (max, column) combined across it */
    bool isArg = !mlirOperationIsNull(arg);
    bool mayStage = !g->block && (!isArg || (few && fit > MAX_ROW)) && g->rowStage > 0 && !persist;
    /* a looped row with a tail chunk whose reductions take more than one step a row */
    Geometry loopG = *g;
    /* loops whose lanes carry two values: an argmax, a variance pair (welford.c) */
    bool pairs = false;
    int loops = tileLevelLoops(body, g->welford, &pairs);
    bool twoValues = !mlirOperationIsNull(arg) || pairs;
    loopG.block = loopBlock(fit, twoValues, unaligned);
    loopG.warps = g->warps ? g->warps : loopWarps(loopG.block);
    bool tail = g->rows > 0 && fit > MAX_ROW && g->rowLen % loopG.block != 0 &&
                (g->rowLen + loopG.block - 1) / loopG.block > chunksInFlight(&loopG, rowBytes, true);
    bool split = isArg ? few : g->rowStage == 2 || pastL2 || few || tail;
    int64_t lastC = split ? maxCluster : 1, bestC = 0, bestPart = 0;
    for (int64_t c = isArg ? 2 : 1; mayStage && c <= lastC; c *= 2) {
      if (c > 1 && (g->rows < 1 || !f32Reductions(body)))
        break;
      int64_t part = ((g->rowLen + c - 1) / c + sblock - 1) / sblock * sblock;
      int64_t sbytes = stageBytes(body, g, sblock, part);
      if (sbytes < 1 || sbytes > ttTargetSmemDynamic(g->target) ||
          part * (c - 1) >= g->rowLen) /* no block wholly past the row */
        continue;
      int64_t stagedRows = ttTargetBlocksBySmem(g->target, sbytes); /* as the lowering */
      if (stagedRows >= 2 && (split || (onChipRows < 2 && (varying < 2 || !onChip)))) {
        if (few && c > 1 && part < FEW_PART_CHUNKS * sblock)
          break;
        bestC = c, bestPart = part;
        if (!few || g->rows * c >= sms)
          break;
      }
    }
    if (bestC)
      stageRows(g, sblock, bestPart, bestC);
    else if (mayStage && !isArg && onChipRows < 2 && (varying < 2 || !onChip) &&
             loops >= 2)
      stageWithRegisters(body, g, sblock, allBytes - rowBytes);
    if (mayStage && g->rowStage == 2 && !g->staged && !isArg) { /* one whole row an SM */
      int64_t sbytes = stageBytes(body, g, sblock, g->rowLen);
      if (sbytes > 0 && sbytes <= ttTargetSmemDynamic(g->target))
        stageRows(g, sblock, (g->rowLen + sblock - 1) / sblock * sblock, 1);
    }
    /* A row past MAX_ROW whose registers would hold it over up to `cluster` blocks (the
     * option; a static M, no argmax, f32 reductions), where the looped form's re-reads
     * would not stay in L2 (its rows in flight, one an SM, past LOOP_L2_BYTES): split over
     * a cluster of them (64 elements a thread). */
    int64_t parts = (g->rowLen + MAX_ROW - 1) / MAX_ROW; /* no block wholly past the row */
    if (!g->block && fit > MAX_ROW && parts <= maxCluster && 64 * varying <= MAX_LIVE &&
        64 + 16 * (allBytes - rowBytes) <= CLUSTER_REGS && pastL2 &&
        mlirOperationIsNull(arg) && f32Reductions(body)) {
      g->cluster = parts;
      g->block = MAX_ROW;
      onChip = true;
    }
    if (!g->block)
      g->block = onChip ? fit : loopBlock(fit, twoValues, unaligned);
    g->looped = g->staged || g->block * g->cluster < g->rowLen;
    if (g->looped && !mlirOperationIsNull(arg) && !g->loopedArg) {
      ttEmitError(arg, "tile: argmax/argmin over rows longer than %d elements is not "
                       "supported under --tile=looped-arg=0 (1, the default, takes the "
                       "looped form)",
                  MAX_ROW);
      return false;
    }
    if (!g->warps)
      g->warps = g->looped ? loopWarps(g->block)
                           : clampI(g->block / perThread / 32, 1, 32);
    g->rowsPerProgram = 1;
    g->chunksPerStep = chunksInFlight(g, rowBytes, true); /* the reductions read the row */
    g->chunksPerStepOut = chunksInFlight(g, allBytes, false); /* the output its weights too */
    g->online = g->looped && tileHasOnlinePair(body) && (g->rowLen + g->block - 1) / g->block > g->chunksPerStep;
    if (g->staged) { /* passes over shared memory: one chunk a step, one reduction a loop */
      g->chunksPerStep = 1, g->online = false;
      /* and no variance pair (welford.c): a pass over shared memory costs less than
       * Welford's update (H100, layer_norm bf16 staged, the pair against its own loop:
       * 512 x 70000 over a cluster 1.12x the time, 1000 x 40000 1.02x, 4096 x 32768
       * 0.99x; looped 1000 and 2048 x 65536 0.91x, f32 var 1024 x 40000 0.94x;
       * bench/2026-11-28-h100-welford.md) */
      g->welford = false;
      int64_t slots = g->partLen / g->block - g->regChunks;
      int64_t blocks =
          ttTargetBlocksBySmem(g->target, stageBytes(body, g, g->block, slots * g->block));
      g->chunksPerStepOut = g->cluster > 1 ? 1
                            : stagedOutChunks(g->block / (32 * g->warps), slots,
                                              allBytes - rowBytes, rowBytes,
                                              threadRegs(blocks, 32 * g->warps));
    }
    if (!g->looped && g->cluster == 1) { /* registers for that many programs an SM */
      int64_t regs = g->block / (32 * g->warps) * (varying > 0 ? varying : 1) * ONCHIP_REG_SLACK;
      int64_t n = TT_SM_REGISTERS / (32 * g->warps * (regs > 32 ? regs : 32));
      g->programsPerSm = n >= 2 ? (n < 32 ? n : 32) : 0;
    }
    g->frame = rowFrameOf(body, g, pairs);
    g->persistent = 0;
    if (persist && !g->looped && g->cluster == 1) { /* the SMs times the programs an SM */
      int64_t p = sms * (g->programsPerSm > 0 ? g->programsPerSm : 1);
      g->persistent = p < g->rows ? p : g->rows;
    }
    while (!g->looped && g->rowsPerProgram * g->block < 1024 &&
           (g->rows < 0 || g->rowsPerProgram < g->rows))
      g->rowsPerProgram *= 2;
    g->row = true;
    return true;
  }
  ttEmitError(fusion, "tile: a row fusion must contain a reduction over the last dimension");
  return false;
}
