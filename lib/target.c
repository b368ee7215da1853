/* target.c - the table of GPUs tt compiles for (see target.h).
 *
 * One row per --arch. Where the numbers come from:
 *  - shared memory per block (opt-in) and per SM: the CUDA C++ Programming Guide, "Technical
 *    Specifications per Compute Capability";
 *  - SMs: the vendor's specification of the part named in the row (the GPU whose shape
 *    the defaults are sized for; other parts of one architecture differ, e.g. the H100
 *    PCIe's 114 SMs: pass num-sms to the passes that take it);
 *  - features: the PTX ISA ("Target ISA notes" of mma.sync.m16n8k16 with f16/bf16 (sm_80),
 *    wgmma.mma_async (sm_90a),
 *    cp.async.bulk.tensor and griddepcontrol (sm_90), red.global.v4 (sm_90, PTX ISA 8.1),
 *    cvt.e4m3x2 (sm_89)); the PTX version is the oldest that has every feature used.
 */
#include "tt.h"

#include <string.h>

static const TtTarget targets[] = {
    /* arch      sm   SMs part          KiB/blk KiB/SM ptx  mma.sync wgmma tma pdl vred fp8 */
    {"sm_70", 70, 80, "V100 SXM2", 96, 96, "+ptx80", false, false, false, false, false, false},
    {"sm_75", 75, 40, "T4", 64, 64, "+ptx80", false, false, false, false, false, false},
    {"sm_80", 80, 108, "A100 SXM", 163, 164, "+ptx80", true, false, false, false, false, false},
    {"sm_86", 86, 84, "A40", 99, 100, "+ptx80", true, false, false, false, false, false},
    {"sm_89", 89, 142, "L40S", 99, 100, "+ptx81", true, false, false, false, false, true},
    {"sm_90", 90, TT_DEFAULT_NUM_SMS, "H100 SXM, H200", 227, 228, "+ptx81", true, false, true, true,
     true, true},
    {"sm_90a", 90, TT_DEFAULT_NUM_SMS, "H100 SXM, H200", 227, 228, "+ptx81", true, true, true, true,
     true, true},
    {"sm_100", 100, 148, "B200", 227, 228, "+ptx87", true, false, true, true, true, true},
    {"sm_100a", 100, 148, "B200", 227, 228, "+ptx87", true, false, true, true, true, true},
    {"sm_120", 120, 170, "RTX 5090", 99, 128, "+ptx87", true, false, true, true, true, true},
};
#define NTARGETS ((int)(sizeof targets / sizeof targets[0]))

const TtTarget *ttTargetLookup(const char *arch) {
  for (int i = 0; i < NTARGETS; i++)
    if (strcmp(targets[i].arch, arch) == 0)
      return &targets[i];
  return NULL;
}

const TtTarget *ttTargetForSm(int sm) {
  const TtTarget *t = &targets[0];
  for (int i = 0; i < NTARGETS; i++)
    if (targets[i].sm <= sm && targets[i].sm >= t->sm)
      t = &targets[i];
  return t;
}

const TtTarget *ttTargetDefault(void) { return ttTargetLookup("sm_90a"); }

const char *ttTargetNames(void) {
  static char names[256];
  if (!names[0])
    for (int i = 0; i < NTARGETS; i++) {
      strcat(names, targets[i].arch);
      strcat(names, i + 1 < NTARGETS ? ", " : "");
    }
  return names;
}

int64_t ttTargetSmemDynamic(const TtTarget *t) { return (int64_t)(t->smemBlockKiB - 2) * 1024; }

int64_t ttTargetSmemTwoBlocks(const TtTarget *t) {
  return (int64_t)(t->smemSmKiB / 2 - 1) * 1024;
}

int64_t ttTargetBlocksBySmem(const TtTarget *t, int64_t bytes) {
  return (int64_t)t->smemSmKiB * 1024 / (bytes + 2048);
}
