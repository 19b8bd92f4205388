/* ttcp -S: one port for everything (docs/PROTOCOL.md). Serves controlled
 * tests (a ttcp -C), classic TCP transmitters and, on the same UDP port,
 * classic UDP transmitters, until Ctrl+C or, with -1, one test. Prints
 * nothing: every fact goes to the observer. */
#ifndef TTCP_SERVER_H
#define TTCP_SERVER_H

#include "config/options.h"
#include "measure/notice.h"
#include "measure/result.h"
#include "remote/outcome.h"

/* Runs a -C test from this host: the leg of a third party's test
 * (--third-party). cli/ hands the server client/'s
 * ttcp_client_run_until(), as server.c hands slots.c its thread bodies, so
 * server/ never calls client/ (docs/DESIGN.md). */
typedef int (*ttcp_server_leg)(const struct ttcp_options *o,
                               const struct ttcp_client_observer *obs,
                               struct ttcp_client_outcome *out, int64_t deadline);

struct ttcp_server_observer {
    /* A test's progress and figures, with the options its side runs with. */
    void (*event)(void *ctx, const struct ttcp_options *o, const struct ttcp_event *ev,
                  const struct ttcp_result *res);
    /* A test that failed (res->failure). */
    void (*failed)(void *ctx, const struct ttcp_options *o, const struct ttcp_result *res);
    void (*notice)(void *ctx, enum ttcp_notice what, const struct tt_addr *peer);
    void *ctx;
    ttcp_server_leg leg; /* NULL: third parties' tests are refused */
};

/* Runs the server. 0 when stopped (Ctrl+C, or -1's test done), or the
 * TT_E_* code of a setup failure, recorded in *failure; why gets a reason
 * for a setup refusal that is not a system failure (a bad --allow, a key
 * file), with TT_E_INVAL. */
int ttcp_serve(const struct ttcp_options *o, const struct ttcp_server_observer *obs,
               struct ttcp_failure *failure, char *why, size_t why_len);

#endif
