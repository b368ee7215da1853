/* session.h - what tt-run's files share (private to tools/tt-run/): one run's state
 * (main.c owns it) and the archive steps of archives.c. */
#ifndef TT_RUN_SESSION_H
#define TT_RUN_SESSION_H

#include "meta.h"
#include "npz.h"
#include "options.h"
#include "ref.h"
#include "ttrt.h"

/* Everything one run holds, freed by sessionDestroy. */
typedef struct Session {
  const Options *opt;
  char *text;
  size_t length;
  TtrtMeta *meta;
  double **values; /* per slot: inputs, then the reference's outputs */
  double **device; /* per slot: outputs read back from the GPU */
  TtrtContext ctx;
  TtrtProgram program;
  TtrtGraph graph; /* --graph: the captured launch sequence */
  Npz given;       /* --inputs */
  Npz expected;    /* --expected */
  double **want;   /* --expected: per output slot, what it is checked against */
  TtrtProgram *coldPrograms; /* --cold N: N copies of the program, each with its own
                                buffers, run in turn by the timed runs */
} Session;

/* Prints "tt-run: FILE[:LINE]: message" for err; returns EXIT_FAIL (main.c). */
int reportError(const Session *s, const TtrtError *err);

/* archives.c: reads the --inputs and --expected archives and binds each input's `?`
 * dims to its array's sizes; after the sizes are resolved, readExpected converts the
 * expected outputs (s->want) and givenInput the values of input i; saveOutputs writes
 * --save-outputs from per-slot values. Each returns an exit status, the error printed. */
int readArchives(Session *s);
int readExpected(Session *s);
int givenInput(const Session *s, int i, double *v);
int saveOutputs(const Session *s, double *const *values);

#endif
