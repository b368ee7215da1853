/* options.c - tt-run's command line: the usage text, and the parser that fills Options.
 *
 * Each argument is -h/--help (prints the usage), an option that takes a value
 * (`--name=value` or `--name value`: --seed, --range, --tol, --warmup, --runs, --repeat,
 * --dim, --inputs, --expected, --save-outputs), a flag, or the one input file; anything else is a usage error (EXIT_USAGE,
 * "Try 'tt-run --help'"). Without --seed the seed comes from the time (tt-run prints it).
 */
#define _POSIX_C_SOURCE 200809L
#include "options.h"
#include "ttrt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char kUsage[] =
    "usage: tt-run [options] FILE.ptx\n"
    "\n"
    "Runs the launches of a tt PTX file (PTX with //@ launch metadata) on GPU 0\n"
    "with random inputs, checks each output against the float64 reference\n"
    "interpreter of the file's prim program, and times the launch sequence.\n"
    "\n"
    "options:\n"
    "  --seed N       seed of the input generator (default: from the time;\n"
    "                 always printed, so a run can be repeated)\n"
    "  --dim SIZE     the size of a symbolic (dynamic) dimension: %ID:DIM=N\n"
    "                 (dimension DIM of tensor %ID) or NAME=N (the symbol NAME\n"
    "                 of the tensor lines, e.g. s0=37); repeat for each symbol\n"
    "  --range A,B    float inputs are uniform in [A,B] (default -1,1); integer\n"
    "                 inputs are uniform integers in it, but an index of\n"
    "                 index_select or gather is uniform in [0, size of the\n"
    "                 indexed dim); i1 inputs are 0 or 1\n"
    "  --tol X        pass if rel_l2 <= X (default: the loosest over the\n"
    "                 dtypes of the rounded tensors the output is computed from\n"
    "                 (inputs and moves of them are exact): f64 1e-12, f32 1e-5,\n"
    "                 f16 2e-3, bf16 1e-2, f8e4m3/f8e5m2 1e-1, integers 0)\n"
    "  --warmup N     untimed runs before timing (default 10)\n"
    "  --runs N       timed runs (default 100)\n"
    "  --no-time      check outputs only, do not time\n"
    "  --repeat N     run the launches N more times on the same inputs and\n"
    "                 fail unless every output equals the first run's bit for\n"
    "                 bit (determinism: e.g. two-stage split-K)\n"
    "  --no-check     time only: skip the reference (for tuning sweeps; the\n"
    "                 launches still run once, waited on, before timing)\n"
    "  --cold N       time the runs over N copies of the program and its inputs,\n"
    "                 run in turn (2 to 1024): with N copies past the L2 cache,\n"
    "                 each run reads its weights from memory, as each layer of a\n"
    "                 model does\n"
    "  --batch        time the runs back to back between one event pair and\n"
    "                 report their mean (no event between launches, so a\n"
    "                 launch may overlap the one before: pdl launches)\n"
    "  --graph        also capture the launch sequence in a CUDA graph: check a\n"
    "                 replay's outputs, time replays, time each launch alone,\n"
    "                 and report the launch gap with and without the graph\n"
    "  --inputs F.npz the inputs from a NumPy archive (numpy.savez) instead of\n"
    "                 random ones: input I is the array named argI (or arr_I,\n"
    "                 numpy's name for the I-th positional array, or else the\n"
    "                 I-th array); its shape binds the `?` dims; numbers are\n"
    "                 rounded to the input's dtype, raw void arrays (bf16, f8\n"
    "                 from ml_dtypes) are taken as the dtype's bits\n"
    "  --expected F.npz check output J against the array outJ (or arr_J, or the\n"
    "                 J-th array) instead of the reference\n"
    "  --save-outputs F.npz  write the outputs (the GPU's; with --ref-only the\n"
    "                 reference's) as out0, out1, ...; bf16 and f8 as float32\n"
    "  --dump-meta    print the parsed metadata (expressions with values)\n"
    "  --ref-only     evaluate only the reference, without a GPU, and print\n"
    "                 sum, l2, min and max of each input and output\n"
    "  --print-values print every element of each input and output (and, on\n"
    "                 the GPU, of the reference), for small test programs\n"
    "  -h, --help     print this help\n"
    "\n"
    "exit status:\n"
    "  0   every output passed (or --ref-only succeeded)\n"
    "  1   an output failed, or any other error (the message says which)\n"
    "  2   usage error\n"
    "  77  no GPU: libcuda.so.1 cannot be loaded or the driver sees no device\n"
    "\n"
    "environment:\n"
    "  TTRT_LIBCUDA   path of the driver library to load instead of libcuda.so.1\n";

/* Prints a usage error and returns EXIT_USAGE. */
static int usageError(const char *fmt, ...) TTRT_PRINTF(1, 2);
static int usageError(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tt-run: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'tt-run --help'.\n");
  va_end(ap);
  return EXIT_USAGE;
}

/*===------------------------------------------------------------------===*
 * Options
 *===------------------------------------------------------------------===*/

