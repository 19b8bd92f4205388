/* --json: one document with every figure, built test by test. Pure. */
#ifndef TTCP_REPORT_JSON_H
#define TTCP_REPORT_JSON_H

#include "config/options.h"
#include "measure/result.h"
#include "report/json.h"

#define TTCP_JSON_SCHEMA "ttcp-result/1"

/* Opens the document: schema, version, side (transmit, receive, or client),
 * the options; then "tests". */
void ttcp_json_begin(struct ttcp_json *j, const struct ttcp_options *o, const char *version);
/* One test's figures, as an element of "tests". */
void ttcp_json_test(struct ttcp_json *j, const struct ttcp_options *o,
                    const struct ttcp_result *r);
/* -P: the test's total as an element of "tests" (ttcp -C: of a way, with
 * its direction, as below; NULL in the classic pair), with each stream's
 * figures in its "streams" array ("stream": its number, "port"). */
void ttcp_json_test_streams(struct ttcp_json *j, const struct ttcp_options *o,
                            const char *direction, const struct ttcp_result *total,
                            const struct ttcp_options *part_opts,
                            const struct ttcp_result *parts, int n);
/* ttcp -C: one end's test of a stream, with "direction" (send, recv: the
 * client's view) and "side" (transmit, receive: that end's part). */
void ttcp_json_stream_test(struct ttcp_json *j, const struct ttcp_options *o,
                           const char *direction, const struct ttcp_result *r);
/* ttcp -C: closes the array being written and opens the next top-level one
 * ("server_tests", then "summary"). */
void ttcp_json_next_array(struct ttcp_json *j, const char *key);
/* ttcp -C: a stream's summary (the text summary line's figures). */
void ttcp_json_summary(struct ttcp_json *j, const struct ttcp_options *o, const char *direction,
                       const struct ttcp_result *tx, const struct ttcp_result *rx);
/* The "options" object, and an interval's members (its start, end, bytes,
 * rate, ...), for the document and for --json-stream's events. */
void ttcp_json_options(struct ttcp_json *j, const struct ttcp_options *o);
void ttcp_json_interval_members(struct ttcp_json *j, const struct ttcp_interval *in);
/* Closes the document; failure NULL (or code 0) writes "error": null. */
void ttcp_json_finish(struct ttcp_json *j, const struct ttcp_failure *failure,
                      const char *message);

#endif
