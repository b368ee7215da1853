/* pipeline.c - tt's own passes (their table: names, summaries, descriptions, options),
 * their option parser, and the parser of pass pipelines.
 *
 * LLVM 22's C API cannot register a C pass by name with MLIR's own pipeline parser, so tt
 * keeps its registry (registry.c: this table, then plugins' passes) and parses pipelines
 * itself: a registered pass becomes an external pass (mlirCreateExternalPass) and every
 * other name is handed to MLIR's parser (mlirOpPassManagerAddPipeline), so
 * `--pass-pipeline='builtin.module(fuse,canonicalize,func.func(cse),tile{block-size=2048})'`
 * mixes the two freely. The parser knows the op each nested pass manager runs on
 * (`builtin.module(...)`, `func.func(...)`, `any(...)`, at any depth): a tt pass may stand
 * where that op is its anchor (builtin.module for tt's own passes, whatever a plugin's pass
 * names); a `--NAME` flag nests a pass anchored elsewhere implicitly, as mlir-opt does.
 */
#include "tt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pidOrders[] = {"row-major", "grouped", "column-major", NULL};
static const TtPassOption tileOptions[] = {
    [TT_TILE_BLOCK_SIZE] =
        {"block-size",
         "elements per program and step (a power of two, >= 32 * num-warps; 0: from the shape: "
         "1024 elementwise (2048 where every output is fp8 and the grid fills the SMs); rows: "
         "the row's next power of two up to 32768 when it fits in registers, else half of "
         "it, at most 32768, in a loop)",
         0, 0, 65536, NULL},
    [TT_TILE_NUM_WARPS] =
        {"num-warps",
         "warps per program (0: from the block: 4 elementwise; rows: 16-64 elements per thread on "
         "chip, 32 warps in a loop)",
         0, 0, 32, NULL},
    [TT_TILE_BLOCK_M] =
        {"block-m",
         "dot kernels: rows of the output tile (a power of two >= 16, or a multiple of 16 where "
         "TMA reads the operands and block-n is 64 columns a warpgroup; 0: from the shape: 16 for "
         "M <= 16, 32 for M <= 32, else 64, or 128 at M > 64 on a grid of more than one wave "
         "where TMA can read the operands, or past 128 rows fitted to M, 144-256)",
         0, 0, 256, NULL},
    [TT_TILE_BLOCK_N] =
        {"block-n",
         "dot kernels: columns of the output tile (a multiple of 16; 0: from the shape)",
         0, 0, 256, NULL},
    [TT_TILE_BLOCK_K] =
        {"block-k",
         "dot kernels: K per step of the K loop (a power of two >= 32; 0: from the shape)",
         0, 0, 512, NULL},
    [TT_TILE_ORDER] =
        {"order",
         "dot kernels: how program ids map to output tiles: row-major (pid_n fastest), grouped "
         "(row-major within groups of group-m tile rows, for L2 reuse) or column-major (pid_m "
         "fastest)",
         1, 0, 2, pidOrders},
    [TT_TILE_GROUP_M] =
        {"group-m",
         "dot kernels: tile rows per group for order=grouped",
         8, 1, 256, NULL},
    [TT_TILE_TMA] =
        {"tma",
         "dot kernels: 1: where TMA can read the operands, the defaults of the TMA sweep (for "
         "sm_90a, whose K loops tt-translate runs on TMA rings); 0: the register-staging defaults, "
         "for mma.sync targets (sm_80, sm_89: smaller tiles, no spills)",
         1, 0, 1, NULL},
    [TT_TILE_TMA_BATCHED] =
        {"tma-batched",
         "dot kernels: 1: batched (3-D) matmuls take TMA too, each operand read as its batches' "
         "rows stacked (a [B, K, N] operand whose K the K step does not divide as a batched "
         "tensor map; K >= 64), the default: 2-4x the register form's speed at attention "
         "sizes, bench/2026-11-26-h200-bmm.md; 0: batched operands staged through registers",
         1, 0, 1, NULL},
    [TT_TILE_K_STAGGER] =
        {"k-stagger",
         "dot kernels: tile column n starts its K loop at step (n * S) mod steps and wraps around, "
         "so that the programs stream different K columns at once (0: all start at the first step; "
         "-1: from the shape: on TMA operands with one row of tiles and N >= K, 1 for 256-column "
         "tiles and 37 for others; else 0)",
         -1, -1, 1024, NULL},
    [TT_TILE_CLUSTER] =
        {"cluster",
         "row kernels: the most blocks of a thread-block cluster (sm_90) a row past 32768 "
         "elements may be split over, each block holding its share on chip and the blocks "
         "combining their reductions through distributed shared memory (a row takes "
         "cdiv(N, 32768) blocks; 1: no clusters, such rows take the looped form; "
         "tt-translate gives 1 for targets before sm_90)",
         8, 1, 8, NULL},
    [TT_TILE_BUCKET_SPLIT] =
        {"bucket-split",
         "dot kernels with a dynamic M (specialized by buckets of M: 1-16, 17-32, ..., 513-1024, "
         "1025 on, each tiled for its largest M): 1: split a bucket once where the tile rows the "
         "rules pick change inside it, so that an M below the change runs tiles picked for "
         "rows like its own (e.g. M = 300 of 257-512: 64-row tiles spread over the SMs, not "
         "128-row ones that leave SMs idle); 0: the buckets alone",
         1, 0, 1, NULL},
    [TT_TILE_ROW_STAGE] =
        {"row-stage",
         "row kernels: 1: a long row whose registers would hold one row an SM but whose "
         "shared memory holds two or more is copied there once (cp.async) and every pass over "
         "it reads it there (the staged form: more rows in flight an SM), and rows whose "
         "rows in flight would pass half of L2, and looped rows whose last chunk is partial "
         "and whose reductions take more than one step, are staged so, split over the "
         "fewest blocks of a cluster whose parts two fit an SM; few long rows (under 3/8 of "
         "the SMs) over the fewest that give a program an SM; 0: never; 2: "
         "wherever a row fits shared memory, split over the fewest blocks of a thread-block "
         "cluster (up to `cluster`) whose parts two fit an SM where the whole row does not "
         "(for A/B runs)",
         1, 0, 2, NULL},
    [TT_TILE_LOOPED_ARG] =
        {"looped-arg",
         "argmax/argmin over rows past 32768 elements (a vocabulary's logits): 0: an error; "
         "1: the looped form, one pass over the row's chunks carrying each lane's best "
         "element and its column (in f32: rows up to 2^24), then the least column holding "
         "the row's max (min) or NaN; few rows split over a cluster as other rows are",
         1, 0, 1, NULL},
    [TT_TILE_STAGE_REGS] =
        {"stage-regs",
         "row kernels: the most bytes a thread may hold in registers of a staged row's last "
         "chunks where the whole row fits shared memory once but not twice, so that two "
         "blocks an SM overlap each other's copies (softmax 2048 x 65536 bf16: 13 chunks in "
         "shared memory, 3 in registers, 48 bytes a thread); 0: such rows take the looped "
         "form",
         64, 0, 128, NULL},
    [TT_TILE_MULTICAST] =
        {"multicast",
         "dot kernels on TMA operands with one row of tiles (decode GEMMs): C >= 2 runs C "
         "consecutive column tiles as one thread-block cluster (sm_90) that reads A's tile "
         "once: each block loads 1/C of its rows and the TMA multicasts them into every "
         "block's slot, so L2 serves A once a cluster, not once a program (C from 2 to 8, "
         "dividing the column tiles, block-m / C a multiple of 8); with exactly C rows of "
         "tiles, the C row tiles of each column share B's tile the same way (programs in "
         "column-major order; B's box rows / C a multiple of 8). The K stagger is 0 and "
         "split-K does not sum in a cluster there. Not a default: on an H200 it lost or "
         "tied (A at M = 64: bench/2026-11-27-h200-multicast.md; B at M = 96-128: 1.04x-"
         "1.29x the time but fp8 1024 x 4096, bench/2026-11-29-h200-m128.md run 9); 1: "
         "each program reads its own tiles",
         1, 1, 8, NULL},
    [TT_TILE_ONLINE_VAR] =
        {"online-var",
         "row kernels of the looped form (rows read from L2 or DRAM at each pass): 1: a "
         "variance's sum of squared deviations from its row's mean (layer_norm, var, std) "
         "joins the mean's loop, each lane keeping Welford's running mean and squared "
         "deviations, combined after the loop (Chan et al.): one pass over the row fewer, "
         "as robust as two (staged rows keep two loops: a pass over shared memory costs "
         "less than Welford's update); 0: a loop of its own after the mean's (for A/B runs)",
         1, 0, 1, NULL},
    [TT_TILE_STAGE_ODD] =
        {"stage-odd",
         "row kernels whose rows are off 16-byte alignment (an odd width, loaded element by "
         "element): 1: they may take the staged forms as aligned rows do (row-stage), the "
         "copy into shared memory loading each element once a row, without a branch, and "
         "every pass reading shared memory in 16-byte vectors; 0: they stay in registers "
         "(on chip or looped), each pass loading the row again. Default 1: staged, odd rows "
         "run at 0.30x-0.84x the time of the looped form on 17 rows, never slower "
         "(bench/2026-11-28-h200-odd-rows.md, run 6)",
         1, 0, 1, NULL},
    [TT_TILE_PEEL_LAST] =
        {"peel-last",
         "row kernels of the looped and staged forms: 1: each chunk loop runs the row's "
         "whole steps without a column mask, and a second loop after it the partial last "
         "step under the mask (a staged row's whole chunks are also copied unmasked): no "
         "per-lane compare and select in the whole steps, which an odd width pays in every "
         "pass; 0: one loop, every chunk masked. Default 1: 0.74x-1.03x the time on 37 "
         "rows (odd widths 0.74x-0.92x; bench/2026-11-28-h200-odd-rows.md, run 9)",
         1, 0, 1, NULL},
    [TT_TILE_ROW_FRAME] =
        {"row-frame",
         "row kernels whose rows are off 16-byte alignment (an odd width): 1: each row is "
         "computed in the aligned frame, its columns counted from the 16-byte boundary at "
         "or below its start (offsets and copies aligned: 16-byte loads, cp.async and "
         "stores, the columns before the row's start masked off); 0: counted from its "
         "start (element-by-element loads and copies, realigned stores). Taken for looped "
         "and staged rows where it aligns more accesses (varying inputs, full-row "
         "outputs) than it puts off alignment (weights), on chip for rows of no weights; "
         "not for a variance pair's one loop. Default 1: 0.63x-1.00x the time on 22 "
         "looped and staged rows (softmax 2048 x 50257 191.3 -> 120.1 us; "
         "bench/2026-11-28-h200-odd-rows.md, run 10), on chip 0.61x-1.01x (softmax 8192 x "
         "1001 15.3 -> 9.4 us; bench/2026-11-28-h200-rows.md, run 2)",
         1, 0, 1, NULL},
    [TT_TILE_PERSISTENT] =
        {"persistent",
         "row kernels of a static M whose row fits a block (at most 32768 elements): 1: the "
         "row on chip (registers) even where the staged form would take it, on a persistent "
         "grid (the SMs times the programs an SM), each program looping over rows p, p + "
         "programs, ...; the loop is marked `tile.row_loop`, and --pipeline issues the next "
         "row's loads (those that vary by row) before the current row's reductions and, "
         "where they fit, copies the weights (loads of the same elements every row) to "
         "shared memory once (layer_norm 4096 x 32768 then spills nothing); 0: a program a "
         "row. Default 0: on an H200, with the weights resident, 0.99x the time of the "
         "default forms at layer_norm 4096 x 32768 (151 against 153 us), 0.86x-0.94x on "
         "three staged rows, 1.04x-1.11x on four, 1.3x-3.0x slower on every on-chip row "
         "(bench/2026-11-28-h200-rows-weights.md, run 6)",
         0, 0, 1, NULL},
    [TT_TILE_CLAMP_ROWS] =
        {"clamp-rows",
         "dot kernels whose M the tile rows do not divide (a static M past one tile row, or "
         "a dynamic M): 1: the last tile row starts at M - block-m, not past M (its first "
         "rows, which the tile row before it also computes, masked at the store), so no "
         "operand box reads rows past M; 0: it starts at its own row and reads past M "
         "(zero fill). Default 1: H200 cold, f16 96 x 6144 x 4096 27.1 -> 18.9 us, 96 x "
         "4096^2 17.9 -> 14.8, 112 rows 0.96x-0.98x the time, fp8 and M > 1000 unchanged "
         "(bench/2026-11-29-h200-m128.md, run 6)",
         1, 0, 1, NULL},
    [TT_TILE_SM] =
        {"sm",
         "the target's compute capability, major * 10 + minor (90: sm_90a, H100 and H200): "
         "its SM count and shared memory bound the geometry (a staged row's slots, a dot's "
         "tiles). tt-translate passes its --arch",
         90, 70, 120, NULL},
};
static const TtPassOption decomposeOptions[] = {
    [TT_DECOMPOSE_ALIGN_K] =
        {"align-k",
         "1: on a target with TMA, pad a 2-D f16/bf16 matmul's operands (fp8 too, where B "
         "is the transpose of an [N, K] weight) with zeros along "
         "K to 128-byte rows when their rows are not a multiple of 16 bytes, so the dot "
         "kernel reads them with TMA (one copy kernel each; a weight's runs once), and when "
         "they are but start off a 32-byte sector (K = 4104, 1000) with a `tt.invariant` "
         "weight (whose pad runs once; A's pad --fuse lets the dot kernel read in place); "
         "0: leave them as they are",
         1, 0, 1, NULL},
};
static const char *const kPadModes[] = {"auto", "kernel", "in-place", NULL};
static const TtPassOption fuseOptions[] = {
    [TT_FUSE_REPORT] =
        {"report",
         "1: print a remark for each group made and each fusion refused",
         0, 0, 1, NULL},
    [TT_FUSE_HOIST] =
        {"hoist",
         "1: mark `tt.invariant` each call that reads only tt.invariant arguments (weights) "
         "and results of such calls, and returns nothing: the runtime runs its kernels at "
         "the first run only (a weight padded, transposed or converted once); 0: run every "
         "kernel at every run",
         1, 0, 1, NULL},
    [TT_FUSE_K_PAD] =
        {"k-pad",
         "a zero pad of a matmul's A along K (--decompose align-k): auto (read in place by "
         "the dot kernel where passes/fuse/common.c's cost model says it costs less than a "
         "kernel of its own), kernel (always a kernel) or in-place (always read in place; "
         "both for A/B runs)",
         0, 0, 2, kPadModes},
};
static const char *const reduceKinds[] = {"atomic", "two-stage", "last-slice", "auto", "cluster", NULL};
static const TtPassOption splitkOptions[] = {
    [TT_SPLITK_SPLIT_K] =
        {"split-k",
         "K slices per output tile (0: from the shape: up to one program per SM; 1: no split)",
         0, 0, 1024, NULL},
    [TT_SPLITK_NUM_SMS] =
        {"num-sms",
         "SMs of the target GPU, for split-k=0 (132: H100 SXM and H200)",
         TT_DEFAULT_NUM_SMS, 1, 1024, NULL},
    [TT_SPLITK_REDUCE] =
        {"reduce",
         "how the K slices' partial tiles are summed: atomic (atomic adds into the zeroed result; "
         "the epilogue must be linear) or two-stage (deterministic: partial tiles to an f32 "
         "workspace, then a second kernel adds them in order and runs any epilogue) or "
         "last-slice (deterministic, one launch: partial tiles to the workspace, and the last "
         "slice of each tile to finish adds them in order and runs any epilogue) or auto "
         "(cluster for tiles of at most 32 rows split at most 4 ways, and 4 ways in clusters "
         "for 64-row tiles split 4 ways or more whose clusters fill at most 3/4 of the SMs "
         "with slices of at most 192 KB; else last-slice "
         "for an activation's epilogue and for tiles of at most 16 rows split 4 ways or more; "
         "else atomic: measured, docs/passes/splitk.md) or cluster (sm_90, "
         "deterministic, one launch, no workspace: the slices of a tile run as one thread-block "
         "cluster, at most 8, and sum their tiles through distributed shared memory; any "
         "epilogue)",
         3, 0, 4, reduceKinds},
    [TT_SPLITK_FLOOR_NS] =
        {"floor-ns",
         "the split form's floor, for split-k=0 (ns): a launch with its zero kernel and "
         "atomics (or reduce kernel); no split where an unsplit program's walk over K is "
         "estimated to take less (7000: H100 and H200, measured; 0: no floor); 2000 less for a "
         "pair summed in a cluster (reduce=auto, tiles of at most 32 rows: no zero kernel)",
         7000, 0, 1000000, NULL},
    [TT_SPLITK_CLUSTER] =
        {"cluster",
         "the most blocks of a thread-block cluster the target runs (8: sm_90; 1: none, so "
         "reduce=auto never takes cluster; tt-translate passes 1 below sm_90)",
         8, 1, 8, NULL},
    [TT_SPLITK_SM] =
        {"sm",
         "the target's compute capability (90: sm_90a), for the dots this pass tiles first "
         "(--tile's sm option: tiles within its shared memory). tt-translate passes its --arch",
         90, 70, 120, NULL},
};

