/* lower.h - the private header of --convert-tile-to-gpu (conversion/tile-to-gpu/).
 *
 * The lowering of tile kernels to gpu.func is split by op family, as Triton's
 * TritonGPUToLLVM is; kernel.c's head states the whole algorithm and its steps:
 *   kernel.c        steps 1, 2 and 4: the layout, the gpu.func, the walk over the kernel
 *                   body (an op-name -> function table), scf.for, views; the pass entry
 *   common.c        the value table (Lowered), op builders, shared-memory buffers
 *   elementwise.c   step 2 for arith/math ops (axis facts, fast tanh) and the index ops
 *                   (program_id, num_programs, range, splat)
 *   load-store.c    step 3: tile.load, tile.store, tile.atomic_add
 *   reduce.c        tile.reduce across threads, warps and shared memory
 *   trans.c         tile.trans: a view for tile.dot, else an exchange through shared
 *                   memory (the permute kernels)
 *   dot.c           step 5's dispatcher for tile.dot: operand staging, accumulator
 *                   layouts, the choice of mma.sync or wgmma
 *   dot-mma-sync.c  step 5 on mma.sync.m16n8k16 (ldmatrix from padded shared memory)
 *   dot-wgmma.c     step 5w on warpgroup MMA (swizzled shared memory, descriptors)
 *   async-copy.c    step 6: shared-memory rings filled by cp.async
 *   hopper.c        step 7: TMA copies, mbarriers, programmatic dependent launch
 * Functions shared between these files carry the prefix `tg`; each file's own helpers
 * stay static. Prototypes are grouped under a banner per file, as in tt.h.
 */
#ifndef TT_TILE_TO_GPU_LOWER_H
#define TT_TILE_TO_GPU_LOWER_H

#include "tt.h"

#define MAX_REPS 64
_Static_assert(MAX_REPS >= TT_MMA_MAX_PARTS, "a wgmma accumulator must fit a Lowered");
/* Threads an SM holds at once (sm_80 and sm_90). A memory-bound kernel needs many loads
 * in flight: each kernel asks ptxas (`nvvm.minctasm`) for registers that let an SM hold
 * this many register groups (threads x REPS), so more REPS need fewer threads. */
#define MAX_THREADS_PER_SM 2048
#define BIG_DIV ((int64_t)1 << 30)

/* What is known of an i32 tile or scalar (see step 2). `seq` (0: as contig): runs of
 * `seq` consecutive values whose position is a multiple of `seq`, their first value of
 * unknown alignment (a row of an odd-width matrix: row * 3001 + column). */
typedef struct {
  int64_t contig, constancy, div, seq;
} Axis;

