/* pipeline.c - the --pipeline pass: software pipelining of a dot kernel's K loop (and,
 * under row-loads=1, of the staged row form's chunk loops that load from global memory).
 *
 * Without it, each step of the K loop loads its A and B tiles and then waits for them
 * before the tile.dot: per program, memory and tensor cores take turns. With num-stages =
 * S, the loads of step i + S - 1 are issued at the top of step i, so S - 1 steps of loads
 * are in flight while step i computes. The tiles in flight wait in one of three places
 * (option stage-in; registers by default: on an H100 the shared form was slower at every
 * decode shape swept - 16x8192x8192 f16, split-k 2: 63.4 us against 60.2; 64x28672x8192:
 * 223.9 against 188.4 - since under the 48 KiB static limit only 2 stages of the default
 * tiles fit; bench/2026-11-23-h100-pipeline.md. The TMA form, sm_90a, beat both: 64 x 8192
 * x 8192 52.3 us against 66.0 in registers; stage-in=auto, tt-translate's choice there,
 * takes it wherever the loop qualifies and registers elsewhere):
 *  - shared: each loaded operand gets a ring of S shared-memory slots (tile.local_alloc);
 *    its loads become tile.async_copy (cp.async) into slot (i + S - 1) % S, one group per
 *    step (tile.async_commit), and the tile.dot reads slot i % S (tile.local_load) after a
 *    tile.async_wait that leaves S - 2 groups in flight. No registers hold tiles in flight
 *    and the dot needs no staging copy. It needs every load to feed only tile.dot operands
 *    (through tensor.expand_shape and tile.trans) and the ring to fit in shared memory.
 *  - registers: the loaded tiles are carried by the loop (the lowering keeps scf.for's
 *    carried tiles in registers) and staged into shared memory by each tile.dot.
 *  - tma (sm_90a): like shared, but each operand box is one hopper.tma_load into a ring of
 *    128-byte-swizzled slots that completes on an mbarrier per slot (hopper.mbarrier_wait
 *    with the slot's phase), and wgmma reads the slot in place (tmaForm, wgmmaTile). Its
 *    mixed form: an f16/bf16 operand whose rows TMA cannot stride (a K pad read in place,
 *    --fuse k-pad=in-place) is carried in registers as in the registers form, beside the
 *    other's ring, and the dot stages it (Rings.ring).
 *
 * Algorithm, for each tile kernel with a K loop (ttDotLoop) and S >= 2:
 *  1. The *load slice*: the loop body's tile.load ops and the body ops they depend on
 *     (offsets and masks, computed from the induction variable k). Choose the form: shared
 *     when asked for and every load feeds only dot operands; S = num-stages, or for 0 the
 *     largest S in 2..4 whose rings fit in 48 KiB (and the accumulator's scratch, which
 *     reuses them after the loop; registers with S = 2 when none fits).
 *  2. Prologue, before the loop: for j = 0 .. S-2, a copy of the slice at k = lb + j * step,
 *     each load's mask and-ed with `k < ub` (a loop shorter than S - 1 steps loads nothing
 *     past its end); shared: into slot j, then a commit.
 *  3. A new loop over the same range. Its body: shared: i = (k - lb) / step and a wait
 *     (pending S - 2), then a copy of the slice at k + (S - 1) * step (masked the same
 *     way) into slot (i + S - 1) % S and a commit, then the old body with each load's 2-D
 *     operand view replaced by a tile.local_load of slot i % S. Registers: the loop
 *     carries the old loop's values and S - 1 tiles per load; the slice copy's loads are
 *     yielded, and each old load's result is replaced by its oldest carried tile (the
 *     carried tiles shift by one each step).
 *  4. The old loop's results are replaced by the new loop's; the old loop is erased; in
 *     the shared form a wait with pending 0 follows the loop (no copy outlives it). Dots
 *     that now read slots get their `mma` form again (ttDotRecordMmaForm: a cp.async slot
 *     means mma.sync; fp8 TMA slots run fp8 wgmma). The kernel gets `tile.num_stages = S` (also for S = 1, which changes nothing else), and a
 *     kernel that has it is left alone: tt-translate runs the pass with its defaults on
 *     whatever tt-opt did not pipeline.
 *  5. wgmma-in-flight (tma form, f16/bf16 dots; -1: see inFlightDots): each tile.dot is
 *     followed by hopper.wgmma_wait {pending = 1}, so step i's wgmma still runs while step
 *     i + 1 waits for its boxes and issues its own; slot wr, which step i - 1's wgmma read,
 *     is refilled only after that wait (the refill and its barrier move to the end of the
 *     body), and a hopper.wgmma_wait {pending = 0} follows the loop. The loads run S - 2
 *     steps ahead of the wgmma instead of S - 1; for num-stages = 0 on a grid past one
 *     wave S grows by one where the rings still fit.
 *  6. multicast (tma form, a kernel --tile gave `tile.multicast` = C: C consecutive
 *     column tiles of a grid of one tile row): A's 2-D box (sharedBox) becomes a
 *     hopper.tma_load with `multicast = C` (each block copies R / C of its rows into the
 *     same slot of every block of the cluster; the tensor map's box is R / C rows), the
 *     launch gets `cluster = C`, and since peers now write into this block's slots the
 *     slot order holds over the cluster: a hopper.cluster_barrier after the mbarriers'
 *     init; a cluster_arrive after the prologue; in the loop, the refill of slot wr moves
 *     after the dot (no wgmma in flight) between a cluster_wait (every block is done with
 *     wr, read at step i - 1) and a cluster_arrive (done with rd), so the wait lands a step
 *     after its arrive; a cluster_wait after the loop. The loads run S - 2 steps ahead.
 *     No default takes it: on an H200 and an H100 it lost or tied at M = 64 (A read from
 *     L2 once a cluster, not once a program, was not what bound those shapes;
 *     bench/2026-11-27-h200-multicast.md).
 * Row kernels (option row-loads=1): each chunk loop of --tile's staged row form (it reads
 * a staged row's slots) that also loads from global memory (a norm's weight and bias, one
 * latency a step otherwise) takes steps 1-4 in the registers form with S = 2 (stagedRowLoop,
 * pipelineKernel); a loop whose loads do not qualify for step 1 is left as it is.
 * Persistent rows (--tile persistent=1): the loop over a program's rows (`tile.row_loop`)
 * takes steps 1-4 in the registers form with S = 2 too, its slice limited to the loads
 * that depend on the row (loadSlice's ivOnly: a weight, read at the same columns every
 * row, stays at its first use), so the next row's loads are in flight during this row's
 * reductions (rowLoopLoads).
 */
