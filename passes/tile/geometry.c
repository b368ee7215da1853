/* geometry.c - --tile's geometry: how a fused function is split into programs.
 *
 * Elementwise groups: blocks of `block-size` elements (1024 by default) on up to 4 warps.
 * Row groups: the block covers the row where it fits on chip, else half its power of two
 * in a loop (tileRowGeometry). Dot groups: the output tile, the K step, the warps and the
 * K stagger by first-match rule tables (tileDotGeometry; the steps are stated above the
 * tables), then checks that the lowering can run the tile. Options the user gives always
 * win; 0 means "from the shape". The measurements behind every default are in
 * bench/geometry-rules.md.
 */
#include "tile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Default row geometry, from sweeps on H100 (the times: bench/geometry-rules.md, "Row
 * groups"):
 * - a row on chip up to MAX_ROW elements, about 16 elements per thread below 8192 and 64
 *   from 8192 on (fewer warps to combine, and fewer threads a row: more rows in flight on
 *   an SM; layer_norm 8192x8192 95% of copy bandwidth on 4 warps, 88% on 8);
 * - unless the registers would not hold it: elements per thread x inputs that vary by row
 *   above MAX_LIVE (a weight broadcast along the rows is loaded late, emit.c 5b);
 * - a longer row (a static M) that registers would hold over up to the `cluster` option's
 *   blocks, where the looped form's rows in flight would not stay in L2 (LOOP_L2_BYTES)
 *   and the staged form below does not take it (rows not a multiple of 16 bytes, or
 *   row-stage=0), is split over a thread-block cluster of cdiv(its length, MAX_ROW)
 *   blocks, each holding MAX_ROW columns on chip (the reductions combined across the
 *   cluster: rows.c);
 * - else a loop steps over half the row's power of two, at most LOOP_BLOCK, with
 *   LOOP_WARPS: big programs keep few rows in flight, so each row stays in L2 between its
 *   passes. */
#define MAX_ROW 32768
#define MAX_LIVE 128
#define LOOP_BLOCK 32768
#define LOOP_WARPS 32
#define LOOP_INFLIGHT 128
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
#define STAGE_SCRATCH 1024 /* a block's reduction scratch and the hardware's 1 KiB */
/* An on-chip row kernel asks for the programs an SM whose registers give each thread
 * ONCHIP_REG_SLACK times its row's f32 registers (elements a thread x inputs that vary
 * by row): ptxas otherwise spends what a lower count allows (layer_norm 8192 x 8192: 162
 * registers, 3 programs an SM, 70.5 us; capped at 128, 4 programs, no spills, 66.8;
 * every other bench_rows kernel within 128 already; H200,
 * bench/2026-11-27-h200-rows-staged.md). */
#define ONCHIP_REG_SLACK 2

static int64_t clampI(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The looped form's block for a row of power of two `fit` (an argmax's loops hold 16
 * elements a thread: at 32 ptxas spills), and its warps (16 elements a thread). */
static int64_t loopBlock(int64_t fit, bool arg) {
  int64_t most = LOOP_BLOCK / (arg ? 2 : 1);
  return fit / 2 < most ? fit / 2 : most;
}
static int64_t loopWarps(int64_t block) { return clampI(block / 32 / 16, 1, LOOP_WARPS); }

