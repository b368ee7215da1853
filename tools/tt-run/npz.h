/* npz.h - NumPy .npz archives for tt-run (npz.c): read the arrays of a file written by
 * numpy.savez (stored members; numpy.savez_compressed's deflated members when built with
 * zlib), and write one numpy.load reads. Private to tools/tt-run/. */
#ifndef TT_RUN_NPZ_H
#define TT_RUN_NPZ_H

#include "meta.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One array: its member name without ".npy", NumPy type (kind 'f', 'i', 'u', 'b' or
 * 'V' for raw bits, and item size), C-order shape and little-endian data. */
typedef struct NpzArray {
  char name[128];
  char kind;
  int itemSize;
  int rank;
  int64_t shape[TTRT_MAX_RANK];
  size_t count; /* elements */
  unsigned char *data;
} NpzArray;

typedef struct Npz {
  int count;
  NpzArray *arrays;
} Npz;

/* Reads every array of the archive at path into out (npzFree frees it). On failure
 * returns false with a message ("FILE: member x.npy: ...") in msg. */
bool npzRead(const char *path, Npz *out, char *msg, size_t size);

/* The array named `name`, or NULL. */
const NpzArray *npzFind(const Npz *npz, const char *name);

/* The array for item i of `total` (input or output i): the one named PREFIXi, else
 * arr_i (numpy.savez's name for its i-th positional array), else the i-th array when
 * the archive holds exactly `total`; NULL if none. */
const NpzArray *npzMember(const Npz *npz, const char *prefix, int i, int total);

/* Converts a's elements to doubles for a tensor of dtype `dtype` (raw 'V' bits must
 * have the dtype's size and are decoded as it; numbers convert, rounded to the dtype).
 * Returns false with a message when the type cannot be taken. */
bool npzToDoubles(const NpzArray *a, TtrtDtype dtype, double *out, char *msg,
                  size_t size);

/* Writes arrays (values of the given dtypes and shapes) to path as stored members
 * NAME.npy: f64, f32, f16, i1 (bool), i8, i32, i64 as themselves; bf16 and the f8 types,
 * which NumPy lacks, as float32 (exact). Returns false with a message on failure. */
typedef struct NpzOut {
  const char *name;
  TtrtDtype dtype;
  const TtrtShape *shape;
  const double *values;
} NpzOut;
bool npzWrite(const char *path, const NpzOut *arrays, int count, char *msg, size_t size);

void npzFree(Npz *npz);

#endif
