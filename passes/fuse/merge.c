/* merge.c - --fuse's step 3 (fuse.c's head states the algorithm): horizontal merges.
 * Walking the roots in program order, a group joins the last earlier group that reads
 * one of its inputs when both may hold the other's ops (elementwise, or rows of one
 * shape), their roots share one static shape, the earlier group's outside users come
 * after the later root and their outputs fit MAX_OUTPUTS (union-find over groups).
 * And one vertical merge: an elementwise group of full rows joins an earlier row group of
 * those rows that it reads (one value per row, or rows), when every other user of the
 * row group's outputs comes after its root: a per-row scale that is also a result of the
 * program, s = amax(|x|, -1) / 448, then q = (x / s).to(fp8), is one row kernel that
 * reads x once, not a row kernel for s and an elementwise kernel that reads x again.
 */
#include "fuse.h"

#include <stdlib.h>

/* The group of op i after step 3's merges (union-find, with path halving). */
int fuGroupOf(FuseState *st, int g) {
  while (g >= 0 && st->parent[g] != g)
    g = st->parent[g] = st->parent[st->parent[g]];
  return g;
}

/* Step 3's state: per value key (an op's index, or block.n + an argument's number), the
 * last group that read it; the group whose inputs are being visited. */
typedef struct {
  int *lastReader;
  int nkeys, g;
  MlirBlock block;
} MergeState;

/* Whether group a (its root earlier) can merge into group b (step 3). */
static bool canMerge(FuseState *st, int a, int b) {
  bool rowA = !mlirTypeIsNull(st->rowType[a]), rowB = !mlirTypeIsNull(st->rowType[b]);
  return !st->dot[a] && !st->dot[b] && !st->col[a] && !st->col[b] && !st->perm[a] &&
         !st->perm[b] && rowA == rowB &&
         (!rowA || ttSameShape(st->rowType[a], st->rowType[b])) &&
         ttSameShape(fuResultType(st->block.ops[st->root[a]]),
                   fuResultType(st->block.ops[st->root[b]])) &&
         fuIsStatic(fuResultType(st->block.ops[st->root[b]])) &&
         st->nout[a] + st->nout[b] <= MAX_OUTPUTS &&
         st->firstUse[a] > st->root[b];
}

/* Whether every user of group a's members outside a is in group b or after b's root. */
static bool usersInOrAfter(FuseState *st, int a, int b) {
  for (int i = 0; i < st->block.n; i++) {
    if (st->group[i] < 0 || fuGroupOf(st, st->group[i]) != a)
      continue;
    MlirOperation op = st->block.ops[i];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        int k = fuUserIndex(st, u), gk = k >= 0 ? fuGroupOf(st, st->group[k]) : -1;
        if (k < 0 || (gk != a && gk != b && k <= st->root[b]))
          return false;
      }
  }
  return true;
}

/* Whether row group a (its root earlier) can take elementwise group b, which reads it
 * (the vertical merge): b computes full rows of a's row shape, static, moves no data. */
static bool canMergeRows(FuseState *st, int a, int b) {
  MlirType rootB = fuResultType(st->block.ops[st->root[b]]);
  return !mlirTypeIsNull(st->rowType[a]) && mlirTypeIsNull(st->rowType[b]) && !st->dot[b] &&
         !st->col[b] && !st->perm[b] && !st->move[b] && st->root[a] < st->root[b] &&
         ttSameShape(rootB, st->rowType[a]) && fuIsStatic(rootB) &&
         st->nout[a] + st->nout[b] <= MAX_OUTPUTS && usersInOrAfter(st, a, b);
}

/* Group h joins group g. */
static void join(FuseState *st, int h, int g) {
  st->parent[h] = g;
  st->move[g] |= st->move[h];
  st->multi[g] = true;
  st->nout[g] += st->nout[h];
  st->firstUse[g] = st->firstUse[h] < st->firstUse[g] ? st->firstUse[h] : st->firstUse[g];
  if (mlirTypeIsNull(st->rowType[g]))
    st->rowType[g] = st->rowType[h];
}

/* Step 3 for one value group m->g reads: merges the last earlier reader into it, or the
 * row group that computes it. */
static void mergeReader(FuseState *st, MlirValue v, void *arg) {
  MergeState *m = arg;
  int key = -1, g = m->g;
  if (mlirValueIsAOpResult(v))
    key = fuIndexOf(st, mlirOpResultGetOwner(v));
  else if (mlirBlockEqual(mlirBlockArgumentGetOwner(v), m->block))
    key = st->block.n + (int)mlirBlockArgumentGetArgNumber(v);
  if (key < 0 || key >= m->nkeys)
    return;
  int p = key < st->block.n && st->group[key] >= 0 ? fuGroupOf(st, st->group[key]) : -1;
  if (p >= 0 && p != g && canMergeRows(st, p, g))
    join(st, p, g);
  int h = fuGroupOf(st, m->lastReader[key]);
  if (h >= 0 && h != g && canMerge(st, h, g))
    join(st, h, g);
  m->lastReader[key] = g;
}

/* Step 3: firstUse of every group, then the merges, roots in program order (group ids
 * count down along the block). Afterwards st->group holds each op's merged group. */
void fuMergeGroups(FuseState *st, MlirBlock block, int ngroups) {
  for (int g = 0; g < ngroups; g++)
    st->firstUse[g] = st->block.n;
  for (int i = 0; i < st->block.n; i++) {
    int g = st->group[i];
    if (g < 0)
      continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(st->block.ops[i], 0));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      int k = fuUserIndex(st, u);
      if (k >= 0 && st->group[k] != g && k < st->firstUse[g])
        st->firstUse[g] = k;
    }
  }
  MergeState m = {.nkeys = st->block.n + (int)mlirBlockGetNumArguments(block), .block = block};
  m.lastReader = ttAlloc(sizeof(int) * (size_t)(m.nkeys ? m.nkeys : 1));
  for (int k = 0; k < m.nkeys; k++)
    m.lastReader[k] = -1;
  for (m.g = ngroups - 1; m.g >= 0; m.g--)
    fuVisitInputs(st, block, m.g, mergeReader, &m);
  for (int i = 0; i < st->block.n; i++)
    st->group[i] = fuGroupOf(st, st->group[i]);
  free(m.lastReader);
}
