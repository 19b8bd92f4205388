/* What cli/ gives ttcp -S: the observer that hears its facts, the leg
 * function of a third party's test and the table of other tools'
 * protocols it also serves. Here, below server/ and peers/, because
 * both hand a test's facts to it (docs/DESIGN.md). */
#ifndef TTCP_REMOTE_SERVER_OBSERVER_H
#define TTCP_REMOTE_SERVER_OBSERVER_H

#include <stddef.h>

#include "config/options.h"
#include "measure/notice.h"
#include "measure/result.h"
#include "remote/outcome.h"

struct ttcp_peer;
struct ttcp_web_row;
struct ttcp_web_figures;

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
    /* Another tool's port: served (code 0), or not (code, native: why its
     * listener could not be had; the server goes on without it, the port
     * not typed). */
    void (*peer_port)(void *ctx, const char *tool, uint64_t port, int code, int native);
    void *ctx;
    ttcp_server_leg leg; /* NULL: third parties' tests are refused */
    const struct ttcp_peer *peers; /* the other tools served beside ttcp's own ([peer_count]) */
    size_t peer_count;
    const struct ttcp_web_row *web; /* -S --web's page and its tests (web/) */
    /* --web's port: served (code 0); a browser's test, ended */
    void (*web_port)(void *ctx, uint64_t port);
    void (*web_test)(void *ctx, const struct ttcp_web_figures *f);
};

#endif
