/* main.c - runs a compiled tt program on this program's own device buffers with the
 * installed runtime (find_package(tt), exec.h), and checks the result on the host.
 *
 * The program (scale_tanh.mlir, compiled by `tt-opt --fuse --splitk scale_tanh.mlir |
 * tt-translate --ptx -o scale_tanh.ptx`) is y = tanh(x * w) with x [?, 1000]: one PTX
 * for every batch size. It is loaded once (ttrtExecutableCreate) and run at two batch
 * sizes, 3 and 37, on buffers this program allocates and fills; each output is compared
 * with tanh(x * w) computed here. Exit 0 when both match (|error| <= 2e-3), 1 otherwise,
 * 2 when there is no GPU.
 * Usage: scale-tanh FILE.ptx
 */
#include <tt/exec.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define COLS 1000

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
    free(text);
    text = NULL;
  }
  if (text)
    text[n] = '\0';
  fclose(f);
  return text;
}

/* One run at `rows` rows: fill x and w, run, read y, compare. Returns the worst error,
 * or -1 after a runtime error (printed). */
static double runAt(TtrtContext ctx, TtrtExecutable exe, int rows) {
  size_t n = (size_t)rows * COLS;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), w[COLS];
  for (size_t i = 0; i < n; ++i)
    x[i] = (float)((int)(i * 7919 % 2001) - 1000) / 500.0f; /* -2 .. 2 */
  for (int j = 0; j < COLS; ++j)
    w[j] = 0.5f + (float)j / COLS;
  TtrtError err = {0};
  TtrtBuffer bx = {0}, bw = {0}, by = {0};
  double worst = -1;
  if (ttrtBufferCreate(ctx, n * sizeof *x, &bx, &err) ||
      ttrtBufferCreate(ctx, sizeof w, &bw, &err) ||
      ttrtBufferCreate(ctx, n * sizeof *y, &by, &err) || ttrtBufferWrite(bx, x, &err) ||
      ttrtBufferWrite(bw, w, &err))
    goto done;
  TtrtTensorArg in[2] = {{bx.address, TTRT_DTYPE_F32, 2, {rows, COLS}},
                         {bw.address, TTRT_DTYPE_F32, 1, {COLS}}};
  TtrtTensorArg out[1] = {{by.address, TTRT_DTYPE_F32, 2, {rows, COLS}}};
  if (ttrtExecutableRun(exe, in, 2, out, 1, NULL, &err) || ttrtContextSynchronize(ctx, &err) ||
      ttrtBufferRead(by, y, &err))
    goto done;
  worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = fabs((double)y[i] - tanh((double)x[i] * w[i % COLS]));
    worst = e > worst ? e : worst;
  }
done:
  if (worst < 0)
    fprintf(stderr, "error (line %d): %s\n", err.line, err.message);
  ttrtBufferDestroy(bx, NULL);
  ttrtBufferDestroy(bw, NULL);
  ttrtBufferDestroy(by, NULL);
  free(x);
  free(y);
  return worst;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: scale-tanh FILE.ptx\n");
    return 1;
  }
  char *ptx = readFile(argv[1]);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  TtrtError err = {0};
  TtrtContext ctx;
  TtrtStatus s = ttrtContextCreate(&ctx, &err);
  if (s != TTRT_SUCCESS) {
    fprintf(stderr, "%s\n", err.message);
    free(ptx);
    return s == TTRT_NO_GPU ? 2 : 1;
  }
  TtrtExecutable exe;
  int status = 0;
  if (ttrtExecutableCreate(ctx, ptx, &exe, &err)) {
    fprintf(stderr, "error (line %d): %s\n", err.line, err.message);
    status = 1;
  }
  int sizes[2] = {3, 37};
  for (int k = 0; k < 2 && status == 0; ++k) {
    double worst = runAt(ctx, exe, sizes[k]);
    printf("rows %d: max |error| %.3g %s\n", sizes[k], worst,
           worst >= 0 && worst <= 2e-3 ? "PASS" : "FAIL");
    if (worst < 0 || worst > 2e-3)
      status = 1;
  }
  /* a wrong shape is refused with a clear error, before any launch */
  TtrtTensorArg bad[2] = {{0, TTRT_DTYPE_F32, 2, {3, 999}}, {0, TTRT_DTYPE_F32, 1, {COLS}}};
  if (status == 0 && ttrtExecutableBind(exe, bad, 2, &err) == TTRT_SUCCESS) {
    printf("a 3x999 input was accepted: FAIL\n");
    status = 1;
  } else if (status == 0) {
    printf("a 3x999 input: %s (expected)\n", err.message);
  }
  ttrtExecutableDestroy(exe, NULL);
  ttrtContextDestroy(ctx, NULL);
  free(ptx);
  printf("%s\n", status == 0 ? "scale-tanh: PASS" : "scale-tanh: FAIL");
  return status;
}
