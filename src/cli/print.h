/* Text out, for every kind of run: the report's words to the right stream,
 * flushed at once so that stdout and stderr keep their order in a shared
 * file, and one line at a time from the threads of a server or client. */
#ifndef TTCP_CLI_PRINT_H
#define TTCP_CLI_PRINT_H

#include <stdio.h>

#include "config/options.h"
#include "measure/result.h"
#include "report/json.h"

/* stdout, unless stdout carries the received data or the JSON document. */
FILE *cli_report_stream(const struct ttcp_options *o);
/* Writes and flushes text in one piece, each line after the prefix of
 * --timestamps and --title (o NULL: none). */
void cli_put(const struct ttcp_options *o, FILE *to, const char *text, size_t len);
/* A JSON writer's text as one line of stdout (of stderr under --inetd),
 * flushed. */
void cli_json_line(const struct ttcp_options *o, const struct ttcp_json *j);
/* --json-stream: the start event; an interval's event (far: the server's
 * end of a -C test); nothing without the option. */
void cli_stream_start(const struct ttcp_options *o);
void cli_stream_interval(const struct ttcp_options *o, const struct ttcp_event *ev,
                         const struct ttcp_result *res, int far);
/* The --json document as one line of stdout: as it is, or with
 * --json-stream as the data of the end event. */
void cli_json_document(const struct ttcp_options *o, const struct ttcp_json *doc);
/* The OS's words for a failure, or the portable ones. */
const char *cli_failure_text(const struct ttcp_failure *f, char *buf, size_t len);
void cli_print_failure(const struct ttcp_options *o, const struct ttcp_result *res);
/* A progress line, an interval, a test's figures: as 1.12 prints them. */
void cli_print_event(const struct ttcp_options *o, const struct ttcp_event *ev,
                     const struct ttcp_result *res);

#endif
