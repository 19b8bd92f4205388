/* The engines' endpoints over HTTP (compat.h): LibreSpeed's garbage, empty
 * and getIP under /librespeed/, Cloudflare's /__down and /__up, with the
 * headers their clients read. Each download or upload joins its
 * address's run (engines.h), or begins one, which holds a --max-clients
 * slot until the engine goes quiet (a ping, getIP or a preflight joins a
 * run there is, and begins none: a page that only looks at the server, as
 * LibreSpeed's server list does, takes no slot); --allow, --max-rate and
 * --max-time apply to it, and every body's length is told beforehand and
 * capped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "web/compat.h"

#define SMALL_BODY_MAX 4096u
#define PACE_SLICE_NS 2000000ll
#define KEEP_POLL_NS 50000000ll

struct ttcp_web_compat {
    const struct ttcp_web_host *host;
    struct tt_mutex *lock;
    int stopping;
    const unsigned char *random;
    size_t modulus;
    struct ttcp_engine_table table;
};

/* One request, from its headers to its end. */
struct compat_request {
    enum ttcp_engine_route route;
    int uploads;
    uint64_t serial;            /* its run's (0: none) */
    uint64_t down_bytes;        /* a download's length */
    uint64_t received;          /* an upload's body bytes */
    int64_t begun_ns;           /* its headers came */
    struct ttcp_engine_upload up;
};

struct compat_download {
    struct ttcp_web_compat *x;
    uint64_t serial;
};

static void add_common_headers(struct MHD_Response *r)
{
    /* LibreSpeed's (never cached; CORS as its multi-server mode asks, for
     * every request here, not only those with cors=), and what Cloudflare's
     * engine reads across origins (the timings, Server-Timing). Its
     * "Connection: keep-alive" is HTTP/1.1's default: libmicrohttpd keeps
     * the connection, and says so itself to an HTTP/1.0 client. */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            "no-store, no-cache, must-revalidate, max-age=0, s-maxage=0");
    MHD_add_response_header(r, "Pragma", "no-cache");
    MHD_add_response_header(r, "Access-Control-Allow-Origin", "*");
    MHD_add_response_header(r, "Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    MHD_add_response_header(r, "Access-Control-Allow-Headers", "Content-Encoding, Content-Type");
    MHD_add_response_header(r, "Access-Control-Expose-Headers", "Server-Timing, Ttcp-Received");
    MHD_add_response_header(r, "Timing-Allow-Origin", "*");
}

/* Cloudflare's engine takes the server's own time out of a request's:
 * cfRequestDuration, in milliseconds (here from the request's headers, or
 * its body's end, to the answer). */
static void add_server_timing(struct MHD_Response *r, int64_t since_ns)
{
    char text[64];
    snprintf(text, sizeof text, "cfRequestDuration;dur=%.3f",
             (double)(tt_now_ns() - since_ns) / 1e6);
    MHD_add_response_header(r, "Server-Timing", text);
}

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
    enum MHD_Result ok;
    if (r == NULL)
        return MHD_NO;
    ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *type,
                                  const char *text)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
    if (r == NULL)
        return MHD_NO;
    add_common_headers(r);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    return queue(c, status, r);
}

/* A refusal: its status and one line saying why. */
static enum MHD_Result refuse(struct MHD_Connection *c, unsigned status, const char *why)
{
    char text[300];
    snprintf(text, sizeof text, "%.280s\n", why);
    return reply_text(c, status, "text/plain; charset=utf-8", text);
}

/* A method the path does not take: 405, with the methods it does take in
 * Allow, as HTTP requires of a 405 (read off the routes themselves). */
static enum MHD_Result refuse_method(struct MHD_Connection *c, const char *url)
{
    static const char *const methods[] = {"GET", "POST"};
    static const char text[] = "not with this method\n";
    char allow[32] = "";
    struct MHD_Response *r;
    size_t i;
    for (i = 0; i < sizeof methods / sizeof methods[0]; i++)
        if (ttcp_engine_route(url, methods[i]) != TTCP_ENGINE_BAD_METHOD)
            snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s, ", methods[i]);
    snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "OPTIONS");
    r = MHD_create_response_from_buffer(sizeof text - 1, (void *)text, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
        return MHD_NO;
    add_common_headers(r);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    return queue(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
}

static int client_of(struct MHD_Connection *c, struct tt_addr *peer)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? -1 : tt_addr_from_native(info->client_addr, peer);
}