#include "tt.h"

#include <stdint.h>
#include <stdlib.h>

/* What the stage counts are budgeted with: the SMs and shared memory of the GPU tt-opt's
 * defaults are for (ttTargetDefault: H100 SXM, H200). */
static int64_t numSms(void) { return ttTargetDefault()->numSms; }
static int64_t smemDynamic(void) { return ttTargetSmemDynamic(ttTargetDefault()); }
static int64_t smemTwoBlocks(void) { return ttTargetSmemTwoBlocks(ttTargetDefault()); }

#define MAX_SLICE 256
enum { FORM_REGISTERS, FORM_SHARED, FORM_TMA, FORM_AUTO }; /* the stage-in option's values */
#define MAX_LOADS 8

/* An old-value -> new-value map for cloning the slice. */
typedef struct {
  MlirValue from[MAX_SLICE * 2], to[MAX_SLICE * 2];
  int n;
} ValueMap;

static MlirValue mapped(const ValueMap *m, MlirValue v) {
  for (int i = m->n - 1; i >= 0; i--)
    if (mlirValueEqual(m->from[i], v))
      return m->to[i];
  return v;
}

static void mapPut(ValueMap *m, MlirValue from, MlirValue to) {
  if (m->n < MAX_SLICE * 2) {
    m->from[m->n] = from;
    m->to[m->n++] = to;
  }
}

/* Step 1: the body's ops in order, and which are in the load slice. */
typedef struct {
  MlirOperation ops[MAX_SLICE];
  bool in[MAX_SLICE];
  int n;
  MlirOperation loads[MAX_LOADS];
  int nloads;
} LoadSlice;

static bool usesResultOf(MlirOperation user, MlirOperation def) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(user); k++) {
    MlirValue x = mlirOperationGetOperand(user, k);
    if (mlirValueIsAOpResult(x) && mlirOperationEqual(mlirOpResultGetOwner(x), def))
      return true;
  }
  return false;
}

/* Whether op reads iv or a result of an op of s marked in dep (ops[0..i)). */
static bool readsIv(const LoadSlice *s, const bool *dep, int i, MlirValue iv) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(s->ops[i]); k++) {
    MlirValue x = mlirOperationGetOperand(s->ops[i], k);
    if (mlirValueEqual(x, iv))
      return true;
    for (int j = 0; j < i && mlirValueIsAOpResult(x); j++)
      if (dep[j] && mlirOperationEqual(mlirOpResultGetOwner(x), s->ops[j]))
        return true;
  }
  return false;
}

/* The load slice of body (step 1); with ivOnly, only the loads whose offsets or mask
 * depend on the loop's induction variable (a row loop's rows, not a weight read at the
 * same columns every row). */
static bool loadSlice(MlirBlock body, LoadSlice *s, bool ivOnly) {
  s->n = s->nloads = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (s->n == MAX_SLICE)
      return false;
    s->ops[s->n++] = op;
  }
  bool dep[MAX_SLICE] = {false};
  for (int i = 0; ivOnly && i < s->n; i++)
    dep[i] = readsIv(s, dep, i, mlirBlockGetArgument(body, 0));
  for (int i = s->n - 1; i >= 0; i--) {
    s->in[i] = ttOpIs(s->ops[i], "tile.load") && (!ivOnly || dep[i]);
    for (int j = i + 1; j < s->n && !s->in[i]; j++)
      s->in[i] = s->in[j] && usesResultOf(s->ops[j], s->ops[i]);
    if (ttOpIs(s->ops[i], "tile.load") && (!ivOnly || dep[i]) &&
        mlirOperationGetNumRegions(s->ops[i]) == 0) {
      if (s->nloads == MAX_LOADS)
        return false;
      s->loads[s->nloads++] = s->ops[i];
    }
    if (s->in[i] && mlirOperationGetNumRegions(s->ops[i]) != 0)
      return false; /* a loop or branch computing a load's offsets: not handled */
  }
  /* loads were found last to first: put them in program order */
  for (int i = 0; i < s->nloads / 2; i++) {
    MlirOperation t = s->loads[i];
    s->loads[i] = s->loads[s->nloads - 1 - i];
    s->loads[s->nloads - 1 - i] = t;
  }
  return s->nloads > 0;
}

/* Where the shared and tma forms put the tiles in flight: per load, its ring (and for tma
 * its descriptor argument and its group of S mbarriers); a load without one (ring[i]
 * false: the tma form's register operands, step 1) is carried in registers. */
typedef struct {
  bool tma, ring[MAX_LOADS];
  int64_t multicast[MAX_LOADS]; /* tma: blocks of the cluster that share the box (1: none) */
  MlirValue bufs[MAX_LOADS], descs[MAX_LOADS], bars[MAX_LOADS];
} Rings;

/* A copy of the slice at builder b with the induction variable `iv` mapped to k; each
 * load's mask is and-ed with splat(ok). Registers (no rings, or a load without one): the
 * new loads' results go to out (program order). Shared: load n becomes a tile.async_copy
 * into slot `slot` of its ring; tma: a hopper.tma_load of its box there when ok. */
