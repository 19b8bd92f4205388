/* The report's text on its way out. */
#include "cli/print.h"

#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "report/report_json.h"
#include "report/report_stream.h"

#include "report/report.h"
#include "report/report_extra.h"
#include "report/report_pmtu.h"
#include "ttcp/platform.h"

FILE *cli_report_stream(const struct ttcp_options *o)
{
    /* --inetd: stdout was the peer's socket; every line goes to stderr */
    return ((!o->transmit && !o->sinkmode) || o->json || o->inetd) ? stderr : stdout;
}

/* --timestamps and --title: what goes before each line of text, as
 * iperf3 puts them (the time, then "title:  "). */
static size_t line_prefix(const struct ttcp_options *o, char *buf, size_t len)
{
    size_t n = 0;
    int k;
    buf[0] = '\0';
    if (o == NULL)
        return 0;
    if (o->timestamps && (n = tt_wall_text(buf, len)) != 0 && n + 1 < len) {
        buf[n++] = ' ';
        buf[n] = '\0';
    }
    if (o->title != NULL && (k = snprintf(buf + n, len - n, "%s:  ", o->title)) > 0)
        n = (size_t)k < len - n ? n + (size_t)k : len - 1;
    return n;
}

/* text with the prefix before each of its lines, in memory from malloc;
 * NULL when there is no prefix or no memory (then text goes as it is). */
static char *prefixed(const struct ttcp_options *o, const char *text, size_t len, size_t *out)
{
    char prefix[TTCP_TITLE_MAX + 64], *buf, *w;
    size_t n = line_prefix(o, prefix, sizeof prefix), lines = 1, i;
    if (n == 0 || len == 0)
        return NULL;
    for (i = 0; i + 1 < len; i++)
        lines += text[i] == '\n';
    if ((buf = malloc(len + lines * n)) == NULL)
        return NULL;
    w = buf;
    for (i = 0; i < len; i++) {
        if (i == 0 || text[i - 1] == '\n') {
            memcpy(w, prefix, n);
            w += n;
        }
        *w++ = text[i];
    }
    *out = (size_t)(w - buf);
    return buf;
}

/* stdio locks a stream for each call: one piece stays whole between
 * threads. Windows buffers stderr in a file: flush at once. */
void cli_put(const struct ttcp_options *o, FILE *to, const char *text, size_t len)
{
    size_t n = 0;
    char *with = prefixed(o, text, len, &n);
    fwrite(with ? with : text, 1, with ? n : len, to);
    fflush(to);
    free(with);
}

void cli_json_line(const struct ttcp_options *o, const struct ttcp_json *j)
{
    FILE *to = o != NULL && o->inetd ? stderr : stdout; /* under inetd stdout is the peer */
    /* one call: lines from threads stay whole */
    fprintf(to, "%s\n", j->failed ? "{\"schema\":\"" TTCP_JSON_SCHEMA "\",\"error\":"
                                        "{\"message\":\"out of memory\"}}" : j->buf);
    fflush(to);
}

void cli_stream_interval(const struct ttcp_options *o, const struct ttcp_event *ev,
                         const struct ttcp_result *res, int far)
{
    struct ttcp_json j;
    if (!o->json_stream || ev->kind != TTCP_EV_INTERVAL || o->quiet_intervals)
        return;
    ttcp_json_init(&j);
    ttcp_json_event_interval(&j, o, ev->interval, res, far);
    cli_json_line(o, &j);
    ttcp_json_free(&j);
}

void cli_stream_start(const struct ttcp_options *o)
{
    struct ttcp_json j;
    if (!o->json_stream)
        return;
    ttcp_json_init(&j);
    ttcp_json_event_start(&j, o, ttcp_version());
    cli_json_line(o, &j);
    ttcp_json_free(&j);
}

void cli_json_document(const struct ttcp_options *o, const struct ttcp_json *doc)
{
    struct ttcp_json j;
    if (!o->json_stream || doc->failed) {
        cli_json_line(o, doc);
        return;
    }
    ttcp_json_init(&j);
    ttcp_json_event_end(&j, doc->buf);
    cli_json_line(o, &j);
    ttcp_json_free(&j);
}

const char *cli_failure_text(const struct ttcp_failure *f, char *buf, size_t len)
{
    const char *why = tt_error_text(f->code, f->native, buf, len);
    return why ? why : ttcp_strerror(f->code);
}

void cli_print_failure(const struct ttcp_options *o, const struct ttcp_result *res)
{
    char text[1024], native[256];
    size_t n = ttcp_report_failure(o, &res->failure,
                                   cli_failure_text(&res->failure, native, sizeof native),
                                   text, sizeof text);
    fflush(stdout);
    cli_put(o, stderr, text, n);
}

void cli_print_event(const struct ttcp_options *o, const struct ttcp_event *ev,
                     const struct ttcp_result *res)
{
    char text[4096]; /* a host name can be 253 bytes */
    size_t n;

    switch (ev->kind) {
    case TTCP_EV_READY:
        n = ttcp_report_header(o, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
        return;
    case TTCP_EV_INTERVAL:
        if (o->quiet_intervals)
            return; /* taken for --plot alone */
        n = ttcp_report_interval(o, ev->interval, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
        return;
    case TTCP_EV_FIGURES:
        n = ttcp_report_stats(o, res, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
        return;
    case TTCP_EV_FAILED:
        cli_print_failure(o, res);
        return;
    case TTCP_EV_PMTU:
        n = ttcp_report_pmtu(ttcp_options_side(o), o->host, &res->pmtu, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
        return;
    default:
        n = ttcp_report_event(o, ev, res, text, sizeof text);
        fflush(stdout); /* keep the header ahead of progress lines */
        cli_put(o, stderr, text, n);
    }
}
