/* options.h - tt-run's command line (options.c): the options of one run, their parser,
 * and the exit statuses (docs/tt-run.md). Private to tools/tt-run/. */
#ifndef TT_RUN_OPTIONS_H
#define TT_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum {
  EXIT_PASS = 0,
  EXIT_FAIL = 1,
  EXIT_USAGE = 2,
  EXIT_NO_GPU = 77,
};

typedef struct Options {
  const char *file;
  uint64_t seed;
  double lo, hi;
  double tol; /* < 0: per dtype */
  long warmup;
  long runs;
  long cold;   /* --cold N: time the runs over N copies of the inputs (0: off) */
  long repeat; /* --repeat: more runs whose outputs must equal the first's bit for bit */
  bool time;
  bool graph;
  bool batch;
  bool noCheck;
  bool dumpMeta;
  bool refOnly;
  bool printValues;
  const char *inputs;      /* --inputs FILE.npz */
  const char *expected;    /* --expected FILE.npz */
  const char *saveOutputs; /* --save-outputs FILE.npz */
  int numDims;
  const char *dims[32]; /* --dim values, in order */
} Options;

/* Parses the command line into o (--help prints the usage). Returns -1 to go on, or an
 * exit status: EXIT_PASS after --help, EXIT_USAGE after a usage error (printed). */
int optionsParse(int argc, char **argv, Options *o);

#endif
