/* forms.c - --pipeline's step 1: where a loop's tiles in flight wait (registers, rings of
 * shared-memory slots filled by cp.async, or TMA rings that wgmma reads in place), how
 * many stages fit, and step 5's test for a wgmma left in flight. The numbers behind each
 * rule are in the comments of its function. */
#include "pipeline.h"

#include <string.h>


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

/* Whether value v is some tile.dot's operand `operand`, directly or (viaTrans) through
 * one tile.trans. */
static bool dotOperandOf(MlirValue v, int operand, bool viaTrans) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (ttOpIs(owner, "tile.dot") && mlirOpOperandGetOperandNumber(u) == (unsigned)operand)
      return true;
    if (viaTrans && ttOpIs(owner, "tile.trans") &&
        dotOperandOf(mlirOperationGetResult(owner, 0), operand, false))
      return true;
  }
  return false;
}

/* Whether step 6 shares a load's box over the cluster: a 2-D box (tile.box) whose view
 * (step 1) is some tile.dot's operand `operand` (0: A, 1: B, an [N, K] B through its
 * tile.trans; --tile's tile.multicast_operand). */
bool plSharedBox(MlirOperation load, MlirOperation view, int operand) {
  MlirAttribute box = ttOpAttr(load, "tile.box");
  if (mlirAttributeIsNull(box) || mlirDenseArrayGetNumElements(box) != 2)
    return false;
  return dotOperandOf(mlirOperationGetResult(view, 0), operand, true);
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

/* The rows of the loop's (first) tile.dot result: the tile's M; 0 when none. */
static int64_t dotRows(MlirBlock body) {
  int64_t shape[TT_MAX_RANK];
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    intptr_t rank = ttOpIs(op, "tile.dot")
                        ? ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), shape)
                        : 0;
    if (rank >= 2)
      return shape[rank - 2];
  }
  return 0;
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

/* Step 1's choice: the form (shared when *views is filled) and S; false after an error. */
bool plChooseForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views,
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
 * won: fp8 1 x 8192 x 8192 on 16x64x512 22.0 against 22.5); on one wave, tiles of 64
 * rows or more with smaller slots take more, as many as keep 96 KB in flight
 * (ONE_SM_INFLIGHT_BYTES, below). Under option wave-stages, 2 stages past one wave where
 * three blocks an SM make fewer waves than two (threeBlocksCutWave, below).
 * Its mixed form: a 2-byte dot operand whose box TMA cannot read and that --tile marked
 * `tile.carry` (A of K = 4100 or 3001 read in place, its K pad joined to the dot under
 * --fuse k-pad=in-place) is carried in registers instead (boxed[i] false) while the
 * others take rings, as long as one does and none is fp8 (fp8 wgmma reads both operands
 * from slots); the dot stages it into shared memory each step (convert-tile-to-gpu 5w a),
 * scratch past the rings counted in the budget. False when the loop does not qualify,
 * after an error when `report`. */
/* On a grid of one program an SM (not past a wave; a grid of static size, `exact`: a
 * symbolic one may be many waves at run time), a tile of ONE_SM_RING_ROWS rows or more
 * keeps up to ONE_SM_INFLIGHT_BYTES loading: floor(ONE_SM_INFLIGHT_BYTES / slot) slots in
 * flight, plus the slots its dots read (one; two where a wgmma stays in flight, step 5,
 * which pipeline.c adds once it knows, on long K walks: plOneSmStages), up to
 * MAX_TMA_STAGES where they fit.
 * The caps above (3, or 4 from 7/8 of the SMs) were measured on 40-48 KB slots (2-3 of them
 * in flight); smaller slots left the one program an SM too few bytes in flight. H200,
 * against the caps (bench/2026-11-28-h200-m64-cluster.md, runs 6-8): M = 128 f16/bf16 on
 * 64 x 64 x 128 tiles (32 KB slots, 3 stages -> 4) at 2560^2 11.1 -> 9.3 us, 3584^2 15.0 ->
 * 12.8 (cold); P @ V 12 x 1000 x 128 x 1000 (24 KB slots, 3 -> 6) 11.8 -> 9.8; f16 64 x
 * 3008 x 1000-1024 0.87x-0.91x; every changed case 0.83x-1.03x the time. The bytes in
 * flight, not the ring's (bench/2026-11-29-h200-m128.md, runs 7-8, M = 80-128 on one wave
 * of 64-row tiles): f16 on 32 KB slots with a wgmma in flight took 0.93x-0.99x the time at
 * 5 or 6 stages (3-4 slots, 96-128 KB in flight) of 4 (64 KB), 0.97x-1.05x at 7 (160 KB);
 * fp8 (no wgmma in flight) took 1.02x-1.05x at 5 stages (128 KB in flight) and 1.03x-1.06x
 * at 6 of its 4 (96 KB), and on 36 KB slots 1.05x-1.06x at 5 stages (144 KB) of 4. Not
 * for decode tiles (16 and 32 rows): there more stages moved M = 1-16 by 0.95x-1.05x
 * (run 7 of 2026-11-28: fp8 3584^2 0.95x, f16 1024 x 8192 1.05x). */
