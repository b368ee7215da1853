/* meta.h - the launch metadata of a tt PTX file (docs/metadata.md), parsed.
 *
 * tt-translate writes PTX preceded by `//@` comment lines that describe the
 * program's tensors, its prim program (for the reference interpreter, ref.h)
 * and its kernel launches. This header declares the parsed form of those
 * lines, their parser, the evaluator of grid/argument expressions, and the
 * things every part of the runtime shares: dtypes, shapes, status codes and
 * the error record. Pure C11; no CUDA, no MLIR.
 */
#ifndef TT_RUNTIME_META_H
#define TT_RUNTIME_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TTRT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TTRT_PRINTF(fmt, args)
#endif

/*===------------------------------------------------------------------===*
 * Status and errors (shared by meta.h, ref.h and ttrt.h)
 *===------------------------------------------------------------------===*/

/* Result of every fallible runtime call. */
typedef enum TtrtStatus {
  TTRT_SUCCESS = 0,
  TTRT_FAILURE = 1, /* anything that went wrong; the message says what */
  TTRT_NO_GPU = 2,  /* no libcuda, or the driver sees no device */
} TtrtStatus;

/* What went wrong: the metadata line it is about (0: none) and a sentence. */
typedef struct TtrtError {
  int line;
  char message[4096];
} TtrtError;

/* Sets `err` (if not NULL) to a formatted message about `line`. Returns
 * TTRT_FAILURE so that callers can `return ttrtErrorSet(...)`. */
TtrtStatus ttrtErrorSet(TtrtError *err, int line, const char *fmt, ...)
    TTRT_PRINTF(3, 4);

/* Prepends formatted context ("launch 2: ") to the message in `err`. */
void ttrtErrorPrefix(TtrtError *err, const char *fmt, ...) TTRT_PRINTF(2, 3);

/*===------------------------------------------------------------------===*
 * Dtypes and shapes
 *===------------------------------------------------------------------===*/

typedef enum TtrtDtype {
  TTRT_DTYPE_F64,
  TTRT_DTYPE_F32,
  TTRT_DTYPE_F16,
  TTRT_DTYPE_BF16,
  TTRT_DTYPE_F8E4M3,
  TTRT_DTYPE_F8E5M2,
  TTRT_DTYPE_I1,
  TTRT_DTYPE_I8,
  TTRT_DTYPE_I32,
  TTRT_DTYPE_I64,
  TTRT_DTYPE_COUNT
} TtrtDtype;

/* Parses a dtype name of the metadata ("bf16"); false if unknown. */
bool ttrtDtypeParse(const char *name, TtrtDtype *out);

/* The metadata name of a dtype ("bf16"). */
const char *ttrtDtypeGetName(TtrtDtype dtype);

/* Bytes per element in a device buffer (i1 is stored as one byte, 0 or 1). */
size_t ttrtDtypeGetSize(TtrtDtype dtype);

/* True for the floating-point dtypes. */
bool ttrtDtypeIsFloat(TtrtDtype dtype);

/* True when `x` is a value of `dtype`: for an integer dtype an integer in its range (i1:
 * 0 or 1), for a float dtype NaN, an infinity (where the format has them) or a finite
 * value no larger in magnitude than its largest finite one (rounding to it is exact or
 * to nearest). A constant's or a pad's value must be one (rules.c). */
bool ttrtDtypeHolds(TtrtDtype dtype, double x);

/* Most dimensions a tensor may have (an implementation limit). */
#define TTRT_MAX_RANK 16

/* A shape. In a tensor line's declared shape (TtrtTensor.declared) a
 * dimension below 0 is a symbolic size (format 6): symbol -(d + 1) of
 * TtrtMeta.symbols, known only once the program is bound to real sizes
 * (ttrtMetaBindDim, ttrtMetaResolve); resolved shapes have none. */
typedef struct TtrtShape {
  int rank; /* 0 for `scalar` */
  int64_t dims[TTRT_MAX_RANK];
} TtrtShape;

/* Most symbolic sizes one file may use. */
#define TTRT_MAX_SYMBOLS 64

/* A symbolic size (format 6): `s0` on tensor lines, or `?` (each `?` a
 * symbol of its own). Bound to a size before the program runs. */
