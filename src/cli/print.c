/* The report's text on its way out. */
#include "cli/print.h"

#include "report/report.h"
#include "report/report_extra.h"
#include "report/report_pmtu.h"
#include "ttcp/platform.h"

FILE *cli_report_stream(const struct ttcp_options *o)
{
    return ((!o->transmit && !o->sinkmode) || o->json) ? stderr : stdout;
}

/* stdio locks a stream for each call: one piece stays whole between
 * threads. Windows buffers stderr in a file: flush at once. */
void cli_put(FILE *to, const char *text, size_t len)
{
    fwrite(text, 1, len, to);
    fflush(to);
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
    cli_put(stderr, text, n);
}

void cli_print_event(const struct ttcp_options *o, const struct ttcp_event *ev,
                     const struct ttcp_result *res)
{
    char text[4096]; /* a host name can be 253 bytes */
    size_t n;

    switch (ev->kind) {
    case TTCP_EV_READY:
        n = ttcp_report_header(o, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
        return;
    case TTCP_EV_INTERVAL:
        if (o->quiet_intervals)
            return; /* taken for --plot alone */
        n = ttcp_report_interval(o, ev->interval, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
        return;
    case TTCP_EV_FIGURES:
        n = ttcp_report_stats(o, res, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
        return;
    case TTCP_EV_FAILED:
        cli_print_failure(o, res);
        return;
    case TTCP_EV_PMTU:
        n = ttcp_report_pmtu(ttcp_options_side(o), o->host, &res->pmtu, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
        return;
    default:
        n = ttcp_report_event(o, ev, res, text, sizeof text);
        fflush(stdout); /* keep the header ahead of progress lines */
        cli_put(stderr, text, n);
    }
}