static const char *const stageIns[] = {"registers", "shared", "tma", "auto", NULL};
static const TtPassOption pipelineOptions[] = {
    [TT_PIPELINE_NUM_STAGES] =
        {"num-stages",
         "steps of the K loop whose loads are in flight at once (0: 2 in registers; in shared "
         "memory the most of 2-4 that fit in 48 KiB; in TMA rings the most of 2-4 that fit (at "
         "most 3 on a grid filling under 7/8 of the SMs; on one wave, tiles of 64 rows or more: "
         "at least floor(96 KiB / slot) + 1, one more for a wgmma in flight on a K walk of 4 "
         "turns of the ring, up to 8); past one wave 3 where they fit half an "
         "SM's shared memory (two blocks per SM), else at most 3, 4 with wgmma in flight; 1: no "
         "pipelining)",
         0, 0, 16, NULL},
    [TT_PIPELINE_STAGE_IN] =
        {"stage-in",
         "where the tiles in flight wait: registers (carried by the loop; the default, faster on "
         "H100 at decode shapes), shared (asynchronous copies into a ring of shared-memory slots, "
         "cp.async on sm_80+) or tma (sm_90a: hopper.tma_load of each operand box into a ring of "
         "128-byte-swizzled slots that wgmma reads in place, completing on mbarriers; dynamic "
         "shared memory, the rings up to 225 KiB) or auto (tma where the loop qualifies, a given "
         "num-stages lowered to the most rings that fit; else registers; tt-translate's choice "
         "for sm_90a)",
         0, 0, 3, stageIns},
    [TT_PIPELINE_WGMMA_IN_FLIGHT] =
        {"wgmma-in-flight",
         "tma form, f16/bf16 dots: 1: each step's wgmma keeps running while the next step waits "
         "for its tiles (wgmma.wait_group 1; a slot is refilled one step later, when the wgmma "
         "that read it is done); 0: each step waits for its own wgmma before the next begins; -1: "
         "1 where one block fills an SM's shared memory and the dot tile has 128 rows, or 64 on 4 "
         "or more stages, else 0",
         -1, -1, 1, NULL},
    [TT_PIPELINE_ROW_LOADS] =
        {"row-loads",
         "row kernels: 1: each chunk loop of the staged form (--tile's row-stage) that loads "
         "from global memory (a norm's weight and bias) issues the next step's loads at the "
         "top of each step, carried in registers (the registers form, two stages); 0: each "
         "step waits on its own loads (the default until timed on a GPU)",
         0, 0, 1, NULL},
    [TT_PIPELINE_WARP_SPECIALIZE] =
        {"warp-specialize",
         "tma form with every operand in a ring: 1: a producer warp (after the kernel's "
         "tile.num_warps) issues every step's TMA copies as soon as the consumers free a slot "
         "(per-slot `empty` mbarriers they arrive on after the wgmma that read it), with no "
         "block barrier in the K loop; 0: the consumers issue them; -1: 1 where each dot waits "
         "for its own wgmma (no wgmma in flight: fp8), on 64-row tiles of at most 96 columns on 4 "
         "warps and 4 stages or more, without a thread-block cluster, else 0 (never in a kernel that "
         "sums split-K in a cluster); 2: as 1 with a producer warpgroup (4 warps) that gives its "
         "registers to the consumers (setmaxnreg: 40 for it, 232 a thread for two consumer "
         "warpgroups, where 384 threads start at 168)",
         -1, -1, 2, NULL},
    [TT_PIPELINE_WAVE_STAGES] =
        {"wave-stages",
         "tma form, num-stages 0, a grid of static size past one wave: 1: 2 stages where their "
         "rings let three blocks share an SM (shared memory and an estimate of the registers) "
         "and three make fewer waves of the grid than the two blocks of 3 stages (H200: 256 x "
         "18944 x 3584 and 1024 x 6144 x 4096 on 128x128x64 tiles 1.27x and 1.20x faster, "
         "and 1.19x-1.35x on 13 prefill shapes outside the tune set; "
         "bench/2026-11-29-h200-prefill-tune.md); 0: the stages as num-stages says",
         1, 0, 1, NULL},
    [TT_PIPELINE_RESIDENT] =
        {"resident",
         "tma form, an operand TMA cannot stride (A read in place past a K pad whose rows are "
         "no multiple of 16 bytes, tile.carry): -1: each program copies its whole K range of "
         "it once, before the K loop, into 128-byte-swizzled shared memory (cp.async of the "
         "widest piece its rows' alignment allows), where the dot tile has at most 64 rows, "
         "the rows take pieces of 4 bytes or more (or are fp8) and the copy fits beside two "
         "stages of the other operand's ring (past one wave: three, two blocks an SM), else "
         "the mixed form (registers, staged by the dot each step); 0: the mixed form; 1: the "
         "copy, an error where it does not fit; 2: the streamed form (each step's tile by "
         "cp.async into a ring laid out as a TMA ring, beside the other operand's)",
         -1, -1, 2, NULL},
};