static void cloneSlice(TtBuilder *b, MlirLocation loc, const LoadSlice *s, MlirValue iv,
                       MlirValue k, MlirValue ok, const Rings *rings, MlirValue slot,
                       MlirValue *out) {
  const MlirValue *bufs = rings ? rings->bufs : NULL;
  ValueMap m = {.n = 0};
  mapPut(&m, iv, k);
  int nl = 0, nc = 0; /* loads, carried loads */
  for (int i = 0; i < s->n; i++) {
    if (!s->in[i])
      continue;
    MlirOperation c = mlirOperationClone(s->ops[i]);
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(c); j++)
      mlirOperationSetOperand(c, j, mapped(&m, mlirOperationGetOperand(c, j)));
    bool ring = ttOpIs(c, "tile.load") && rings && rings->ring[nl];
    if (ring && rings->tma) { /* the box at offsets[0] */
      MlirContext ctx = mlirLocationGetContext(loc);
      MlirNamedAttribute attrs[2] = {
          ttNamedAttr(ctx, "dims", ttOpAttr(c, "tile.box")),
          ttNamedAttr(ctx, "multicast", ttIntAttr(ctx, rings->multicast[nl], ttI32(ctx)))};
      MlirValue ops[6] = {rings->descs[nl], bufs[nl], slot, rings->bars[nl],
                          mlirOperationGetOperand(c, 1), ok};
      ttBuild(b, "hopper.tma_load", loc, 6, ops, ttNoType(), rings->multicast[nl] > 1 ? 2 : 1,
              attrs);
      nl++;
      mlirOperationDestroy(c);
      continue;
    }
    if (ttOpIs(c, "tile.load")) {
      MlirValue mask = mlirOperationGetOperand(c, 2);
      MlirType mt = mlirValueGetType(mask);
      MlirValue okTile = ttBuild(b, "tile.splat", loc, 1, &ok, mt, 0, NULL);
      mask = ttBinary(b, loc, "arith.andi", mask, okTile);
      if (ring) {
        MlirValue ops[5] = {mlirOperationGetOperand(c, 0), mlirOperationGetOperand(c, 1), mask,
                            bufs[nl++], slot};
        ttBuild(b, "tile.async_copy", loc, 5, ops, ttNoType(), 0, NULL);
        mlirOperationDestroy(c);
        continue;
      }
      mlirOperationSetOperand(c, 2, mask);
      out[nc++] = mlirOperationGetResult(c, 0);
      nl++;
    }
    ttInsert(b, c);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(c); r++)
      mapPut(&m, mlirOperationGetResult(s->ops[i], r), mlirOperationGetResult(c, r));
  }
}

/* The shared form's view of a load (step 1): the op whose result is the 2-D operand tile -
 * the load itself, or its one user, a tensor.expand_shape - when that tile is used only as
 * tile.dot's a or b, directly or through tile.trans; else a null op. */
static bool onlyDotOperand(MlirValue v, bool viaTrans) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (ttOpIs(user, "tile.dot") && mlirOpOperandGetOperandNumber(u) < 2)
      continue;
    if (!viaTrans && ttOpIs(user, "tile.trans") &&
        onlyDotOperand(mlirOperationGetResult(user, 0), true))
      continue;
    return false;
  }
  return true;
}

/* Whether step 6 shares a load's box over the cluster: a 2-D box (tile.box) whose view
 * (step 1) is some tile.dot's A operand. */
static bool sharedBox(MlirOperation load, MlirOperation view) {
  MlirAttribute box = ttOpAttr(load, "tile.box");
  if (mlirAttributeIsNull(box) || mlirDenseArrayGetNumElements(box) != 2)
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(view, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (ttOpIs(mlirOpOperandGetOwner(u), "tile.dot") && mlirOpOperandGetOperandNumber(u) == 0)
      return true;
  return false;
}

static MlirOperation dotView(MlirOperation load, bool tma) {
  MlirOperation none = {NULL}, view = load;
  MlirValue v = mlirOperationGetResult(load, 0);
  int64_t shape[TT_MAX_RANK];
  if (ttTensorShape(mlirValueGetType(v), shape) != 2) {
    MlirOpOperand u = mlirValueGetFirstUse(v);
    if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      return none;
    view = mlirOpOperandGetOwner(u);
    if (!ttOpIs(view, "tensor.expand_shape") ||
        ttTensorShape(mlirValueGetType(mlirOperationGetResult(view, 0)), shape) != 2)
      return none;
  }
  /* ldmatrix reads 16-bit slots in place (fp8 tiles widen to f16 in registers first);
   * fp8 wgmma reads fp8 TMA slots */
  int eb = ttDtypeBytes(mlirValueGetType(v));
  if (eb != 2 && !(tma && eb == 1))
    return none;
  return onlyDotOperand(mlirOperationGetResult(view, 0), false) ? view : none;
}

/* Bytes of shared memory the shared form needs with S stages: the rings, or the
 * accumulator's scratch after the loop if larger (the lowering reuses the rings' bytes
 * once the wait after the loop has drained them). */
/* The accumulators' scratch of the loop body's dots (the lowering moves each to the flat
 * layout through shared memory after the loop, reusing the rings' bytes). */
static int64_t accBytes(MlirBlock body) {
  int64_t acc = 0, shape[TT_MAX_RANK];
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "tile.dot") &&
        ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), shape) == 2)
      acc += ttSmemAccBytes(shape[0], shape[1]);
  return acc;
}

static int64_t sharedBytes(const LoadSlice *s, MlirOperation *views, MlirBlock body,
                           int64_t stages) {
  int64_t bytes = 0, acc = accBytes(body), shape[TT_MAX_RANK];
  for (int i = 0; i < s->nloads; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(views[i], 0));
    ttTensorShape(t, shape);
    bytes += stages * ttSmemTileBytes(shape[0], shape[1], ttDtypeBytes(ttElementType(t)));
  }
  return bytes > acc ? bytes : acc;
}

/* `lb + j * step` and whether it is below ub. */
static void stageK(TtBuilder *b, MlirLocation loc, MlirValue base, MlirValue step, int64_t j,
                   MlirValue ub, MlirValue *k, MlirValue *ok) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType i32 = mlirValueGetType(base);
  *k = base;
  if (j)
    *k = ttBinary(b, loc, "arith.addi", base,
                  ttBinary(b, loc, "arith.muli", step, ttConstInt(b, loc, i32, j)));
  MlirNamedAttribute slt = ttNamedAttr(ctx, "predicate",
                                       mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 2));
  *ok = ttBuild(b, "arith.cmpi", loc, 2, (MlirValue[]){*k, ub}, mlirIntegerTypeGet(ctx, 1), 1,
                &slt);
}

/* i32 scalar `x name c` (c a constant). */
static MlirValue binConst(TtBuilder *b, MlirLocation loc, const char *name, MlirValue x,
                          int64_t c) {
  return ttBinary(b, loc, name, x, ttConstInt(b, loc, mlirValueGetType(x), c));
}

static void asyncWait(TtBuilder *b, MlirLocation loc, int64_t pending) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute n = ttNamedAttr(ctx, "pending", ttIntAttr(ctx, pending, ttI32(ctx)));
  ttBuild(b, "tile.async_wait", loc, 0, NULL, ttNoType(), 1, &n);
}

