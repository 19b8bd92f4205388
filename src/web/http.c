/* -S --web's HTTP server (libmicrohttpd, as ttcp-exporter): the page at /,
 * and the requests its test makes. Each connection runs on a thread of the
 * library's own (thread per connection: a download paced by --max-rate may
 * sleep in its callback); the sessions' table is under one lock. Every
 * request's size and time is bounded: bodies only where one is expected,
 * of a length told beforehand and capped; downloads and uploads inside
 * their session's windows (docs/ttcp.1, "THE BROWSER'S TEST"). */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "report/report_latency.h"
#include "web/compat.h"
#include "web/page.h"
#include "web/web.h"

#define RANDOM_BYTES (1u << 20)    /* the download's incompressible bytes, sent round */
#define CHUNK_MAX (64u << 10)      /* a download's piece */
#define UP_BODY_MAX (64ull << 20)  /* an upload request's body */
#define SMALL_BODY_MAX 4096u       /* any other request's */
#define CONNECTIONS_MAX 256u
#define PER_IP_MAX 48u             /* a browser opens 6 to a host; a few tabs */
#define IDLE_SECONDS 15u           /* a connection with nothing to do is closed */
#define PACE_SLICE_NS 2000000ll

enum route { R_PAGE, R_START, R_PING, R_DOWN, R_UP, R_DONE, R_ENGINE, R_NONE };
/* compat.c sends its downloads from the same random bytes, a piece at most
 * TTCP_COMPAT_CHUNK past any offset below RANDOM_BYTES: it must fit. */
typedef char compat_piece_fits[TTCP_COMPAT_CHUNK <= CHUNK_MAX ? 1 : -1];

struct web {
    const struct ttcp_web_host *host;
    struct MHD_Daemon *daemon;
    struct tt_mutex *lock;
    int stopping;
    struct ttcp_web_table table;
    struct ttcp_web_compat *compat; /* the other engines' endpoints */
    unsigned char random[RANDOM_BYTES + CHUNK_MAX];
};

/* One request, from its headers to its end (the library's completed
 * callback frees it). */
struct request {
    enum route route;
    int refused;              /* answered at its end with status, text */
    unsigned status;
    const char *text;
    int busy;                 /* an upload its session counts in progress */
    char id[TTCP_WEB_ID_HEX + 1];
    void *engine;             /* R_ENGINE: compat.c's own */
};

/* A download's response: its session and how far it went. */
struct download {
    struct web *w;
    char id[TTCP_WEB_ID_HEX + 1];
};

static enum route route_of(const char *url, const char *method)
{
    static const struct { const char *url, *method; enum route r; } routes[] = {
        {"/", MHD_HTTP_METHOD_GET, R_PAGE},       {"/start", MHD_HTTP_METHOD_POST, R_START},
        {"/ping", MHD_HTTP_METHOD_GET, R_PING},   {"/down", MHD_HTTP_METHOD_GET, R_DOWN},
        {"/up", MHD_HTTP_METHOD_POST, R_UP},      {"/done", MHD_HTTP_METHOD_POST, R_DONE}};
    size_t i;
    for (i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(url, routes[i].url) == 0 && strcmp(method, routes[i].method) == 0)
            return routes[i].r;
    return R_NONE;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             const char *text, size_t len, enum MHD_ResponseMemoryMode mode)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)text, mode);
    enum MHD_Result ok;
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (strncmp(type, "text/html", 9) == 0) /* the page may reach nothing but this server */
        MHD_add_response_header(r, "Content-Security-Policy",
                                "default-src 'self'; script-src 'unsafe-inline'; "
                                "style-src 'unsafe-inline'; img-src 'self' data: blob:");
    ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, unsigned status, const char *text)
{
    return reply(c, status, "application/json", text, strlen(text), MHD_RESPMEM_MUST_COPY);
}

/* {"error":"why"}: why may quote a value the request sent, so what would
 * break the JSON string (a quote, a backslash, a control byte) becomes '?'. */
