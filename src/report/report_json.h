/* --json: one document with every figure, built test by test. Pure. */
#ifndef TTCP_REPORT_JSON_H
#define TTCP_REPORT_JSON_H

#include "config/options.h"
#include "measure/result.h"
#include "report/json.h"

#define TTCP_JSON_SCHEMA "ttcp-result/1"

/* Opens the document: schema, version, side, the options; then "tests". */
void ttcp_json_begin(struct ttcp_json *j, const struct ttcp_options *o, const char *version);
/* One test's figures, as an element of "tests". */
void ttcp_json_test(struct ttcp_json *j, const struct ttcp_options *o,
                    const struct ttcp_result *r);
/* Closes the document; failure NULL (or code 0) writes "error": null. */
void ttcp_json_finish(struct ttcp_json *j, const struct ttcp_failure *failure,
                      const char *message);

#endif
