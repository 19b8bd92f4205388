/* The engines' endpoints and runs (engines.h): pure, under the caller's
 * lock, on the caller's clock. */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "web/engines.h"

enum { M_GET = 1, M_POST = 2 };

static unsigned method_bit(const char *method)
{
    return strcmp(method, "GET") == 0 ? M_GET : strcmp(method, "POST") == 0 ? M_POST : 0;
}

int ttcp_engine_path(const char *url)
{
    return strncmp(url, TTCP_ENGINE_LS_PREFIX, strlen(TTCP_ENGINE_LS_PREFIX)) == 0 ||
           strcmp(url, "/__down") == 0 || strcmp(url, "/__up") == 0;
}

/* LibreSpeed's file under the prefix: its name, with ".php" or without,
 * in backend/ or not (its default URLs name backend/garbage.php). */
static int librespeed_name(const char *rest, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(rest, "backend/", 8) == 0)
        rest += 8;
    return strncmp(rest, name, n) == 0 && (rest[n] == '\0' || strcmp(rest + n, ".php") == 0);
}

enum ttcp_engine_route ttcp_engine_route(const char *url, const char *method)
{
    static const struct { const char *name; enum ttcp_engine_route r; unsigned methods; } ls[] = {
        {"garbage", TTCP_ENGINE_LS_GARBAGE, M_GET},
        {"empty", TTCP_ENGINE_LS_EMPTY, M_GET | M_POST},
        {"getIP", TTCP_ENGINE_LS_GETIP, M_GET}};
    size_t prefix = strlen(TTCP_ENGINE_LS_PREFIX), i;
    unsigned m = method_bit(method);
    if (!ttcp_engine_path(url))
        return TTCP_ENGINE_NONE;
    if (strcmp(url, "/__down") == 0 || strcmp(url, "/__up") == 0) {
        int up = url[3] == 'u';
        if (strcmp(method, "OPTIONS") == 0)
            return TTCP_ENGINE_PREFLIGHT;
        return m == (up ? M_POST : M_GET) ? (up ? TTCP_ENGINE_CF_UP : TTCP_ENGINE_CF_DOWN)
                                          : TTCP_ENGINE_BAD_METHOD;
    }
    for (i = 0; i < sizeof ls / sizeof ls[0]; i++) {
        if (!librespeed_name(url + prefix, ls[i].name))
            continue;
        if (strcmp(method, "OPTIONS") == 0)
            return TTCP_ENGINE_PREFLIGHT;
        return (m & ls[i].methods) != 0 ? ls[i].r : TTCP_ENGINE_BAD_METHOD;
    }
    return TTCP_ENGINE_NONE;
}

int ttcp_engine_uploads(enum ttcp_engine_route r, const char *method)
{
    return r == TTCP_ENGINE_CF_UP || (r == TTCP_ENGINE_LS_EMPTY && strcmp(method, "POST") == 0);
}

int ttcp_engine_down_bytes(enum ttcp_engine_route r, const char *value, uint64_t *bytes,
                           char *why, size_t why_len)
{
    char reason[160];
    uint64_t n = 0;
    if (r == TTCP_ENGINE_LS_GARBAGE) {
        /* any whole number: 0 is the default and more than 1024 is cut, as
         * LibreSpeed's garbage.php does; anything else is refused */
        if (value != NULL && value[0] != '\0' &&
            ttcp_parse_u64(value, TTCP_SUFFIX_NONE, 0, UINT64_MAX, &n, reason,
                           sizeof reason) != 0) {
            snprintf(why, why_len, "ckSize: %s (MiB, a whole number; up to %u used)", reason,
                     TTCP_ENGINE_CHUNKS_MAX);
            return -1;
        }
        if (n == 0)
            n = TTCP_ENGINE_CHUNKS_DEFAULT;
        if (n > TTCP_ENGINE_CHUNKS_MAX)
            n = TTCP_ENGINE_CHUNKS_MAX;
        *bytes = n * TTCP_ENGINE_CHUNK;
        return 0;
    }
    if (value == NULL ||
        ttcp_parse_u64(value, TTCP_SUFFIX_NONE, 0, TTCP_ENGINE_DOWN_MAX, &n, reason,
                       sizeof reason) != 0) {
        snprintf(why, why_len, "bytes: %s (0 to %llu)", value == NULL ? "missing" : reason,
                 (unsigned long long)TTCP_ENGINE_DOWN_MAX);
        return -1;
    }
    *bytes = n;
    return 0;
}

struct ttcp_engine_run *ttcp_engine_run_of(struct ttcp_engine_table *t, const unsigned char *key,
                                           int key_len)
{
    int i;
    for (i = 0; i < TTCP_ENGINE_RUNS; i++)
        if (t->r[i].state == TTCP_ENGINE_OPEN && t->r[i].key_len == key_len &&
            memcmp(t->r[i].key, key, (size_t)key_len) == 0)
            return &t->r[i];
    return NULL;
}