static const TtPassOption pdlOptions[] = {
    [TT_PDL_TRIGGER] =
        {"trigger",
         "where each program signals that the next launch may start "
         "(griddepcontrol.launch_dependents): start, after-loop (after the K loop; at exit without "
         "one), exit (no signal: a program's exit is one), auto (start when the launch has 7/8 of "
         "num-sms to num-sms programs and one block fills an SM's shared memory, else after-loop) "
         "or off (no programmatic dependent launch: the kernel is launched the plain way)",
         0, 0, 4, ttPdlTriggers},
    [TT_PDL_NUM_SMS] =
        {"num-sms",
         "SMs of the target GPU, for trigger=auto (132: H100 SXM and H200)",
         TT_DEFAULT_NUM_SMS, 1, 1024, NULL},
};

static const char *const mmaKinds[] = {"sync", "wgmma", NULL};
static const TtPassOption lowerOptions[] = {
    [TT_LOWER_MMA] =
        {"mma",
         "tensor-core instructions for tile.dot: sync (mma.sync.m16n8k16, sm_80 and later) or "
         "wgmma (warpgroup MMA from swizzled shared memory, sm_90a, for each dot whose tile fits "
         "it; the others use mma.sync). tt-translate picks wgmma for --arch=sm_90a",
         0, 0, 1, mmaKinds},
    [TT_LOWER_SM] =
        {"sm",
         "the target's compute capability, major * 10 + minor (80: sm_80; 90: sm_90 and sm_90a): "
         "from 90 on, tile.atomic_add adds each contiguous run of up to 16 bytes with one vector "
         "red (v4.f32, v4.f16x2, v4.bf16x2; PTX ISA 8.1), below it one atomic per element. "
         "tt-translate passes its --arch",
         80, 70, 120, NULL},
    [TT_LOWER_MASKED_LOADS] =
        {"masked-loads",
         "a tile.load's vector whose mask is constant over it: 0: a branch around the load; "
         "1: no branch, a load from a selected address (the tensor's start where the mask is "
         "off) and a select of `other`, since with a branch LLVM sinks the "
         "load's uses into it and each thread waits for a load before it issues the next "
         "(looped rows of a partial last chunk: 0.52x-0.84x the time on an H200, "
         "bench/2026-11-27-h200-masked-loads.md); 2 (the default): also a group whose lanes "
         "all read one address (a broadcast scalar under a tile's mask: an fp8 GEMM's "
         "scales) as one scalar load and a select per lane, where 1 loads it lane by lane "
         "behind a branch each (fp8 GEMMs at M = 96 and 112: 0.78x-1.01x the time, "
         "bench/2026-11-29-h200-m128.md run 7)",
         2, 0, 2, NULL},
};

