/* Result -> text. Pure functions: no I/O, no clock, no globals; every line
 * in the 1.12 shapes. Each returns the number of bytes it wrote into buf. */
#ifndef TTCP_REPORT_H
#define TTCP_REPORT_H

#include <stddef.h>

#include "config/options.h"
#include "measure/result.h"

size_t ttcp_report_header(const struct ttcp_options *o, char *buf, size_t len);
/* A progress line (socket, connect, accept from, warning: ...); connect
 * and accept carry IOS's "(mss N, sndwnd N, rcvwnd N)" with -v or -I when
 * res has the connection's statistics. 0 for events that are no such line
 * (the header, intervals, figures, failures have their own functions). */
size_t ttcp_report_event(const struct ttcp_options *o, const struct ttcp_event *ev,
                         const struct ttcp_result *res, char *buf, size_t len);
/* A warning's sentence, without prefix or line end, and its stable name
 * for JSON ("truncated", "end_marker_lost", ...). */
size_t ttcp_report_warning_text(const struct ttcp_options *o, enum ttcp_warning w,
                                const struct ttcp_result *res, char *buf, size_t len);
const char *ttcp_report_warning_code(enum ttcp_warning w);
/* The classic statistics lines, then the half-close and --tcp-info lines
 * when the run has them. */
size_t ttcp_report_stats(const struct ttcp_options *o, const struct ttcp_result *r,
                         char *buf, size_t len);
/* The operation in 1.12's words: "connect", "setsockopt: sndbuf", "IO", ... */
const char *ttcp_report_op_name(enum ttcp_op op);
/* native_text: the OS's words for failure->native (tt_error_text). */
size_t ttcp_report_failure(const struct ttcp_options *o, const struct ttcp_failure *f,
                           const char *native_text, char *buf, size_t len);

#endif
