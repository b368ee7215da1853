/* exec.h - running a tt program on the caller's own device memory.
 *
 * A TtrtExecutable is a tt PTX file (its text: the kernels and the `//@` launch
 * metadata) loaded once. Each run names the caller's input and output buffers
 * (device addresses, e.g. PyTorch tensors' data pointers) with their dtypes and
 * shapes; the executable binds the sizes of `?` dims from the inputs' shapes,
 * checks every shape and dtype against the metadata (a clear error naming the
 * input or output and what was expected), makes its temps (kept while the sizes
 * stay), and enqueues the launches on the stream given (a CUstream of the
 * context, or NULL for the context's own). Nothing is copied and nothing waits:
 * the run is ordered on that stream like any other work on it.
 *
 * Typical use (C):
 *   TtrtContext ctx; ttrtContextCreate(&ctx, &err);
 *   TtrtExecutable exe; ttrtExecutableCreate(ctx, ptxText, &exe, &err);
 *   TtrtTensorArg in[2] = {{x, TTRT_DTYPE_BF16, 2, {16, 4096}}, ...};
 *   TtrtTensorArg out[1] = {{y, TTRT_DTYPE_BF16, 2, {16, 4096}}};
 *   ttrtExecutableRun(exe, in, 2, out, 1, stream, &err);
 * The output shapes for given inputs come from ttrtExecutableBind and
 * ttrtExecutableGetOutput (so a caller can allocate them first).
 */
#ifndef TT_RUNTIME_EXEC_H
#define TT_RUNTIME_EXEC_H

#include "ttrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TtrtExecutable {
  void *ptr;
} TtrtExecutable;

/* One tensor of a run: device memory at `address`, row-major and contiguous. */
typedef struct TtrtTensorArg {
  uint64_t address;
  TtrtDtype dtype;
  int rank;
  int64_t shape[TTRT_MAX_RANK];
} TtrtTensorArg;

/* Parses the metadata of the PTX text (NUL-terminated; copied) and loads its
 * module. Errors carry the metadata line. */
TtrtStatus ttrtExecutableCreate(TtrtContext ctx, const char *ptx,
                                TtrtExecutable *out, TtrtError *err);

TtrtStatus ttrtExecutableDestroy(TtrtExecutable exe, TtrtError *err);

static inline bool ttrtExecutableIsNull(TtrtExecutable e) { return !e.ptr; }

int ttrtExecutableNumInputs(TtrtExecutable exe);
int ttrtExecutableNumOutputs(TtrtExecutable exe);

/* Input i as declared: dtype, rank and dims (-1 for a `?` dim). */
void ttrtExecutableGetInput(TtrtExecutable exe, int i, TtrtTensorArg *out);

/* Binds the `?` dims from the inputs' shapes (their addresses are not used)
 * and checks every input's dtype and shape against the metadata. */
TtrtStatus ttrtExecutableBind(TtrtExecutable exe, const TtrtTensorArg *inputs,
                              int numInputs, TtrtError *err);

/* Output i's dtype and shape at the sizes of the last successful bind. */
void ttrtExecutableGetOutput(TtrtExecutable exe, int i, TtrtTensorArg *out);

/* Binds the inputs (as ttrtExecutableBind), checks the outputs' dtypes and
 * shapes, and enqueues the program on `stream` (NULL: the context's) reading
 * the inputs' memory and writing the outputs'. */
TtrtStatus ttrtExecutableRun(TtrtExecutable exe, const TtrtTensorArg *inputs,
                             int numInputs, const TtrtTensorArg *outputs,
                             int numOutputs, void *stream, TtrtError *err);

/* The next run runs the program's `once` launches again (what it computes from
 * weights alone, kept from the first run): after a weight changed in place at the
 * same address. A weight bound at another address makes them run by itself. */
void ttrtExecutableRefresh(TtrtExecutable exe);

#ifdef __cplusplus
}
#endif

#endif /* TT_RUNTIME_EXEC_H */