/* A tile value after lowering. */
typedef struct {
  MlirValue key;
  MlirValue parts[MAX_REPS]; /* scalars: parts[0] */
  int n;                     /* parts used */
  Axis axis;
  MlirOperation def; /* the tile op that defined key (null for arguments) */
  /* tile.dot's layouts (step 5): an accumulator held as mma.sync fragments (parts are
   * vector<4xf32>, one per 16x8 fragment, see MmaLayout) of an mmaM x mmaN tile; or a
   * transposed view (tile.trans) of a tile held in the flat layout of its operand. */
  bool mma, trans;
  TtMmaForm form; /* with mma: the fragments' form (mma.sync, or wgmma's two: 5w) */
  int64_t mmaM, mmaN;
  /* Shared memory (step 6): a tile.local_alloc ring (sbuf, its row pitch ld and slot size
   * in elements), or a tile held there (tile.local_load; parts[0] is the i32 element
   * offset of its first row in sbuf). */
  bool shared;
  bool swz; /* a ring (or a slot of one) that TMA fills: 5w's swizzled layout, unpadded */
  MlirValue sbuf;
  int64_t ld, slotElems;
} Lowered;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;
  int64_t T, VEC, REPS; /* REPS: the most any tile of the kernel has */
  MlirValue tid; /* i32 thread index in the layout (a producer warp: tid - T, so that it
                    computes what threads 0-31 do) */
  MlirValue threadId; /* i32 thread index in the block */
  int64_t leader;     /* the block thread that runs tgThread0's ops: 0, or T in a
                         warp-specialised kernel's producer region */
  MlirOperation gpuModule; /* where the kernel goes (and its shared-memory scratch) */
  TtStrIndex *gpuNames;    /* the sym_names in gpuModule (kept by the pass, O(1) checks) */
  Lowered **vals; /* each allocated alone: pointers stay valid as the table grows */
  int nvals, capvals;
  TtPtrIndex valIndex; /* value -> its last definition in vals (tgLookup in O(1)) */
  char smemName[160];  /* the kernel's shared-memory buffer (tile.dot), made at the end */
  int64_t smemBytes;
  /* tile.local_alloc rings sit in that buffer below ringTop; scratch goes above them
   * while they live, from 0 once they are drained for good (step 6) */
  int64_t ringTop;
  bool ringsDead;
  bool wgmma;      /* mma=wgmma: tile.dot on warpgroup MMA where the tile fits (5w) */
  bool selectLoads; /* masked-loads >= 1: masked vector loads without a branch (3, 1') */
  bool oneAddressLoads; /* masked-loads=2: a one-address group as one load (1u) */
  const TtTarget *target; /* the target of option sm (its vector reds, for step 3) */
  bool smemAlign;  /* the buffer holds swizzled wgmma operands: align it to 1024 bytes */
  bool dynamic;    /* the buffer is dynamic shared memory (TMA rings: past 48 KiB) */
  bool pdl;        /* the kernel has a hopper.griddep_wait: its launch may be early */
  MlirValue base;  /* with dynamic: the buffer's start, rounded up to 1024 bytes */
  int nbars;       /* mbarrier groups made so far (each a shared global) */
  int nclusterSlots; /* tile.cluster_reduce ops lowered so far (each a shared slot): the
                        kernel then waits for its cluster before it returns */
  int64_t producerWarps; /* tile.producer_warps: warps after the T threads (a TMA producer) */
  int64_t ctas;          /* blocks an SM the kernel asks for (nvvm.minctasm) */
  MlirValue inProducer;  /* with producerWarps: i1, threadId >= T (hopper.producer_warp) */
  bool consumers; /* lowering a warp-specialised kernel's consumer region: block barriers
                     are named barrier 1 of the T consumer threads */
  bool remoteArrives; /* a hopper.mbarrier_arrive on peers' mbarriers was lowered: a later
                         hopper.cluster_barrier releases them (not relaxed) */
  bool asyncProxy; /* cp.async copies into a swizzled buffer wgmma reads were lowered:
                      every later tile.async_wait fences them to the async proxy */
  bool failed;
} Lower;

/* How the slow path of step 3 finds lane i of group r: its offset, and its mask bit. When
 * the offsets are contiguous, lane i's offset is lane 0's plus i; when the mask is
 * `x < y` with x contiguous and y constant over the group, lane i's bit is x0 + i < y0
 * (over runs shorter than the group: from the first lane of i's run).
 * Computing these from lane 0 inside the slow path (rather than extracting lanes of
 * vectors computed before the branch) keeps the fast path free of per-lane work. */
typedef struct {
  MlirValue offs, mask;
  bool contig;    /* the group's offsets are one run: run == VEC */
  int64_t run;    /* the offsets are runs of `run` consecutive values, each aligned to
                     its bytes (a power of two, 1 to VEC): lane i's offset is that of
                     the first lane of its run plus i % run */
  MlirValue x, y; /* the mask's `x < y` operands (null when not of that form) */
  int64_t mrun;   /* x runs in steps of one, and y is constant, over runs of mrun lanes */
  int64_t pred;
  int r;          /* the register group */
  bool allOn;     /* the mask is a constant true tile (a row's whole chunk: --tile's
                     peel-last), and the offsets run on over the group (seq): lane i is
                     at lane 0's address plus i, no select */
} Lanes;

/* The warps' split of an mma.sync accumulator (step 5b): WM x WN warps, each MT x NT
 * fragments of 16 x 8. */
typedef struct {
  int64_t wm, wn, mt, nt;
} MmaLayout;

/* The lane-dependent indices of a warp: its warp coordinates and lane. */
typedef struct {
  MlirValue lane, wmI, wnI;
} WarpPos;