/* An option table's length, which must be its pass's option count (the enum in tt.h)
 * and fit TtPassOptions (checked at compile time). */
#define NOPTIONS(table) ((int)(sizeof table / sizeof table[0]))
#define FITS(table, count)                                                                 \
  _Static_assert(NOPTIONS(table) == (count), #table ": one row per option index");       \
  _Static_assert(NOPTIONS(table) <= TT_MAX_PASS_OPTIONS, "raise TT_MAX_PASS_OPTIONS")
FITS(decomposeOptions, TT_DECOMPOSE_NOPTIONS);
FITS(fuseOptions, TT_FUSE_NOPTIONS);
FITS(tileOptions, TT_TILE_NOPTIONS);
FITS(splitkOptions, TT_SPLITK_NOPTIONS);
FITS(pipelineOptions, TT_PIPELINE_NOPTIONS);
FITS(pdlOptions, TT_PDL_NOPTIONS);
FITS(lowerOptions, TT_LOWER_NOPTIONS);

/* tt's passes run on the module and return bool; each gets the public run signature. */
#define MODULE_PASS(fn)                                                                    \
  static MlirLogicalResult fn##Run(MlirOperation op, const TtPassOptions *o, void *u) {   \
    (void)u;                                                                               \
    return fn(mlirModuleFromOperation(op), o) ? mlirLogicalResultSuccess()                \
                                              : mlirLogicalResultFailure();                \
  }
