/* The browser's tests' bookkeeping (session.h): pure, under the caller's
 * lock, on the caller's clock. */
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "measure/latency.h"
#include "web/session.h"

#define PACE_BURST 65536u /* a rate-capped download may run this far ahead */

struct ttcp_web_session *ttcp_web_session_open(struct ttcp_web_table *t,
                                               const unsigned char id[TTCP_WEB_ID_BYTES],
                                               int64_t asked_ns, int64_t max_time_ns,
                                               int64_t now_ns)
{
    static const char hex[] = "0123456789abcdef";
    struct ttcp_web_session *s = NULL;
    int i;
    for (i = 0; i < TTCP_WEB_SESSIONS && s == NULL; i++)
        if (t->s[i].state == TTCP_WEB_FREE)
            s = &t->s[i];
    if (s == NULL)
        return NULL;
    memset(s, 0, sizeof *s);
    for (i = 0; i < TTCP_WEB_ID_BYTES; i++) {
        s->id[2 * i] = hex[id[i] >> 4];
        s->id[2 * i + 1] = hex[id[i] & 15];
    }
    s->state = TTCP_WEB_OPEN;
    s->start_ns = s->seen_ns = now_ns;
    s->phase_ns = asked_ns > 0 ? asked_ns : TTCP_WEB_PHASE_DEFAULT_NS;
    if (s->phase_ns > TTCP_WEB_PHASE_MAX_NS)
        s->phase_ns = TTCP_WEB_PHASE_MAX_NS;
    if (max_time_ns > 0 && s->phase_ns > max_time_ns / 2)
        s->phase_ns = max_time_ns / 2;
    s->life_ns = 2 * s->phase_ns + TTCP_WEB_SLACK_NS;
    return s;
}

struct ttcp_web_session *ttcp_web_session_find(struct ttcp_web_table *t, const char *id)
{
    int i;
    if (id == NULL || strlen(id) != TTCP_WEB_ID_HEX)
        return NULL;
    for (i = 0; i < TTCP_WEB_SESSIONS; i++)
        if (t->s[i].state == TTCP_WEB_OPEN && strcmp(t->s[i].id, id) == 0)
            return &t->s[i];
    return NULL;
}

void ttcp_web_window_open(struct ttcp_web_session *s, int up, int64_t now_ns)
{
    int64_t *start = up ? &s->up_start_ns : &s->down_start_ns;
    if (*start == 0)
        *start = now_ns;
    s->seen_ns = now_ns;
}

void ttcp_web_request_begin(struct ttcp_web_session *s, int64_t now_ns)
{
    s->busy++;
    s->seen_ns = now_ns;
}

void ttcp_web_request_end(struct ttcp_web_session *s, int64_t now_ns)
{
    if (s->busy > 0)
        s->busy--;
    s->seen_ns = now_ns;
}

/* A window's end: its phase from its first request, and a grace. */
static int window_over(int64_t start_ns, const struct ttcp_web_session *s, int64_t now_ns)
{
    return start_ns == 0 || now_ns > start_ns + s->phase_ns + TTCP_WEB_GRACE_NS;
}

int64_t ttcp_web_down_take(struct ttcp_web_session *s, uint64_t want, uint64_t rate_bps,
                           int64_t now_ns)
{
    if (window_over(s->down_start_ns, s, now_ns))
        return -1;
    s->seen_ns = now_ns;
    if (rate_bps > 0) {
        double allowed = (double)rate_bps / 8.0 * (double)(now_ns - s->down_start_ns) / 1e9 +
                         PACE_BURST - (double)s->down_sent;
        if (allowed < 1.0)
            return 0;
        if ((double)want > allowed)
            want = (uint64_t)allowed;
    }
    s->down_sent += want;
    return (int64_t)want;
}

