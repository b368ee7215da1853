/* registry.c - the pass registry: tt's own passes and those of loaded plugins, each made
 * an MLIR external pass.
 *
 * tt's passes (lib/pipeline.c's table) and plugins' passes (lib/plugin.c) are the same
 * TtPassInfo of the public header include/tt/pass.h. The registry is an array of them
 * in registration order, tt's first; it grows only while plugins load, before any pass
 * manager is built. A registered pass becomes a pass of MLIR's pass manager through
 * mlirCreateExternalPass:
 *  1. its TypeID is the address of 8 bytes of its own (an MLIR pass is identified by it);
 *  2. each instance holds the registry index, its parsed options and, under
 *     --mlir-pass-statistics, its statistics record (statistics.c), shared by its clones;
 *  3. run: the info's run callback on the anchor op, with the statistics record current;
 *     failure signals a pass failure.
 * Every definition, tt's own included, is checked when registered (ttPassCheck): a name of
 * [a-z0-9_-] that is not taken, a summary and a run callback, at most TT_MAX_PASS_OPTIONS
 * options with distinct names, defaults in range, word options with their index range.
 */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static TtPassInfo *infos;    /* registered passes, in order; tt's first */
static const char **origins; /* NULL for tt's own, else the plugin's path */
static void **typeIds;       /* one 8-byte block per pass: its TypeID's storage */
static int count, capacity;

static void add(const TtPassInfo *info, const char *origin) {
  if (count == capacity) {
    capacity = capacity ? 2 * capacity : 32;
    infos = ttRealloc(infos, (size_t)capacity * sizeof *infos);
    origins = ttRealloc(origins, (size_t)capacity * sizeof *origins);
    typeIds = ttRealloc(typeIds, (size_t)capacity * sizeof *typeIds);
  }
  infos[count] = *info;
  origins[count] = origin;
  typeIds[count] = ttAlloc(8); /* malloc's alignment is at least 8, as TypeIDs need */
  count++;
}

/* Registers tt's own passes on first use; a wrong row of the table is a bug in tt. */
static void init(void) {
  if (infos)
    return;
  int n;
  const TtPassInfo *own = ttBuiltinPasses(&n);
  for (int i = 0; i < n; i++) {
    TtStr err = {0};
    if (!ttPassCheck(&own[i], &err)) {
      fprintf(stderr, "tt: internal error: %s\n", err.data);
      abort();
    }
    add(&own[i], NULL);
  }
}

const TtPassInfo *ttPasses(int *n) {
  init();
  *n = count;
  return infos;
}

const TtPassInfo *ttPassLookup(const char *name) {
  init();
  for (int i = 0; i < count; i++)
    if (strcmp(infos[i].name, name) == 0)
      return &infos[i];
  return NULL;
}

const char *ttPassOrigin(const TtPassInfo *info) {
  init();
  return info >= infos && info < infos + count ? origins[info - infos] : NULL;
}

const char *ttPassAnchor(const TtPassInfo *info) {
  return info->anchor ? info->anchor : "builtin.module";
}

/* A name of [a-z0-9_-], 1 to 127 long (what the pipeline parser reads), not starting
 * with '-'. */
static bool nameOk(const char *s) {
  if (!s || !*s || *s == '-' || strlen(s) > 127)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
      return false;
  return true;
}

/* Checks option k of info (its name, range and default); appends why not to err. */
static bool optionOk(const TtPassInfo *info, int k, TtStr *err) {
  const TtPassOption *o = &info->options[k];
  if (!nameOk(o->name)) {
    ttStrAppendf(err, "pass '%s': option %d has no valid name ([a-z0-9_-]+, at most 127)",
                 info->name, k);
    return false;
  }
  for (int j = 0; j < k; j++)
    if (strcmp(info->options[j].name, o->name) == 0) {
      ttStrAppendf(err, "pass '%s': option '%s' is defined twice", info->name, o->name);
      return false;
    }
  if (!o->help) {
    ttStrAppendf(err, "pass '%s': option '%s' has no help text", info->name, o->name);
    return false;
  }
  int64_t min = o->min, max = o->max;
  if (o->choices) {
    int words = 0;
    while (o->choices[words])
      words++;
    if (words == 0 || min != 0 || max != words - 1) {
      ttStrAppendf(err, "pass '%s': word option '%s' must have min 0 and max %d (its last word)",
                   info->name, o->name, words - 1);
      return false;
    }
  }
  if (min > max || o->dflt < min || o->dflt > max) {
    ttStrAppendf(err, "pass '%s': option '%s' has default %lld outside its range [%lld, %lld]",
                 info->name, o->name, (long long)o->dflt, (long long)min, (long long)max);
    return false;
  }
  return true;
}