/* Step 1's choice: the form (shared when *views is filled) and S; false after an error. */
static bool chooseForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views,
                       int64_t *stages, bool *shared) {
  bool want = *shared;
  *shared = false;
  for (int i = 0; want && i < s->nloads; i++)
    if (mlirOperationIsNull(views[i] = dotView(s->loads[i], false)))
      want = false;
  MlirBlock body = ttForBody(loop);
  if (want && *stages == 0)
    for (int64_t n = 4; n >= 2 && *stages == 0; n--)
      if (sharedBytes(s, views, body, n) <= TT_SMEM_LIMIT)
        *stages = n;
  if (want && *stages) {
    int64_t bytes = sharedBytes(s, views, body, *stages);
    if (bytes > TT_SMEM_LIMIT) {
      ttEmitError(loop, "pipeline: %lld stages in shared memory need %lld bytes; at most "
                        "%d (48 KiB) are supported (fewer stages, a smaller block-k, or "
                        "stage-in=registers)",
                  (long long)*stages, (long long)bytes, TT_SMEM_LIMIT);
      return false;
    }
    *shared = true;
  }
  if (*stages == 0)
    *stages = 2;
  return true;
}

/* Step 1 for stage-in=tma: every load is a box (tile.box, from --tile: a 2-D matrix, or
 * [B, D0, D1]: B of them, the box within one) of
 * a 2-byte or fp8 type whose rows are a multiple of 16 bytes (TMA's stride rule) and feeds
 * only dot operands, its tile at most 256 rows of a multiple of 128 bytes (boxes of one
 * 128-byte swizzle row: 64 two-byte or 128 fp8 columns) loaded from a kernel argument; S = num-stages, or for
 * 0 the most of 2..4 whose rings (and the accumulator's scratch after the loop) fit the
 * dynamic shared-memory limit; when the grid has more programs than the GPU has SMs, 3
 * stages where they fit half of an SM's shared memory, so that two blocks share each SM
 * (H100, 128 x 8192 x 8192 on 256 programs of 64x64x128: 3 stages 54.5 us, 4 stages (one
 * block) 65.2; where 4 would fit two blocks too, 3 was still faster: H200, 64 x 28672 x
 * 8192 on 64x128x64 120.8 against 124.5, fp8 16 x 28672 x 8192 on 16x128x128 62.4
 * against 63.2, bench/2026-11-24-h200-tune.md), else at most 3 (64 x 28672 x 8192 on
 * 64x128x128 tiles: 165.5 against 169.8 for 4; the TMA sweep,
 * bench/2026-11-23-h100-tma-tune.md); at most 3 also on a grid that fills fewer than
 * 7/8 of the SMs (N = 10240 on 128-column tiles, 80 programs: 16 rows 62.0 against 63.0,
 * 32 rows 63.0 against 64.6, 64 rows 64.4 against 67.5; H200, N = 28672 on 256-column
 * tiles, 112 programs: 114.0 against 118.2, fp8 60.8 against 62.5; with 128 programs 4
 * won: fp8 1 x 8192 x 8192 on 16x64x512 22.0 against 22.5).
 * Its mixed form: a 2-byte dot operand whose box TMA cannot read and that --tile marked
 * `tile.carry` (A of K = 4100 or 3001 read in place, its K pad joined to the dot under
 * --fuse k-pad=in-place) is carried in registers instead (boxed[i] false) while the
 * others take rings, as long as one does and none is fp8 (fp8 wgmma reads both operands
 * from slots); the dot stages it into shared memory each step (convert-tile-to-gpu 5w a),
 * scratch past the rings counted in the budget. False when the loop does not qualify,
 * after an error when `report`. */
static bool tmaForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views,
                    int64_t *stages, int64_t programs, bool report, int64_t *slotBytes,
                    bool *boxed) {
  int64_t slot = 0, staged = 0;
  int nboxed = 0, bad = -1;
  bool fp8 = false;
  for (int i = 0; i < s->nloads; i++) {
    MlirAttribute box = ttOpAttr(s->loads[i], "tile.box");
    int64_t shape[TT_MAX_RANK];
    views[i] = dotView(s->loads[i], true);
    int64_t eb = ttDtypeBytes(mlirValueGetType(mlirOperationGetResult(s->loads[i], 0)));
    intptr_t rank = !mlirAttributeIsNull(box) && mlirAttributeIsADenseI64Array(box)
                        ? mlirDenseArrayGetNumElements(box)
                        : 0;
    bool ok = (rank == 2 || rank == 3) &&
              mlirValueIsABlockArgument(mlirOperationGetOperand(s->loads[i], 0)) &&
              !mlirOperationIsNull(views[i]);
    for (intptr_t j = 0; ok && j < rank; j++) { /* sizes of i32 range (2-D: D0 -1 = `?`) */
      int64_t x = mlirDenseI64ArrayGetElement(box, j);
      ok = (x >= 1 && x <= INT32_MAX) || (rank == 2 && j == 0 && x == -1);
    }
    ok = ok && (mlirDenseI64ArrayGetElement(box, rank - 1) * eb) % 16 == 0;
    if (ok) {
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(views[i], 0)), shape);
      ok = shape[0] <= 256 && (shape[1] * eb) % 128 == 0;
      if (ok)
        slot += shape[0] * shape[1] * eb;
    }
    boxed[i] = ok;
    nboxed += ok;
    fp8 = fp8 || eb == 1;
    bool carry = eb == 2 && !mlirAttributeIsNull(ttOpAttr(s->loads[i], "tile.carry"));
    MlirOperation reg = ok || !carry ? (MlirOperation){NULL} : dotView(s->loads[i], false);
    if (!mlirOperationIsNull(reg)) { /* carried in registers, staged by the dot */
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(reg, 0)), shape);
      staged += shape[0] * shape[1] * eb;
    } else if (!ok && bad < 0)
      bad = i;
  }
  if (bad < 0 && (nboxed == 0 || (fp8 && nboxed < s->nloads)))
    bad = 0; /* no ring, or an fp8 dot not wholly in slots */
  if (bad >= 0) {
    if (report)
      ttEmitError(s->loads[bad], "pipeline: stage-in=tma needs each load of the K loop to "
                                 "be a dot operand box of a 2-D f16/bf16/fp8 matrix, or a "
                                 "batch of them (tile.box, from --tile; sizes of i32 "
                                 "range) whose rows are a "
                                 "multiple of 16 bytes, the tile at most 256 rows of a "
                                 "multiple of 128 bytes (one such box at least: another "
                                 "f16/bf16 dot operand may stay in registers)");
    return false;
  }
  *slotBytes = slot;
  int64_t acc = accBytes(ttForBody(loop)); /* reuses the rings after the loop */
  if (staged) /* the staging scratch sits past the rings, 1024-byte aligned */
    staged += 1024;
  bool waves = programs > numSms(), few = programs * 8 < numSms() * 7;
  if (waves && *stages == 0 && 3 * slot + staged <= smemTwoBlocks() && acc <= smemTwoBlocks())
    *stages = 3; /* two blocks per SM */
  for (int64_t n = waves || few ? 3 : 4; n >= 2 && *stages == 0; n--) /* one */
    if (n * slot + staged <= smemDynamic() && acc <= smemDynamic())
      *stages = n;
  /* stage-in=auto (no report): a given count the rings do not fit takes the most that do
   * (the registers form of 4 stages of 128 x 128 x 128 tiles spills 2.6 KB a thread and
   * ran 45x slower: bench/2026-11-27-h200-multicast.md) */
  while (!report && *stages > 2 && *stages * slot + staged > smemDynamic())
    --*stages;
  int64_t n = *stages ? *stages : 2, bytes = n * slot + staged > acc ? n * slot + staged : acc;
  if (bytes > smemDynamic()) {
    if (report)
      ttEmitError(loop, "pipeline: %lld TMA stages need %lld bytes of shared memory; at "
                        "most %lld are supported",
                  (long long)n, (long long)bytes, (long long)smemDynamic());
    return false;
  }
  return true;
}

