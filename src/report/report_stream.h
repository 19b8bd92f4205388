/* --json-stream: one JSON object on a line of its own as the test runs,
 * each {"event": ..., "data": {...}}: "start" (the options), "interval"
 * (each as it closes: this end's, or through -C the server's), "end" (the
 * whole --json document), as iperf3's --json-stream. Pure: the caller
 * prints each line and flushes it. */
#ifndef TTCP_REPORT_STREAM_H
#define TTCP_REPORT_STREAM_H

#include "config/options.h"
#include "measure/result.h"
#include "report/json.h"

#define TTCP_JSON_STREAM_SCHEMA "ttcp-stream/1"

void ttcp_json_event_start(struct ttcp_json *j, const struct ttcp_options *o,
                           const char *version);
/* far: the server's end of a -C test (its interval, as its frame told);
 * res, when known, tells the test apart: its peer (a server's tests side
 * by side) and its number (-c's one after another). */
void ttcp_json_event_interval(struct ttcp_json *j, const struct ttcp_options *o,
                              const struct ttcp_interval *in, const struct ttcp_result *res,
                              int far);
/* document: the finished --json document's text. */
void ttcp_json_event_end(struct ttcp_json *j, const char *document);

#endif
