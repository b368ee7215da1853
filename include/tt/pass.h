/* tt/pass.h - the C API for tt passes written outside tt's tree: pass plugins (version 2).
 *
 * A pass plugin is a shared library exporting one function, ttGetPassPluginInfo, that
 * returns a TtPassPluginInfo: the API version the plugin was built against, its name and
 * version, an optional initialize callback, and its passes (TtPassInfo: name, summary,
 * description, options with defaults, ranges and help, the op it runs on, a run callback).
 * tt's own passes are described by the same TtPassInfo. `tt-opt --load-pass-plugin=lib.so`
 * (also tt-translate and tt-docgen) loads one in these steps:
 *  1. dlopen(lib.so, RTLD_NOW | RTLD_LOCAL), dlsym("ttGetPassPluginInfo"), call it;
 *  2. the returned apiVersion must equal the tool's TT_PASS_API_VERSION (else an error
 *     naming both: rebuild the plugin against the installed tt);
 *  3. every pass is checked: a name of [a-z0-9_-], a summary and a run callback, at most
 *     TT_MAX_PASS_OPTIONS options with distinct names and defaults in range; its name must
 *     not be taken (by tt, another plugin or an upstream MLIR pass);
 *  4. initialize(api), when set, receives tt's helper table (TtPassApi);
 *  5. the passes are registered: `--NAME[=options]` flags, `--pass-pipeline` elements
 *     (`NAME{opt=v}`), `--list-passes` and `--help` entries and `tt-docgen --pass NAME`
 *     pages, exactly like tt's own.
 * A failure in any step is an error (exit code 1, no output); a plugin is never unloaded.
 *
 * What a plugin links: nothing. The MLIR C API (the mlir-c headers of MLIR 22) is the tool's: tt's
 * tools export every function of the C API components they are built with (IR, Pass,
 * Diagnostics, BuiltinAttributes/Types, Transforms, Conversion, IRDL, Debug,
 * RegisterEverything and the dialect handles of func, arith, scf, math, vector, gpu,
 * llvm), so one MLIR is in the process. tt's own helpers come through TtPassApi, a table of
 * function pointers, so a plugin does not depend on tt's internal symbols and works with
 * any tt of the same API version.
 *
 * What a pass receives: the op it runs on (a builtin.module unless its anchor says
 * otherwise), its options parsed and range-checked (TtPassOptions, by option index), and
 * its userData. It reports errors as MLIR diagnostics at an op (api->emitError or
 * mlirEmitError): tt prints them as `file:line:col: error: ...` or checks them under
 * --verify-diagnostics. It returns failure after an error; the tool then exits 1.
 *
 * Ownership, as in MLIR's C API: every string and table a plugin hands tt (the info, pass
 * and option tables, names, help texts, statistic names) is the plugin's and must live as
 * long as the process (static storage). Helpers named Create hand the caller an op it owns
 * until it is inserted into a block; every other helper transfers nothing (`Get`). IR
 * handles are valid while the IR they point into is.
 *
 * Versioning: TT_PASS_API_VERSION changes whenever a type, a table layout or a helper's
 * meaning in this header changes; tt loads only plugins of its own version. Fields are only
 * ever added at the end of TtTarget (a plugin reads the fields it knows). Version 2:
 * TT_MAX_PASS_OPTIONS 16 -> 32, so TtPassOptions grew (--tile's seventeenth option).
 *
 * Naming follows MLIR's C API: `TtThing` types; the helpers are the functions of tt's
 * library (ttBuild, ttEmitPidOrder, ...) without their `tt` prefix.
 */
#ifndef TT_PASS_H
#define TT_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/BuiltinAttributes.h" /* what a pass needs of MLIR's C API, for convenience */
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TT_PASS_API_VERSION 2

/* --- Passes: what tt's own passes and plugin passes are made of -------------------------- */

/* One option of a pass: an integer with a default and a range [min, max], or, when
 * `choices` is set (a NULL-terminated list of words), one of those words, stored as its
 * index (min 0, max the last index). On the command line: `--pass='name=value ...'`. */
typedef struct {
  const char *name, *help;
  int64_t dflt, min, max;
  const char *const *choices;
} TtPassOption;