struct ttcp_engine_run *ttcp_engine_run_find(struct ttcp_engine_table *t, uint64_t serial)
{
    int i;
    for (i = 0; i < TTCP_ENGINE_RUNS; i++)
        if (t->r[i].state == TTCP_ENGINE_OPEN && t->r[i].serial == serial)
            return &t->r[i];
    return NULL;
}

struct ttcp_engine_run *ttcp_engine_run_open(struct ttcp_engine_table *t, const unsigned char *key,
                                             int key_len, int64_t max_time_ns, int64_t now_ns)
{
    struct ttcp_engine_run *r = NULL;
    int i;
    if (key_len < 0 || key_len > 16)
        return NULL;
    for (i = 0; i < TTCP_ENGINE_RUNS && r == NULL; i++)
        if (t->r[i].state == TTCP_ENGINE_FREE)
            r = &t->r[i];
    if (r == NULL)
        return NULL;
    memset(r, 0, sizeof *r);
    r->state = TTCP_ENGINE_OPEN;
    r->serial = ++t->next_serial;
    memcpy(r->key, key, (size_t)key_len);
    r->key_len = key_len;
    r->start_ns = r->seen_ns = r->tokens_ns = now_ns;
    r->life_ns = max_time_ns > 0 ? max_time_ns : TTCP_ENGINE_LIFE_NS;
    r->tokens = TTCP_ENGINE_PACE_BURST;
    return r;
}

static int past_life(const struct ttcp_engine_run *r, int64_t now_ns)
{
    return now_ns - r->start_ns > r->life_ns;
}

void ttcp_engine_request_begin(struct ttcp_engine_run *r, int64_t now_ns)
{
    r->active++;
    r->requests++;
    r->seen_ns = now_ns;
}

void ttcp_engine_request_end(struct ttcp_engine_run *r, struct ttcp_engine_upload *u,
                             int64_t now_ns)
{
    if (u != NULL)
        ttcp_engine_up_end(r, u); /* one cut short ends here */
    if (r->active > 0)
        r->active--;
    r->seen_ns = now_ns;
}

int64_t ttcp_engine_down_take(struct ttcp_engine_run *r, uint64_t want, uint64_t rate_bps,
                              int64_t now_ns)
{
    if (past_life(r, now_ns))
        return -1;
    r->seen_ns = now_ns;
    if (rate_bps > 0) { /* a bucket: rate_bps / 8 bytes a second, a burst at most */
        r->tokens += (double)rate_bps / 8.0 * (double)(now_ns - r->tokens_ns) / 1e9;
        r->tokens_ns = now_ns;
        if (r->tokens > TTCP_ENGINE_PACE_BURST)
            r->tokens = TTCP_ENGINE_PACE_BURST;
        if (r->tokens < 1.0)
            return 0;
        if ((double)want > r->tokens)
            want = (uint64_t)r->tokens;
        r->tokens -= (double)want;
    }
    r->down_sent += want;
    return (int64_t)want;
}

/* The first piece of each upload opens its time (its own bytes arrived
 * before that time began, so they are counted but not timed); the time
 * with any upload arriving is what the rate is taken over, so that
 * parallel uploads are not counted twice and the gaps between requests
 * not at all. */
int ttcp_engine_up_piece(struct ttcp_engine_run *r, struct ttcp_engine_upload *u, uint64_t n,
                         int64_t now_ns)
{
    if (past_life(r, now_ns))
        return -1;
    r->seen_ns = now_ns;
    if (n == 0 || u->ended)
        return 0;
    r->up_bytes += n;
    if (!u->begun) {
        u->begun = 1;
        if (r->uploading++ == 0)
            r->up_from_ns = now_ns;
    } else {
        r->up_timed += n;
    }
    r->up_last_ns = now_ns;
    return 0;
}

void ttcp_engine_up_end(struct ttcp_engine_run *r, struct ttcp_engine_upload *u)
{
    if (!u->begun || u->ended)
        return;
    u->ended = 1;
    if (--r->uploading == 0)
        r->up_busy_ns += r->up_last_ns - r->up_from_ns;
}

int ttcp_engine_run_ended(const struct ttcp_engine_run *r, int stopping, int64_t now_ns)
{
    if (stopping)
        return TTCP_WEB_STOPPED;
    if (past_life(r, now_ns))
        return TTCP_WEB_CUT;
    if (r->active == 0 && now_ns - r->seen_ns > TTCP_WEB_IDLE_NS)
        return TTCP_WEB_DONE;
    return -1;
}

void ttcp_engine_run_figures(const struct ttcp_engine_run *r, int end, int64_t now_ns,
                             struct ttcp_web_figures *out)
{
    int64_t busy = r->up_busy_ns;
    memset(out, 0, sizeof *out);
    if (r->uploading > 0) /* cut while uploads arrive: their time so far */
        busy += r->up_last_ns - r->up_from_ns;
    out->end = end;
    out->ran_ns = now_ns - r->start_ns;
    out->down_sent = r->down_sent;
    out->up_bytes = r->up_bytes;
    out->up_ns = busy;
    out->up_valid = busy > 0 && r->up_timed > 0;
    if (out->up_valid)
        out->up_bps = (double)r->up_timed * 8e9 / (double)busy;
}