/* The body a request may have: an upload's, of a length told beforehand
 * and at most TTCP_ENGINE_UP_MAX; any other's, small. NULL, or why not. */
static const char *body_refused(struct MHD_Connection *c, int uploads, unsigned *status)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                  MHD_HTTP_HEADER_CONTENT_LENGTH);
    char why[128];
    uint64_t n = 0;
    if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
        (uploads && len == NULL)) {
        *status = MHD_HTTP_LENGTH_REQUIRED;
        return "a body's length must be told beforehand (Content-Length)";
    }
    if (len != NULL && ttcp_parse_u64(len, TTCP_SUFFIX_NONE, 0,
                                      uploads ? TTCP_ENGINE_UP_MAX : SMALL_BODY_MAX, &n, why,
                                      sizeof why) != 0) {
        *status = MHD_HTTP_CONTENT_TOO_LARGE;
        return uploads ? "an upload's body is at most 64 MiB" : "a body too long";
    }
    return NULL;
}

/* A run's keeper, on the slot the server lent it. */
static void keep_run(void *test, struct ttcp_web_figures *out)
{
    struct ttcp_engine_run *run = test;
    struct ttcp_web_compat *x = run->owner;
    for (;;) {
        int64_t now = tt_now_ns();
        int end;
        tt_mutex_lock(x->lock);
        end = ttcp_engine_run_ended(run, x->stopping || tt_interrupted(), now);
        if (end >= 0) {
            ttcp_engine_run_figures(run, end, now, out);
            run->state = TTCP_ENGINE_FREE;
        }
        tt_mutex_unlock(x->lock);
        if (end >= 0)
            return;
        tt_sleep_ns(KEEP_POLL_NS);
    }
}

/* The request joins its address's run; one that moves bytes (may_open)
 * begins one on a new slot when there is none: 0, or -1 when the server is
 * full (--max-clients). A ping with no run to join joins none. */
static int join_run(struct ttcp_web_compat *x, const struct tt_addr *peer,
                    struct compat_request *rq, int may_open)
{
    unsigned char key[16];
    int key_len = tt_addr_ip(peer, key), fresh = 0;
    struct ttcp_engine_run *run;
    tt_mutex_lock(x->lock);
    run = x->stopping ? NULL : ttcp_engine_run_of(&x->table, key, key_len);
    if (run == NULL && !x->stopping && may_open) {
        run = ttcp_engine_run_open(&x->table, key, key_len, x->host->opts->max_time_ns,
                                   tt_now_ns());
        fresh = run != NULL;
    }
    if (run != NULL) {
        run->owner = x;
        ttcp_engine_request_begin(run, tt_now_ns());
        rq->serial = run->serial;
    }
    tt_mutex_unlock(x->lock);
    if (run == NULL)
        return may_open ? -1 : 0;
    if (fresh && x->host->claim(x->host->ctx, peer, keep_run, run) != 0) {
        tt_mutex_lock(x->lock);
        run->state = TTCP_ENGINE_FREE;
        tt_mutex_unlock(x->lock);
        rq->serial = 0;
        return -1;
    }
    return 0;
}