/* Step 1 for stage-in=tma: the loop's dots take a wgmma form from TMA slots, which only
 * warpgroup MMA reads (ttMmaFormChoose: whole warpgroups, N a multiple of 64 per warpgroup
 * and M of 8 up to 256, or the direct form's M of 64 per warpgroup and B read K-major; K of
 * 64). False when not, after an error when `report`. */
static bool wgmmaTile(MlirOperation kernel, MlirBlock body, MlirOperation loop, bool report) {
  int64_t warps = ttOpAttrInt(kernel, "tile.num_warps", 4);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int64_t a[TT_MAX_RANK], b[TT_MAX_RANK];
    if (!ttOpIs(op, "tile.dot") ||
        ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), a) != 2 ||
        ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), b) != 2)
      continue;
    /* fp8: fp8 wgmma, both operands K-major (B a tile.trans of an [N, K] box) */
    MlirValue bv = mlirOperationGetOperand(op, 1);
    bool fp8 = ttDtypeBytes(mlirValueGetType(bv)) == 1;
    bool kMajor = ttTransposedView(bv);
    if (ttMmaFormChoose(a[0], b[1], a[1], warps, fp8, kMajor) == TT_MMA_SYNC ||
        (fp8 && !kMajor)) {
      if (report)
        ttEmitError(loop, "pipeline: stage-in=tma feeds warpgroup MMA, which needs num-warps a "
                        "multiple of 4, N a multiple of 64 per warpgroup and M a multiple of "
                        "8 up to 256 (or M 64 per warpgroup, N a multiple of 8 up to 256 and "
                        "B read transposed from an [N, K] matrix), and K of 64 (fp8: of 128, "
                        "B transposed); this dot is %lldx%lldx%lld on %lld warps",
                  (long long)a[0], (long long)b[1], (long long)a[1], (long long)warps);
      return false;
    }
  }
  return true;
}

/* The last op of block b (null when empty). */
static MlirOperation lastOp(MlirBlock b) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    last = op;
  return last;
}

/* hopper.wgmma_wait {pending = n} at b. */
static void wgmmaWait(TtBuilder *b, MlirLocation loc, int64_t n) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute pending = ttNamedAttr(ctx, "pending", ttIntAttr(ctx, n, ttI32(ctx)));
  ttBuild(b, "hopper.wgmma_wait", loc, 0, NULL, ttNoType(), 1, &pending);
}

/* True when the loop's dots leave their wgmma in flight (step 5): each dot's result feeds
 * only the loop's yield (nothing reads a sum still in flight), and option `want` 1, or -1
 * (auto) where a block fills its SM (rings of `ringBytes` past smemTwoBlocks(): no
 * second block's loads run while this one's wgmma does), its dot tiles have 128 rows (the
 * wgmma of a step takes long enough to matter), or 64 on 4+ stages (the loads keep two
 * steps of lead); and only on 2-byte operands (an fp8 dot's promotion reads its sum at
 * once: convert-tile-to-gpu 5w). H200, f16 (bench/2026-11-24-h200-wgmma-in-flight.md):
 * 4096 x 8192 x 8192 (128x256x64, 3 stages of 48 KiB) 910 us -> 790; 128 x 10240 x 8192
 * (128 rows, 3 stages) 61.4 -> 55.6; 128 x 8192 x 28672 149 -> 142; 128 x 8192 x 8192 (64
 * rows, 4 stages) 45.7 -> 44.7; 64 x 8192 x 8192 35.4 -> 35.0; but 64 x 10240 x 8192 (64
 * rows, 3 stages) 44.5 -> 47.9, 128 x 28672 x 8192 (two blocks of 96 KiB per SM) 125.0 ->
 * 128.9, and 16 x 8192 x 8192 32.3 -> 32.4. */
static bool inFlightDots(MlirBlock body, int want, int64_t ringBytes, int64_t stages) {
  bool rows64 = true, rows128 = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int64_t a[TT_MAX_RANK];
    if (!ttOpIs(op, "tile.dot"))
      continue;
    if (ttDtypeBytes(mlirValueGetType(mlirOperationGetOperand(op, 1))) != 2 ||
        ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), a) != 2)
      return false;
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (!ttOpIs(mlirOpOperandGetOwner(u), "scf.yield"))
        return false;
    rows64 = rows64 && a[0] >= 64;
    rows128 = rows128 && a[0] >= 128;
  }
  return want == 1 || (want < 0 && ringBytes > smemTwoBlocks() &&
                       (rows128 || (rows64 && stages >= 4)));
}

/* Moves the ops after `before` (from the first when null) up to `last` to the end of
 * body (a block without its terminator yet). */
static void moveToEnd(MlirBlock body, MlirOperation before, MlirOperation last) {
  MlirOperation op = mlirOperationIsNull(before) ? mlirBlockGetFirstOperation(body)
                                                 : mlirOperationGetNextInBlock(before);
  for (bool done = false; !done;) {
    MlirOperation nextOp = mlirOperationGetNextInBlock(op);
    done = mlirOperationEqual(op, last);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
    op = nextOp;
  }
}