MODULE_PASS(ttDecomposePass)
MODULE_PASS(ttFusePass)
MODULE_PASS(ttTilePass)
MODULE_PASS(ttSplitKPass)
MODULE_PASS(ttPipelinePass)
MODULE_PASS(ttPdlPass)
MODULE_PASS(ttConvertTileToGpu)

static const TtPassInfo passes[] = {
    {"decompose", "Rewrite composite prim ops into primitive prim ops",
     "softmax, log_softmax, layer_norm, rms_norm, gelu, silu, sigmoid, swiglu, linear, "
     "scaled_mm, mean, var, std, relu and clamp become elementwise, reduction (sum/amax), "
     "broadcast_in_dim, transpose and matmul prim ops, with PyTorch's formulas; f16/bf16 "
     "composites compute in f32 between one convert in and one convert out. Reductions "
     "that no row or column kernel computes as they are become row and column reductions; "
     "matmuls of torch.matmul's other shapes (1-D operands, more batch dims, batch dims "
     "that broadcast) become [M, K] x [K, N] or [B, M, K] x [B, K, N] matmuls between "
     "reshapes. A 2-D matmul whose K rows TMA cannot stride (not a multiple of 16 bytes), "
     "or whose rows start off a 32-byte sector with an invariant weight, gets its operands "
     "padded with zeros along K to 128-byte rows (align-k).",
     decomposeOptions, NOPTIONS(decomposeOptions), ttDecomposePassRun, NULL, NULL},
    {"fuse", "Outline groups of connected elementwise prim ops into fused functions",
     "Each group becomes `func.func private @fused_N {prim.fusion = \"elementwise\"}` and a "
     "`func.call` of it, so a later pass makes it one kernel that reads its inputs once and "
     "writes its results once. Elementwise, compare/select, convert, broadcast_in_dim, "
     "reshape, data movement (slice, concat, index_select, gather, pad and a transpose "
     "that keeps the last dimension: loads at mapped offsets; iota: index math; "
     "elementwise groups only) and "
     "constant ops fuse; a producer joins its consumer's group when every user "
     "of it is in that group; constants and cheap values (at most 8 elementwise ops from "
     "the inputs) are copied into each group that uses them instead of stored; a value "
     "also used after the group is stored by it as an extra output, and groups reading "
     "one input over one iteration space merge, so a group may have several results. "
     "Reductions over the last dimension join too, making a row group (`prim.fusion = "
     "\"row\"`) when they all reduce rows of one shape: softmax or a norm becomes one "
     "kernel that reads each row once. A reduction over one run of dimensions before the "
     "last (column sums, a middle dimension) makes a column group (`prim.fusion = "
     "\"column\"`) with its elementwise prologue and epilogue; --decompose splits other "
     "reductions into these two kinds. A transpose that moves the last dimension makes a "
     "permute group (`prim.fusion = \"permute\"`) with its elementwise prologue and "
     "epilogue. A matmul makes a dot group (`prim.fusion = \"dot\"`) with its elementwise "
     "epilogue; a transpose of an operand joins it (read in place), and so does a zero pad "
     "at the end of operand a's K whose rows are 16-byte multiples, unless a cost model "
     "(A's rows re-read off a 32-byte sector by every column tile, against one copy of A "
     "and a launch) says a pad kernel of its own costs less. Ops whose results have no "
     "use are erased first (a program's ops have no side effects): a dead value is "
     "neither computed nor stored.",
     fuseOptions, NOPTIONS(fuseOptions), ttFusePassRun, NULL, NULL},
    {"tile", "Give each fused function a tile kernel and a tile.launch",
     "Elementwise groups become 1-D kernels over the flattened output: program p handles "
     "elements [p*block-size, (p+1)*block-size), masked at the tail. f16/bf16 math runs in "
     "f32 and rounds once at the store; float ops may contract into fma, and with an "
     "f16/bf16 result are marked `afn`; 1 + tanh(v) is computed as 2 / (1 + 2^(-2 log2(e) "
     "v)) (no cancellation where tanh(v) nears -1). Data movement ops are loads at mapped offsets "
     "(index_select and gather: an index load, then the data load; pad: a masked load and "
     "a select). Loads are scheduled before the math. Row groups "
     "become one program per row, its block (the next power of two >= N) "
     "covering the row, with tile.reduce for each reduction; short rows share a program; "
     "a row longer than the block is reduced in a loop over chunks, one loop per level of "
     "dependent reductions (sibling reductions share it), then a loop for the output. "
     "Permute groups become one program per tile of 128 bytes a side (64x64 bf16, 32x32 "
     "f32) of the transpose: loaded along the input's contiguous dim, exchanged with "
     "tile.trans, stored along the output's.",
     tileOptions, NOPTIONS(tileOptions), ttTilePassRun, NULL, NULL},
    {"splitk", "Split the K loop of dot kernels across a second grid dimension",
     "Kernels without a dot are left unchanged (the GEMM work gives this pass its job).",
     splitkOptions, NOPTIONS(splitkOptions), ttSplitKPassRun, NULL, NULL},
    {"pipeline", "Software-pipeline the K loop of dot kernels",
     "The loads of step i + num-stages - 1 of the K loop are issued at the top of step i, so "
     "num-stages - 1 steps of loads are in flight while the tensor cores work (with wgmma "
     "in flight, the refill comes at the end of the step: num-stages - 2). With "
     "stage-in=shared the loads become tile.async_copy into slot (i + num-stages - 1) % "
     "num-stages of a tile.local_alloc ring per operand, one group per step, and tile.dot "
     "reads slot i % num-stages after a tile.async_wait; with stage-in=registers the loaded "
     "tiles are carried by the loop. A prologue loads the first steps, masked at the loop's "
     "end. A kernel that --tile's multicast runs in clusters (tile.multicast) reads A's "
     "box, or B's (tile.multicast_operand = 1), by TMA multicast, each block 1/C of its rows into every block's slot; the "
     "refill then comes after the dot, between hopper.cluster_wait and cluster_arrive "
     "(num-stages - 2 steps ahead), so no block overwrites a slot a peer still reads.",
     pipelineOptions, NOPTIONS(pipelineOptions), ttPipelinePassRun, NULL, NULL},
    {"pdl", "Programmatic dependent launch (sm_90): start a kernel before the previous one ends",
     "Each tile kernel gets griddepcontrol.wait before its first access to global memory "
     "that the previous kernel may have written - TMA loads of inputs marked tt.invariant "
     "(weights) may go first, so a GEMM streams its weight while the previous kernel ends - "
     "and griddepcontrol.launch_dependents where the option trigger puts it; the launch "
     "metadata then marks its launch `pdl`, and the runtime lets it start early.",
     pdlOptions, NOPTIONS(pdlOptions), ttPdlPassRun, NULL, NULL},
    {"convert-tile-to-gpu", "Lower tile kernels to gpu.func over arith/math/vector/llvm",
     "Each tile value is spread over the block's threads: every thread holds runs of "
     "16 bytes; loads and stores of contiguous, aligned runs become vector accesses guarded "
     "by one mask lane, and masked tails fall back to per-element accesses. On f32 with "
     "`afn` a tanh becomes a short exp2/rcp formula, an exp2 ex2.approx.ftz and a division "
     "of tiles a multiply by rcp.approx.ftz; tile.reduce combines within a thread, across the "
     "warp with shuffles and across warps through shared memory; a tile.trans that feeds "
     "no tile.dot is exchanged through swizzled shared memory; each kernel asks ptxas "
     "for full occupancy.",
     lowerOptions, NOPTIONS(lowerOptions), ttConvertTileToGpuRun, NULL, NULL},
};
#define NPASSES ((int)(sizeof passes / sizeof passes[0]))

