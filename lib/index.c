/* index.c - indexes that replace scans: a string -> int hash, and the index of a module's
 * top-level ops by symbol name and by the kernel a fused function launches.
 *
 * A pass that asks, per kernel, "which op is @name" or "which fused function launches
 * kernel @name" scanned the module body each time: O(ops) per question, O(kernels x ops)
 * per pass. TtModuleIndex answers both in O(1) after one scan of the body.
 *
 * TtStrIndex: open addressing with linear probing, at most half full (doubled when it
 * would be more); keys are FNV-1a hashes of the bytes. The key bytes are not copied: they
 * must outlive the index (attribute strings live as long as their context).
 * TtModuleIndex: one pass over the module body, in order; for a name held by several ops
 * the first wins, as the scans it replaces (ttModuleLookup, ttLauncherOf) returned the
 * first. It sees the body as it was when built: a pass that adds or erases top-level ops
 * it later looks up must rebuild it (or not use it).
 */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

static size_t strSlot(const TtStrIndex *h, MlirStringRef s) {
  uint64_t x = 1469598103934665603ull;
  for (size_t i = 0; i < s.length; i++)
    x = (x ^ (unsigned char)s.data[i]) * 1099511628211ull;
  return (size_t)(x ^ (x >> 29)) & h->mask;
}

static bool strRefEqual(MlirStringRef a, MlirStringRef b) {
  return a.length == b.length && (a.length == 0 || memcmp(a.data, b.data, a.length) == 0);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t strFindSlot(const TtStrIndex *h, MlirStringRef key) {
  size_t s = strSlot(h, key);
  while (h->used[s] && !strRefEqual(h->keys[s], key))
    s = (s + 1) & h->mask;
  return s;
}

static void strGrow(TtStrIndex *h) {
  TtStrIndex old = *h;
  size_t cap = old.mask ? 2 * (old.mask + 1) : 16;
  h->mask = cap - 1;
  h->keys = ttAlloc(sizeof(MlirStringRef) * cap);
  h->vals = ttAlloc(sizeof(int) * cap);
  h->used = ttAlloc(sizeof(bool) * cap);
  for (size_t i = 0; old.mask && i <= old.mask; i++)
    if (old.used[i]) {
      size_t s = strFindSlot(h, old.keys[i]);
      h->used[s] = true;
      h->keys[s] = old.keys[i];
      h->vals[s] = old.vals[i];
    }
  free(old.keys);
  free(old.vals);
  free(old.used);
}

bool ttStrIndexAdd(TtStrIndex *h, MlirStringRef key, int val) {
  if (2 * (h->n + 1) > (h->mask ? h->mask + 1 : 0))
    strGrow(h);
  size_t s = strFindSlot(h, key);
  if (h->used[s])
    return false;
  h->used[s] = true;
  h->keys[s] = key;
  h->vals[s] = val;
  h->n++;
  return true;
}

int ttStrIndexFind(const TtStrIndex *h, MlirStringRef key) {
  if (!h->mask)
    return -1;
  size_t s = strFindSlot(h, key);
  return h->used[s] ? h->vals[s] : -1;
}

void ttStrIndexDestroy(TtStrIndex *h) {
  free(h->keys);
  free(h->vals);
  free(h->used);
  *h = (TtStrIndex){0};
}

void ttModuleIndexInit(TtModuleIndex *x, MlirModule module) {
  *x = (TtModuleIndex){0};
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    x->n++;
  x->ops = ttAlloc(sizeof(MlirOperation) * (size_t)(x->n ? x->n : 1));
  int i = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), i++) {
    x->ops[i] = op;
    MlirAttribute s = ttOpAttr(op, "sym_name");
    if (!mlirAttributeIsNull(s) && mlirAttributeIsAString(s))
      ttStrIndexAdd(&x->bySym, mlirStringAttrGetValue(s), i);
    MlirAttribute l = ttOpAttr(op, "tile.launch");
    MlirAttribute k = mlirAttributeIsNull(l) || !mlirAttributeIsADictionary(l)
                          ? mlirAttributeGetNull()
                          : mlirDictionaryAttrGetElementByName(l, ttStrRef("kernel"));
    if (!mlirAttributeIsNull(k) && mlirAttributeIsAFlatSymbolRef(k))
      ttStrIndexAdd(&x->byKernel, mlirFlatSymbolRefAttrGetValue(k), i);
  }
}

static MlirOperation opAt(const TtModuleIndex *x, int i) {
  return i < 0 ? (MlirOperation){NULL} : x->ops[i];
}

MlirOperation ttModuleIndexSymbol(const TtModuleIndex *x, const char *name) {
  return opAt(x, ttStrIndexFind(&x->bySym, ttStrRef(name)));
}

MlirOperation ttModuleIndexLauncher(const TtModuleIndex *x, const char *kernel) {
  return opAt(x, ttStrIndexFind(&x->byKernel, ttStrRef(kernel)));
}

void ttModuleIndexDestroy(TtModuleIndex *x) {
  ttStrIndexDestroy(&x->bySym);
  ttStrIndexDestroy(&x->byKernel);
  free(x->ops);
  *x = (TtModuleIndex){0};
}