#define ONE_SM_RING_ROWS 64
#define ONE_SM_INFLIGHT_BYTES (96 << 10)
#define MAX_TMA_STAGES 8
int64_t plOneSmStages(MlirOperation loop, int64_t programs, bool exact, int64_t slot,
                      int64_t read) {
  if (!exact || programs > numSms() || slot <= 0 ||
      dotRows(ttForBody(loop)) < ONE_SM_RING_ROWS)
    return 0;
  int64_t n = ONE_SM_INFLIGHT_BYTES / slot + read;
  return n > MAX_TMA_STAGES ? MAX_TMA_STAGES : n;
}
/* Option wave-stages: whether 2 stages' rings (slot bytes each, plus `staged` scratch; the
 * accumulator's `acc` bytes after the loop) let three blocks share an SM, and three blocks
 * an SM make fewer waves of `programs` than two do (the two blocks of 3 stages, step 1's
 * pick past one wave). Registers are estimated: the accumulator scratch's fp32 words a
 * thread (its rows padded: 132 on 128 x 128 tiles, 4 warps) plus OTHER_REGS (ptxas: 154
 * registers in all where the accumulator takes 128, so 26 others and a margin), rounded
 * up to ptxas's 8; three blocks need them under the SM's 64 Ki (TT_SM_REGISTERS). (A
 * producer warp, forced by warp-specialize=1, is not counted.) Tuned at 256 x 18944 x
 * 3584 (296 programs of 128x128x64: 2 waves at two blocks an SM, 1 at three; 78.4 -> 61.9
 * us) and 1024 x 6144 x 4096 (384: 86.7 -> 72.3), H200 warm; where the waves do not
 * change two stages lost (1.09x-1.66x; bench/2026-11-29-h200-prefill-tune.md). Checked on
 * the 13 other prefill shapes it changes (M 384-3072, 9 weights, none tuned): 1.19x-1.35x
 * faster, so the default (section 5 there). */
#define OTHER_REGS 32
static bool threeBlocksCutWave(MlirOperation loop, int64_t programs, int64_t slot,
                               int64_t staged, int64_t acc) {
  MlirOperation kernel = mlirOperationGetParentOperation(loop); /* (the K loop's) */
  int64_t threads = 32 * ttOpAttrInt(kernel, "tile.num_warps", 4);
  int64_t regs = (acc / 4 / threads + OTHER_REGS + 7) / 8 * 8, ring = 2 * slot + staged;
  int64_t bytes = ring > acc ? ring : acc;
  if (ttTargetBlocksBySmem(ttTargetDefault(), bytes) < 3 ||
      3 * threads * regs > TT_SM_REGISTERS)
    return false;
  int64_t sms = numSms();
  return (programs + 3 * sms - 1) / (3 * sms) < (programs + 2 * sms - 1) / (2 * sms);
}