static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status, const char *why)
{
    char text[400];
    size_t i, n = (size_t)snprintf(text, sizeof text, "{\"error\":\"%.300s", why);
    for (i = 10; i < n && i < sizeof text; i++)
        if (text[i] == '"' || text[i] == '\\' || (unsigned char)text[i] < 0x20)
            text[i] = '?';
    snprintf(text + strlen(text), sizeof text - strlen(text), "\"}");
    return reply_json(c, status, text);
}

/* The connection's client, from the library's socket address. */
static int client_of(struct MHD_Connection *c, struct tt_addr *peer)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? -1 : tt_addr_from_native(info->client_addr, peer);
}

/* 1 when the request's body is as its route may have: none, or (POST) of
 * a length told beforehand, at most the route's cap. */
static int body_bounded(struct MHD_Connection *c, enum route r)
{
    const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                  MHD_HTTP_HEADER_CONTENT_LENGTH);
    uint64_t n = 0;
    char why[128];
    if (MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
        return 0;
    return len == NULL || ttcp_parse_u64(len, TTCP_SUFFIX_NONE, 0,
                                         r == R_UP ? UP_BODY_MAX : SMALL_BODY_MAX, &n, why,
                                         sizeof why) == 0;
}

/* The request's headers: who asks, and whether its body may come. */
static struct request *begin(struct web *w, struct MHD_Connection *c, const char *url,
                             const char *method)
{
    struct request *rq = calloc(1, sizeof *rq);
    struct tt_addr peer;
    const char *id = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "id");
    if (rq == NULL)
        return NULL;
    rq->route = route_of(url, method);
    if (id != NULL && strlen(id) == TTCP_WEB_ID_HEX)
        memcpy(rq->id, id, TTCP_WEB_ID_HEX + 1);
    if (client_of(c, &peer) != 0 || !ttcp_allow_match(w->host->allow, &peer)) {
        if (client_of(c, &peer) == 0)
            w->host->notice(w->host->ctx, TTCP_NOTICE_NOT_ALLOWED, &peer);
        rq->refused = 1, rq->status = MHD_HTTP_FORBIDDEN, rq->text = "not in --allow";
    } else if (!body_bounded(c, rq->route)) {
        rq->refused = 1, rq->status = MHD_HTTP_CONTENT_TOO_LARGE,
        rq->text = "a body too long, or of a length not told";
    } else if (rq->route == R_NONE) {
        rq->refused = 1, rq->status = MHD_HTTP_NOT_FOUND,
        rq->text = "not found: GET / (the page), /?start (runs at once)";
    }
    return rq;
}

/* A /down or /up request's end, for its session (if still running). */
static void request_over(struct web *w, const char *id)
{
    struct ttcp_web_session *s;
    tt_mutex_lock(w->lock);
    s = ttcp_web_session_find(&w->table, id);
    if (s != NULL)
        ttcp_web_request_end(s, tt_now_ns());
    tt_mutex_unlock(w->lock);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why)
{
    struct request *rq = *con_cls;
    (void)c, (void)why;
    if (rq != NULL && rq->busy)
        request_over(cls, rq->id);
    if (rq != NULL && rq->route == R_ENGINE)
        ttcp_web_compat_completed(((struct web *)cls)->compat, rq->engine);
    free(rq);
    *con_cls = NULL;
}

/* A test's keeper, on the slot the server lent it (remote/web.h). */
static void keep(void *test, struct ttcp_web_figures *out)
{
    struct ttcp_web_session *s = test;
    struct web *w = s->owner;
    for (;;) {
        int64_t now = tt_now_ns();
        int end;
        tt_mutex_lock(w->lock);
        end = ttcp_web_session_ended(s, w->stopping || tt_interrupted(), now);
        if (end >= 0) {
            ttcp_web_session_figures(s, end, now, out);
            s->state = TTCP_WEB_FREE;
        }
        tt_mutex_unlock(w->lock);
        if (end >= 0)
            return;
        tt_sleep_ns(50000000ll);
    }
}