/* common.c */
int64_t tgGcd64(int64_t a, int64_t b);
int64_t tgMaxI(int64_t a, int64_t b);
int64_t tgPow2Div(int64_t v);
Lowered *tgLookup(Lower *l, MlirValue v);
/* The lowered values of op's first n operands into out (NULL where one is not lowered). */
void tgOperands(Lower *l, MlirOperation op, int n, Lowered **out);
bool tgIsTile(MlirValue v);
Lowered *tgDefine(Lower *l, MlirValue key);
MlirType tgVecOf(Lower *l, MlirType elem);
MlirValue tgBuild(Lower *l, const char *name, intptr_t n, const MlirValue *ops,
                  MlirType t, intptr_t na, const MlirNamedAttribute *attrs);
MlirValue tgExtract(Lower *l, MlirValue vec, int64_t lane);
MlirValue tgInsert(Lower *l, MlirValue scalar, MlirValue vec, int64_t lane);
MlirValue tgGpuIndex(Lower *l, const char *name, int64_t axis);
MlirValue tgLoadPtr(Lower *l, MlirValue p, MlirType t, int64_t align);
/* llvm.store of v at p, align an alignment attribute or NULL; fp8 as its i8 storage. */
void tgStore(Lower *l, MlirValue v, MlirValue p, const MlirNamedAttribute *align);
/* llvm.mlir.poison of type t (fp8: of its i8 storage, cast back). */
MlirValue tgPoison(Lower *l, MlirType t);
MlirValue tgGep(Lower *l, MlirValue ptr, MlirValue off, MlirType elem);
MlirNamedAttribute tgAlignAttr(Lower *l, int64_t bytes);
MlirOperation tgBuildIf(Lower *l, MlirValue cond, MlirType result);
MlirBlock tgIfBlock(MlirOperation ifOp, int which);
void tgYield(Lower *l, MlirBlock blk, MlirValue v);
void tgSharedGlobal(Lower *l, const char *name, int64_t bytes, int64_t align,
                    bool external);
MlirValue tgSharedAddress(Lower *l, const char *name);
MlirValue tgConstI32(Lower *l, int64_t v);
MlirValue tgArithC(Lower *l, const char *name, MlirValue a, int64_t b);
MlirValue tgArith(Lower *l, const char *name, MlirValue a, MlirValue b);
MlirValue tgSmemBase(Lower *l);
MlirValue tgScratchSmem(Lower *l, int64_t bytes, int64_t align);
void tgBarrier(Lower *l);
/* fence.proxy.async.shared::cta: this thread's shared-memory writes made visible to the
 * async proxy (wgmma's operand reads, TMA). */
void tgFenceProxyAsync(Lower *l);
/* The element offset of (row, col) in 5w's 128-byte-swizzled layout of a rows x C tile of
 * eb-byte elements: blocks of 128-byte columns, rows x 128 bytes each, whose 16-byte
 * chunks are xor-ed with row % 8 (TMA's SWIZZLE_128B from a 1024-byte aligned base).
 * `inChunk`: col need not be a multiple of a chunk's elements. */
MlirValue tgSwizzledOffset(Lower *l, MlirValue row, MlirValue col, int64_t rows, int64_t eb,
                           bool inChunk);
void tgRunAt(Lower *l, int r, int64_t cols, MlirValue *row, MlirValue *col);
MlirValue tgSlice2(Lower *l, MlirValue v, int64_t at, MlirType t);
/* fp8 x (a vector or a scalar) widened exactly to f16 of its shape, a pair of bytes a
 * hardware convert (sm_89+): dot.c's register operands, elementwise.c's fp8 values. */
MlirValue tgWidenFp8(Lower *l, MlirValue x, MlirType fp8);
MlirValue tgExtractValue(Lower *l, MlirValue agg, int64_t i, MlirType t);
Lowered *tgReadFlat(Lower *l, MlirValue key, MlirValue buf, MlirValue base, int64_t rows,
                    int64_t cols, int64_t ld, MlirType elem);
MlirBlock tgThread0(Lower *l, MlirValue cond);

