/* archives.c - tt-run's NumPy archives (session.h): --inputs (input I from the array
 * argI, arr_I or the I-th; its shape binds the input's `?` dims, then must equal the
 * input's resolved shape; values rounded to the input's dtype), --expected (output J
 * against outJ, arr_J or the J-th, instead of the reference) and --save-outputs (out0,
 * out1, ...). The archive format itself is npz.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <stdlib.h>
#include <string.h>

/* The --inputs (or, for outputs, --expected) array of slot `i`, or NULL with the
 * error printed. */
static const NpzArray *givenArray(const Session *s, bool output, int i) {
  const TtrtMeta *m = s->meta;
  const Npz *npz = output ? &s->expected : &s->given;
  const NpzArray *a = npzMember(npz, output ? "out" : "arg", i,
                                output ? m->numOutputs : m->numInputs);
  if (!a)
    fprintf(stderr, "tt-run: %s holds no array for %s %d (name it %s%d or arr_%d)\n",
            output ? s->opt->expected : s->opt->inputs, output ? "output" : "input", i,
            output ? "out" : "arg", i, i);
  return a;
}

/* Reads the --inputs and --expected archives, and binds each input's `?` dims to its
 * array's sizes. */
int readArchives(Session *s) {
  char msg[1024];
  if (s->opt->expected && !npzRead(s->opt->expected, &s->expected, msg, sizeof msg)) {
    fprintf(stderr, "tt-run: %s\n", msg);
    return EXIT_FAIL;
  }
  if (!s->opt->inputs)
    return EXIT_PASS;
  if (!npzRead(s->opt->inputs, &s->given, msg, sizeof msg)) {
    fprintf(stderr, "tt-run: %s\n", msg);
    return EXIT_FAIL;
  }
  for (int i = 0; i < s->meta->numInputs; ++i) {
    const TtrtTensor *t = &s->meta->tensors[s->meta->inputs[i]];
    const NpzArray *a = givenArray(s, false, i);
    if (!a)
      return EXIT_FAIL;
    for (int d = 0; d < t->declared.rank && a->rank == t->declared.rank; ++d) {
      TtrtError err;
      if (t->declared.dims[d] < 0 &&
          ttrtMetaBindDim(s->meta, t->id, d, a->shape[d], &err)) {
        ttrtErrorPrefix(&err, "--inputs %s: ", a->name);
        return reportError(s, &err);
      }
    }
  }
  return EXIT_PASS;
}

/* The values of input i from its --inputs array: the shape must be the input's. */
int givenInput(const Session *s, int i, double *v) {
  const TtrtTensor *t = &s->meta->tensors[s->meta->inputs[i]];
  const NpzArray *a = givenArray(s, false, i);
  char msg[512];
  if (!a)
    return EXIT_FAIL;
  TtrtShape got = {a->rank, {0}};
  memcpy(got.dims, a->shape, sizeof a->shape);
  if (!ttrtShapeEqual(&got, &t->shape)) {
    char want[256], have[256];
    ttrtShapeFormat(&t->shape, want, sizeof want);
    ttrtShapeFormat(&got, have, sizeof have);
    fprintf(stderr, "tt-run: %s: array %s is %s; input %d (%%%lld) is %s\n",
            s->opt->inputs, a->name, have, i, (long long)t->id, want);
    return EXIT_FAIL;
  }
  if (!npzToDoubles(a, t->dtype, v, msg, sizeof msg)) {
    fprintf(stderr, "tt-run: %s: array %s: %s\n", s->opt->inputs, a->name, msg);
    return EXIT_FAIL;
  }
  return EXIT_PASS;
}

/* The --expected arrays, as doubles per output slot in s->want (shapes checked). */
int readExpected(Session *s) {
  const TtrtMeta *m = s->meta;
  char msg[512];
  s->want = calloc((size_t)m->numTensors + 1, sizeof *s->want);
  if (!s->want)
    return EXIT_FAIL;
  for (int j = 0; j < m->numOutputs; ++j) {
    int slot = m->outputs[j];
    const TtrtTensor *t = &m->tensors[slot];
    const NpzArray *a = givenArray(s, true, j);
    if (!a)
      return EXIT_FAIL;
    TtrtShape got = {a->rank, {0}};
    memcpy(got.dims, a->shape, sizeof a->shape);
    char want[256], have[256];
    ttrtShapeFormat(&t->shape, want, sizeof want);
    ttrtShapeFormat(&got, have, sizeof have);
    if (!ttrtShapeEqual(&got, &t->shape)) {
      fprintf(stderr, "tt-run: %s: array %s is %s; output %d (%%%lld) is %s\n",
              s->opt->expected, a->name, have, j, (long long)t->id, want);
      return EXIT_FAIL;
    }
    s->want[slot] = malloc((a->count ? a->count : 1) * sizeof(double));
    if (!s->want[slot] || !npzToDoubles(a, t->dtype, s->want[slot], msg, sizeof msg)) {
      fprintf(stderr, "tt-run: %s: array %s: %s\n", s->opt->expected, a->name,
              s->want[slot] ? msg : "out of memory");
      return EXIT_FAIL;
    }
  }
  return EXIT_PASS;
}

/* --save-outputs: the outputs `values` (per slot) as out0, out1, ... */
int saveOutputs(const Session *s, double *const *values) {
  const TtrtMeta *m = s->meta;
  NpzOut *outs = calloc((size_t)m->numOutputs + 1, sizeof *outs);
  char (*names)[16] = calloc((size_t)m->numOutputs + 1, sizeof *names);
  char msg[512] = "out of memory";
  bool ok = outs && names;
  for (int j = 0; ok && j < m->numOutputs; ++j) {
    const TtrtTensor *t = &m->tensors[m->outputs[j]];
    snprintf(names[j], sizeof names[j], "out%d", j);
    outs[j] = (NpzOut){names[j], t->dtype, &t->shape, values[m->outputs[j]]};
  }
  ok = ok && npzWrite(s->opt->saveOutputs, outs, m->numOutputs, msg, sizeof msg);
  free(outs);
  free(names);
  if (!ok) {
    fprintf(stderr, "tt-run: %s\n", msg);
    return EXIT_FAIL;
  }
  printf("saved %d output(s) to %s\n", m->numOutputs, s->opt->saveOutputs);
  return EXIT_PASS;
}