/* POST /start[?time=S]: a session and its slot, or busy. */
static enum MHD_Result start_test(struct web *w, struct MHD_Connection *c)
{
    const char *asked_text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "time");
    unsigned char id[TTCP_WEB_ID_BYTES];
    struct ttcp_web_session *s = NULL;
    struct tt_addr peer;
    int64_t asked = 0;
    char why[200], text[200];
    if (asked_text != NULL && ttcp_parse_seconds(asked_text, 1000000000ll, TTCP_WEB_PHASE_MAX_NS, &asked,
                                           why, sizeof why) != 0)
        return reply_error(c, MHD_HTTP_BAD_REQUEST, "time: 1 to 60 seconds");
    if (client_of(c, &peer) != 0 || tt_random_bytes(id, sizeof id) != 0)
        return reply_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no session could be made");
    tt_mutex_lock(w->lock);
    if (!w->stopping)
        s = ttcp_web_session_open(&w->table, id, asked, w->host->opts->max_time_ns, tt_now_ns());
    if (s != NULL)
        s->owner = w;
    tt_mutex_unlock(w->lock);
    if (s == NULL)
        return reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: the server is full");
    if (w->host->claim(w->host->ctx, &peer, keep, s) != 0) {
        tt_mutex_lock(w->lock);
        s->state = TTCP_WEB_FREE;
        tt_mutex_unlock(w->lock);
        return reply_error(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                           "busy: as many tests as the server takes (--max-clients) run now");
    }
    snprintf(text, sizeof text, "{\"id\":\"%s\",\"seconds\":%.3f,\"grace_seconds\":%.3f,"
             "\"max_rate_bps\":%llu}", s->id, (double)s->phase_ns / 1e9,
             (double)TTCP_WEB_GRACE_NS / 1e9, (unsigned long long)w->host->opts->max_rate_bps);
    return reply_json(c, MHD_HTTP_OK, text);
}

/* The server's counts of a session, as JSON members (no braces). */
static void counts(const struct ttcp_web_session *s, char *text, size_t len)
{
    struct ttcp_web_figures f;
    ttcp_web_session_figures(s, TTCP_WEB_DONE, tt_now_ns(), &f);
    snprintf(text, len, "\"up_bytes\":%llu,\"up_seconds\":%.6f,\"up_bps\":%.0f,"
             "\"down_sent\":%llu", (unsigned long long)f.up_bytes, (double)f.up_ns / 1e9,
             f.up_valid ? f.up_bps : 0.0, (unsigned long long)f.down_sent);
}

/* GET /ping?id=: a small answer, with the upload's counts so far. */
static enum MHD_Result ping(struct web *w, struct MHD_Connection *c, const struct request *rq)
{
    struct ttcp_web_session *s;
    char members[300], text[340];
    tt_mutex_lock(w->lock);
    s = ttcp_web_session_find(&w->table, rq->id);
    if (s != NULL) {
        s->seen_ns = tt_now_ns();
        counts(s, members, sizeof members);
    }
    tt_mutex_unlock(w->lock);
    if (s == NULL)
        return reply_error(c, MHD_HTTP_GONE, "no such test (over, or never begun)");
    snprintf(text, sizeof text, "{%s}", members);
    return reply_json(c, MHD_HTTP_OK, text);
}

static ssize_t down_piece(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct download *d = cls;
    struct web *w = d->w;
    for (;;) {
        struct ttcp_web_session *s;
        int64_t n = -1;
        tt_mutex_lock(w->lock);
        s = w->stopping ? NULL : ttcp_web_session_find(&w->table, d->id);
        if (s != NULL)
            n = ttcp_web_down_take(s, max < CHUNK_MAX ? max : CHUNK_MAX,
                                   w->host->opts->max_rate_bps, tt_now_ns());
        tt_mutex_unlock(w->lock);
        if (n < 0)
            return s != NULL ? MHD_CONTENT_READER_END_OF_STREAM
                             : MHD_CONTENT_READER_END_WITH_ERROR;
        if (n > 0) {
            memcpy(buf, w->random + pos % RANDOM_BYTES, (size_t)n);
            return (ssize_t)n;
        }
        tt_sleep_ns(PACE_SLICE_NS); /* --max-rate: this connection's own thread waits */
    }
}

/* A download's response is over (its connection closed, or its end sent). */
static void down_over(void *cls)
{
    struct download *d = cls;
    request_over(d->w, d->id);
    free(d);
}

