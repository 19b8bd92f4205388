/* --plot on the command line: the file opened before the test, so that a
 * name that cannot be written fails at once, not after a long test; the
 * document written into it at the end, however the test ended. */
#ifndef TTCP_CLI_PLOT_H
#define TTCP_CLI_PLOT_H

#include <stdio.h>

#include "config/options.h"
#include "report/plot.h"

struct cli_plot {
    FILE *file;    /* NULL: no --plot */
    char date[40]; /* when the test began, the local time */
};

/* Opens o->plot (nothing without it): 0, or -1 with a one-line error on
 * stderr naming the file. */
int cli_plot_open(struct cli_plot *pl, const struct ttcp_options *o);
/* Writes the document and closes the file: 0 (also without --plot), or -1
 * with the error on stderr. */
int cli_plot_write(struct cli_plot *pl, const struct ttcp_options *o,
                   const struct ttcp_plot *p);

#endif