int ttcp_web_up_count(struct ttcp_web_session *s, uint64_t n, int64_t now_ns)
{
    if (window_over(s->up_start_ns, s, now_ns))
        return -1;
    s->seen_ns = now_ns;
    if (n == 0)
        return 0;
    if (s->up_bytes == 0) {
        s->up_first_ns = now_ns;
        s->up_first_piece = n;
    }
    s->up_bytes += n;
    s->up_last_ns = now_ns;
    if (s->up_mark_ns == 0 && now_ns - s->up_first_ns >= s->phase_ns / TTCP_WEB_SETTLE_PARTS) {
        s->up_mark_ns = now_ns;
        s->up_mark_bytes = s->up_bytes;
    }
    return 0;
}

int ttcp_web_done_param(struct ttcp_web_done *d, const char *key, const char *value, char *why,
                        size_t why_len)
{
    static const char *const names[] = {"down_bps", "down_bytes", "idle_us", "loaded_us",
                                        "jitter_us"};
    static const uint64_t most[] = {1000000000000ull, 1ull << 50, 600000000ull, 600000000ull,
                                    600000000ull};
    uint64_t *field[] = {&d->down_bps, &d->down_bytes, &d->idle_us, &d->loaded_us,
                         &d->jitter_us};
    char reason[160];
    unsigned i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(key, names[i]) != 0)
            continue;
        if (d->given & (1u << i)) {
            snprintf(why, why_len, "%s: given twice", key);
            return -1;
        }
        if (value == NULL || ttcp_parse_u64(value, TTCP_SUFFIX_NONE, 0, most[i], field[i],
                                            reason, sizeof reason) != 0) {
            snprintf(why, why_len, "%s: %s", key, value == NULL ? "no value" : reason);
            return -1;
        }
        d->given |= 1u << i;
        return 0;
    }
    if (strcmp(key, "id") == 0)
        return 0;
    snprintf(why, why_len, "unknown parameter %.40s (down_bps, down_bytes, idle_us, loaded_us, "
             "jitter_us)", key);
    return -1;
}

int ttcp_web_session_ended(const struct ttcp_web_session *s, int stopping, int64_t now_ns)
{
    if (s->state == TTCP_WEB_FINISHED)
        return TTCP_WEB_DONE;
    if (stopping)
        return TTCP_WEB_STOPPED;
    if (now_ns - s->start_ns > s->life_ns)
        return TTCP_WEB_CUT;
    if (s->busy == 0 && now_ns - s->seen_ns > TTCP_WEB_PAGE_IDLE_NS)
        return TTCP_WEB_ABANDONED;
    return -1;
}

void ttcp_web_session_figures(const struct ttcp_web_session *s, int end, int64_t now_ns,
                              struct ttcp_web_figures *out)
{
    const struct ttcp_web_done *d = &s->done;
    uint64_t counted;
    memset(out, 0, sizeof *out);
    out->end = end;
    out->ran_ns = now_ns - s->start_ns;
    out->down_sent = s->down_sent;
    out->down_valid = (d->given & 3u) == 3u;
    out->down_bps = (double)d->down_bps;
    out->down_bytes = d->down_bytes;
    out->up_bytes = s->up_bytes;
    if (s->up_mark_ns != 0 && s->up_last_ns > s->up_mark_ns) { /* the steady part */
        out->up_ns = s->up_last_ns - s->up_mark_ns;
        counted = s->up_bytes - s->up_mark_bytes;
    } else { /* too short for one: all but the first piece */
        out->up_ns = s->up_last_ns - s->up_first_ns;
        counted = s->up_bytes - s->up_first_piece;
    }
    out->up_valid = counted > 0 && out->up_ns > 0;
    if (out->up_valid)
        out->up_bps = (double)counted * 8e9 / (double)out->up_ns;
    out->latency_valid = (d->given & 12u) == 12u;
    out->idle_ms = (double)d->idle_us / 1000.0;
    out->loaded_ms = (double)d->loaded_us / 1000.0;
    out->jitter_ms = (double)d->jitter_us / 1000.0;
    if (out->latency_valid)
        out->grade = (int)ttcp_latency_grade(out->loaded_ms > out->idle_ms
                                                 ? out->loaded_ms - out->idle_ms : 0.0);
}