/* load-store.c */
Lanes tgLanesOf(Lower *l, Lowered *offs, Lowered *mask, int r);
MlirValue tgAllLanesOn(Lower *l, const Lanes *s, Lowered *mask);
MlirValue tgLoadLanes(Lower *l, MlirValue ptr, const Lanes *s, MlirValue other,
                      MlirType elem);
MlirValue tgLoadLanesSelect(Lower *l, MlirValue ptr, const Lanes *s, MlirValue other,
                            MlirType elem);
/* True when lanes [lo, lo + n) of the group's mask are all on. */
MlirValue tgRunAllOn(Lower *l, const Lanes *s, Lowered *mask, int64_t lo, int64_t n);
bool tgLowerMemory(Lower *l, MlirOperation op);
bool tgLowerArrive(Lower *l, MlirOperation op);

/* elementwise.c */
bool tgLowerGeneric(Lower *l, MlirOperation op);
bool tgLowerIndex(Lower *l, MlirOperation op);
bool tgLowerRange(Lower *l, MlirOperation op);
bool tgLowerSplat(Lower *l, MlirOperation op);

/* kernel.c */
bool tgLowerView(Lower *l, MlirOperation op);

/* trans.c */
bool tgLowerTrans(Lower *l, MlirOperation op);

/* reduce.c */
bool tgLowerReduce(Lower *l, MlirOperation op);
bool tgLowerClusterReduce(Lower *l, MlirOperation op);
void tgClusterBarrier(Lower *l);

/* dot.c */
MmaLayout tgMmaLayout(Lower *l, int64_t m, int64_t n);
WarpPos tgWarpPos(Lower *l, MmaLayout y);
void tgStageTile(Lower *l, MlirValue buf, Lowered *x, int64_t cols, int64_t base,
                 int64_t ld, bool swizzled, MlirType elem);
MlirType tgVec4f32(Lower *l);
Lowered *tgToMma(Lower *l, MlirOperation at, MlirValue key, int64_t m, int64_t n,
                 TtMmaForm form);
TtMmaForm tgDotForm(Lower *l, MlirOperation dot);
MlirValue tgAccToShared(Lower *l, Lowered *x);
Lowered *tgToFlat(Lower *l, Lowered *x);
bool tgLowerDot(Lower *l, MlirOperation op);

/* dot-mma-sync.c */
bool tgLowerMmaSync(Lower *l, MlirOperation op, Lowered *a, Lowered *b, MlirType aElem,
                    MlirType bElem);
void tgLdmatrix(Lower *l, MlirValue buf, MlirValue off, int num, bool trans, MlirValue *out);
void tgMma(Lower *l, bool bf16, const MlirValue *a, const MlirValue *b, MlirValue *c);

/* dot-wgmma.c */
int64_t tgWgParts(const Lower *l, TtMmaForm form, int64_t m, int64_t n);
void tgWgmmaToShared(Lower *l, Lowered *x, MlirValue buf, int64_t ld);
void tgWgmmaToFlatNarrow(Lower *l, Lowered *x, MlirValue key, MlirType elem);
void tgWgmmaWaitGroup(Lower *l, int64_t pending);
bool tgLowerWgmmaWait(Lower *l, MlirOperation op);
bool tgLowerWgmma(Lower *l, MlirOperation op, Lowered *a, Lowered *b, MlirType aElem,
                  MlirType bElem, TtMmaForm form);

/* async-copy.c */
bool tgLowerLocalAlloc(Lower *l, MlirOperation op);
bool tgLowerAsyncCopy(Lower *l, MlirOperation op);
bool tgLowerLocalLoad(Lower *l, MlirOperation op);
bool tgLowerAsyncSync(Lower *l, MlirOperation op);

/* hopper.c */
bool tgLowerMbarrierAlloc(Lower *l, MlirOperation op);
bool tgLowerTmaLoad(Lower *l, MlirOperation op);
bool tgLowerMbarrierWait(Lower *l, MlirOperation op);
bool tgLowerMbarrierArrive(Lower *l, MlirOperation op);
bool tgLowerGriddep(Lower *l, MlirOperation op);
bool tgLowerClusterBarrierOp(Lower *l, MlirOperation op);

#endif
