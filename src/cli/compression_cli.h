/* --compression on the command line: the test twice, back to back, the
 * classic pattern and then the random one, the same size and options; the
 * two rates, their ratio and what it says, in text and in one JSON
 * document. The runs are the classic pair's (cli/main.c) or the client's
 * (cli/client_cli.c): each gives a function that runs one test as it
 * always does, printing its lines, and leaves its figure here. */
#ifndef TTCP_CLI_COMPRESSION_H
#define TTCP_CLI_COMPRESSION_H

#include "config/options.h"
#include "measure/compression.h"
#include "measure/result.h"
#include "report/json.h"

/* What one test of the pair left. */
struct cli_took {
    struct ttcp_compression_run figure; /* the receiving end's (the classic
                                         * transmitter's: it waits for delivery) */
    int refused;                 /* the far end did not take the test: refused, reset at once */
    struct ttcp_failure failure; /* --json: the test's failure (code 0: none) and its words */
    char message[600];
    struct ttcp_json doc;        /* --json: the test's document, finished, not printed */
};

/* Runs one test with options o, its lines printed, and fills took; the
 * exit code it would have. */
typedef int (*cli_run_once)(const struct ttcp_options *o, struct cli_took *took);

/* The pair: the exit code (the first failed test's, else 0). */
int cli_compression(const struct ttcp_options *o, cli_run_once run);

#endif