const TtPassInfo *ttBuiltinPasses(int *count) {
  *count = NPASSES;
  return passes;
}

bool ttPassParseOptionsTo(const TtPassInfo *info, const char *text, TtPassOptions *out,
                          TtStr *err) {
  for (int i = 0; i < info->nOptions; i++)
    out->v[i] = info->options[i].dflt;
  const char *p = text ? text : "";
  while (*p) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      break;
    const char *key = p;
    while (*p && *p != '=' && !isspace((unsigned char)*p))
      p++;
    size_t klen = (size_t)(p - key);
    int idx = -1;
    for (int i = 0; i < info->nOptions; i++)
      if (strlen(info->options[i].name) == klen &&
          strncmp(info->options[i].name, key, klen) == 0)
        idx = i;
    if (idx < 0) {
      ttStrAppendf(err, "pass '%s' has no option '%.*s'", info->name, (int)klen, key);
      return false;
    }
    if (*p != '=') {
      ttStrAppendf(err, "option '%s' of pass '%s' needs a value ('%s=N')",
              info->options[idx].name, info->name, info->options[idx].name);
      return false;
    }
    p++;
    const TtPassOption *o = &info->options[idx];
    if (o->choices) { /* a word: its index in the list */
      const char *word = p;
      while (*p && !isspace((unsigned char)*p))
        p++;
      int found = -1;
      for (int i = 0; o->choices[i] && found < 0; i++)
        if (strlen(o->choices[i]) == (size_t)(p - word) &&
            strncmp(o->choices[i], word, (size_t)(p - word)) == 0)
          found = i;
      if (found < 0) {
        ttStrAppendf(err, "option '%s' of pass '%s' is '%.*s'; expected one of:", o->name,
                info->name, (int)(p - word), word);
        for (int i = 0; o->choices[i]; i++)
          ttStrAppendf(err, "%s %s", i ? "," : "", o->choices[i]);
        return false;
      }
      out->v[idx] = found;
      continue;
    }
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || (*end && !isspace((unsigned char)*end))) {
      ttStrAppendf(err, "option '%s' of pass '%s' takes an integer",
              info->options[idx].name, info->name);
      return false;
    }
    if (v < o->min || v > o->max) {
      ttStrAppendf(err, "option '%s' of pass '%s' is %lld, out of range [%lld, %lld]",
              o->name, info->name, v, (long long)o->min, (long long)o->max);
      return false;
    }
    out->v[idx] = v;
    p = end;
  }
  return true;
}