#define TT_MAX_PASS_OPTIONS 32
/* A pass's options as parsed: values by index into TtPassInfo.options. */
typedef struct {
  int64_t v[TT_MAX_PASS_OPTIONS];
} TtPassOptions;

/* A pass. `run` is called on each op the pass runs on, with the options of this instance
 * and `userData` (the same pointer for every instance: state belongs in the IR or in
 * static storage); it returns failure after emitting an error diagnostic. `anchor` is the
 * op it runs on: NULL for builtin.module (tt's passes), an op name such as "func.func"
 * (the pass then nests under that op in pipelines, and a `--NAME` flag nests it
 * implicitly), or "any". */
typedef struct {
  const char *name;        /* the flag and pipeline name: [a-z0-9_-]+ */
  const char *summary;     /* one line, for --list-passes */
  const char *description; /* a paragraph, for the generated docs (may be NULL) */
  const TtPassOption *options;
  int nOptions;
  MlirLogicalResult (*run)(MlirOperation op, const TtPassOptions *options, void *userData);
  void *userData;
  const char *anchor;
} TtPassInfo;

/* --- Helpers: the types of tt's IR helpers ------------------------------------------------ */

/* An insertion point: new ops go to `block`, before `before` (or at the end when null). */
typedef struct {
  MlirBlock block;
  MlirOperation before;
} TtBuilder;

/* The highest tensor rank tt handles. */
#define TT_MAX_RANK 8

/* Called on every op nested under a root (pre-order); stop by returning false. */
typedef bool (*TtWalkFn)(MlirOperation op, void *userData);

/* Program-id orders (the `order` option of --tile; see lib/pid-order.c). */
typedef enum { TT_ORDER_ROW_MAJOR, TT_ORDER_GROUPED, TT_ORDER_COLUMN_MAJOR } TtPidOrder;

/* What a prim op is, for the passes that group, tile and interpret them. */
typedef enum {
  TT_PRIM_OTHER,     /* not a prim op, or one no pass handles yet */
  TT_PRIM_UNARY,     /* neg abs exp ... reciprocal */
  TT_PRIM_BINARY,    /* add sub mul div max min pow */
  TT_PRIM_COMPARE,   /* compare */
  TT_PRIM_WHERE,     /* where */
  TT_PRIM_CONVERT,   /* convert */
  TT_PRIM_BROADCAST, /* broadcast_in_dim */
  TT_PRIM_RESHAPE,   /* reshape */
  TT_PRIM_CONSTANT,  /* full, constant */
  TT_PRIM_REDUCTION, /* sum amax amin */
  TT_PRIM_ARGREDUCE, /* argmax argmin: an index per reduced slice (i64 or i32) */
  TT_PRIM_MATMUL,    /* matmul */
  TT_PRIM_TRANSPOSE, /* transpose */
  TT_PRIM_SLICE,     /* slice: a load at mapped offsets in an elementwise group */
  TT_PRIM_CONCAT,    /* concat: a select between its operands' masked loads, likewise */
  TT_PRIM_INDEX,     /* index_select gather: an index load, then a data load, likewise */
  TT_PRIM_IOTA,      /* iota: the index along a dimension, likewise */
  TT_PRIM_PAD,       /* pad: a masked load and a select with the value, likewise */
  TT_PRIM_COMPOSITE, /* linear softmax log_softmax layer_norm rms_norm gelu silu sigmoid
                        swiglu mean var std relu clamp */
} TtPrimKind;

/* A GPU tt compiles for: one description per --arch (lib/target.c holds the table). A
 * pass asks it what it may use and how much it has instead of testing an sm number. */
typedef struct {
  const char *arch; /* the --arch name, e.g. "sm_90a" */
  int sm;           /* compute capability, major * 10 + minor: 90 */
  int numSms;       /* SMs of `part`, the GPU whose shape-driven defaults this row gives */
  const char *part;
  int smemBlockKiB; /* shared memory one block may opt in to */
  int smemSmKiB;    /* shared memory of one SM (the blocks it holds share it) */
  const char *ptx;  /* the PTX ISA version LLVM is asked for, as a target feature */
  bool mmaSync;     /* mma.sync.m16n8k16 f16/bf16 (and ldmatrix): tile.dot, from sm_80 */
  bool wgmma;       /* warpgroup MMA (wgmma.mma_async): sm_90a only */
  bool tma;         /* TMA copies (cp.async.bulk.tensor) completing on mbarriers */
  bool pdl;         /* programmatic dependent launch (griddepcontrol) */
  bool vectorRed;   /* red.global.add of 16 bytes (.v4.f32, .v4.f16x2; PTX ISA 8.1) */
  bool fp8Convert;  /* cvt.rn.f16x2.e4m3x2 / e5m2x2: fp8 tile.dot widened in registers */
} TtTarget;

