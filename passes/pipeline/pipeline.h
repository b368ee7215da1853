/* pipeline.h - the --pipeline pass's files (passes/pipeline/): pipeline.c (the driver:
 * steps 2-7 of its algorithm, in its head), slice.c (step 1's load slice and its clones),
 * forms.c (step 1's choice of where the tiles in flight wait: registers, shared-memory
 * rings or TMA rings, and their stage counts; step 5's wgmma-in-flight test, step 7's
 * warp-specialisation test), resident.c
 * (a persistent row loop's weights copied to shared memory once). */
#ifndef TT_PASSES_PIPELINE_H
#define TT_PASSES_PIPELINE_H

#include "tt.h"

#include <stdint.h>
#include <stdlib.h>

/* What the stage counts are budgeted with: the SMs and shared memory of the GPU tt-opt's
 * defaults are for (ttTargetDefault: H100 SXM, H200). */
static inline int64_t numSms(void) { return ttTargetDefault()->numSms; }
static inline int64_t smemDynamic(void) { return ttTargetSmemDynamic(ttTargetDefault()); }
static inline int64_t smemTwoBlocks(void) { return ttTargetSmemTwoBlocks(ttTargetDefault()); }


#define MAX_SLICE 256
enum { FORM_REGISTERS, FORM_SHARED, FORM_TMA, FORM_AUTO }; /* the stage-in option's values */
#define MAX_LOADS 8


/* Step 1: the body's ops in order, and which are in the load slice. */
typedef struct {
  MlirOperation ops[MAX_SLICE];
  bool in[MAX_SLICE];
  int n;
  MlirOperation loads[MAX_LOADS];
  int nloads;
} LoadSlice;


/* Where the shared and tma forms put the tiles in flight: per load, its ring (and for tma
 * its descriptor argument and its group of S mbarriers); a load without one (ring[i]
 * false: the tma form's register operands, step 1) is carried in registers. */
typedef struct {
  bool tma, ring[MAX_LOADS];
  int64_t multicast[MAX_LOADS]; /* tma: blocks of the cluster that share the box (1: none) */
  MlirValue bufs[MAX_LOADS], descs[MAX_LOADS], bars[MAX_LOADS];
  /* tma: a load whose whole K range the program copies once, before the loop, into
   * `bufs` (one slot a K step; forms.c residentBytes); residentCopy: plCloneSlice
   * clones only those loads (the copy loop), else it skips them */
  bool resident[MAX_LOADS], residentCopy;
  /* tma: a ring of this load's tiles that cp.async fills each step, laid out as a TMA
   * ring (the streamed form, forms.c) */
  bool copied[MAX_LOADS];
} Rings;

/* slice.c */
/* Step 1: the load slice of a loop body (its tile.load ops and the ops their offsets and
 * masks need); with ivOnly, only the loads that depend on the induction variable. False
 * when a load's slice holds a loop or branch, or past MAX_LOADS / MAX_SLICE. */
bool plLoadSlice(MlirBlock body, LoadSlice *s, bool ivOnly);
/* A copy of the slice at b with the induction variable iv mapped to k, each load's mask
 * and-ed with ok (registers: results to out; shared: into slot `slot` of each ring). */
void plCloneSlice(TtBuilder *b, MlirLocation loc, const LoadSlice *s, MlirValue iv,
                  MlirValue k, MlirValue ok, const Rings *rings, MlirValue slot,
                  MlirValue *out);

/* forms.c */
/* Whether step 6 shares a load's box over the cluster (a 2-D box feeding a dot's operand
 * `operand`: 0 A, 1 B). */
bool plSharedBox(MlirOperation load, MlirOperation view, int operand);
/* Step 1's choice between registers and the shared form (views filled) and S. */
bool plChooseForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views,
                  int64_t *stages, bool *shared);
/* Step 1 for stage-in=tma: whether the loop's loads qualify, their stage count, ring
 * bytes, and which loads get rings (boxed); programs: the launch's (exact: a grid of
 * static size, not a symbolic one's planned count); waveStages: the option wave-stages. */
bool plTmaForm(MlirOperation loop, const LoadSlice *s, MlirOperation *views, int64_t *stages,
               int64_t programs, bool exact, bool report, bool waveStages, int64_t *slotBytes,
               bool *boxed, int want, bool *resident, int64_t *residentBytes, bool *copied);
/* The most steps loop takes in any program (its trip count where constant; split-K's
 * slice where its upper bound is min(lb + C, X)); -1 when not known. */
int64_t plMostTrips(MlirOperation loop);
/* Step 1 for stage-in=tma: on a grid of one program an SM (a static one of at most an SM's
 * count), a K loop whose dots have 64 rows or more: the stages that keep 96 KB of `slot`
 * bytes a stage in flight while the dots read `read` slots (1; 2 with a wgmma in flight),
 * at most 8; 0 when the grid or the tile does not qualify. */
int64_t plOneSmStages(MlirOperation loop, int64_t programs, bool exact, int64_t slot,
                      int64_t read);
/* Step 1 for stage-in=tma: whether the loop's dots take a wgmma form from TMA slots. */
bool plWgmmaTile(MlirOperation kernel, MlirBlock body, MlirOperation loop, bool report);
/* Step 5's test: whether the loop's dots leave their wgmma in flight. */
bool plInFlightDots(MlirBlock body, int want, int64_t ringBytes, int64_t stages);
/* Step 7's test (option want: 2, 1, 0 or -1 auto): what fills the rings: 2 a producer
 * warpgroup, 1 a producer warp, 0 the consumers. */
int plWarpSpecialize(MlirOperation kernel, MlirBlock body, int want, bool inFlight,
                     int64_t stages, bool multicast);

/* resident.c */
/* A persistent row loop's loads of the same elements every row (a norm's weight and
 * bias) copied to shared memory once, before the loop, and read there each row, where
 * they fit beside the grid's programs an SM (programs: the launch's, -1 when not known).
 * False (nothing changed) when there are none or they do not fit. */
bool plResidentWeights(MlirOperation loop, int64_t programs);

#endif
