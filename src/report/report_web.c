/* -S --web: a browser's test's line and JSON object at the server. */
#include "report/report_web.h"

#include <stdio.h>

#include "base/text.h"
#include "report/report_latency.h"
#include "ttcp/platform.h"

static const char *const ends[] = {
    [TTCP_WEB_DONE] = "done",
    [TTCP_WEB_ABANDONED] = "abandoned",
    [TTCP_WEB_CUT] = "cut",
    [TTCP_WEB_STOPPED] = "stopped",
};

static const char *end_words(int end)
{
    switch (end) {
    case TTCP_WEB_ABANDONED: return "ended: the page went away";
    case TTCP_WEB_CUT: return "ended: past its time (--max-time)";
    case TTCP_WEB_STOPPED: return "ended: the server stopped";
    default: return "done";
    }
}

/* "38.6 kbit/s": three figures, as the page shows them. */
static const char *bits(double bps, char *buf, size_t len)
{
    static const char *const units[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
    int u = 0;
    while (bps >= 1000.0 && u < 4)
        bps /= 1000.0, u++;
    snprintf(buf, len, "%.*f %s", bps < 10.0 ? 2 : bps < 100.0 ? 1 : 0, bps, units[u]);
    return buf;
}

size_t ttcp_report_web(const struct ttcp_web_figures *f, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    char addr[80], rate[64];
    ttcp_text_add(&t, "ttcp-S: web %s: ", tt_addr_text(&f->peer, addr, sizeof addr));
    if (f->end != TTCP_WEB_DONE)
        ttcp_text_add(&t, "%s after %.1f s: ", end_words(f->end), (double)f->ran_ns / 1e9);
    ttcp_text_add(&t, "down %s, ", f->down_valid ? bits(f->down_bps, rate, sizeof rate) : "-");
    ttcp_text_add(&t, "up %s", f->up_valid ? bits(f->up_bps, rate, sizeof rate)
                                           : "-");
    if (f->latency_valid)
        ttcp_text_add(&t, ", idle %.*f ms, loaded %.*f ms, grade %s", f->idle_ms < 10.0 ? 1 : 0,
                      f->idle_ms, f->loaded_ms < 10.0 ? 1 : 0, f->loaded_ms,
                      ttcp_latency_grade_text((enum ttcp_latency_grade)f->grade));
    ttcp_text_add(&t, "\n");
    return t.used;
}

size_t ttcp_report_web_port(uint64_t port, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    ttcp_text_add(&t, "ttcp-S: serving browsers on port %llu (a page at /)\n",
                  (unsigned long long)port);
    return t.used;
}

void ttcp_json_web(struct ttcp_json *j, const struct ttcp_web_figures *f)
{
    char addr[80];
    ttcp_json_object(j, "web");
    ttcp_json_string(j, "peer", tt_addr_text(&f->peer, addr, sizeof addr));
    ttcp_json_string(j, "end", ends[f->end >= 0 && f->end <= TTCP_WEB_STOPPED ? f->end : 0]);
    ttcp_json_double(j, "seconds", (double)f->ran_ns / 1e9);
    if (f->down_valid) {
        ttcp_json_double(j, "download_bps", f->down_bps);
        ttcp_json_u64(j, "download_bytes", f->down_bytes);
    } else {
        ttcp_json_null(j, "download_bps");
        ttcp_json_null(j, "download_bytes");
    }
    ttcp_json_u64(j, "download_sent", f->down_sent);
    if (f->up_valid)
        ttcp_json_double(j, "upload_bps", f->up_bps);
    else
        ttcp_json_null(j, "upload_bps");
    ttcp_json_u64(j, "upload_bytes", f->up_bytes);
    ttcp_json_double(j, "upload_seconds", (double)f->up_ns / 1e9);
    if (f->latency_valid) {
        ttcp_json_double(j, "idle_ms", f->idle_ms);
        ttcp_json_double(j, "loaded_ms", f->loaded_ms);
        ttcp_json_double(j, "jitter_ms", f->jitter_ms);
        ttcp_json_string(j, "grade", ttcp_latency_grade_text((enum ttcp_latency_grade)f->grade));
    } else {
        ttcp_json_null(j, "idle_ms");
        ttcp_json_null(j, "loaded_ms");
        ttcp_json_null(j, "jitter_ms");
        ttcp_json_null(j, "grade");
    }
    ttcp_json_end(j);
}