typedef struct TtrtSymbol {
  char name[16];
  int64_t value; /* 0: not bound yet */
  int line;      /* first tensor line that uses it */
} TtrtSymbol;

/* Number of elements (1 for a scalar). */
int64_t ttrtShapeGetNumel(const TtrtShape *shape);

/* True if both shapes have the same rank and dimensions. */
bool ttrtShapeEqual(const TtrtShape *a, const TtrtShape *b);

/* Writes the metadata spelling of a shape ("8192x8192", "scalar"). */
void ttrtShapeFormat(const TtrtShape *shape, char *buf, size_t size);

/*===------------------------------------------------------------------===*
 * The parsed metadata
 *===------------------------------------------------------------------===*/

typedef enum TtrtRole {
  TTRT_ROLE_INPUT,
  TTRT_ROLE_OUTPUT,
  TTRT_ROLE_TEMP,
  TTRT_ROLE_CONST
} TtrtRole;

/* The metadata name of a role ("input"). */
const char *ttrtRoleGetName(TtrtRole role);

/* A `tensor` line. Tensors are referred to by their *slot*, the index in
 * TtrtMeta.tensors; `id` is the number written after `%`. */
typedef struct TtrtTensor {
  int64_t id;
  TtrtRole role;
  int index; /* argument/result index for inputs and outputs, else -1 */
  TtrtDtype dtype;
  TtrtShape declared; /* as written: symbolic sizes below 0 */
  TtrtShape shape;    /* the sizes: `declared`, its symbols replaced by their
                         bound values (ttrtMetaResolve); equal to `declared`
                         in a file without symbols */
  int line;
  int64_t scale[TTRT_MAX_RANK]; /* a symbolic dim's multiple of its symbol (format 7:
                                   `s0*8`); 1 (or 0) for every other dim */
} TtrtTensor;

typedef enum TtrtOp {
  /* unary */
  TTRT_OP_NEG,
  TTRT_OP_ABS,
  TTRT_OP_EXP,
  TTRT_OP_EXP2,
  TTRT_OP_LOG,
  TTRT_OP_SQRT,
  TTRT_OP_RSQRT,
  TTRT_OP_TANH,
  TTRT_OP_ERF,
  TTRT_OP_SIN,
  TTRT_OP_COS,
  TTRT_OP_RECIPROCAL,
  /* binary */
  TTRT_OP_ADD,
  TTRT_OP_SUB,
  TTRT_OP_MUL,
  TTRT_OP_DIV,
  TTRT_OP_MAX,
  TTRT_OP_MIN,
  TTRT_OP_POW,
  /* others */
  TTRT_OP_COMPARE,
  TTRT_OP_WHERE,
  TTRT_OP_CONVERT,
  TTRT_OP_BROADCAST_IN_DIM,
  TTRT_OP_RESHAPE,
  TTRT_OP_CONSTANT,
  TTRT_OP_TRANSPOSE,
  TTRT_OP_MATMUL,
  TTRT_OP_SLICE,
  TTRT_OP_CONCAT,
  TTRT_OP_INDEX_SELECT,
  TTRT_OP_GATHER,
  TTRT_OP_IOTA,
  TTRT_OP_PAD,
  /* reductions */
  TTRT_OP_SUM,
  TTRT_OP_AMAX,
  TTRT_OP_AMIN,
  /* index reductions: the first index of the max or min (NaN counts as both) */
  TTRT_OP_ARGMAX,
  TTRT_OP_ARGMIN,
  TTRT_OP_COUNT
} TtrtOp;

/* The metadata name of an op ("broadcast_in_dim"). */
const char *ttrtOpGetName(TtrtOp op);

/* True for the reductions (sum, amax, amin). */
bool ttrtOpIsReduction(TtrtOp op);
/* True for argmax and argmin (dims: none for all dims, or one; keepdim). */
bool ttrtOpIsArgReduction(TtrtOp op);

typedef enum TtrtDirection {
  TTRT_DIRECTION_LT,
  TTRT_DIRECTION_LE,
  TTRT_DIRECTION_GT,
  TTRT_DIRECTION_GE,
  TTRT_DIRECTION_EQ,
  TTRT_DIRECTION_NE
} TtrtDirection;

/* The metadata name of a compare direction ("lt"). */
const char *ttrtDirectionGetName(TtrtDirection direction);

