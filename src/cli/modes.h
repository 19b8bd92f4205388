/* ttcp -S and ttcp -C on the command line: run, print, exit code. */
#ifndef TTCP_CLI_MODES_H
#define TTCP_CLI_MODES_H

#include "cli/plot_cli.h"
#include "config/options.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILED = 1, CLI_EXIT_USAGE = 2 };

int cli_serve(const struct ttcp_options *o);
/* pl: --plot's file, opened (or none); written at the end. */
int cli_client(const struct ttcp_options *o, struct cli_plot *pl);
/* --compression: one -C test of its pair (cli/compression_cli.h). */
struct cli_took;
int cli_client_took(const struct ttcp_options *o, struct cli_took *took);
/* --traceroute: the path to o->host; 0 when it was traced (reached or not). */
int cli_trace(const struct ttcp_options *o);
/* --pmtu alone: the path MTU to o->host; 0 when it was found. */
int cli_pmtu(const struct ttcp_options *o);

#endif
