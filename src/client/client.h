/* ttcp -C: a test against a ttcp -S, from the client's side of the
 * conversation (docs/PROTOCOL.md). Prints nothing: both ends' facts go to
 * the observer and into the outcome (remote/outcome.h). */
#ifndef TTCP_CLIENT_H
#define TTCP_CLIENT_H

#include "remote/outcome.h"
#include "remote/wire_web.h"

/* 0 when the conversation completed (each stream's own rc says how its
 * data went), -1 with out->problem set. out is filled either way; release
 * it with ttcp_client_release() (remote/outcome.h). */
int ttcp_client_run(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                    struct ttcp_client_outcome *out);
/* The same, with every wait for the server (the connects, each control
 * frame, the UDP agreement, the results after the streams) ended by
 * deadline (tt_now_ns(); 0: none, as ttcp_client_run). The data itself is
 * bounded by the test's --time or -n and the idle timeout, as ever. */
int ttcp_client_run_until(const struct ttcp_options *o, const struct ttcp_client_observer *obs,
                          struct ttcp_client_outcome *out, int64_t deadline);

/* The server's last browser tests (-S --web; docs/PROTOCOL.md, section
 * 3e): 0 with *count of them in kept, oldest first, or -1 with
 * out->problem set (an older server refuses the request). Every wait
 * ends by deadline (0: none). Nothing in out needs releasing. */
int ttcp_client_web_results(const struct ttcp_options *o, struct ttcp_client_outcome *out,
                            struct ttcp_web_record kept[TTCP_WEB_KEPT], int *count,
                            int64_t deadline);

#endif