#define TTRT_MAX_OPERANDS 3

/* A `prim` line. Operands and result are tensor slots. */
typedef struct TtrtPrim {
  TtrtOp op;
  int result;
  int numOperands;
  int operands[TTRT_MAX_OPERANDS];
  TtrtDirection direction; /* compare */
  int numDims;             /* broadcast_in_dim, reductions, transpose; argmax: 0 or 1 */
  int dims[TTRT_MAX_RANK]; /* broadcast_in_dim, reductions; transpose: perm; concat,
                              index_select, gather: dim; iota: dimension */
  bool keepdim;            /* reductions */
  int numSlice[3];         /* slice: entries of start, stop, step; pad: of low, high */
  int64_t slice[3][TTRT_MAX_RANK]; /* slice: start, stop, step per dim; pad: low, high */
  double value;            /* constant, pad */
  int line;
} TtrtPrim;

typedef enum TtrtExprKind {
  TTRT_EXPR_INT,   /* value */
  TTRT_EXPR_NUMEL, /* numel(tensor) */
  TTRT_EXPR_DIM,   /* dim(tensor, value) */
  TTRT_EXPR_CDIV,  /* cdiv(lhs, rhs) */
  TTRT_EXPR_ADD,   /* lhs + rhs */
  TTRT_EXPR_MUL    /* lhs * rhs */
} TtrtExprKind;

/* One node of an expression tree; nodes live in TtrtMeta.exprs and refer to
 * each other by index. */
typedef struct TtrtExpr {
  TtrtExprKind kind;
  int64_t value;
  int tensor;
  int lhs, rhs;
} TtrtExpr;

typedef enum TtrtArgKind {
  TTRT_ARG_PTR,
  TTRT_ARG_I32,
  TTRT_ARG_I64,
  TTRT_ARG_F32,
  TTRT_ARG_TMA /* format 4: a TMA tensor map of a 2-D tensor (128 bytes, by value) */
} TtrtArgKind;

/* The metadata name of an argument kind ("ptr"). */
const char *ttrtArgKindGetName(TtrtArgKind kind);

/* An `arg` line. */
typedef struct TtrtArg {
  TtrtArgKind kind;
  int tensor; /* ptr: tensor slot */
  int expr;   /* i32/i64: root node in TtrtMeta.exprs */
  float f32;  /* f32 */
  int64_t tmaDims[2], tmaBox[2]; /* tma: the matrix (rows, columns; rows -1:
                                    `?`, numel / columns) and the box */
  int line;
  int64_t tmaBatch; /* tma: 0 for a matrix; else (format 8) a rank-3 map of tmaBatch
                       matrices one after another, each box within one of them */
} TtrtArg;

/* A `zero` line: the buffer of `tensor` is filled with zero bytes before the
 * launch that follows the line. */
typedef struct TtrtZero {
  int tensor; /* tensor slot */
  int line;
} TtrtZero;

/* A `launch` line, its `arg` lines (args[firstArg .. firstArg+numArgs)) and
 * the `zero` lines before it (zeros[firstZero .. firstZero+numZeros)). */
typedef struct TtrtLaunch {
  char *kernel;
  int grid[3]; /* expression roots */
  uint32_t block[3];
  uint32_t shared;
  bool pdl; /* programmatic dependent launch (format 5): the kernel issues
               griddepcontrol.wait before it touches what earlier launches
               may write */
  bool once; /* format 9: the launch reads weights alone (inputs the caller keeps
                between runs): a program runs it at its first run and again only
                after a weight it reads is bound at another address */
  uint32_t cluster; /* format 10: programs run in thread-block clusters of this many
                       along x (the grid's x a multiple of it); 1: no clusters */
  int when;  /* format 6: the launch (and its zero lines) runs only when
                expression `when` is in [whenLo, whenHi]; -1: always */
  int64_t whenLo, whenHi;
  int firstArg;
  int numArgs;
  int firstZero;
  int numZeros;
  int line;
} TtrtLaunch;