/* --- The helper table a plugin receives --------------------------------------------------- */

/* tt's helpers, by the name of the library function each one is (lib/tt.h says more). */
typedef struct {
  uint32_t apiVersion; /* TT_PASS_API_VERSION of the tool */

  /* Diagnostics. emitError: an error at op's location, printf-style (a pass that emits one
   * returns failure); emitRemark: `file:line:col: remark: ...` on stderr. */
  void (*emitError)(MlirOperation op, const char *fmt, ...)
      __attribute__((format(printf, 2, 3)));
  void (*emitRemark)(MlirOperation op, const char *fmt, ...)
      __attribute__((format(printf, 2, 3)));
  /* Adds delta to the statistic `name` of the pass instance that is running (shown by
   * --mlir-pass-statistics; nothing happens without it). name and help: static strings. */
  void (*statisticAdd)(const char *name, const char *help, int64_t delta);

  /* Building IR; prim, tile and hopper ops are built by name as tt's own passes build
   * them (e.g. build(&b, "tile.program_id", loc, 0, NULL, i32, 1, &axis); their operands,
   * results and attributes: docs/dialects/). opCreate: an op by name with operands, result types, attributes and
   * regions (taken when nRegions > 0), inserted nowhere: the caller owns it until insert
   * puts it at a builder's point. build: opCreate + insert, returning result 0 (a null
   * value for no results). binary: `x name y`, an arith op whose result has x's type.
   * constSplat/constInt: a splat arith.constant of type t (tensor, vector or scalar).
   * buildFor: `scf.for` from lb to ub by step with iter_args inits; forBody: its body
   * block, to be filled and ended with scf.yield. */
  TtBuilder (*builderAtEnd)(MlirBlock block);
  MlirOperation (*opCreate)(const char *name, MlirLocation loc, intptr_t nOperands,
                            const MlirValue *operands, intptr_t nResults,
                            const MlirType *results, intptr_t nAttrs,
                            const MlirNamedAttribute *attrs, intptr_t nRegions,
                            MlirRegion *regions);
  MlirOperation (*insert)(TtBuilder *b, MlirOperation op);
  MlirValue (*build)(TtBuilder *b, const char *name, MlirLocation loc, intptr_t nOperands,
                     const MlirValue *operands, MlirType result, intptr_t nAttrs,
                     const MlirNamedAttribute *attrs);
  MlirValue (*binary)(TtBuilder *b, MlirLocation loc, const char *name, MlirValue x,
                      MlirValue y);
  MlirValue (*constSplat)(TtBuilder *b, MlirLocation loc, MlirType t, double value);
  MlirValue (*constInt)(TtBuilder *b, MlirLocation loc, MlirType t, int64_t value);
  MlirOperation (*buildFor)(TtBuilder *b, MlirLocation loc, MlirValue lb, MlirValue ub,
                            MlirValue step, intptr_t n, const MlirValue *inits);
  MlirBlock (*forBody)(MlirOperation forOp);
  MlirNamedAttribute (*namedAttr)(MlirContext ctx, const char *name, MlirAttribute a);

  /* Reading and changing IR. opIs: the op's name is `name`; opHasPrefix: it starts with
   * prefix ("prim."); opAttr: null when absent; opAttrInt: dflt when absent or not an
   * integer; opAttrStr: copies a string attribute, false when absent. tensorShape: the rank
   * of a ranked tensor (-1 otherwise), filling up to TT_MAX_RANK dims; tensorNumel: the
   * elements of a static tensor (-1 otherwise); dtypeName: "f32", "bf16", ... ("?");
   * dtypeBytes: 0 when unknown. walk: fn on every op under root, pre-order. eraseDead:
   * erases the ops of a block whose results nobody uses, until none is left.
   * replaceUsesWithin: `of` becomes `with` in the operands of scope and the ops in it.
   * moduleLookup: the function named `name`, or a null op. */
  bool (*opIs)(MlirOperation op, const char *name);
  bool (*opHasPrefix)(MlirOperation op, const char *prefix);
  MlirAttribute (*opAttr)(MlirOperation op, const char *name);
  int64_t (*opAttrInt)(MlirOperation op, const char *name, int64_t dflt);
  bool (*opAttrStr)(MlirOperation op, const char *name, char *buf, size_t n);
  int64_t (*tensorShape)(MlirType t, int64_t shape[TT_MAX_RANK]);
  int64_t (*tensorNumel)(MlirType t);
  MlirType (*elementType)(MlirType t);
  const char *(*dtypeName)(MlirType t);
  int (*dtypeBytes)(MlirType t);
  void (*walk)(MlirOperation root, TtWalkFn fn, void *userData);
  void (*eraseDead)(MlirBlock body);
  void (*replaceUsesWithin)(MlirValue of, MlirValue with, MlirOperation scope);
  MlirOperation (*moduleLookup)(MlirModule m, const char *name);

  /* prim ops (the prim dialect, docs/dialects/prim.md). primSplatValue: the value of a
   * prim.full or splat prim.constant (false otherwise), before rounding to the element
   * type. */
  TtPrimKind (*primKind)(MlirOperation op);
  bool (*primIsElementwise)(TtPrimKind k);
  bool (*primSplatValue)(MlirOperation op, double *value);

  /* Fused functions and tile kernels (docs/dialects/tile.md). launcherOf: the fused
   * function whose tile.launch names kernel `name` (a null op when none); launchPrograms:
   * the programs of its launch (symbolic extents count 1); launchSet: sets `key` of its
   * tile.launch dictionary; kernelInsertArg: a new argument of kernel at pos. */
  MlirOperation (*launcherOf)(MlirModule module, const char *name);
  int64_t (*launchPrograms)(MlirOperation fusion);
  void (*launchSet)(MlirOperation fusion, const char *key, MlirAttribute value);
  MlirValue (*kernelInsertArg)(MlirOperation kernel, intptr_t pos, MlirType type);

  /* Program-id orders: the tile coordinates (*pidM, *pidN) of program `pid` (an i32 value)
   * over a gm x gn grid of output tiles in `order` (`group` tile rows per group for
   * TT_ORDER_GROUPED), emitted as arith ops at b. */
  void (*emitPidOrder)(TtBuilder *b, MlirLocation loc, MlirValue pid, int64_t gm, int64_t gn,
                       TtPidOrder order, int64_t group, MlirValue *pidM, MlirValue *pidN);

  /* The target description: targetLookup("sm_90a") (NULL when unknown); targetForSm: the
   * newest one at most sm; targetDefault: what tt-opt's passes assume (sm_90a). */
  const TtTarget *(*targetLookup)(const char *arch);
  const TtTarget *(*targetForSm)(int sm);
  const TtTarget *(*targetDefault)(void);

  /* Other registered passes (tt's and plugins'): passLookup (NULL when none), runPass (runs
   * one on a module with options as on the command line; false after an error). */
  const TtPassInfo *(*passLookup)(const char *name);
  bool (*runPass)(MlirModule module, const char *name, const char *options);
} TtPassApi;

/* --- The plugin ------------------------------------------------------------------------ */

/* What ttGetPassPluginInfo returns. apiVersion comes first in every version. */
typedef struct {
  uint32_t apiVersion;       /* TT_PASS_API_VERSION, as the plugin was built */
  const char *pluginName;    /* for messages and --version */
  const char *pluginVersion; /* the plugin's own version */
  /* Called once, after the version check, before the passes are registered; may be NULL.
   * Failure (after printing why) makes loading fail. */
  MlirLogicalResult (*initialize)(const TtPassApi *api);
  const TtPassInfo *passes;
  int nPasses;
} TtPassPluginInfo;

#define TT_PASS_PLUGIN_ENTRY "ttGetPassPluginInfo"
#define TT_PASS_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The entry point every plugin defines (and tt never does). */
TT_PASS_PLUGIN_EXPORT const TtPassPluginInfo *ttGetPassPluginInfo(void);

#ifdef __cplusplus
}
#endif

#endif