bool ttPassCheck(const TtPassInfo *info, TtStr *err) {
  if (!nameOk(info->name)) {
    ttStrAppendf(err, "a pass has no valid name ('%.127s'; names are [a-z0-9_-]+, at most 127)",
                 info->name ? info->name : "(null)");
    return false;
  }
  if (!info->summary || !info->run) {
    ttStrAppendf(err, "pass '%s' has no %s", info->name, info->summary ? "run callback" : "summary");
    return false;
  }
  if (info->nOptions < 0 || info->nOptions > TT_MAX_PASS_OPTIONS ||
      (info->nOptions > 0 && !info->options)) {
    ttStrAppendf(err, "pass '%s' has %d options (at most %d, with a table)", info->name,
                 info->nOptions, TT_MAX_PASS_OPTIONS);
    return false;
  }
  if (info->anchor && !*info->anchor) {
    ttStrAppendf(err, "pass '%s' has an empty anchor (NULL: builtin.module; or an op name, "
                      "or \"any\")", info->name);
    return false;
  }
  for (int k = 0; k < info->nOptions; k++)
    if (!optionOk(info, k, err))
      return false;
  return true;
}

bool ttPassRegister(const TtPassInfo *info, const char *origin, TtStr *err) {
  init();
  if (!ttPassCheck(info, err))
    return false;
  const TtPassInfo *old = ttPassLookup(info->name);
  if (old) {
    const char *by = ttPassOrigin(old);
    ttStrAppendf(err, "pass '%s' is already registered (by %s)", info->name, by ? by : "tt");
    return false;
  }
  add(info, origin);
  return true;
}

/* One external pass instance: which pass, its options, its statistics (NULL: none). */
typedef struct {
  int index;
  TtPassOptions opts;
  TtStatsRecord *stats;
} PassState;

static void passConstruct(void *userData) { (void)userData; }
static void passDestruct(void *userData) { free(userData); }
static void *passClone(void *userData) {
  PassState *s = ttAlloc(sizeof *s);
  *s = *(PassState *)userData;
  return s;
}
static void passRun(MlirOperation op, MlirExternalPass pass, void *userData) {
  PassState *s = userData;
  const TtPassInfo *info = &infos[s->index];
  ttStatsBegin(s->stats, op);
  bool ok = mlirLogicalResultIsSuccess(info->run(op, &s->opts, info->userData));
  ttStatsEnd(s->stats, op);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

MlirPass ttPassCreate(const TtPassInfo *info, const TtPassOptions *opts) {
  init();
  if (info < infos || info >= infos + count) { /* a TtPassInfo of ttPassLookup's only */
    fprintf(stderr, "tt: internal error: pass '%s' is not registered\n", info->name);
    abort();
  }
  PassState *s = ttAlloc(sizeof *s);
  s->index = (int)(info - infos);
  s->opts = *opts;
  s->stats = ttStatsCreate(info->name);
  MlirExternalPassCallbacks cb = {passConstruct, passDestruct, NULL, passClone, passRun};
  const char *anchor = ttPassAnchor(info);
  return mlirCreateExternalPass(mlirTypeIDCreate(typeIds[s->index]), ttStrRef(info->name),
                                ttStrRef(info->name), ttStrRef(info->summary),
                                ttStrRef(strcmp(anchor, "any") == 0 ? "" : anchor), 0, NULL,
                                cb, s);
}

/* The ops a pass anchored on another op than the module runs on, collected before any
 * runs (a run may change what a walk would see). */
typedef struct {
  const char *anchor;
  MlirOperation *ops;
  int n, cap;
} Anchors;

static bool collectAnchor(MlirOperation op, void *userData) {
  Anchors *a = userData;
  if (ttOpIs(op, a->anchor)) {
    if (a->n == a->cap) {
      a->cap = a->cap ? 2 * a->cap : 16;
      a->ops = ttRealloc(a->ops, (size_t)a->cap * sizeof *a->ops);
    }
    a->ops[a->n++] = op;
  }
  return true;
}

bool ttRunPass(MlirModule module, const char *name, const char *options) {
  const TtPassInfo *info = ttPassLookup(name);
  TtPassOptions opts;
  if (!info || !ttPassParseOptions(info, options, &opts))
    return false;
  MlirOperation op = mlirModuleGetOperation(module);
  const char *anchor = ttPassAnchor(info);
  if (strcmp(anchor, "any") == 0 || strcmp(anchor, "builtin.module") == 0)
    return mlirLogicalResultIsSuccess(info->run(op, &opts, info->userData));
  Anchors a = {anchor, NULL, 0, 0};
  ttWalk(op, collectAnchor, &a);
  bool ok = true;
  for (int i = 0; i < a.n && ok; i++)
    ok = mlirLogicalResultIsSuccess(info->run(a.ops[i], &opts, info->userData));
  free(a.ops);
  return ok;
}