/* Step 5: a hopper.wgmma_wait {pending = 1} after each tile.dot of the new loop's body
 * (which then leaves out its own wait for all), and the refill - the ops after
 * `beforeRefill` (the body's start when null) up to `refillLast` - moved to the end of
 * the body, after the dots. */
static void keepWgmmaInFlight(MlirBlock body, MlirOperation beforeRefill,
                              MlirOperation refillLast) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "tile.dot")) {
      TtBuilder b = {body, mlirOperationGetNextInBlock(op)};
      wgmmaWait(&b, mlirOperationGetLocation(op), 1);
    }
  moveToEnd(body, beforeRefill, refillLast);
}

/* Steps 1-5 for one loop of kernel (the K loop, or a row kernel's chunk loop). */
static bool pipelineLoop(const TtModuleIndex *index, MlirOperation kernel, MlirOperation loop,
                         int64_t stages, int form, int wgmmaInFlight, bool ivOnly) {
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirBlock body = ttForBody(loop);
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  MlirOperation views[MAX_LOADS];
  if (!loadSlice(body, s, ivOnly)) {
    ttEmitError(loop, "pipeline: the K loop must load its tiles with tile.load from offsets "
                      "computed without loops or branches (at most %d loads, %d ops)",
                MAX_LOADS, MAX_SLICE);
    free(s);
    return false;
  }
  char kname[128] = "";
  ttOpAttrStr(kernel, "sym_name", kname, sizeof kname);
  MlirOperation fusion = ttModuleIndexLauncher(index, kname);
  int64_t asked = stages; /* the option (0: from the shape) */
  /* tma (or auto: tma where the loop qualifies, else registers) */
  bool shared = form == FORM_SHARED, tma = form == FORM_TMA || form == FORM_AUTO;
  bool report = form == FORM_TMA, fits = true;
  if (tma && mlirOperationIsNull(fusion)) {
    if (report) {
      ttEmitError(loop, "pipeline: stage-in=tma needs the kernel launched by a fused "
                        "function (its tile.launch gets the TMA descriptors)");
      free(s);
      return false;
    }
    tma = false;
  }
  int64_t slotBytes = 0;
  Rings rings = {.tma = tma};
  if (tma) {
    int64_t tmaStages = stages;
    tma = tmaForm(loop, s, views, &tmaStages, ttLaunchPrograms(fusion), report, &slotBytes,
                  rings.ring) &&
          wgmmaTile(kernel, body, loop, report);
    fits = tma || !report;
    if (tma)
      stages = tmaStages;
  }
  /* TMA rings from the shape (the other forms pick theirs below, uncapped): no more stages
   * than the K loop has steps (at least 2): a slot no step fills only takes shared memory
   * a second block could use (H200, attention scores
   * 32 x 1024 x 1024 x 128 on 128x128x64, 2 K steps: 2 stages 33.3 us, 3 stages 38.1;
   * bench/2026-11-26-h200-bmm-tune.md). */
  int64_t lo = ttConstIntValue(mlirOperationGetOperand(loop, 0)),
          hi = ttConstIntValue(mlirOperationGetOperand(loop, 1)),
          st = ttConstIntValue(mlirOperationGetOperand(loop, 2));
  int64_t trips = lo >= 0 && hi >= lo && st > 0 ? (hi - lo) / st + ((hi - lo) % st != 0) : INT64_MAX;
  if (trips < 2)
    trips = 2;
  if (asked == 0 && stages > trips)
    stages = trips;
  if (fits && !tma)
    fits = chooseForm(loop, s, views, &stages, &shared);
  if (!fits) {
    free(s);
    return false;
  }
  shared = shared || tma; /* both read slots of rings */
  int nl = s->nloads, nc = 0; /* loads, loads carried in registers */
  rings.tma = tma;
  for (int i = 0; i < nl; i++) {
    if (!tma)
      rings.ring[i] = shared;
    nc += !rings.ring[i];
  }
  /* --tile's multicast (step 6): A's box shared by a cluster of column tiles */
  int64_t cluster = tma ? ttOpAttrInt(kernel, "tile.multicast", 1) : 1;
  bool multicast = false;
  for (int i = 0; i < nl; i++) {
    bool shares = cluster > 1 && rings.ring[i] && sharedBox(s->loads[i], views[i]);
    rings.multicast[i] = shares ? cluster : 1;
    multicast |= rings.multicast[i] > 1;
  }
  /* (a dot staging a register operand waits for its wgmma at once: convert-tile-to-gpu 5w) */
  bool inFlight = tma && !nc && !multicast &&
                  inFlightDots(body, wgmmaInFlight, stages * slotBytes, stages);
  /* past one wave, the slot the wgmma in flight holds back comes as a 4th stage where it
   * fits and a block already fills its SM (H200, 4096 x 8192 x 8192 on 128x256x64: 742-779
   * us against 790-817 on 3) */
  if (inFlight && asked == 0 && stages < 4 && stages < trips && ttLaunchPrograms(fusion) > numSms() &&
      stages * slotBytes > smemTwoBlocks() && (stages + 1) * slotBytes <= smemDynamic())
    stages++;
  MlirValue lb = mlirOperationGetOperand(loop, 0), ub = mlirOperationGetOperand(loop, 1),
            step = mlirOperationGetOperand(loop, 2);
  intptr_t nold = mlirOperationGetNumOperands(loop) - 3;
  int carried = (int)(stages - 1) * nc;
  MlirValue *inits = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    inits[i] = mlirOperationGetOperand(loop, 3 + i);
  TtBuilder b = {kbody, loop};
  MlirValue *bufs = rings.bufs;
  MlirAttribute boxes[MAX_LOADS];
  int nboxes = 0;
  for (int i = 0; i < nl; i++) { /* a ring of S slots per operand that has one */
    if (!rings.ring[i])
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(views[i], 0));
    int64_t shape[TT_MAX_RANK + 1] = {stages};
    ttTensorShape(t, shape + 1);
    MlirType ring = mlirMemRefTypeContiguousGet(
        ttElementType(t), 3, shape, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 3));
    bufs[i] = ttBuild(&b, "tile.local_alloc", loc, 0, NULL, ring, 0, NULL);
    if (!tma)
      continue;
    /* its mbarriers, and its descriptor: a kernel argument after all others, named in
     * tile.launch's `tma` as [input, D0, D1, box rows, box columns] */
    MlirNamedAttribute count = ttNamedAttr(ctx, "count", ttIntAttr(ctx, stages, ttI32(ctx)));
    rings.bars[i] = ttBuild(&b, "hopper.mbarrier_alloc", loc, 0, NULL,
                            mlirTypeParseGet(ctx, ttStrRef("!hopper.mbarrier")), 1, &count);
    rings.descs[i] = ttKernelInsertArg(
        kernel, mlirBlockGetNumArguments(kbody), mlirTypeParseGet(ctx, ttStrRef("!hopper.tma_desc")));
    MlirAttribute box = ttOpAttr(s->loads[i], "tile.box");
    MlirValue ptr = mlirOperationGetOperand(s->loads[i], 0);
    intptr_t rank = mlirDenseArrayGetNumElements(box); /* 3: [B, D0, D1], a batched map */
    int64_t entry[6] = {mlirBlockArgumentGetArgNumber(ptr)};
    for (intptr_t j = 0; j < rank; j++)
      entry[1 + j] = mlirDenseI64ArrayGetElement(box, j);
    entry[1 + rank] = shape[1] / rings.multicast[i]; /* multicast: each block R / C rows */
    entry[2 + rank] = 128 / ttDtypeBytes(ttElementType(t)); /* 128 bytes a row */
    boxes[nboxes++] = mlirDenseI64ArrayGet(ctx, 3 + rank, entry);
  }
  if (tma)
    ttLaunchSet(fusion, "tma", mlirArrayAttrGet(ctx, nboxes, boxes));
  if (multicast) { /* clusters of C along x; every block's mbarriers ready before any copy */
    ttLaunchSet(fusion, "cluster", ttIntAttr(ctx, cluster, mlirIntegerTypeGet(ctx, 64)));
    ttBuild(&b, "hopper.cluster_barrier", loc, 0, NULL, ttNoType(), 0, NULL);
  }

  /* Step 2: the prologue. */
  MlirValue iv = mlirBlockGetArgument(body, 0);
  for (int64_t j = 0; j + 1 < stages; j++) {
    MlirValue k, ok;
    stageK(&b, loc, lb, step, j, ub, &k, &ok);
    cloneSlice(&b, loc, s, iv, k, ok, shared ? &rings : NULL, ttConstInt(&b, loc, ttI32(ctx), j),
               inits + nold + j * nc);
    if (shared && !tma)
      ttBuild(&b, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  if (multicast) /* (step 6: pairs with step 0's wait) */
    ttBuild(&b, "hopper.cluster_arrive", loc, 0, NULL, ttNoType(), 0, NULL);

  /* Step 3: the new loop. */
  MlirOperation nloop = ttBuildFor(&b, loc, lb, ub, step, nold + carried, inits);
  MlirBlock nbody = ttForBody(nloop);
  TtBuilder nb = ttBuilderAtEnd(nbody);
  MlirValue niv = mlirBlockGetArgument(nbody, 0);
  MlirValue next[MAX_LOADS], rd = {NULL}, wr = {NULL}, phase = {NULL};
  if (shared) {
    MlirValue i = ttBinary(&nb, loc, "arith.divui", ttBinary(&nb, loc, "arith.subi", niv, lb),
                           step);
    rd = binConst(&nb, loc, "arith.remui", i, stages);
    wr = binConst(&nb, loc, "arith.remui", binConst(&nb, loc, "arith.addi", i, stages - 1), stages);
    if (tma) {
      if (!inFlight && !multicast) /* every thread is done with slot wr (read at i - 1) */
        ttBuild(&nb, "tile.barrier", loc, 0, NULL, ttNoType(), 0, NULL);
      phase = binConst(&nb, loc, "arith.remui", binConst(&nb, loc, "arith.divui", i, stages), 2);
    } else
      asyncWait(&nb, loc, stages - 2);
  }
  /* the refill of slot wr: here, or (wgmma in flight, step 5) after the old body */
  MlirOperation beforeRefill = lastOp(nbody);
  if (inFlight) /* every warpgroup has waited for its step i - 1 wgmma, which read slot wr */
    ttBuild(&nb, "tile.barrier", loc, 0, NULL, ttNoType(), 0, NULL);
  else if (multicast) /* every block of the cluster is done with slot wr (step 6) */
    ttBuild(&nb, "hopper.cluster_wait", loc, 0, NULL, ttNoType(), 0, NULL);
  MlirValue k, ok;
  stageK(&nb, loc, niv, step, stages - 1, ub, &k, &ok);
  cloneSlice(&nb, loc, s, iv, k, ok, shared ? &rings : NULL, wr, next);
  MlirOperation refillLast = lastOp(nbody);
  if (shared && !tma)
    ttBuild(&nb, "tile.async_commit", loc, 0, NULL, ttNoType(), 0, NULL);
  for (int i = 0; tma && i < nl; i++) /* slot rd's boxes have landed */
    if (rings.ring[i])
      ttBuild(&nb, "hopper.mbarrier_wait", loc, 3, (MlirValue[]){rings.bars[i], rd, phase},
              ttNoType(), 0, NULL);
  for (int i = 0, c = 0; i < nl; i++) {
    if (!rings.ring[i]) { /* the oldest carried tile of each carried load */
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(s->loads[i], 0),
                                    mlirBlockGetArgument(nbody, 1 + nold + c++));
      continue;
    }
    MlirValue view = mlirOperationGetResult(views[i], 0);
    MlirValue slot = ttBuild(&nb, "tile.local_load", loc, 2, (MlirValue[]){bufs[i], rd},
                             mlirValueGetType(view), 0, NULL);
    mlirValueReplaceAllUsesOfWith(view, slot);
    if (!mlirOperationEqual(views[i], s->loads[i]))
      mlirOperationDestroy(views[i]); /* the expand_shape; the load goes in step 4 */
  }
  mlirValueReplaceAllUsesOfWith(iv, niv);
  for (intptr_t i = 0; i < nold; i++)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, 1 + i),
                                  mlirBlockGetArgument(nbody, 1 + i));
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation nextOp = mlirOperationGetNextInBlock(op);
    if (!mlirOperationEqual(op, yield)) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(nbody, op);
    }
    op = nextOp;
  }
  if (inFlight) /* step 5 */
    keepWgmmaInFlight(nbody, beforeRefill, refillLast);
  if (multicast) { /* step 6: the refill after the dot, then this block is done with rd */
    moveToEnd(nbody, beforeRefill, refillLast);
    ttBuild(&nb, "hopper.cluster_arrive", loc, 0, NULL, ttNoType(), 0, NULL);
  }
  MlirValue *ys = ttAlloc(sizeof(MlirValue) * (size_t)(nold + carried + 1));
  for (intptr_t i = 0; i < nold; i++)
    ys[i] = mlirOperationGetOperand(yield, i);
  for (int i = nc; i < carried; i++) /* shift the carried tiles by one stage */
    ys[nold + i - nc] = mlirBlockGetArgument(nbody, 1 + nold + i);
  for (int i = 0; i < nc && carried; i++)
    ys[nold + carried - nc + i] = next[i];
  ttBuild(&nb, "scf.yield", loc, nold + carried, ys, ttNoType(), 0, NULL);

  /* Step 4. The moved loads are now unused; so are slice ops used only by them. */
  for (intptr_t i = 0; i < nold; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  mlirOperationGetResult(nloop, i));
  mlirOperationDestroy(loop);
  TtBuilder after = {kbody, mlirOperationGetNextInBlock(nloop)};
  if (inFlight) /* the last step's wgmma, before the barrier below ends the rings' life */
    wgmmaWait(&after, loc, 0);
  if (multicast) /* the last step's arrive */
    ttBuild(&after, "hopper.cluster_wait", loc, 0, NULL, ttNoType(), 0, NULL);
  if (shared) /* (tma: every issued box was waited for; this is the barrier) */
    asyncWait(&after, loc, 0);
  for (int i = s->n - 1; i >= 0; i--) {
    if (!s->in[i] || mlirOperationEqual(s->ops[i], yield))
      continue;
    bool used = false;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(s->ops[i]) && !used; r++)
      used = !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(s->ops[i], r)));
    if (!used)
      mlirOperationDestroy(s->ops[i]);
  }
  if (tma) { /* the clones' masks went unused (after the slice's ops: s->ops is stale now) */
    ttEraseDead(kbody);
    ttEraseDead(nbody);
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(nbody); shared && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) /* the dots' operands moved: their form again */
    if (ttOpIs(op, "tile.dot"))
      ttDotRecordMmaForm(op, ttOpAttrInt(kernel, "tile.num_warps", 4));
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                  ttIntAttr(ctx, stages, ttI32(ctx)));
  free(inits);
  free(ys);
  free(s);
  return true;
}

