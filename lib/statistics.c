/* statistics.c - --mlir-pass-statistics for tt passes (tt's own and plugins').
 *
 * MLIR's C API lets an external pass declare no statistics, and the release build of
 * LLVM that tt uses compiles upstream passes' statistics out (mlir-opt's own report is
 * empty there), so tt keeps its own and prints them in mlir-opt's format:
 *  1. ttStatisticsEnable(true) before the pass manager is built: each tt pass instance then
 *     gets a record (ttStatsCreate), in the order the passes were added;
 *  2. around each run (ttStatsBegin/End) the record counts the ops under the op the pass
 *     runs on (`ops-before`, `ops-after`) and is the thread's current record, so that the
 *     pass's own counters (ttStatisticAdd, the `statisticAdd` of the plugin API) go to it;
 *     clones of an instance share its record (a mutex guards it);
 *  3. ttStatisticsPrint prints the records that have a statistic, either per instance in
 *     pipeline order (display mode "pipeline", mlir-opt's default) or merged by pass name
 *     and sorted ("list"), and forgets them.
 */
#include "tt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name, *help;
  int64_t value;
} Stat;

struct TtStatsRecord {
  const char *pass;
  Stat *stats;
  int n, cap;
  pthread_mutex_t lock;
  TtStatsRecord *next;
};

static bool enabled;
static TtStatsRecord *first, **last = &first;
static pthread_mutex_t listLock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local TtStatsRecord *current;

void ttStatisticsEnable(bool on) { enabled = on; }

TtStatsRecord *ttStatsCreate(const char *pass) {
  if (!enabled)
    return NULL;
  TtStatsRecord *r = ttAlloc(sizeof *r);
  r->pass = pass;
  pthread_mutex_init(&r->lock, NULL);
  pthread_mutex_lock(&listLock);
  *last = r;
  last = &r->next;
  pthread_mutex_unlock(&listLock);
  return r;
}

/* Adds delta to statistic `name` of r (made with help when new); the caller holds r's lock
 * or owns r alone. */
static void addTo(TtStatsRecord *r, const char *name, const char *help, int64_t delta) {
  for (int i = 0; i < r->n; i++)
    if (strcmp(r->stats[i].name, name) == 0) {
      r->stats[i].value += delta;
      return;
    }
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 4;
    r->stats = ttRealloc(r->stats, (size_t)r->cap * sizeof *r->stats);
  }
  r->stats[r->n++] = (Stat){name, help ? help : "", delta};
}

void ttStatisticAdd(const char *name, const char *help, int64_t delta) {
  TtStatsRecord *r = current;
  if (!r || !name)
    return;
  pthread_mutex_lock(&r->lock);
  addTo(r, name, help, delta);
  pthread_mutex_unlock(&r->lock);
}

static bool countOp(MlirOperation op, void *userData) {
  (void)op;
  ++*(int64_t *)userData;
  return true;
}

static int64_t opsUnder(MlirOperation op) {
  int64_t n = -1; /* the op itself does not count */
  ttWalk(op, countOp, &n);
  return n;
}

void ttStatsBegin(TtStatsRecord *r, MlirOperation op) {
  current = r;
  if (r)
    ttStatisticAdd("ops-before", "Operations under the op the pass ran on, before it",
                   opsUnder(op));
}

void ttStatsEnd(TtStatsRecord *r, MlirOperation op) {
  if (r)
    ttStatisticAdd("ops-after", "Operations under the op the pass ran on, after it",
                   opsUnder(op));
  current = NULL;
}

/* One pass's statistics as mlir-opt prints them: `(S) value name - help`, values
 * right-aligned and names left-aligned to the widest. */
static void printRecord(FILE *f, const TtStatsRecord *r) {
  int vw = 1, nw = 1;
  for (int i = 0; i < r->n; i++) {
    int w = snprintf(NULL, 0, "%lld", (long long)r->stats[i].value);
    vw = w > vw ? w : vw;
    nw = (int)strlen(r->stats[i].name) > nw ? (int)strlen(r->stats[i].name) : nw;
  }
  fprintf(f, "%s\n", r->pass);
  for (int i = 0; i < r->n; i++)
    fprintf(f, "  (S) %*lld %-*s - %s\n", vw, (long long)r->stats[i].value, nw,
            r->stats[i].name, r->stats[i].help);
}

static int byName(const void *a, const void *b) {
  return strcmp((*(TtStatsRecord *const *)a)->pass, (*(TtStatsRecord *const *)b)->pass);
}

static int statByName(const void *a, const void *b) {
  return strcmp(((const Stat *)a)->name, ((const Stat *)b)->name);
}

void ttStatisticsPrint(FILE *f, bool list) {
  pthread_mutex_lock(&listLock);
  TtStatsRecord *rs = first;
  first = NULL;
  last = &first;
  pthread_mutex_unlock(&listLock);
  int n = 0;
  for (TtStatsRecord *r = rs; r; r = r->next)
    n += r->n > 0;
  TtStatsRecord **shown = ttAlloc((size_t)(n ? n : 1) * sizeof *shown);
  n = 0;
  for (TtStatsRecord *r = rs; r; r = r->next) {
    if (r->n == 0)
      continue;
    qsort(r->stats, (size_t)r->n, sizeof *r->stats, statByName); /* as mlir-opt sorts them */
    TtStatsRecord *same = NULL;
    for (int i = 0; list && i < n && !same; i++)
      if (strcmp(shown[i]->pass, r->pass) == 0)
        same = shown[i];
    if (same) /* list mode: one entry per pass, its instances summed */
      for (int i = 0; i < r->n; i++)
        addTo(same, r->stats[i].name, r->stats[i].help, r->stats[i].value);
    else
      shown[n++] = r;
  }
  if (list)
    qsort(shown, (size_t)n, sizeof *shown, byName);
  const char *title = "... Pass statistics report (tt passes) ...";
  fprintf(f, "===%s===\n%*s%s\n===%s===\n",
          "-------------------------------------------------------------------------",
          (int)(80 - strlen(title)) / 2, "", title,
          "-------------------------------------------------------------------------");
  for (int i = 0; i < n; i++) {
    qsort(shown[i]->stats, (size_t)shown[i]->n, sizeof *shown[i]->stats, statByName);
    printRecord(f, shown[i]);
  }
  fprintf(f, "\n");
  free(shown);
  while (rs) {
    TtStatsRecord *next = rs->next;
    pthread_mutex_destroy(&rs->lock);
    free(rs->stats);
    free(rs);
    rs = next;
  }
}