/* The resident form (step 1): a load TMA cannot stride (tile.carry: A's rows read in
 * place past a K pad, rows no multiple of 16 bytes) whose dot tile has at most
 * RESIDENT_MAX_ROWS rows is copied whole - every K step of the program's range, one
 * swizzled slot each, as a TMA slot of that view would be laid out - into shared memory
 * once, before the loop (cp.async, the widest the rows' alignment allows), beside the
 * other operand's TMA ring; the loop then waits on that ring alone and wgmma reads both
 * in place. Rows of 2-byte alignment (f16 K = 3001) copy lane by lane (no cp.async under
 * 4 bytes), which takes 255 registers at 64 lanes a thread a step: only fp8 (which has no
 * registers form) or resident=1 copies them. Against --fuse's pad kernel (a launch and a copy of A each call: ~3 us at
 * decode sizes, bench/2026-11-29-h200-k-pad-model.md) and the mixed form (registers,
 * staged by the dot every step: slower than the pad kernel at all 17 shapes of
 * bench/2026-11-27-h200-k-pad-unaligned.md). Decode only: at more rows the pad kernel's
 * copy is small beside the GEMM and the buffer would cut the blocks an SM holds. The
 * bytes of load `view`'s buffer (0: not a candidate). */
#define RESIDENT_MAX_ROWS 64
static int64_t residentBytes(MlirOperation loop, MlirOperation view, int64_t eb) {
  int64_t shape[TT_MAX_RANK], trips = plMostTrips(loop);
  if (mlirOperationIsNull(view) || trips <= 0 ||
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(view, 0)), shape) != 2 ||
      shape[0] > RESIDENT_MAX_ROWS || shape[0] % 8 || (shape[1] * eb) % 128)
    return 0;
  return trips * shape[0] * shape[1] * eb;
}

