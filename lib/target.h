/* target.h - the GPUs tt compiles for: one description per --arch, read by every pass and
 * tool (included by tt.h).
 *
 * A pass asks the target what it may use (warpgroup MMA, TMA, programmatic dependent
 * launch, vector reds, fp8 converts) and how much it has (SMs, shared memory), instead of
 * testing an sm number. tt-opt's passes do not know the target: their shape-driven
 * defaults are those of ttTargetDefault() (sm_90a: H100 SXM and H200); tt-translate looks
 * its --arch up and hands the passes what they need as options.
 */
#ifndef TT_TARGET_H
#define TT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "tt/pass.h"

/* TtTarget, the description, is defined in the public pass API (include/tt/pass.h). */

/* SMs of the default target's part (H100 SXM, H200): the passes' num-sms defaults. */
#define TT_DEFAULT_NUM_SMS 132
/* 32-bit registers an SM has, sm_80 to sm_120. */
#define TT_SM_REGISTERS 65536
/* Static shared memory of a block on every target; past it a kernel's buffer is dynamic. */
#define TT_SMEM_LIMIT (48 * 1024)

/* The description of `arch` (sm_70 ... sm_120), or NULL when tt does not know it. */
const TtTarget *ttTargetLookup(const char *arch);
/* The newest description whose compute capability is at most sm (the `sm` options). */
const TtTarget *ttTargetForSm(int sm);
/* What tt-opt's passes assume: sm_90a. */
const TtTarget *ttTargetDefault(void);
/* The known --arch names, comma-separated, for diagnostics. */
const char *ttTargetNames(void);
/* Shared memory a TMA-ring kernel may fill (dynamic, in bytes): a block's opt-in less
 * 1 KiB for aligning the buffer to 1024 bytes and 1 KiB for static mbarriers and
 * scratch. */
int64_t ttTargetSmemDynamic(const TtTarget *t);
/* Shared memory each of two blocks on one SM may have (bytes): half the SM's, less the
 * 1 KiB the hardware reserves per block. */
int64_t ttTargetSmemTwoBlocks(const TtTarget *t);
/* The blocks an SM's shared memory holds of a kernel with `bytes` of buffers a block: each
 * block also takes the 1 KiB the hardware reserves and up to 1 KiB of static scratch
 * (reductions, barriers). Row geometry (--tile's staged form) and the lowering's
 * programs an SM (ptxas's .minnctapersm) both count with it. */
int64_t ttTargetBlocksBySmem(const TtTarget *t, int64_t bytes);

#endif
