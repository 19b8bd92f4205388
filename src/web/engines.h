/* The speed-test engines' endpoints of -S --web: LibreSpeed's backend under
 * /librespeed/ and Cloudflare's engine's /__down and /__up (docs/ttcp.1,
 * "Other speed-test engines"). Pure: which endpoint a request names and how much
 * it may move; and the runs. Those endpoints keep no test of their own, so
 * the server makes one: a run is every engine request from one address,
 * from its first download or upload (compat.c) until none has been in
 * flight for TTCP_WEB_IDLE_NS; it
 * holds one --max-clients slot, lasts at most --max-time (or
 * TTCP_ENGINE_LIFE_NS), shares one --max-rate, and keeps the bytes each way
 * as the server counted them. The caller (compat.c) holds the lock and
 * passes the clock. */
#ifndef TTCP_WEB_ENGINES_H
#define TTCP_WEB_ENGINES_H

#include <stddef.h>
#include <stdint.h>

#include "remote/web.h"

#define TTCP_ENGINE_LS_PREFIX "/librespeed/"
#define TTCP_ENGINE_CHUNK (1ull << 20)          /* LibreSpeed's ckSize counts MiB */
#define TTCP_ENGINE_CHUNKS_DEFAULT 4u           /* no ckSize, or 0, as LibreSpeed's garbage */
#define TTCP_ENGINE_CHUNKS_MAX 1024u            /* a larger one is cut to this, as LibreSpeed's */
#define TTCP_ENGINE_DOWN_MAX 1000000000ull      /* __down?bytes= */
#define TTCP_ENGINE_UP_MAX (64ull << 20)        /* an upload's body (LibreSpeed posts 20 MB) */
#define TTCP_ENGINE_LIFE_NS (150ll * 1000000000ll) /* a run without --max-time */
#define TTCP_ENGINE_RUNS 64
#define TTCP_ENGINE_PACE_BURST 65536.0          /* a run paced by --max-rate may run ahead */

enum ttcp_engine_route {
    TTCP_ENGINE_NONE,      /* not an engine's path */
    TTCP_ENGINE_BAD_METHOD,/* an engine's path, a method it does not take */
    TTCP_ENGINE_PREFLIGHT, /* OPTIONS on any of them (CORS) */
    TTCP_ENGINE_LS_GARBAGE,
    TTCP_ENGINE_LS_EMPTY,  /* GET: a ping; POST: an upload */
    TTCP_ENGINE_LS_GETIP,
    TTCP_ENGINE_CF_DOWN,
    TTCP_ENGINE_CF_UP
};

/* 1 when url is under an engine's path (the HTTP server hands it over). */
int ttcp_engine_path(const char *url);
/* The endpoint url and method name (LibreSpeed's with or without ".php"). */
enum ttcp_engine_route ttcp_engine_route(const char *url, const char *method);
/* 1 when the route's requests carry a body (an upload). */
int ttcp_engine_uploads(enum ttcp_engine_route r, const char *method);
/* A download's length: LibreSpeed's ckSize (NULL: the default) or
 * Cloudflare's bytes (required): 0, or -1 with why. */
int ttcp_engine_down_bytes(enum ttcp_engine_route r, const char *value, uint64_t *bytes,
                           char *why, size_t why_len);

enum ttcp_engine_state { TTCP_ENGINE_FREE, TTCP_ENGINE_OPEN };

struct ttcp_engine_run {
    int state;                  /* enum ttcp_engine_state */
    uint64_t serial;            /* a request holds this, not a pointer */
    unsigned char key[16];      /* the client's IP (tt_addr_ip) */
    int key_len;
    int64_t start_ns, seen_ns, life_ns;
    unsigned active;            /* requests in flight */
    uint64_t requests;
    uint64_t down_sent;         /* bytes given to the downloads' sockets */
    double tokens;              /* --max-rate's bucket, bytes */
    int64_t tokens_ns;
    uint64_t up_bytes;          /* upload body bytes received */
    uint64_t up_timed;          /* ... less each request's first piece */
    unsigned uploading;         /* uploads that have begun to arrive */
    int64_t up_from_ns, up_last_ns, up_busy_ns; /* time with an upload arriving */
    void *owner;                /* the caller's */
};

struct ttcp_engine_table {
    struct ttcp_engine_run r[TTCP_ENGINE_RUNS];
    uint64_t next_serial;
};

/* An upload request's own part: when its first piece came. */
struct ttcp_engine_upload {
    int begun, ended;
};

/* The open run of the address key, or NULL. */
struct ttcp_engine_run *ttcp_engine_run_of(struct ttcp_engine_table *t, const unsigned char *key,
                                           int key_len);
/* The open run with this serial (a request's), or NULL. */
struct ttcp_engine_run *ttcp_engine_run_find(struct ttcp_engine_table *t, uint64_t serial);
/* A new run for the address key, at most max_time_ns long (0: the default),
 * or NULL when the table is full. */
struct ttcp_engine_run *ttcp_engine_run_open(struct ttcp_engine_table *t, const unsigned char *key,
                                             int key_len, int64_t max_time_ns, int64_t now_ns);
/* A request of the run begins or ends. */
void ttcp_engine_request_begin(struct ttcp_engine_run *r, int64_t now_ns);
void ttcp_engine_request_end(struct ttcp_engine_run *r, struct ttcp_engine_upload *u,
                             int64_t now_ns);
/* A download may send up to want bytes now: how many (0: wait, --max-rate
 * rate_bps reached, 0 = none), or -1 when the run is past its life. */
int64_t ttcp_engine_down_take(struct ttcp_engine_run *r, uint64_t want, uint64_t rate_bps,
                              int64_t now_ns);
/* n bytes of an upload's body arrived: 0, or -1 when the run is past its life. */
int ttcp_engine_up_piece(struct ttcp_engine_run *r, struct ttcp_engine_upload *u, uint64_t n,
                         int64_t now_ns);
/* The upload's body is all in. */
void ttcp_engine_up_end(struct ttcp_engine_run *r, struct ttcp_engine_upload *u);
/* Has the run ended (enum ttcp_web_end: DONE when quiet), or -1. */
int ttcp_engine_run_ended(const struct ttcp_engine_run *r, int stopping, int64_t now_ns);
/* The run's figures, as the server tells a browser's test's. */
void ttcp_engine_run_figures(const struct ttcp_engine_run *r, int end, int64_t now_ns,
                             struct ttcp_web_figures *out);

#endif
