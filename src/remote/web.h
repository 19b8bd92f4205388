/* The browser's test (-S --web): the seam between the server and web/, as
 * remote/peer.h is the other tools'. cli/ hands the server web/'s entry
 * points in its observer; the server opens the listener, and lends web/ its
 * slots and its notices through a struct ttcp_web_host, so that neither
 * server/ nor web/ calls the other (docs/DESIGN.md). */
#ifndef TTCP_REMOTE_WEB_H
#define TTCP_REMOTE_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "measure/notice.h"
#include "remote/allow.h"
#include "ttcp/platform.h"

/* How a browser's test ended. */
enum ttcp_web_end {
    TTCP_WEB_DONE,      /* the page sent its figures */
    TTCP_WEB_ABANDONED, /* nothing from the page for a while (web/session.h): it went away */
    TTCP_WEB_CUT,       /* past --max-time (or the longest test the page may ask for) */
    TTCP_WEB_STOPPED    /* the server was stopped */
};

/* A page that sends nothing for this long has gone: its slot is freed. */
#define TTCP_WEB_IDLE_NS (6ll * 1000000000ll)

/* What a browser's test leaves at the server: facts, no words. */
struct ttcp_web_figures {
    struct tt_addr peer;
    int end;                /* enum ttcp_web_end */
    int64_t ran_ns;         /* from the session's start to its end */
    int down_valid;         /* the page told its download */
    double down_bps;        /* the page's count over its own clock */
    uint64_t down_bytes;    /* ... in bytes */
    uint64_t down_sent;     /* bytes the server gave its sockets */
    int up_valid;           /* the server counted upload bytes over a time */
    uint64_t up_bytes;      /* upload body bytes the server received */
    int64_t up_ns;          /* from the first of them to the last */
    double up_bps;          /* the server's rate: the bytes after the first piece over up_ns */
    int latency_valid;      /* the page told both medians */
    double idle_ms, loaded_ms, jitter_ms;
    int grade;              /* enum ttcp_latency_grade, with latency_valid */
};

/* A browser's test's keeper, on the slot the server lends it: returns when
 * the test has ended (its figures in out), its session forgotten. */
typedef void (*ttcp_web_keeper)(void *test, struct ttcp_web_figures *out);

/* What the server lends web/. */
struct ttcp_web_host {
    const struct ttcp_options *opts; /* the server's: --web, --max-time, --max-rate */
    const struct ttcp_allow *allow;  /* --allow */
    tt_socket listener;              /* --web's, listening; web/ closes it at stop */
    /* A slot for a browser's test from peer (--max-clients, counted with
     * the clients'): 0, with keep(test) run on the slot's thread and the
     * figures it leaves told to the server's observer; -1 when none is free
     * (the notice told). */
    int (*claim)(void *ctx, const struct tt_addr *peer, ttcp_web_keeper keep, void *test);
    /* A request turned away (--allow). */
    void (*notice)(void *ctx, enum ttcp_notice what, const struct tt_addr *peer);
    void *ctx;
};

/* web/'s entry points, as cli/ gives them. start: 0 (*web set), or -1 with
 * a reason (this build has no HTTP server); host stays the caller's until
 * drop. stop: no new test, the keepers return at once (STOPPED), the HTTP
 * server is stopped; drop frees it all, once every keeper has returned. */
struct ttcp_web_row {
    int (*start)(const struct ttcp_web_host *host, void **web, char *why, size_t why_len);
    void (*stop)(void *web);
    void (*drop)(void *web);
};

#endif