/* The request's headers: refused (answered here), or its run joined. */
static enum MHD_Result begin(struct ttcp_web_compat *x, struct MHD_Connection *c,
                             const char *url, const char *method, struct compat_request *rq)
{
    struct tt_addr peer;
    const char *why;
    char reason[200];
    unsigned status = 0;
    rq->route = ttcp_engine_route(url, method);
    rq->uploads = ttcp_engine_uploads(rq->route, method);
    rq->begun_ns = tt_now_ns();
    if (client_of(c, &peer) != 0)
        return MHD_NO;
    if (!ttcp_allow_match(x->host->allow, &peer)) {
        x->host->notice(x->host->ctx, TTCP_NOTICE_NOT_ALLOWED, &peer);
        return refuse(c, MHD_HTTP_FORBIDDEN, "not in --allow");
    }
    if ((why = body_refused(c, rq->uploads, &status)) != NULL)
        return refuse(c, status, why);
    if (rq->route == TTCP_ENGINE_NONE)
        return refuse(c, MHD_HTTP_NOT_FOUND, "not found: /librespeed/garbage, empty, getIP; "
                                             "/__down?bytes=N, /__up");
    if (rq->route == TTCP_ENGINE_BAD_METHOD)
        return refuse_method(c, url);
    if (rq->route == TTCP_ENGINE_LS_GARBAGE || rq->route == TTCP_ENGINE_CF_DOWN) {
        const char *v = MHD_lookup_connection_value(
            c, MHD_GET_ARGUMENT_KIND, rq->route == TTCP_ENGINE_CF_DOWN ? "bytes" : "ckSize");
        if (ttcp_engine_down_bytes(rq->route, v, &rq->down_bytes, reason, sizeof reason) != 0)
            return refuse(c, MHD_HTTP_BAD_REQUEST, reason);
    }
    if (rq->route != TTCP_ENGINE_PREFLIGHT &&
        join_run(x, &peer, rq, rq->uploads || rq->down_bytes > 0) != 0)
        return refuse(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                      "busy: as many tests as the server takes (--max-clients) run now");
    return MHD_YES;
}

/* A piece of an upload's body: counted, or the connection closed when its
 * run is over. */
static enum MHD_Result up_piece(struct ttcp_web_compat *x, struct compat_request *rq,
                                size_t *size)
{
    struct ttcp_engine_run *run;
    int rc = -1;
    tt_mutex_lock(x->lock);
    run = x->stopping ? NULL : ttcp_engine_run_find(&x->table, rq->serial);
    if (run != NULL)
        rc = ttcp_engine_up_piece(run, &rq->up, *size, tt_now_ns());
    tt_mutex_unlock(x->lock);
    rq->received += *size;
    *size = 0;
    return rc == 0 ? MHD_YES : MHD_NO;
}

/* The upload's body is in: its length as the server counted it. */
static enum MHD_Result up_end(struct ttcp_web_compat *x, struct MHD_Connection *c,
                              struct compat_request *rq)
{
    struct ttcp_engine_run *run;
    struct MHD_Response *r;
    char count[32];
    int64_t now = tt_now_ns();
    tt_mutex_lock(x->lock);
    run = ttcp_engine_run_find(&x->table, rq->serial);
    if (run != NULL)
        ttcp_engine_up_end(run, &rq->up);
    tt_mutex_unlock(x->lock);
    if (run == NULL)
        return MHD_NO;
    r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
        return MHD_NO;
    add_common_headers(r);
    add_server_timing(r, now);
    snprintf(count, sizeof count, "%llu", (unsigned long long)rq->received);
    MHD_add_response_header(r, "Ttcp-Received", count);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain");
    return queue(c, MHD_HTTP_OK, r);
}

static ssize_t down_piece(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct compat_download *d = cls;
    struct ttcp_web_compat *x = d->x;
    for (;;) {
        struct ttcp_engine_run *run;
        int64_t n = -1;
        tt_mutex_lock(x->lock);
        run = x->stopping ? NULL : ttcp_engine_run_find(&x->table, d->serial);
        if (run != NULL)
            n = ttcp_engine_down_take(run, max < TTCP_COMPAT_CHUNK ? max : TTCP_COMPAT_CHUNK,
                                      x->host->opts->max_rate_bps, tt_now_ns());
        tt_mutex_unlock(x->lock);
        if (n < 0)
            return MHD_CONTENT_READER_END_WITH_ERROR; /* its run cut, or the server stopping */
        if (n > 0) {
            memcpy(buf, x->random + pos % x->modulus, (size_t)n);
            return (ssize_t)n;
        }
        tt_sleep_ns(PACE_SLICE_NS); /* --max-rate: this connection's own thread waits */
    }
}

/* garbage and __down: down_bytes incompressible bytes, as the run's pace
 * allows (none: Cloudflare's latency request, which may have no run). */