Geometry tileGroupGeometry(bool row, int64_t block, int64_t warps, int64_t cluster,
                           int64_t rowStage, bool loopedArg, int64_t stageRegs) {
  Geometry geo = {.block = block,
                  .warps = warps,
                  .rowsPerProgram = 1,
                  .chunksPerStep = 1,
                  .chunksPerStepOut = 1,
                  .rowStage = rowStage,
                  .loopedArg = loopedArg,
                  .stageRegs = stageRegs,
                  .cluster = row ? cluster : 1}; /* rows: the most; tileRowGeometry picks */
  geo.row = row; /* tileRowGeometry fills the rest */
  if (!geo.row) { /* elementwise defaults: 1024 elements, up to 4 warps */
    geo.block = block ? block : 1024;
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
 * input (weights too); *memBytes: the bytes of an element of each varying input, summed. */
static int64_t rowVaryingInputs(MlirBlock body, int64_t rowLen, int64_t rows,
                                int64_t rowRank, int64_t *bytes, int64_t *allBytes,
                                int64_t *memBytes) {
  int64_t n = 0;
  *bytes = *allBytes = *memBytes = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    int64_t shape[TT_MAX_RANK], numel = ttTensorNumel(t), eb = ttDtypeBytes(t);
    /* one row (M = 1): the input of the rows' rank is the row, not a weight */
    bool varies = numel < 0 || numel > rowLen ||
                  (rows == 1 && numel == rowLen && ttTensorShape(t, shape) == rowRank);
    if (varies)
      *memBytes += eb;
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
  if (r != g->rowRank || r < 1 || shape[r - 1] != g->rowLen || eb < 1 || g->rowLen * eb % 16)
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

/* Makes g the staged form: chunks of `block` on up to STAGE_WARPS warps (or the
 * num-warps option), each of `cluster` blocks holding `part` columns of the row. */
static void stageRows(Geometry *g, int64_t block, int64_t part, int64_t cluster) {
  g->staged = true;
  g->block = block;
  g->partLen = part;
  g->cluster = cluster;
  g->warps = g->warps ? g->warps : clampI(block / 256, 1, STAGE_WARPS);
}

/* The staged form's output loop reads the staged inputs from shared memory, but the
 * others (a norm's weight and bias, `bytes` an element) from global memory, whose latency
 * one chunk a step leaves exposed: it takes the most chunks a step (a power of two
 * dividing the `slots`, `per` elements a thread a chunk) whose weight loads stay within
 * STAGE_OUT_BYTES a thread, their loads issued together (emit.c, 5b). */
static int64_t stagedOutChunks(int64_t per, int64_t slots, int64_t bytes) {
  int64_t u = 1;
  while (bytes > 0 && slots % (2 * u) == 0 && 2 * u * per * bytes <= STAGE_OUT_BYTES)
    u *= 2;
  return u;
}

/* The levels of dependent row reductions in body (emitLevels' loops: softmax's max, then
 * its sum; rms_norm's one sum). */
static int reductionLevels(MlirBlock body) {
  TtPtrIndex depth = {0}; /* op -> its level (the most among its operands, +1 a reduction) */
  int most = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int d = 0;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue x = mlirOperationGetOperand(op, k);
      int dx = mlirValueIsAOpResult(x) ? ttPtrIndexFind(&depth, mlirOpResultGetOwner(x).ptr) : 0;
      d = dx > d ? dx : d;
    }
    d += ttPrimIsRowReduction(op);
    most = d > most ? d : most;
    ttPtrIndexPut(&depth, op.ptr, d);
  }
  ttPtrIndexDestroy(&depth);
  return most;
}

/* The staged form with the row's last chunks held in registers (rows.c, 3''): a row
 * whose shared-memory form fits an SM once but not twice keeps its last chunks in
 * registers, as few as leave a part two blocks fit (the lowering counts a block's
 * buffers and 2 KiB, kernel.c's ctasPerSm) and a multiple of the output loop's step
 * (stagedOutChunks, `weightBytes` an element), within stage-regs bytes a thread: two
 * blocks an SM overlap one row's copy with the other's passes, where one block an SM
 * waits on each row's copy. The caller takes it for rows of two or more reduction
 * levels, whose looped form reads the row three times. H200, against that looped form
 * (bench/2026-11-27-h200-rows-regs.md, run B): softmax 2048 x 65536 bf16 (13 chunks in
 * shared memory, 3 in registers) 188.9 -> 136.9 us, log_softmax 0.78x, layer_norm 0.96x,
 * softmax 2048 x 60000 0.75x, f32 1024 x 30000 0.89x; rms_norm's one level 1.03x-1.04x
 * slower (H100, run A: 1.02x-1.10x). Hand-written probes: 128 bytes a thread (8 chunks)
 * spilled at 64 registers; one block an SM of the whole row ran 72.7% of copy on the
 * H200. Returns whether g took it. */
static bool stageWithRegisters(MlirBlock body, Geometry *g, int64_t block, int64_t smem,
                               int64_t weightBytes) {
  int64_t chunks = (g->rowLen + block - 1) / block, eb = 0;
  int64_t threads = 32 * (g->warps ? g->warps : clampI(block / 256, 1, STAGE_WARPS));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    eb += tileStageable(t, g) ? ttDtypeBytes(t) : 0;
  }
  /* slots a multiple of the output loop's chunks a step (stagedOutChunks) */
  int64_t step = stagedOutChunks(block / threads, 1 << 30, weightBytes);
  for (int64_t rc = 1; eb > 0 && rc < chunks && rc * block * eb / threads <= g->stageRegs; rc++)
    if ((chunks - rc) % step == 0 &&
        smem / (stageBytes(body, g, block, (chunks - rc) * block) + 2 * STAGE_SCRATCH) >= 2) {
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
    int64_t varying =
        rowVaryingInputs(body, g->rowLen, g->rows, r, &rowBytes, &allBytes, &memBytes);
    int64_t sms = ttTargetDefault()->numSms, inFlight = g->rows < 0 || g->rows > sms ? sms : g->rows;
    int64_t live = fit / (32 * onChipWarps) * varying;
    MlirOperation arg = argReduction(body);
    if (!mlirOperationIsNull(arg) && g->rowLen > ((int64_t)1 << 24)) {
      ttEmitError(arg, "tile: argmax/argmin over rows of more than 2^24 elements (%lld) is "
                       "not supported: the column index is found in f32",
                  (long long)g->rowLen);
      return false;
    }
    bool onChip = fit <= MAX_ROW && (live <= MAX_LIVE || !mlirOperationIsNull(arg));
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
    int64_t smem = (int64_t)ttTargetDefault()->smemSmKiB * 1024;
    int64_t onChipRows = /* registers: 65,536 of 4 bytes an SM */
        onChip ? (int64_t)65536 * 4 / (fit * (varying > 0 ? varying : 1) * ONCHIP_REG_BYTES) : 1;
    /* a static M whose rows in flight (one an SM) pass the looped form's L2 budget */
    bool pastL2 = g->rows > 0 && inFlight * g->rowLen * memBytes > LOOP_L2_BYTES;
    /* few rows: a static M of long rows that would keep under FEW_ROWS_8THS / 8 of the
     * SMs busy, split until there is a program an SM (parts of FEW_PART_CHUNKS chunks) */
    bool few = g->rows > 0 && g->rows * 8 < FEW_ROWS_8THS * sms && fit > MAX_ROW / 2;
    /* an argmax/argmin reads its row once (rows.c 4a''): staging pays only as the few-rows
     * split over a cluster, each block a part and the (max, column) combined across it */
    bool isArg = !mlirOperationIsNull(arg);
    bool mayStage = !g->block && (!isArg || (few && fit > MAX_ROW)) && g->rowStage > 0;
    /* a looped row with a tail chunk whose reductions take more than one step a row */
    Geometry loopG = *g;
    loopG.block = loopBlock(fit, false);
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
      if (sbytes < 1 || sbytes > ttTargetSmemDynamic(ttTargetDefault()) ||
          part * (c - 1) >= g->rowLen) /* no block wholly past the row */
        continue;
      int64_t stagedRows = smem / (sbytes + STAGE_SCRATCH);
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
             reductionLevels(body) >= 2)
      stageWithRegisters(body, g, sblock, smem, allBytes - rowBytes);
    if (mayStage && g->rowStage == 2 && !g->staged && !isArg) { /* one whole row an SM */
      int64_t sbytes = stageBytes(body, g, sblock, g->rowLen);
      if (sbytes > 0 && sbytes <= ttTargetSmemDynamic(ttTargetDefault()))
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
      g->block = onChip ? fit : loopBlock(fit, !mlirOperationIsNull(arg));
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
      g->chunksPerStepOut = g->cluster > 1 ? 1
                            : stagedOutChunks(g->block / (32 * g->warps),
                                              g->partLen / g->block - g->regChunks,
                                              allBytes - rowBytes);
    }
    if (!g->looped && g->cluster == 1) { /* registers for that many programs an SM */
      int64_t regs = g->block / (32 * g->warps) * (varying > 0 ? varying : 1) * ONCHIP_REG_SLACK;
      int64_t n = 65536 / (32 * g->warps * (regs > 32 ? regs : 32));
      g->programsPerSm = n >= 2 ? (n < 32 ? n : 32) : 0;
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

/* Dot geometry --------------------------------------------------------------------------
 * The defaults are rules: one first-match table per decision, each row a named predicate
 * on the dot (Facts), the pick it makes and the bench/ table that justified it. The
 * measurements behind each table are in bench/geometry-rules.md, one section per table
 * (named as the table). The decisions run in this order, each reading what the earlier
 * ones picked:
 *  operands TMA can read (option tma, tmaOperands; the wgmma-on-TMA-rings sweeps):
 *   1. block-m (tmaBlockM), and the grid's tile rows;
 *   2. block-n (tmaBlockN);
 *   3. the spread (tmaSpread): where the tiles so far leave SMs idle (or, fp8 past 64
 *      rows, always where it fits), 64- or 128-row tiles of the fewest columns that spread
 *      N over the SMs, in wgmma's direct form (B read K-major);
 *   4. block-k (tmaBlockK);
 *   5. at most tmaMaxColumns columns (fp8: the promotion's second accumulator);
 *   6. 256-column rows (tmaRow256: up to 32 rows, one wave of 256 columns) with K steps of
 *      tmaRow256K;
 *   7. the K step's depth (tmaKDepth: keep, double, or halve until two blocks share an SM);
 *   8. warps (tmaWarps) and the K stagger (tmaStagger);
 *  otherwise (fp8 B not K-major, a batched [B, K, N] B with K < 64, rows TMA cannot
 *  stride; tma=0), operands staged
 *  through registers: block-m, block-n, block-k and warps (regBlockM ... regWarps).
 * An option the user gives replaces its decision's pick; steps 3, 5, 6 and 7 leave alone
 * what the user gave (block-m, block-n or num-warps turn the spread off; block-n turns off
 * 5 and 6; block-k 6's K step and 7). */

/* What the rules read: the dot, the user's options and the picks made so far. */
typedef struct {
  int64_t sms, smemTwoBlocks; /* of the GPU the picks are for (ttTargetDefault) */
  int64_t m, n, k, batch;
  bool fp8, bT;
  int64_t userBm, userBn, userBk, userWarps; /* 0: not given */
  int64_t bm, bn, bk; /* the picks so far */
  int64_t gm;         /* the grid's tile rows: cdiv(m, bm) */
  bool big;           /* 128-row tiles (block-m's pick) of 128 columns past 4 waves, K
                       * deeper than SHALLOW_K */
  int64_t spread;     /* rows of the spread tile (step 3), 0 when none */
  bool row256;        /* step 6 made 256-column rows */
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
/* 64-row tiles of 65 to 256 columns spread N where the tiles so far fill under 7/8 of the
 * SMs; not for tiles of 16 or 32 rows. */
static bool idleSmsSpread64(const Facts *f) {
  return spreadColumns(f, 64) > 64 && (f->m > 64 || f->bm == 64) &&
         programsOf(f, f->bn) * 8 < f->sms * 7;
}

static bool bigGridF16(const Facts *f) { return f->big && !f->fp8; }
/* Up to 32 rows on 64 columns. */
static bool narrow64Columns(const Facts *f) { return f->bn == 64 && f->bm <= 32; }
static bool f16KPastNNarrow(const Facts *f) {
  return narrow64Columns(f) && !f->fp8 && f->k > f->n;
}
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
/* fp8 on 128-row tiles of the default columns (block-n not given), up to two waves,
 * where K has two steps of twice the K step. */
static bool fp8Rows128TwoWaves(const Facts *f) {
  return f->fp8 && f->bm == 128 && !f->userBn && programsOf(f, f->bn) <= 2 * f->sms &&
         f->k >= 2 * f->bk;
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
    {fp8Rows128, 0, "2026-11-25-h200-gemm-rounds.md"},
    {idleSmsSpread64, 64, "2026-11-25-h200-direct-wgmma.md"},
    {always, 0, "2026-11-25-h200-direct-wgmma.md"},
};
static const Rule tmaBlockK[] = {
    {bigGridF16, 64, TMA_TUNE},
    {f16KPastNNarrow, 128, "2026-11-24-h200-k-stagger.md"},
    {narrow64Columns, 256, TMA_TUNE " 2026-11-24-h200-kheavy-tune.md"},
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
    {fp8Rows128TwoWaves, DOUBLE, "2026-11-24-h200-fp8-m128.md"},
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

/* Steps 1-8 for operands TMA can read. */
static void tmaGeometry(Facts *f, DotGeometry *g) {
  f->bm = DECIDE(f->userBm, tmaBlockM, f);
  f->gm = (f->m + f->bm - 1) / f->bm;
  f->big = f->m > 64 && f->bm >= 128 && programsOf(f, 128) > 4 * f->sms && f->k > SHALLOW_K;
  f->bn = DECIDE(f->userBn, tmaBlockN, f);
  while (!f->userBn && f->bn > 64 && f->bn / 2 >= f->n)
    f->bn /= 2; /* no wider than N: columns past it are masked work */
  if (!f->userBm && !f->userBn && !f->userWarps && f->bT) /* 3 */
    f->spread = PICK(tmaSpread, f);
  if (f->spread) {
    f->bn = spreadColumns(f, f->spread);
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
    while (f->bk * eb > 128 && 3 * (f->bm + f->bn) * f->bk * eb > f->smemTwoBlocks)
      f->bk /= 2;
  while (!f->userBk && f->bk / 2 >= f->k && f->bk * eb > 128)
    f->bk /= 2; /* no deeper than K (a step of 128 bytes at least: the swizzle row) */
  while (f->batch != 1 && !f->bT && !f->userBk && f->k % f->bk != 0 && f->bk * eb > 128)
    f->bk /= 2; /* a [B, K, N] operand: steps within one batch where a step divides K
                 * (else a batched box, dot.c) */
  g->warps = DECIDE(f->userWarps, tmaWarps, f);
  g->stagger = PICK(tmaStagger, f);
}

void tileDotDefaultColumns(int64_t m, int64_t n, int64_t k, int64_t *bn, bool *big) {
  const TtTarget *target = ttTargetDefault();
  Facts f = {.sms = target->numSms, .smemTwoBlocks = ttTargetSmemTwoBlocks(target), .m = m,
             .n = n, .k = k, .batch = 1, .bT = true};
  DotGeometry g = {0};
  tmaGeometry(&f, &g);
  *bn = f.bn;
  *big = f.big;
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
  const TtTarget *target = ttTargetDefault();
  *f = (Facts){.sms = target->numSms, .smemTwoBlocks = ttTargetSmemTwoBlocks(target),
               /* k: A's own K (a K pad's operand, whose pad only rounds K up to whole
                * lines: the rules were fitted on the shapes' own K) */
               .m = m, .n = d->n, .k = d->ka, .batch = d->dynBatch ? 1 : d->batch,
               .fp8 = ttTypeIsFp8(d->elem), .bT = d->bT,
               .userBm = o->v[TT_TILE_BLOCK_M], .userBn = o->v[TT_TILE_BLOCK_N],
               .userBk = o->v[TT_TILE_BLOCK_K], .userWarps = o->v[TT_TILE_NUM_WARPS]};
  bool tma = o->v[TT_TILE_TMA] && (d->batch == 1 || (o->v[TT_TILE_TMA_BATCHED] && !d->dynBatch)) &&
             tmaOperands(d); /* options tma and tma-batched (1 by default) */
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

bool tileDotGeometry(MlirOperation fusion, const DotOperands *d, const TtPassOptions *given,
                     DotGeometry *g) {
  /* The options: the user's where given, else a tuning cache entry's, else the rules'. */
  TtPassOptions tuned = *given;
  const TtPassOptions *o = &tuned;
  tuneKey(d, g->tuneKey, sizeof g->tuneKey);
  g->tuned = ttTuneLookup(g->tuneKey);
  if (g->tuned)
    ttTuneOptions(g->tuned, ttPassLookup("tile"), &tuned);
  const TtTarget *target = ttTargetDefault();
  Facts f;
  bool tma = dotRules(d, o, d->m, &f, g);
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
  if (smem > ttTargetSmemDynamic(target)) { /* (past 48 KiB: dynamic shared memory) */
    ttEmitError(fusion, "tile: dot tile %lldx%lldx%lld needs %lld bytes of shared memory; "
                        "at most %lld (%lld KiB) are supported",
                (long long)g->bm, (long long)g->bn, (long long)g->bk, (long long)smem,
                (long long)ttTargetSmemDynamic(target), (long long)ttTargetSmemDynamic(target) / 1024);
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