/* GET /down?id=: incompressible bytes until the download's window ends. */
static enum MHD_Result download(struct web *w, struct MHD_Connection *c,
                                const struct request *rq)
{
    struct ttcp_web_session *s;
    struct download *d = calloc(1, sizeof *d);
    struct MHD_Response *r;
    enum MHD_Result ok;
    tt_mutex_lock(w->lock);
    s = d != NULL ? ttcp_web_session_find(&w->table, rq->id) : NULL;
    if (s != NULL) {
        ttcp_web_window_open(s, 0, tt_now_ns());
        ttcp_web_request_begin(s, tt_now_ns());
    }
    tt_mutex_unlock(w->lock);
    if (s == NULL) {
        free(d);
        return reply_error(c, MHD_HTTP_GONE, "no such test (over, or never begun)");
    }
    d->w = w;
    memcpy(d->id, rq->id, sizeof d->id);
    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, CHUNK_MAX, down_piece, d, down_over);
    if (r == NULL) {
        down_over(d);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/octet-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

/* POST /up?id=, its headers: the upload's window opens, or no such test. */
static int up_begin(struct web *w, struct request *rq)
{
    struct ttcp_web_session *s;
    tt_mutex_lock(w->lock);
    s = ttcp_web_session_find(&w->table, rq->id);
    if (s != NULL) {
        ttcp_web_window_open(s, 1, tt_now_ns());
        ttcp_web_request_begin(s, tt_now_ns());
        rq->busy = 1;
    }
    tt_mutex_unlock(w->lock);
    return s != NULL ? 0 : -1;
}

/* A piece of an upload's body: counted, or the connection closed when its
 * window is over. */
static enum MHD_Result up_piece(struct web *w, const struct request *rq, size_t *size)
{
    struct ttcp_web_session *s;
    int rc = -1;
    tt_mutex_lock(w->lock);
    s = w->stopping ? NULL : ttcp_web_session_find(&w->table, rq->id);
    if (s != NULL)
        rc = ttcp_web_up_count(s, *size, tt_now_ns());
    tt_mutex_unlock(w->lock);
    *size = 0;
    return rc == 0 ? MHD_YES : MHD_NO;
}

static enum MHD_Result up_end(struct web *w, struct MHD_Connection *c, const struct request *rq)
{
    struct ttcp_web_session *s;
    char members[300], text[340];
    tt_mutex_lock(w->lock);
    s = ttcp_web_session_find(&w->table, rq->id);
    if (s != NULL)
        counts(s, members, sizeof members);
    tt_mutex_unlock(w->lock);
    if (s == NULL)
        return reply_error(c, MHD_HTTP_GONE, "no such test (over, or never begun)");
    snprintf(text, sizeof text, "{%s}", members);
    return reply_json(c, MHD_HTTP_OK, text);
}

struct done_walk {
    struct ttcp_web_done d;
    char why[200];
    int bad;
};

static enum MHD_Result take_done(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    struct done_walk *dw = cls;
    (void)kind;
    if (!dw->bad && ttcp_web_done_param(&dw->d, key, value, dw->why, sizeof dw->why) != 0)
        dw->bad = 1;
    return MHD_YES;
}

/* POST /done?id=&down_bps=&...: the page's figures; the test ends, and the
 * server's own counts and the grade go back. */
static enum MHD_Result finish(struct web *w, struct MHD_Connection *c, const struct request *rq)
{
    struct done_walk dw;
    struct ttcp_web_session *s;
    struct ttcp_web_figures f;
    char members[300], text[500];
    memset(&dw, 0, sizeof dw);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, take_done, &dw);
    if (dw.bad)
        return reply_error(c, MHD_HTTP_BAD_REQUEST, dw.why);
    tt_mutex_lock(w->lock);
    s = ttcp_web_session_find(&w->table, rq->id);
    if (s != NULL) {
        s->done = dw.d;
        counts(s, members, sizeof members);
        ttcp_web_session_figures(s, TTCP_WEB_DONE, tt_now_ns(), &f);
        s->state = TTCP_WEB_FINISHED; /* the keeper tells it and frees it */
    }
    tt_mutex_unlock(w->lock);
    if (s == NULL)
        return reply_error(c, MHD_HTTP_GONE, "no such test (over, or never begun)");
    snprintf(text, sizeof text, "{%s,\"grade\":%s%s%s}", members, f.latency_valid ? "\"" : "",
             f.latency_valid ? ttcp_latency_grade_text((enum ttcp_latency_grade)f.grade)
                             : "null", f.latency_valid ? "\"" : "");
    return reply_json(c, MHD_HTTP_OK, text);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    struct web *w = cls;
    struct request *rq = *con_cls;
    (void)version, (void)upload;
    if (rq == NULL && ttcp_engine_path(url)) { /* another engine's endpoint (compat.c) */
        if ((rq = *con_cls = calloc(1, sizeof *rq)) == NULL)
            return MHD_NO;
        rq->route = R_ENGINE;
    }
    if (rq != NULL && rq->route == R_ENGINE)
        return ttcp_web_compat_answer(w->compat, c, url, method, upload_size, &rq->engine);
    if (rq == NULL) { /* the headers */
        if ((rq = *con_cls = begin(w, c, url, method)) == NULL)
            return MHD_NO;
        if (rq->refused)
            return reply_error(c, rq->status, rq->text);
        if (rq->route == R_UP && up_begin(w, rq) != 0)
            return reply_error(c, MHD_HTTP_GONE, "no such test (over, or never begun)");
        return MHD_YES;
    }
    if (*upload_size != 0) {
        if (rq->route == R_UP)
            return up_piece(w, rq, upload_size);
        *upload_size = 0; /* a small body no route reads */
        return MHD_YES;
    }
    switch (rq->route) {
    case R_PAGE:
        return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", ttcp_web_page,
                     ttcp_web_page_len, MHD_RESPMEM_PERSISTENT);
    case R_START: return start_test(w, c);
    case R_PING: return ping(w, c, rq);
    case R_DOWN: return download(w, c, rq);
    case R_UP: return up_end(w, c, rq);
    case R_DONE: return finish(w, c, rq);
    default: return MHD_NO;
    }
}