bool plTmaForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views,
               int64_t *stages, int64_t programs, bool exact, bool report, bool waveStages,
               int64_t *slotBytes, bool *boxed, int want, bool *resident,
               int64_t *residentBytesOut, bool *copied) {
  int64_t slot = 0, staged = 0, res = 0, regBytes[MAX_LOADS] = {0};
  int nboxed = 0, nres = 0, bad = -1;
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
    fp8 = fp8 || eb == 1;
    bool carried = !mlirAttributeIsNull(ttOpAttr(s->loads[i], "tile.carry"));
    /* (auto: rows of 4-byte pieces or more, or fp8, which has no registers form) */
    int64_t rowBytes = rank ? mlirDenseI64ArrayGetElement(box, rank - 1) * eb : 0;
    bool pieces = want == 1 || eb == 1 || rowBytes % 4 == 0;
    copied[i] = false;
    if (!ok && carried && want == 2 && pieces && !mlirOperationIsNull(views[i]) &&
        ttTensorShape(mlirValueGetType(mlirOperationGetResult(views[i], 0)), shape) == 2 &&
        shape[0] <= 256 && shape[0] % 8 == 0 && (shape[1] * eb) % 128 == 0) {
      copied[i] = ok = true; /* the streamed form: a swizzled ring cp.async fills */
      slot += shape[0] * shape[1] * eb;
    }
    boxed[i] = ok;
    nboxed += ok;
    int64_t rb = !ok && carried && want != 0 && pieces ? residentBytes(loop, views[i], eb) : 0;
    resident[i] = rb > 0; /* (a candidate: kept where all of them fit, below) */
    res += rb;
    nres += rb > 0;
    MlirOperation reg =
        ok || !carried || eb != 2 ? (MlirOperation){NULL} : dotView(s->loads[i], false);
    if (!mlirOperationIsNull(reg)) { /* carried in registers, staged by the dot */
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(reg, 0)), shape);
      regBytes[i] = shape[0] * shape[1] * eb;
    } else if (!ok && !rb && bad < 0)
      bad = i;
  }
  /* the resident buffers beside two stages of the rings (and the registers form's
   * staging of the others) - past one wave, beside three, two blocks an SM as below (one
   * block an SM of 64 x 3001 x 4100 fp8's 188 programs: 10.1 -> 13.8 us, H200) - or none:
   * those loads go back to registers */
  int64_t others = 0;
  for (int i = 0; i < s->nloads; i++)
    others += resident[i] ? 0 : regBytes[i];
  if (nres && (programs > numSms() ? res + 3 * slot + others + 1024 > smemTwoBlocks()
                                   : res + 2 * slot + others + 1024 > smemDynamic())) {
    for (int i = 0; i < s->nloads; i++)
      if (resident[i] && !regBytes[i] && bad < 0)
        bad = i; /* (fp8: no registers form) */
    memset(resident, 0, sizeof(bool) * (size_t)s->nloads);
    nres = 0;
    res = 0;
  }
  for (int i = 0; i < s->nloads; i++)
    staged += resident[i] ? 0 : regBytes[i];
  staged += res;
  *residentBytesOut = res;
  if (bad < 0 && (nboxed == 0 || (fp8 && nboxed + nres < s->nloads)))
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
  if (waveStages && waves && exact && *stages == 0 &&
      threeBlocksCutWave(loop, programs, slot, staged, acc))
    *stages = 2; /* option wave-stages */
  if (waves && *stages == 0 && 3 * slot + staged <= smemTwoBlocks() && acc <= smemTwoBlocks())
    *stages = 3; /* two blocks per SM */
  int64_t most = waves || few ? 3 : 4, oneSm = plOneSmStages(loop, programs, exact, slot, 1);
  if (oneSm > most)
    most = oneSm; /* small slots: the bytes in flight (at most MAX_TMA_STAGES) */
  for (int64_t n = most; n >= 2 && *stages == 0; n--) /* one */
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
bool plWgmmaTile(MlirOperation kernel, MlirBlock body, MlirOperation loop, bool report) {
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
bool plInFlightDots(MlirBlock body, int want, int64_t ringBytes, int64_t stages) {
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

static bool clusterReduceOp(MlirOperation op, void *found) {
  *(bool *)found |= ttOpIs(op, "tile.cluster_reduce");
  return !*(bool *)found;
}

/* Step 7's choice: option `want` 1 or 0, or -1 (auto): a producer warp where each dot of
 * the loop waits for its own wgmma (no wgmma in flight: without a producer, a slot's
 * refill waits for the whole step's dot and a block barrier), on 64-row dot tiles of at
 * most MAX_PRODUCER_COLUMNS (96) columns in one warpgroup (tile.num_warps 4), on 4 stages
 * or more, in a kernel of no thread-block cluster (no multicast, no split-K summed in a
 * cluster: tile.cluster_reduce, whose cluster barriers every thread of the block takes,
 * never has a producer). H200, cold (bench/2026-11-29-h200-ws.md): run 3 (medians of 3
 * rounds), the 19 cases of the cold benchmark sets it changed: fp8 at M = 80-128 on one
 * wave of 64x64x256 tiles, 4 stages (3584^2, 4096^2, 6144 x 4096; 1024 x 4096 split 4
 * ways) 0.83x-1.00x the time (128 x 4096^2 9.6 -> 8.5 us), on 64 x 96 tiles (6144 x 4096)
 * 0.94x-0.96x, M = 64 on 6144 x 4096 and 1024 x 8192 (split 8) 0.96x, 0.90x; run 7: on
 * 64 x 80 and 64 x 96 tiles, M = 64-128, 5120 x 4096 and 6144 x 4096, 0.91x-0.97x, but
 * 64 x 10240 x 8192 (64 x 80, weights past L2) 1.03x slower, taken all the same. Not taken
 * where they lost or tied (runs 1-3): 64 x 112 tiles (fp8 64 x 14336 x 4096, 1.06x-1.07x
 * in two runs; its column cap is what MAX_PRODUCER_COLUMNS keeps out), 16-row tiles (M = 16:
 * 1.00x-1.17x), 3 stages (fp8 64 x 4096^2 split 4 ways 1.04x, f16 64 x 3584^2 1.00x), a
 * split-K cluster (fp8 64 x 1024 x 4096 1.14x), and f16/bf16 with their wgmma in flight
 * (0.95x-1.10x; on prefill tiles 1.01x-1.05x, bench/2026-11-29-h200-prefill-tune.md
 * section 12).
 * Prefill: fp8 dots (f16/bf16 were not measured without their wgmma in flight) on dot
 * tiles of 128 rows or more (--tile's rows fitted to M: 144-160 by default) of 8 warps
 * (two consumer warpgroups, at most PREFILL_PRODUCER_COLUMNS columns, 3 stages or more)
 * where A has more rows than one tile:
 * past one row tile the tensor cores bind, and without a block barrier in the loop one
 * warpgroup's wait and promotion overlap the other's wgmma. H200 (section 14 there): the
 * 12 fp8 prefill shapes of section 11 (M 200-2048, 128 x 96 and 128 x 128 x 256 tiles)
 * 0.85x-0.96x the time, geometric mean 0.90x, in 3 rounds of one run. Not taken at one row
 * tile (fp8 M = 96-128 at 14336 x 4096 on 128 x 112: 1.00x-1.04x; the weight read binds
 * there). Prefill's producer is a warpgroup (2) that gives its registers to the consumers
 * (convert-tile-to-gpu: setmaxnreg, 232 a consumer thread where one producer warp's 288
 * threads cap them all at 168): H200 warm, 15 fp8 prefill shapes (section 17 there): 0.81x-
 * 0.95x the time where the 168 spilled (odd-N epilogues 220-472 bytes, 160-row tiles 36:
 * 601 x 4097 x 4096 25.2 -> 20.3 us), 0.99x-1.02x elsewhere. Decode's 4 consumer warps have
 * 255 registers a thread already: a warp. */
#define MAX_PRODUCER_COLUMNS 96
#define PREFILL_PRODUCER_COLUMNS 128
/* The rows of the global tensor a dot's A tile is loaded from (its load's tile.box; 0
 * where it is not a boxed load of a static extent, read through a tensor.expand_shape). */
static int64_t operandRows(MlirOperation dot) {
  MlirValue a = mlirOperationGetOperand(dot, 0);
  for (int hop = 0; hop < 2 && mlirValueIsAOpResult(a); hop++) {
    MlirOperation def = mlirOpResultGetOwner(a);
    if (ttOpIs(def, "tensor.expand_shape")) {
      a = mlirOperationGetOperand(def, 0);
      continue;
    }
    MlirAttribute box = ttOpAttr(def, "tile.box");
    if (!ttOpIs(def, "tile.load") || mlirAttributeIsNull(box) ||
        !mlirAttributeIsADenseI64Array(box) || mlirDenseArrayGetNumElements(box) != 2)
      return 0;
    int64_t r = mlirDenseI64ArrayGetElement(box, 0);
    return r > 0 ? r : 0;
  }
  return 0;
}

int plWarpSpecialize(MlirOperation kernel, MlirBlock body, int want, bool inFlight,
                     int64_t stages, bool multicast) {
  bool cluster = false; /* (its cluster barriers wait for every thread: never a producer) */
  ttWalk(kernel, clusterReduceOp, &cluster);
  if (want >= 0 || cluster)
    return cluster ? 0 : want;
  int64_t warps = ttOpAttrInt(kernel, "tile.num_warps", 4);
  bool prefill = warps == 8;
  if (inFlight || multicast || stages < (prefill ? 3 : 4) || (warps != 4 && !prefill))
    return 0;
  int64_t rows = prefill ? 128 : 64;
  int64_t cols = prefill ? PREFILL_PRODUCER_COLUMNS : MAX_PRODUCER_COLUMNS;
  bool dots = false;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int64_t c[TT_MAX_RANK];
    if (!ttOpIs(op, "tile.dot"))
      continue;
    if (ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 2)), c) != 2 ||
        (prefill ? c[0] < rows : c[0] != rows) || c[1] > cols ||
        (prefill && (operandRows(op) <= c[0] ||
                     ttDtypeBytes(mlirValueGetType(mlirOperationGetOperand(op, 1))) != 1)))
      return 0;
    dots = true;
  }
  return prefill ? (dots ? 2 : 0) : 1;
}
