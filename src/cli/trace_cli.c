/* --traceroute on the command line: the path's lines as each hop is known. */
#include <string.h>

#include "cli/modes.h"
#include "cli/print.h"
#include "engine/trace.h"
#include "report/report_trace.h"

static void print_hop(void *ctx, const struct ttcp_trace *t, const struct ttcp_hop *h)
{
    const struct ttcp_options *o = ctx;
    char text[512];
    size_t n = h == NULL ? ttcp_report_trace_start(ttcp_options_side(o), o->host, t, text,
                                                   sizeof text)
                         : ttcp_report_hop(ttcp_options_side(o), h, text, sizeof text);
    cli_put(o, cli_report_stream(o), text, n);
}

int cli_trace(const struct ttcp_options *o)
{
    struct ttcp_trace t;
    char text[512];
    size_t n;
    if (ttcp_trace(o, print_hop, (void *)o, &t) != 0) {
        struct ttcp_result res; /* the failure, told as a test's is */
        memset(&res, 0, sizeof res);
        res.failure = t.failure;
        cli_print_failure(o, &res);
        return CLI_EXIT_FAILED;
    }
    n = ttcp_report_trace_end(ttcp_options_side(o), &t, text, sizeof text);
    cli_put(o, cli_report_stream(o), text, n);
    return t.interrupted ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}