/* A seed from the current time, for runs without --seed. */
static uint64_t seedFromTime(void) {
  struct timespec ts;
  if (!timespec_get(&ts, TIME_UTC))
    return (uint64_t)time(NULL);
  /* Keep it short enough to retype. */
  return ((uint64_t)ts.tv_sec * 1000003u + (uint64_t)ts.tv_nsec) % 1000000000u;
}

/* Parses a whole string as a long in [lo, hi]. */
static bool parseLong(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* Parses a whole string as a finite double. */
static bool parseFinite(const char *s, double *out) {
  char *end;
  *out = strtod(s, &end);
  return *s && !*end && isfinite(*out);
}

/* Parses "A,B" with A <= B. */
static bool parseRange(const char *s, double *lo, double *hi) {
  const char *comma = strchr(s, ',');
  char first[128];
  if (!comma || (size_t)(comma - s) >= sizeof first)
    return false;
  memcpy(first, s, (size_t)(comma - s));
  first[comma - s] = '\0';
  return parseFinite(first, lo) && parseFinite(comma + 1, hi) && *lo <= *hi;
}

/* Parses a decimal uint64. */
static bool parseSeed(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (!*s || *end || errno || *s == '-')
    return false;
  *out = v;
  return true;
}

/* Sets one option that takes a value; false if the value is bad. */
static bool setValueOption(Options *o, const char *name, const char *value) {
  if (strcmp(name, "--seed") == 0)
    return parseSeed(value, &o->seed);
  if (strcmp(name, "--range") == 0)
    return parseRange(value, &o->lo, &o->hi);
  if (strcmp(name, "--tol") == 0)
    return parseFinite(value, &o->tol) && o->tol >= 0;
  if (strcmp(name, "--warmup") == 0)
    return parseLong(value, 0, 1000000, &o->warmup);
  if (strcmp(name, "--repeat") == 0)
    return parseLong(value, 0, 1000000, &o->repeat);
  if (strcmp(name, "--cold") == 0)
    return parseLong(value, 2, 1024, &o->cold);
  if (strcmp(name, "--inputs") == 0 || strcmp(name, "--expected") == 0 ||
      strcmp(name, "--save-outputs") == 0) {
    *(name[2] == 'i' ? &o->inputs : name[2] == 'e' ? &o->expected : &o->saveOutputs) =
        value;
    return *value != '\0';
  }
  if (strcmp(name, "--dim") == 0) {
    if (o->numDims == (int)(sizeof o->dims / sizeof *o->dims))
      return false;
    o->dims[o->numDims++] = value;
    return true;
  }
  return parseLong(value, 1, 1000000, &o->runs); /* --runs */
}

/* Sets one flag option; false if `arg` is no flag. */
static bool setFlag(Options *o, const char *arg) {
  if (strcmp(arg, "--no-time") == 0)
    o->time = false;
  else if (strcmp(arg, "--graph") == 0)
    o->graph = true;
  else if (strcmp(arg, "--batch") == 0)
    o->batch = true;
  else if (strcmp(arg, "--no-check") == 0)
    o->noCheck = true;
  else if (strcmp(arg, "--dump-meta") == 0)
    o->dumpMeta = true;
  else if (strcmp(arg, "--ref-only") == 0)
    o->refOnly = true;
  else if (strcmp(arg, "--print-values") == 0)
    o->printValues = true;
  else
    return false;
  return true;
}

/* True if `name` is an option that takes a value. */
static bool takesValue(const char *name) {
  static const char *const kNames[] = {"--seed",   "--range", "--tol",   "--warmup",
                                       "--runs",   "--repeat", "--dim",   "--inputs", "--cold",
                                       "--expected", "--save-outputs"};
  for (size_t i = 0; i < sizeof kNames / sizeof *kNames; ++i)
    if (strcmp(kNames[i], name) == 0)
      return true;
  return false;
}

/* Parses the command line. Returns -1 to go on, or an exit status. */
int optionsParse(int argc, char **argv, Options *o) {
  bool seeded = false;
  *o = (Options){.lo = -1.0, .hi = 1.0, .tol = -1.0, .warmup = 10, .runs = 100, .time = true};
  for (int i = 1; i < argc; ++i) {
    char *arg = argv[i];
    char name[64];
    const char *eq = strchr(arg, '=');
    size_t n = eq && arg[0] == '-' ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)n, arg);
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(kUsage, stdout);
      return EXIT_PASS;
    }
    if (takesValue(name)) {
      const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
      if (!value)
        return usageError("option '%s' needs a value", name);
      if (!setValueOption(o, name, value))
        return usageError("bad value for option '%s'", name);
      seeded |= strcmp(name, "--seed") == 0;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      if (!setFlag(o, arg))
        return usageError("unknown option '%s'", arg);
    } else if (o->file) {
      return usageError("more than one file ('%s')", arg);
    } else {
      o->file = arg;
    }
  }
  if (!o->file)
    return usageError("no input file");
  if (o->cold && o->graph) /* the graph replays one program's launches */
    return usageError("--cold cannot be combined with --graph");
  if (!seeded)
    o->seed = seedFromTime();
  return -1;
}