bool ttPassParseOptions(const TtPassInfo *info, const char *text, TtPassOptions *out) {
  TtStr err = {0};
  bool ok = ttPassParseOptionsTo(info, text, out, &err);
  if (!ok)
    fprintf(stderr, "error: %.*s\n", (int)err.len, err.data);
  ttStrDestroy(&err);
  return ok;
}

/* Adds pass `name` with option text `options` (may be NULL) to opm, which runs on op
 * `on`. A registered pass must run on `on` (or on "any"); with `implicit` (a flag, not a
 * pipeline element) one anchored on another op is nested under it. Any other name goes to
 * MLIR's parser. False after printing an error. */
static bool addPass(MlirOpPassManager opm, const char *on, const char *name,
                    const char *options, bool implicit) {
  const TtPassInfo *info = ttPassLookup(name);
  if (info) {
    TtPassOptions opts;
    if (!ttPassParseOptions(info, options, &opts))
      return false;
    const char *anchor = ttPassAnchor(info);
    if (strcmp(anchor, on) != 0 && strcmp(anchor, "any") != 0) {
      if (!implicit || strcmp(on, "builtin.module") != 0) {
        fprintf(stderr, "error: pass '%s' runs on '%s', not on '%s'", name, anchor, on);
        if (strcmp(anchor, "builtin.module") != 0)
          fprintf(stderr, " (nest it: %s(%s))", anchor, name);
        fputc('\n', stderr);
        return false;
      }
      opm = mlirOpPassManagerGetNestedUnder(opm, ttStrRef(anchor));
    }
    mlirOpPassManagerAddOwnedPass(opm, ttPassCreate(info, &opts));
    return true;
  }
  TtStr text = {0};
  ttStrAppendf(&text, "%s", name);
  if (options && *options)
    ttStrAppendf(&text, "{%s}", options);
  TtStr err = {0};
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(opm, ttStrRef(text.data), ttStrCallback,
                                                     &err);
  if (mlirLogicalResultIsFailure(r)) {
    if (err.len && strstr(err.data, "does not refer to a registered pass"))
      fprintf(stderr, "error: unknown pass '%s' (see --list-passes)\n", name);
    else
      fprintf(stderr, "error: cannot add pass '%s': %s\n", name, err.len ? err.data : "");
  }
  ttStrDestroy(&text);
  ttStrDestroy(&err);
  return mlirLogicalResultIsSuccess(r);
}

