/* ttcp -C: the client's own lines as they come, the server's live
 * intervals, then the server's figures and one summary line per stream. */
#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "cli/compression_cli.h"
#include "cli/modes.h"
#include "cli/peers.h"
#include "cli/print.h"
#include "client/client.h"
#include "report/report.h"
#include "report/report_json.h"
#include "report/report_latency.h"
#include "report/report_pmtu.h"
#include "report/report_server.h"
#include "report/report_trace.h"
#include "ttcp/platform.h"

/* --traceroute: the client's own path as ttcp-C:, the server's back as ttcp-S:. */
static void on_trace(void *ctx, int local, const struct ttcp_trace *t, const struct ttcp_hop *h,
                     int ended)
{
    const struct ttcp_options *o = ctx;
    const char *side = local ? "-C" : "-S";
    char text[512], addr[80], native[256];
    size_t n;
    if (h != NULL)
        n = ttcp_report_hop(side, h, text, sizeof text);
    else if (!ended)
        n = ttcp_report_trace_start(side, local ? o->host : tt_addr_text(&t->dest, addr,
                                                                          sizeof addr),
                                    t, text, sizeof text);
    else if (t->failure.code != 0)
        n = (size_t)snprintf(text, sizeof text, "ttcp%s: traceroute: %s\n", side,
                             local ? cli_failure_text(&t->failure, native, sizeof native)
                                   : "the server could not trace");
    else
        n = ttcp_report_trace_end(side, t, text, sizeof text);
    cli_put(o, cli_report_stream(o), text, n < sizeof text ? n : sizeof text - 1);
}