static enum MHD_Result download(struct ttcp_web_compat *x, struct MHD_Connection *c,
                                const struct compat_request *rq)
{
    struct compat_download *d;
    struct MHD_Response *r;
    if (rq->down_bytes == 0) {
        r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    } else {
        if ((d = calloc(1, sizeof *d)) == NULL)
            return MHD_NO;
        d->x = x;
        d->serial = rq->serial;
        r = MHD_create_response_from_callback(rq->down_bytes, TTCP_COMPAT_CHUNK, down_piece, d,
                                              free);
        if (r == NULL)
            free(d);
    }
    if (r == NULL)
        return MHD_NO;
    add_common_headers(r);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream");
    if (rq->route == TTCP_ENGINE_LS_GARBAGE) {
        MHD_add_response_header(r, "Content-Description", "File Transfer");
        MHD_add_response_header(r, "Content-Disposition", "attachment; filename=random.dat");
    }
    add_server_timing(r, rq->begun_ns);
    return queue(c, MHD_HTTP_OK, r);
}

/* getIP: LibreSpeed's JSON, without its ISP lookup (rawIspInfo empty). */
static enum MHD_Result get_ip(struct MHD_Connection *c)
{
    struct tt_addr peer;
    char addr[80], text[160];
    if (client_of(c, &peer) != 0)
        return MHD_NO;
    snprintf(text, sizeof text, "{\"processedString\":\"%s\",\"rawIspInfo\":\"\"}",
             tt_addr_text(&peer, addr, sizeof addr));
    return reply_text(c, MHD_HTTP_OK, "application/json; charset=utf-8", text);
}

static enum MHD_Result preflight(struct MHD_Connection *c)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
        return MHD_NO;
    add_common_headers(r);
    MHD_add_response_header(r, "Access-Control-Max-Age", "600");
    return queue(c, MHD_HTTP_NO_CONTENT, r);
}

enum MHD_Result ttcp_web_compat_answer(struct ttcp_web_compat *x, struct MHD_Connection *c,
                                       const char *url, const char *method,
                                       size_t *upload_size, void **state)
{
    struct compat_request *rq = *state;
    if (rq == NULL) {
        if ((rq = *state = calloc(1, sizeof *rq)) == NULL)
            return MHD_NO;
        return begin(x, c, url, method, rq);
    }
    if (*upload_size != 0) {
        if (rq->uploads)
            return up_piece(x, rq, upload_size);
        *upload_size = 0; /* a small body no endpoint reads */
        return MHD_YES;
    }
    switch (rq->route) {
    case TTCP_ENGINE_PREFLIGHT: return preflight(c);
    case TTCP_ENGINE_LS_GARBAGE:
    case TTCP_ENGINE_CF_DOWN: return download(x, c, rq);
    case TTCP_ENGINE_LS_GETIP: return get_ip(c);
    case TTCP_ENGINE_LS_EMPTY:
        if (!rq->uploads)
            return reply_text(c, MHD_HTTP_OK, "text/plain", ""); /* a ping */
        return up_end(x, c, rq);
    case TTCP_ENGINE_CF_UP: return up_end(x, c, rq);
    default: return MHD_NO;
    }
}

void ttcp_web_compat_completed(struct ttcp_web_compat *x, void *state)
{
    struct compat_request *rq = state;
    struct ttcp_engine_run *run;
    if (rq == NULL)
        return;
    if (rq->serial != 0) {
        tt_mutex_lock(x->lock);
        run = ttcp_engine_run_find(&x->table, rq->serial);
        if (run != NULL)
            ttcp_engine_request_end(run, rq->uploads ? &rq->up : NULL, tt_now_ns());
        tt_mutex_unlock(x->lock);
    }
    free(rq);
}

struct ttcp_web_compat *ttcp_web_compat_new(const struct ttcp_web_host *host,
                                            const unsigned char *random, size_t modulus)
{
    struct ttcp_web_compat *x = calloc(1, sizeof *x);
    if (x == NULL || tt_mutex_new(&x->lock) != 0) {
        free(x);
        return NULL;
    }
    x->host = host;
    x->random = random;
    x->modulus = modulus;
    return x;
}

void ttcp_web_compat_stop(struct ttcp_web_compat *x)
{
    tt_mutex_lock(x->lock);
    x->stopping = 1;
    tt_mutex_unlock(x->lock);
}

void ttcp_web_compat_free(struct ttcp_web_compat *x)
{
    tt_mutex_free(x->lock);
    free(x);
}
