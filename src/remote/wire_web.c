/* A server's last browser tests as frames (wire_web.h). Rates go as whole
 * bits a second, latencies as whole microseconds: the line and the JSON
 * show no finer. */
#include "remote/wire_web.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/latency.h"

#define SEQ_MAX (1ull << 62)
#define AGE_MAX (1ull << 62)            /* ns: about 146 years */
#define BPS_MAX 10000000000000ull       /* 10 Tbit/s */
#define BYTES_MAX (1ull << 56)
#define UP_NS_MAX (86400ull * 1000000000ull) /* a day: no test is longer */
#define US_MAX 3600000000ull            /* an hour of round trip */

static uint64_t whole(double v, uint64_t max)
{
    if (!(v > 0.0)) /* and NaN */
        return 0;
    return v >= (double)max ? max : (uint64_t)llround(v);
}

void ttcp_wire_web_results(struct ttcp_frame *f)
{
    ttcp_frame_begin(f, "web_results");
    ttcp_frame_end(f);
}

void ttcp_wire_web_result(struct ttcp_frame *f, const struct ttcp_web_record *r, int64_t now_ns)
{
    const struct ttcp_web_figures *w = &r->f;
    unsigned valid = (w->down_valid ? TTCP_WEB_VALID_DOWN : 0) |
                     (w->up_valid ? TTCP_WEB_VALID_UP : 0) |
                     (w->latency_valid ? TTCP_WEB_VALID_LATENCY : 0);
    int64_t age = now_ns > r->end_ns ? now_ns - r->end_ns : 0;
    ttcp_frame_begin(f, "web_result");
    ttcp_frame_add_u64(f, "seq", r->seq);
    ttcp_frame_add_u64(f, "age_ns", (uint64_t)age);
    ttcp_frame_add_u64(f, "end", (uint64_t)w->end);
    ttcp_frame_add_u64(f, "valid", valid);
    if (w->down_valid) {
        ttcp_frame_add_u64(f, "down_bps", whole(w->down_bps, BPS_MAX));
        ttcp_frame_add_u64(f, "down_bytes", w->down_bytes);
    }
    if (w->up_valid) {
        ttcp_frame_add_u64(f, "up_bps", whole(w->up_bps, BPS_MAX));
        ttcp_frame_add_u64(f, "up_bytes", w->up_bytes);
        ttcp_frame_add_u64(f, "up_ns", (uint64_t)(w->up_ns > 0 ? w->up_ns : 0));
    }
    if (w->latency_valid) {
        ttcp_frame_add_u64(f, "idle_us", whole(w->idle_ms * 1000.0, US_MAX));
        ttcp_frame_add_u64(f, "loaded_us", whole(w->loaded_ms * 1000.0, US_MAX));
        ttcp_frame_add_u64(f, "jitter_us", whole(w->jitter_ms * 1000.0, US_MAX));
        ttcp_frame_add_u64(f, "grade", (uint64_t)w->grade);
    }
    ttcp_frame_end(f);
}

void ttcp_wire_web_results_end(struct ttcp_frame *f, int count)
{
    ttcp_frame_begin(f, "web_results_end");
    ttcp_frame_add_u64(f, "count", (uint64_t)count);
    ttcp_frame_end(f);
}

/* The figures the valid bits promise, each within its bound. */
static int read_down(const struct ttcp_message *m, struct ttcp_web_figures *w, char *why,
                     size_t why_len)
{
    uint64_t bps, bytes;
    if (ttcp_proto_get_u64(m, "down_bps", 0, BPS_MAX, &bps, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "down_bytes", 0, BYTES_MAX, &bytes, why, why_len) != 0)
        return -1;
    w->down_valid = 1;
    w->down_bps = (double)bps;
    w->down_bytes = bytes;
    return 0;
}

static int read_up(const struct ttcp_message *m, struct ttcp_web_figures *w, char *why,
                   size_t why_len)
{
    uint64_t bps, bytes, ns;
    if (ttcp_proto_get_u64(m, "up_bps", 0, BPS_MAX, &bps, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "up_bytes", 0, BYTES_MAX, &bytes, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "up_ns", 0, UP_NS_MAX, &ns, why, why_len) != 0)
        return -1;
    w->up_valid = 1;
    w->up_bps = (double)bps;
    w->up_bytes = bytes;
    w->up_ns = (int64_t)ns;
    return 0;
}

static int read_latency(const struct ttcp_message *m, struct ttcp_web_figures *w, char *why,
                        size_t why_len)
{
    uint64_t idle, loaded, jitter, grade;
    if (ttcp_proto_get_u64(m, "idle_us", 0, US_MAX, &idle, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "loaded_us", 0, US_MAX, &loaded, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "jitter_us", 0, US_MAX, &jitter, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "grade", 0, TTCP_GRADE_F, &grade, why, why_len) != 0)
        return -1;
    w->latency_valid = 1;
    w->idle_ms = (double)idle / 1000.0;
    w->loaded_ms = (double)loaded / 1000.0;
    w->jitter_ms = (double)jitter / 1000.0;
    w->grade = (int)grade;
    return 0;
}

int ttcp_wire_read_web_result(const struct ttcp_message *m, struct ttcp_web_record *out,
                              char *why, size_t why_len)
{
    uint64_t seq, age, end, valid;
    memset(out, 0, sizeof *out);
    if (strcmp(ttcp_proto_type(m), "web_result") != 0) {
        snprintf(why, why_len, "expected web_result, got %.32s", ttcp_proto_type(m));
        return -1;
    }
    if (ttcp_proto_get_u64(m, "seq", 1, SEQ_MAX, &seq, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "age_ns", 0, AGE_MAX, &age, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "end", 0, TTCP_WEB_STOPPED, &end, why, why_len) != 0 ||
        ttcp_proto_get_u64(m, "valid", 0, 7, &valid, why, why_len) != 0 ||
        ((valid & TTCP_WEB_VALID_DOWN) && read_down(m, &out->f, why, why_len) != 0) ||
        ((valid & TTCP_WEB_VALID_UP) && read_up(m, &out->f, why, why_len) != 0) ||
        ((valid & TTCP_WEB_VALID_LATENCY) && read_latency(m, &out->f, why, why_len) != 0))
        return -1;
    out->seq = seq;
    out->age_ns = (int64_t)age;
    out->f.end = (int)end;
    return 0;
}

int ttcp_wire_read_web_results_end(const struct ttcp_message *m, int *count, char *why,
                                   size_t why_len)
{
    uint64_t n;
    if (strcmp(ttcp_proto_type(m), "web_results_end") != 0) {
        snprintf(why, why_len, "expected web_results_end, got %.32s", ttcp_proto_type(m));
        return -1;
    }
    if (ttcp_proto_get_u64(m, "count", 0, TTCP_WEB_KEPT, &n, why, why_len) != 0)
        return -1;
    *count = (int)n;
    return 0;
}