/* All metadata of one file. Read-only for users; made by ttrtMetaParse. */
typedef struct TtrtMeta {
  int version;
  char arch[64];
  int numTensors;
  TtrtTensor *tensors;
  int numPrims;
  TtrtPrim *prims;
  int numLaunches;
  TtrtLaunch *launches;
  int numArgs;
  TtrtArg *args;
  int numZeros;
  TtrtZero *zeros;
  int numExprs;
  TtrtExpr *exprs;
  int numInputs;
  int *inputs; /* slot of input i */
  int numOutputs;
  int *outputs; /* slot of output i */
  int numSymbols;
  TtrtSymbol symbols[TTRT_MAX_SYMBOLS]; /* format 6: symbolic sizes */
  bool resolved; /* every tensor's `shape` holds its sizes */
  int *idTable; /* private: open-addressing map from id to slot + 1 */
  int idTableSize;
} TtrtMeta;

/* Parses the metadata lines (those starting with `//@`) of a file's text of
 * `length` bytes. On failure sets err->line to the 1-based line number (0 for
 * a problem with the file as a whole) and returns TTRT_FAILURE. */
TtrtStatus ttrtMetaParse(const char *text, size_t length, TtrtMeta **out,
                         TtrtError *err);

/* Symbolic sizes (format 6; dims.c). A file whose tensor lines use symbols
 * (`s0x4096`, `?x4096`) describes every size of them; before buffers are
 * made or the reference runs, each symbol is bound to a size and the shapes
 * resolved. ttrtMetaParse resolves a file without symbols itself. */

/* Binds dimension `dim` of tensor `%id` to `size`: its symbol, or, for a
 * static dimension, checks that it is `size`. A symbol bound twice must get
 * one size. */
TtrtStatus ttrtMetaBindDim(TtrtMeta *meta, int64_t id, int dim, int64_t size,
                           TtrtError *err);

/* Forgets every symbol's size (to bind the program at other sizes); a file
 * with symbols is then unresolved until ttrtMetaResolve. */
void ttrtMetaClearBindings(TtrtMeta *meta);

/* Binds the symbol named `name` ("s0") to `size`. */
TtrtStatus ttrtMetaBindSymbol(TtrtMeta *meta, const char *name, int64_t size,
                              TtrtError *err);

/* Replaces every symbol by its bound size in each tensor's `shape`, then
 * checks the program at these sizes: every symbol bound, no tensor of more
 * than 2^63 elements, each prim line's shape rules (rules.h) and each tma
 * matrix. Fails naming the first tensor line or prim line at fault. */
TtrtStatus ttrtMetaResolve(TtrtMeta *meta, TtrtError *err);

/* Writes a declared shape with its symbols' names ("s0x4096"; meta NULL: a shape
 * without symbols, as ttrtShapeFormat). */
void ttrtMetaFormatShape(const TtrtMeta *meta, const TtrtShape *declared,
                         char *buf, size_t size);
/* The same with each symbolic dim's multiplier (a tensor's `scale`; NULL: none):
 * `s0*8`. */
void ttrtMetaFormatScaledShape(const TtrtMeta *meta, const TtrtShape *declared,
                               const int64_t *scale, char *buf, size_t size);

/* The number of parameters PTX text declares for `.entry name(...)`, or -1
 * when it has no such entry. (The driver has no call that counts them, and
 * asking cuFuncGetParamInfo past the last one is an API error.) */
long ttrtPtxEntryParams(const char *ptx, const char *name);

/* Frees what ttrtMetaParse made. NULL is allowed. */
void ttrtMetaDestroy(TtrtMeta *meta);

/* The slot of the tensor `%id`, or -1. */
int ttrtMetaFindTensor(const TtrtMeta *meta, int64_t id);

/* Evaluates the expression rooted at node `expr` with the tensor shapes in
 * `meta`. Fails on overflow of int64 or division by zero. */
TtrtStatus ttrtExprEval(const TtrtMeta *meta, int expr, int64_t *out,
                        TtrtError *err);

/* Writes the metadata spelling of an expression ("cdiv(numel(%5),1024)"). */
void ttrtExprFormat(const TtrtMeta *meta, int expr, char *buf, size_t size);

/* Prints the metadata in its own syntax, one line per metadata line, with
 * each expression followed by `=VALUE` (its value for these shapes). */
void ttrtMetaPrint(const TtrtMeta *meta, FILE *file);

#ifdef __cplusplus
}
#endif

#endif /* TT_RUNTIME_META_H */