static int web_start(const struct ttcp_web_host *host, void **out, char *why, size_t why_len)
{
    struct web *w = calloc(1, sizeof *w);
    if (w == NULL || tt_mutex_new(&w->lock) != 0 ||
        tt_random_bytes(w->random, sizeof w->random) != 0 ||
        (w->compat = ttcp_web_compat_new(host, w->random, RANDOM_BYTES)) == NULL) {
        snprintf(why, why_len, "--web: no memory or no random bytes for the page's test");
        if (w != NULL && w->lock != NULL)
            tt_mutex_free(w->lock);
        if (w != NULL && w->compat != NULL)
            ttcp_web_compat_free(w->compat);
        free(w);
        return -1;
    }
    w->host = host;
    w->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL, NULL, answer, w,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)host->listener, MHD_OPTION_CONNECTION_LIMIT,
        CONNECTIONS_MAX, MHD_OPTION_PER_IP_CONNECTION_LIMIT, PER_IP_MAX,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_CONNECTION_TIMEOUT,
        IDLE_SECONDS, MHD_OPTION_NOTIFY_COMPLETED, completed, w, MHD_OPTION_END);
    if (w->daemon == NULL) {
        snprintf(why, why_len, "--web: the HTTP server (libmicrohttpd) could not start");
        ttcp_web_compat_free(w->compat);
        tt_mutex_free(w->lock);
        free(w);
        return -1;
    }
    *out = w;
    return 0;
}

static void web_stop(void *web)
{
    struct web *w = web;
    tt_mutex_lock(w->lock);
    w->stopping = 1;
    tt_mutex_unlock(w->lock);
    ttcp_web_compat_stop(w->compat);
    MHD_stop_daemon(w->daemon); /* its connections' threads joined, the listener closed */
}

static void web_drop(void *web)
{
    struct web *w = web;
    ttcp_web_compat_free(w->compat);
    tt_mutex_free(w->lock);
    free(w);
}

const struct ttcp_web_row *ttcp_web_row(void)
{
    static const struct ttcp_web_row row = {web_start, web_stop, web_drop};
    return &row;
}
