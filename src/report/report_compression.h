/* --compression's words: the line before each of its two tests, the rates
 * and their ratio, the finding, the hint when the far end took one test
 * only; and the JSON document that holds both tests. Pure. */
#ifndef TTCP_REPORT_COMPRESSION_H
#define TTCP_REPORT_COMPRESSION_H

#include <stddef.h>

#include "config/options.h"
#include "measure/compression.h"
#include "measure/result.h"
#include "report/json.h"

/* "ttcp-t: compression: test 1 of 2: the classic pattern" (number 1 or 2). */
size_t ttcp_report_compression_test(const struct ttcp_options *o, int number, char *buf,
                                    size_t len);
/* Both rates and their ratio in -f's unit; above the threshold, that the
 * path compresses and that the random figure is the link's, or, when an
 * end was busy, that the hosts may have set the rates. */
size_t ttcp_report_compression(const struct ttcp_options *o, const struct ttcp_compression *c,
                               char *buf, size_t len);
/* The second test was refused, reset, or (-C) turned away busy: what the
 * far end must be. */
size_t ttcp_report_compression_refused(const struct ttcp_options *o, char *buf, size_t len);

/* --json: opens the document (schema, version, title, side, options) and
 * its "compression" object's "runs" array; each run's own document goes in
 * as an element (ttcp_json_value), then ttcp_json_compression_end. */
void ttcp_json_compression_begin(struct ttcp_json *j, const struct ttcp_options *o,
                                 const char *version);
/* Closes "runs", writes the rates, the ratio, the threshold, the busiest
 * end's CPU share and the finding (codes and numbers), then "error" (failure NULL or code 0: null)
 * and closes the document. */
void ttcp_json_compression_end(struct ttcp_json *j, const struct ttcp_compression *c,
                               const struct ttcp_failure *failure, const char *message);

#endif
