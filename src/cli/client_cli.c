/* ttcp -C: the client's own lines as they come, the server's live
 * intervals, then the server's figures and one summary line per stream. */
#include <stdio.h>

#include "base/version.h"
#include "cli/modes.h"
#include "cli/print.h"
#include "client/client.h"
#include "report/report.h"
#include "report/report_json.h"
#include "report/report_server.h"
#include "ttcp/platform.h"

static void on_event(void *ctx, const struct ttcp_options *o, int local,
                     const struct ttcp_event *ev, const struct ttcp_result *res)
{
    (void)ctx;
    (void)local;
    cli_print_event(o, ev, res);
}

static void print_problem(const struct ttcp_options *o, const struct ttcp_client_outcome *out)
{
    char native[256];
    const char *host = o->host;
    switch (out->problem) {
    case TTCP_CLIENT_OK:
        return;
    case TTCP_CLIENT_KEY:
        fprintf(stderr, "ttcp: %s\n", out->why);
        return;
    case TTCP_CLIENT_CONNECT:
    case TTCP_CLIENT_LOST:
        fprintf(stderr, "ttcp-C: %s %s: %s\n",
                out->problem == TTCP_CLIENT_CONNECT ? "cannot reach the server at"
                                                     : "lost the server at",
                host, cli_failure_text(&out->failure, native, sizeof native));
        return;
    case TTCP_CLIENT_PROTOCOL:
        fprintf(stderr, "ttcp-C: %s does not speak ttcp's protocol as expected: %s\n", host,
                out->why);
        return;
    case TTCP_CLIENT_REFUSED:
        fprintf(stderr, "ttcp-C: the server at %s refused the test: %s\n", host, out->why);
        return;
    case TTCP_CLIENT_BUSY:
        fprintf(stderr, "ttcp-C: the server at %s is busy: %s\n", host, out->why);
        return;
    case TTCP_CLIENT_AUTH:
        fprintf(stderr, "ttcp-C: authentication with %s failed: %s\n", host, out->why);
        return;
    }
}

/* The server's figures, then the summary, stream by stream. */
static void print_far_end(const struct ttcp_options *o, const struct ttcp_client_outcome *out)
{
    static const char *const names[2] = {"send", "recv"};
    char text[4096];
    int i;
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        size_t n;
        if (!st->used || !st->theirs_valid || !st->theirs.started)
            continue;
        n = ttcp_report_stats(&st->remote, &st->theirs, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
    }
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        const struct ttcp_result *tx = i == 0 ? &st->mine : &st->theirs;
        const struct ttcp_result *rx = i == 0 ? &st->theirs : &st->mine;
        size_t n;
        if (!st->used || !st->theirs_valid || !st->mine.started || !st->theirs.started)
            continue;
        n = ttcp_report_summary(o, names[i], tx, rx, text, sizeof text);
        cli_put(cli_report_stream(o), text, n);
    }
}

static int exit_code(const struct ttcp_client_outcome *out)
{
    int i;
    if (out->problem == TTCP_CLIENT_KEY)
        return CLI_EXIT_USAGE; /* the key file is bad input, as a bad option is */
    if (out->problem != TTCP_CLIENT_OK)
        return CLI_EXIT_FAILED;
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        if (st->used && (st->rc != 0 || !st->theirs_valid || st->theirs.failure.code != 0))
            return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

int cli_client(const struct ttcp_options *o)
{
    struct ttcp_client_observer obs = {on_event, NULL};
    struct ttcp_client_outcome out;
    int i, code;
    ttcp_client_run(o, &obs, &out);
    for (i = 0; i < 2; i++)
        if (out.stream[i].used && out.stream[i].rc != 0)
            cli_print_failure(&out.stream[i].local, &out.stream[i].mine);
    print_far_end(o, &out);
    print_problem(o, &out);
    code = exit_code(&out);
    ttcp_client_release(&out);
    return code;
}