static void on_event(void *ctx, const struct ttcp_options *o, int local,
                     const struct ttcp_event *ev, const struct ttcp_result *res)
{
    (void)ctx;
    if (ev->kind == TTCP_EV_PMTU) { /* the client's own line, as its traceroute's */
        char text[512];
        size_t n = ttcp_report_pmtu("-C", o->host, &res->pmtu, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
        return;
    }
    cli_print_event(o, ev, res);
    cli_stream_interval(o, ev, res, !local);
}

/* The sentence for a failed conversation (empty when there was none). */
static void problem_text(const struct ttcp_options *o, const struct ttcp_client_outcome *out,
                         char *buf, size_t len)
{
    char native[256];
    /* -C host1 host2: a problem of host1's own conversation is with host2 */
    const char *host = out->leg_failed ? o->target_host : o->host;
    buf[0] = '\0';
    switch (out->problem) {
    case TTCP_CLIENT_OK:
        return;
    case TTCP_CLIENT_KEY:
        snprintf(buf, len, "%s", out->why);
        return;
    case TTCP_CLIENT_CONNECT:
    case TTCP_CLIENT_LOST:
        snprintf(buf, len, "%s %s: %s",
                 out->problem == TTCP_CLIENT_CONNECT ? "cannot reach the server at"
                                                     : "lost the server at",
                 host, cli_failure_text(&out->failure, native, sizeof native));
        return;
    case TTCP_CLIENT_SILENT:
        snprintf(buf, len, "%s took the connection but did not answer: is a ttcp -S "
                 "listening there? (a classic receiver, ttcp -r, says nothing)", host);
        return;
    case TTCP_CLIENT_PROTOCOL:
        snprintf(buf, len, "%s does not speak %s's protocol as expected: %s", host,
                 o->far_end != TTCP_FAR_TTCP && cli_peer(o->far_end) ? cli_peer(o->far_end)->name
                                                                    : "ttcp",
                 out->why);
        return;
    case TTCP_CLIENT_REFUSED:
        snprintf(buf, len, "the server at %s refused the test: %s", host, out->why);
        return;
    case TTCP_CLIENT_BUSY:
        snprintf(buf, len, "the server at %s is busy: %s", host, out->why);
        return;
    case TTCP_CLIENT_AUTH:
        snprintf(buf, len, "authentication with %s failed: %s", host, out->why);
        return;
    case TTCP_CLIENT_LOCAL:
        snprintf(buf, len, "%s: %s", out->why, cli_failure_text(&out->failure, native,
                                                                 sizeof native));
        return;
    }
}

/* -C host1 host2: who ran the test, to where, for whom. */
static void print_third(const struct ttcp_options *o, const struct ttcp_client_outcome *out)
{
    char text[600];
    size_t n;
    if (!out->third_ran)
        return;
    n = (size_t)snprintf(text, sizeof text, "ttcp-C: %s ran this test to %s (%s port %llu) for "
                         "%s\n", o->host, o->target_host, out->third.target,
                         (unsigned long long)out->third.target_port, out->third.client);
    cli_put(o, cli_report_stream(o), text, n < sizeof text ? n : sizeof text - 1);
}

static void print_problem(const struct ttcp_options *o, const struct ttcp_client_outcome *out)
{
    char text[600], line[640];
    int n;
    problem_text(o, out, text, sizeof text);
    if (out->leg_failed) /* host1's own test to host2 */
        n = snprintf(line, sizeof line, "ttcp-C: %s's test to %s: %s\n", o->host, o->target_host,
                     text);
    else
        n = snprintf(line, sizeof line, "%s: %s\n",
                     out->problem == TTCP_CLIENT_KEY ? "ttcp" : "ttcp-C", text);
    if (text[0] != '\0' && n > 0)
        cli_put(o, stderr, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

static const char *const names[2] = {"send", "recv"};

/* Both ends' figures of a stream are in. */
static int complete(const struct ttcp_client_stream *st)
{
    return st->used && st->theirs_valid && st->mine.started && st->theirs.started;
}

/* One end's test of a way: with -P, its total and each stream's. */
static void json_way(struct ttcp_json *j, const struct ttcp_client_stream *st, int local,
                     const char *direction)
{
    if (st->n < 2)
        ttcp_json_stream_test(j, local ? &st->local : &st->remote, direction,
                              local ? &st->mine : &st->theirs);
    else
        ttcp_json_test_streams(j, local ? &st->local : &st->remote, direction,
                               local ? &st->mine : &st->theirs,
                               local ? st->part_local : st->part_remote,
                               local ? st->part_mine : st->part_theirs, st->n);
}

/* --json: the client's tests, the server's, the summaries, and what failed
 * (with --compression, to the pair's document: took). */
static void print_json(const struct ttcp_options *o, const struct ttcp_client_outcome *out,
                       struct cli_took *took)
{
    struct ttcp_json j;
    struct ttcp_failure f = {0, 0, TTCP_OP_NONE, 0};
    char text[600] = "";
    int i;
    ttcp_json_init(&j);
    ttcp_json_begin(&j, o, ttcp_version());
    for (i = 0; i < 2; i++)
        if (out->stream[i].used && out->stream[i].mine.started)
            json_way(&j, &out->stream[i], 1, names[i]);
    ttcp_json_next_array(&j, "server_tests");
    for (i = 0; i < 2; i++)
        if (out->stream[i].used && out->stream[i].theirs_valid && out->stream[i].theirs.started)
            json_way(&j, &out->stream[i], 0, names[i]);
    ttcp_json_next_array(&j, "summary");
    for (i = 0; i < 2; i++)
        if (complete(&out->stream[i]))
            ttcp_json_summary(&j, o, names[i], i == 0 ? &out->stream[i].mine : &out->stream[i].theirs,
                              i == 0 ? &out->stream[i].theirs : &out->stream[i].mine);
    if (o->latency && out->latency.source != TTCP_LATENCY_NONE) {
        ttcp_json_end(&j); /* summary: the probes are the whole test's */
        ttcp_json_latency(&j, &out->latency, ttcp_latency_bin_width(o));
    }
    for (i = 0; i < 2 && f.code == 0; i++)
        if (out->stream[i].used && out->stream[i].rc != 0) {
            f = out->stream[i].mine.failure;
            cli_failure_text(&f, text, sizeof text);
        }
    if (f.code == 0 && out->problem != TTCP_CLIENT_OK) {
        problem_text(o, out, text, sizeof text);
        f = out->failure;
        if (f.code == 0)
            f.code = TT_E_IO; /* the server said no, or broke the protocol */
    }
    ttcp_json_finish(&j, f.code ? &f : NULL, f.code ? text : NULL);
    if (took != NULL) { /* the pair's to print and free */
        took->doc = j;
        took->failure = f;
        snprintf(took->message, sizeof took->message, "%s", text);
        return;
    }
    cli_json_document(o, &j);
    ttcp_json_free(&j);
}

static void print_stats(const struct ttcp_options *o, const struct ttcp_options *side,
                        const struct ttcp_result *r)
{
    char text[4096];
    size_t n = ttcp_report_stats(side, r, text, sizeof text);
    cli_put(o, cli_report_stream(o), text, n);
}

/* The server's figures (with -P, each stream's, then both ends' totals),
 * then the summary, way by way. */
static void print_far_end(const struct ttcp_options *o, const struct ttcp_client_outcome *out)
{
    char text[4096];
    int i, k;
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        if (!st->used)
            continue;
        for (k = 0; out->third_ran && k < st->n; k++) /* host1's, which no run here printed */
            if (st->part_mine[k].started)
                print_stats(o, &st->part_local[k], &st->part_mine[k]);
        for (k = 0; k < st->n; k++)
            if (st->part_theirs_valid[k] && st->part_theirs[k].started)
                print_stats(o, &st->part_remote[k], &st->part_theirs[k]);
        for (k = 0; k < st->n; k++) /* --dont-fragment at the server's end: why it sent none */
            if (st->part_theirs_valid[k] && st->part_theirs[k].failure.op == TTCP_OP_DONTFRAG)
                cli_print_failure(&st->part_remote[k], &st->part_theirs[k]);
        if (st->theirs_unknown && st->mine.started) {
            int n = snprintf(text, sizeof text, "ttcp-C: the far end's figures are not known: "
                             "%s's server sends none back of this way (see its own output)\n",
                             cli_peer(o->far_end) ? cli_peer(o->far_end)->name : "the tool");
            cli_put(o, stderr, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
        }
        if (st->n > 1 && st->mine.started)
            print_stats(o, &st->local, &st->mine);
        if (st->n > 1 && st->theirs.started)
            print_stats(o, &st->remote, &st->theirs);
    }
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        const struct ttcp_result *tx = i == 0 ? &st->mine : &st->theirs;
        const struct ttcp_result *rx = i == 0 ? &st->theirs : &st->mine;
        size_t n;
        if (!complete(st))
            continue;
        n = ttcp_report_summary(o, names[i], tx, rx, text, sizeof text);
        cli_put(o, cli_report_stream(o), text, n);
    }
    if (o->latency && out->latency.source != TTCP_LATENCY_NONE)
        cli_put(o, cli_report_stream(o), text,
                ttcp_report_latency("-C", &out->latency, text, sizeof text));
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
        if (st->used && (st->rc != 0 || (!st->theirs_valid && !st->theirs_unknown) ||
                         st->theirs.failure.code != 0))
            return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}

/* --plot: each way's ends, the sender's first (with -P, the streams too). */
static int plot_end(struct cli_plot *pl, const struct ttcp_options *o,
                    const struct ttcp_client_outcome *out, int code)
{
    struct ttcp_plot p;
    int i;
    ttcp_plot_init(&p, o, pl->date[0] ? pl->date : NULL);
    for (i = 0; i < 2; i++) {
        const struct ttcp_client_stream *st = &out->stream[i];
        int n = st->n > 1 ? st->n : 0;
        if (!st->used)
            continue;
        if (st->local.transmit)
            ttcp_plot_add(&p, &st->local, &st->mine, st->part_mine, n, 0);
        ttcp_plot_add(&p, &st->remote, &st->theirs, st->part_theirs, n, 1);
        if (!st->local.transmit)
            ttcp_plot_add(&p, &st->local, &st->mine, st->part_mine, n, 0);
    }
    ttcp_plot_latency(&p, &out->latency); /* --latency's probes: panel 3 */
    if (cli_plot_write(pl, o, &p) != 0 && code == CLI_EXIT_OK)
        return CLI_EXIT_FAILED;
    return code;
}

/* An end's CPU time over its test's real time, in per cent. */
static double cpu_share(const struct ttcp_result *r)
{
    return 100.0 * ttcp_cpu_seconds(r) / ttcp_real_seconds(r);
}

/* --compression: the receiving end's figure of the way the test went, and
 * whether the server did not take it at all: refused, gone at once, or
 * busy (a -S -1 is, while it ends after its one test). */
static void keep_figure(struct cli_took *took, const struct ttcp_options *o,
                        const struct ttcp_client_outcome *out, int code)
{
    int way = o->transmit ? 0 : 1; /* (--compression goes one way: no --bidir) */
    const struct ttcp_client_stream *st = &out->stream[way];
    const struct ttcp_result *rx = way == 0 ? &st->theirs : &st->mine;
    took->figure.complete = code == CLI_EXIT_OK && complete(st) && !st->mine.interrupted &&
                            !st->theirs.interrupted; /* (Ctrl+C: a rate not to compare) */
    took->figure.bytes = rx->bytes;
    took->figure.real_ns = rx->real_ns;
    took->figure.cpu_percent = cpu_share(&st->mine); /* the busier end's */
    if (st->theirs_valid && cpu_share(&st->theirs) > took->figure.cpu_percent)
        took->figure.cpu_percent = cpu_share(&st->theirs);
    took->refused = (out->problem == TTCP_CLIENT_CONNECT &&
                     out->failure.code == TT_E_CONNREFUSED) ||
                    out->problem == TTCP_CLIENT_SILENT || out->problem == TTCP_CLIENT_BUSY ||
                    (out->problem == TTCP_CLIENT_LOST && !out->stream[way].mine.started);
}

static int client_test(const struct ttcp_options *o, struct cli_plot *pl, struct cli_took *took)
{
    struct ttcp_client_observer obs = {on_event, (void *)o, on_trace};
    struct ttcp_client_outcome out;
    int i, k, code;
    cli_stream_start(o);
    if (o->far_end != TTCP_FAR_TTCP) /* another tool's server: its protocol's row */
        cli_peer(o->far_end)->test(o, &obs, &out, 0);
    else
        ttcp_client_run(o, &obs, &out);
    for (i = 0; i < 2; i++) /* --pmtu: in the client's figures of each way */
        out.stream[i].mine.pmtu = out.pmtu;
    for (i = 0; i < 2; i++)
        for (k = 0; out.stream[i].used && k < out.stream[i].n; k++)
            if (out.stream[i].part_rc[k] != 0)
                cli_print_failure(&out.stream[i].part_local[k], &out.stream[i].part_mine[k]);
    print_far_end(o, &out);
    print_third(o, &out);
    print_problem(o, &out);
    if (o->json)
        print_json(o, &out, took);
    code = plot_end(pl, o, &out, exit_code(&out));
    if (took != NULL)
        keep_figure(took, o, &out, code);
    ttcp_client_release(&out);
    return code;
}

int cli_client(const struct ttcp_options *o, struct cli_plot *pl)
{
    return client_test(o, pl, NULL);
}

int cli_client_took(const struct ttcp_options *o, struct cli_took *took)
{
    struct cli_plot none; /* --compression: no --plot */
    memset(&none, 0, sizeof none);
    return client_test(o, &none, took);
}
