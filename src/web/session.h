/* The browser's tests as the server keeps them: a table of sessions, each
 * with its id, its windows of time, the bytes each way and the page's own
 * figures. Pure bookkeeping: the caller holds the table's lock and passes
 * the clock; http.c is the caller (docs/DESIGN.md). */
#ifndef TTCP_WEB_SESSION_H
#define TTCP_WEB_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "remote/web.h"

#define TTCP_WEB_SESSIONS 256      /* --max-clients' ceiling */
#define TTCP_WEB_ID_BYTES 16       /* a session's id: random, sent as hex */
#define TTCP_WEB_ID_HEX (2 * TTCP_WEB_ID_BYTES)
#define TTCP_WEB_PHASE_DEFAULT_NS (10ll * 1000000000ll) /* each way, unless ?time= */
#define TTCP_WEB_PHASE_MAX_NS (60ll * 1000000000ll)
#define TTCP_WEB_GRACE_NS (2ll * 1000000000ll) /* a window stays open past its phase */
#define TTCP_WEB_SLACK_NS (30ll * 1000000000ll) /* a test's life beyond its two phases */
/* A page with no request in progress, quiet this long, has gone: longer than
 * the engines' runs' TTCP_WEB_IDLE_NS, since its last words (POST /done) may
 * wait behind a modem's queue of several seconds. */
#define TTCP_WEB_PAGE_IDLE_NS (10ll * 1000000000ll)
#define TTCP_WEB_SETTLE_PARTS 8 /* the upload's rate leaves out its first eighth of a phase */

enum ttcp_web_state { TTCP_WEB_FREE, TTCP_WEB_OPEN, TTCP_WEB_FINISHED };

/* The figures a page sends at its end (POST /done), as parsed. */
struct ttcp_web_done {
    uint64_t down_bps, down_bytes;
    uint64_t idle_us, loaded_us, jitter_us;
    unsigned given; /* a bit each, in the order above */
};

struct ttcp_web_session {
    int state;                 /* enum ttcp_web_state */
    char id[TTCP_WEB_ID_HEX + 1];
    int64_t start_ns, seen_ns; /* opened; the page's last sign of life */
    unsigned busy;             /* its /down and /up requests in progress: a sign of
                                  life however long a slow link keeps them quiet */
    int64_t phase_ns;          /* each way's length, granted */
    int64_t life_ns;           /* the longest the whole test may take */
    int64_t down_start_ns;     /* the first GET /down (0: none yet) */
    uint64_t down_sent;        /* bytes given to the download's sockets */
    int64_t up_start_ns;       /* the first POST /up (0: none yet) */
    int64_t up_first_ns, up_last_ns; /* the first and the last upload bytes' arrival */
    uint64_t up_bytes, up_first_piece;
    int64_t up_mark_ns;        /* the steady part's start (0: not yet), and the */
    uint64_t up_mark_bytes;    /* count then: the rate is over what came after */
    struct ttcp_web_done done; /* the page's, once FINISHED */
    void *owner;               /* the caller's (http.c: its server) */
};

struct ttcp_web_table {
    struct ttcp_web_session s[TTCP_WEB_SESSIONS];
};

/* A new session with id (hex of TTCP_WEB_ID_BYTES random bytes): each way
 * asked_ns long (0: the default), no longer than max_time_ns / 2 (--max-time;
 * 0: none); NULL when the table is full. */
struct ttcp_web_session *ttcp_web_session_open(struct ttcp_web_table *t,
                                               const unsigned char id[TTCP_WEB_ID_BYTES],
                                               int64_t asked_ns, int64_t max_time_ns,
                                               int64_t now_ns);
/* The open session with this id, or NULL. */
struct ttcp_web_session *ttcp_web_session_find(struct ttcp_web_table *t, const char *id);

/* A download may send up to want bytes now: how many (0: wait, the rate
 * cap rate_bps reached, 0 = none), or -1 when its window is over. */
int64_t ttcp_web_down_take(struct ttcp_web_session *s, uint64_t want, uint64_t rate_bps,
                           int64_t now_ns);
/* An upload's n bytes arrived: 0, or -1 when its window is over. The rate
 * is taken over the steady part: from the first piece that arrives a
 * TTCP_WEB_SETTLE_PARTS-th of the phase after the first (a shaper's burst,
 * the first window, are over by then) to the last, bytes after the former. */
int ttcp_web_up_count(struct ttcp_web_session *s, uint64_t n, int64_t now_ns);
/* A request of the page opens a window (the first /down or /up). */
void ttcp_web_window_open(struct ttcp_web_session *s, int up, int64_t now_ns);

/* A /down or /up request of the session's begins, or ends (its
 * connection closed): while one runs, the page is there. */
void ttcp_web_request_begin(struct ttcp_web_session *s, int64_t now_ns);
void ttcp_web_request_end(struct ttcp_web_session *s, int64_t now_ns);

/* A page's figure of POST /done (key=value, bounded): 0, or -1 with why. */
int ttcp_web_done_param(struct ttcp_web_done *d, const char *key, const char *value, char *why,
                        size_t why_len);
/* Has the session ended (enum ttcp_web_end), or -1: still running. */
int ttcp_web_session_ended(const struct ttcp_web_session *s, int stopping, int64_t now_ns);
/* The session's figures as they stand (end as ttcp_web_session_ended said). */
void ttcp_web_session_figures(const struct ttcp_web_session *s, int end, int64_t now_ns,
                              struct ttcp_web_figures *out);

#endif