/* Whether loop is a chunk loop of --tile's staged row form that also loads from global
 * memory: it reads a staged row's slots (tile.local_load) and has tile.load ops (a norm's
 * weight and bias; rows.c, 3'). */
static bool stagedRowLoop(MlirOperation loop) {
  bool slots = false, loads = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(ttForBody(loop)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    slots |= ttOpIs(op, "tile.local_load");
    loads |= ttOpIs(op, "tile.load");
  }
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  bool ok = slots && loads && loadSlice(ttForBody(loop), s, false); /* (else left as it is) */
  free(s);
  return ok;
}

/* Whether a row loop (--tile's persistent rows, `tile.row_loop`) has loads that vary by
 * row, computed without loops or branches (else it is left as it is). */
static bool rowLoopLoads(MlirOperation loop) {
  LoadSlice *s = ttAlloc(sizeof(LoadSlice));
  bool ok = loadSlice(ttForBody(loop), s, true);
  free(s);
  return ok;
}

/* The pass on one kernel: its dot's K loop; or, for a row kernel under row-loads=1, each
 * chunk loop of the staged form that loads from global memory, in the registers form with
 * two stages (each step issues the next step's loads, carried by the loop: their latency
 * overlaps a step's work instead of starting it). */
static bool pipelineKernel(const TtModuleIndex *index, MlirOperation kernel, int64_t stages,
                           int form, int wgmmaInFlight, bool rowLoads) {
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  if (!mlirAttributeIsNull(ttOpAttr(kernel, "tile.num_stages")))
    return true;
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirOperation loop = ttDotLoop(kbody);
  if (mlirOperationIsNull(loop)) {
    for (MlirOperation op = mlirBlockGetFirstOperation(kbody); rowLoads && !mlirOperationIsNull(op);) {
      MlirOperation next = mlirOperationGetNextInBlock(op); /* (the loop is replaced) */
      if (ttOpIs(op, "scf.for") && stagedRowLoop(op) &&
          !pipelineLoop(index, kernel, op, 2, FORM_REGISTERS, 0, false))
        return false;
      op = next;
    }
    for (MlirOperation op = mlirBlockGetFirstOperation(kbody); !mlirOperationIsNull(op);) {
      MlirOperation next = mlirOperationGetNextInBlock(op); /* --tile's persistent rows */
      if (ttOpIs(op, "scf.for") && !mlirAttributeIsNull(ttOpAttr(op, "tile.row_loop")) &&
          rowLoopLoads(op) && !pipelineLoop(index, kernel, op, 2, FORM_REGISTERS, 0, true))
        return false;
      op = next;
    }
    return true;
  }
  if (stages == 1) { /* recorded, so that a later default run (tt-translate) leaves it */
    mlirOperationSetAttributeByName(kernel, ttStrRef("tile.num_stages"),
                                    ttIntAttr(ctx, 1, ttI32(ctx)));
    return true;
  }
  return pipelineLoop(index, kernel, loop, stages, form, wgmmaInFlight, false);
}

bool ttPipelinePass(MlirModule module, const TtPassOptions *opts) {
  TtModuleIndex index; /* the launchers, indexed once (the pass adds no top-level ops) */
  ttModuleIndexInit(&index, module);
  bool ok = true;
  for (int i = 0; i < index.n && ok; i++) {
    MlirOperation op = index.ops[i];
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel"))) {
      TtPassOptions o = ttTunedOptions(op, "pipeline", opts); /* a tuning cache's, where used */
      ok = pipelineKernel(&index, op, o.v[TT_PIPELINE_NUM_STAGES],
                          (int)o.v[TT_PIPELINE_STAGE_IN], (int)o.v[TT_PIPELINE_WGMMA_IN_FLIGHT],
                          o.v[TT_PIPELINE_ROW_LOADS] == 1);
    }
  }
  ttModuleIndexDestroy(&index);
  return ok;
}