bool ttPipelineAddPass(MlirOpPassManager opm, const char *name, const char *options) {
  return addPass(opm, "builtin.module", name, options, true);
}

bool ttPassIsRegistered(MlirContext ctx, const char *name) {
  if (ttPassLookup(name))
    return true;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  TtStr err = {0};
  MlirLogicalResult r = mlirOpPassManagerAddPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                     ttStrRef(name), ttStrCallback, &err);
  bool known = mlirLogicalResultIsSuccess(r) ||
               !(err.len && strstr(err.data, "does not refer to a registered pass"));
  ttStrDestroy(&err);
  mlirPassManagerDestroy(pm);
  return known;
}

/* Recursive-descent parser over the pipeline text. */
typedef struct {
  const char *p, *text;
  bool ok;
} Parser;

static void skipSpace(Parser *ps) {
  while (isspace((unsigned char)*ps->p))
    ps->p++;
}

static void parseError(Parser *ps, const char *what) {
  if (ps->ok)
    fprintf(stderr, "error: malformed pass pipeline at column %d: %s\n  %s\n",
            (int)(ps->p - ps->text) + 1, what, ps->text);
  ps->ok = false;
}

static void parseList(Parser *ps, MlirOpPassManager opm, const char *on, int depth);

/* Skips a balanced `( ... )` starting at ps->p (on the '('). */
static void skipParens(Parser *ps) {
  int depth = 0;
  do {
    depth += *ps->p == '(';
    depth -= *ps->p == ')';
    ps->p++;
  } while (*ps->p && depth);
  if (depth)
    parseError(ps, "expected ')'");
}

/* element := NAME ('{' options '}')? | NAME '(' list ')'. `on`: the op opm runs on; depth
 * 0: the top-level list, where `builtin.module(...)` names opm itself. */
static void parseElement(Parser *ps, MlirOpPassManager opm, const char *on, int depth) {
  skipSpace(ps);
  const char *start = ps->p;
  while (isalnum((unsigned char)*ps->p) || *ps->p == '-' || *ps->p == '_' || *ps->p == '.')
    ps->p++;
  if (ps->p == start) {
    parseError(ps, "expected a pass or operation name");
    return;
  }
  char name[128];
  if ((size_t)(ps->p - start) >= sizeof name) {
    parseError(ps, "a name longer than 127 characters");
    return;
  }
  snprintf(name, sizeof name, "%.*s", (int)(ps->p - start), start);
  skipSpace(ps);
  if (*ps->p == '(' && strcmp(name, "any") == 0) {
    /* op-agnostic nesting has no C API: MLIR parses the element (upstream passes only) */
    const char *o = ps->p;
    skipParens(ps);
    if (!ps->ok)
      return;
    TtStr text = {0}, err = {0};
    ttStrAppendf(&text, "any%.*s", (int)(ps->p - o), o);
    if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(opm, ttStrRef(text.data),
                                                                ttStrCallback, &err))) {
      fprintf(stderr, "error: cannot add '%s' (inside any(...) only upstream passes): %s\n",
              text.data, err.len ? err.data : "");
      ps->ok = false;
    }
    ttStrDestroy(&text);
    ttStrDestroy(&err);
    return;
  }
  if (*ps->p == '(') {
    ps->p++;
    if (strcmp(name, "builtin.module") == 0 && depth == 0)
      parseList(ps, opm, on, 1);
    else
      parseList(ps, mlirOpPassManagerGetNestedUnder(opm, ttStrRef(name)), name, depth + 1);
    skipSpace(ps);
    if (*ps->p != ')')
      parseError(ps, "expected ')'");
    else
      ps->p++;
    return;
  }
  TtStr options = {0};
  ttStrAppend(&options, "", 0);
  if (*ps->p == '{') {
    const char *o = ++ps->p;
    int braces = 1;
    while (*ps->p && braces) {
      braces += *ps->p == '{';
      braces -= *ps->p == '}';
      ps->p++;
    }
    if (braces)
      parseError(ps, "expected '}'");
    else
      ttStrAppend(&options, o, (size_t)(ps->p - 1 - o));
  }
  if (ps->ok && !addPass(opm, on, name, options.data, false))
    ps->ok = false;
  ttStrDestroy(&options);
}

static void parseList(Parser *ps, MlirOpPassManager opm, const char *on, int depth) {
  skipSpace(ps);
  if (*ps->p == ')')
    return;
  for (;;) {
    parseElement(ps, opm, on, depth);
    if (!ps->ok)
      return;
    skipSpace(ps);
    if (*ps->p != ',')
      return;
    ps->p++;
  }
}

bool ttPipelineAdd(MlirPassManager pm, const char *pipeline) {
  Parser ps = {pipeline, pipeline, true};
  parseList(&ps, mlirPassManagerGetAsOpPassManager(pm), "builtin.module", 0);
  skipSpace(&ps);
  if (ps.ok && *ps.p)
    parseError(&ps, "unexpected text after the pipeline");
  return ps.ok;
}
