/* ttcp -S: each test's lines as a receiver or transmitter prints them, a
 * line for each connection turned away, until Ctrl+C. --daemon and
 * --pidfile: the pid file is written, and the waiting parent let go, once
 * the server listens; under --inetd every line goes to stderr. */
#include <stdlib.h>

#include "base/version.h"
#include "cli/modes.h"
#include "cli/peers.h"
#include "cli/print.h"
#include "client/client.h"
#include "report/report_json.h"
#include "report/report_server.h"
#include "report/report_web.h"
#include "server/server.h"
#include "web/web.h"
#include "ttcp/platform.h"

/* -S --json: each test's document on one line of stdout (JSON Lines), as
 * it ends, for a log that a collector reads line by line. */
static void print_json_line(const struct ttcp_options *o, const struct ttcp_result *res)
{
    struct ttcp_json j;
    ttcp_json_init(&j);
    ttcp_json_begin(&j, o, ttcp_version());
    ttcp_json_test(&j, o, res);
    ttcp_json_finish(&j, NULL, NULL);
    cli_json_document(o, &j); /* one line: no newline inside, the writer adds none */
    ttcp_json_free(&j);
}

/* The server's own options: how it was started. */
static const struct ttcp_options *server_of(void *ctx)
{
    return ctx;
}

static void on_event(void *ctx, const struct ttcp_options *o, const struct ttcp_event *ev,
                     const struct ttcp_result *res)
{
    struct ttcp_options side;
    if (server_of(ctx)->inetd && !o->inetd) { /* a client's test: its sides' lines too */
        side = *o;
        side.inetd = 1;
        o = &side;
    }
    cli_print_event(o, ev, res);
    cli_stream_interval(o, ev, res, 0);
    if (ev->kind == TTCP_EV_FIGURES && o->json)
        print_json_line(o, res);
}

static void on_failed(void *ctx, const struct ttcp_options *o, const struct ttcp_result *res)
{
    (void)ctx;
    cli_print_failure(o, res);
}

/* Listening: the pid file, then the parent of --daemon let go. A pid file
 * that cannot be written stops the server: a script waits for it. */
static void on_listening(const struct ttcp_options *o)
{
    char native[256];
    int rc;
    if (o->pidfile != NULL && (rc = tt_pidfile_write(o->pidfile)) != 0) {
        fprintf(stderr, "ttcp: --pidfile %s: %s\n", o->pidfile,
                tt_error_text(rc, tt_last_error(), native, sizeof native));
        exit(CLI_EXIT_FAILED);
    }
    if (o->daemon) /* its lines: to --logfile's file, else nowhere */
        tt_daemon_ready(o->logfile != NULL);
}

static void on_notice(void *ctx, enum ttcp_notice what, const struct tt_addr *peer)
{
    const struct ttcp_options *o = server_of(ctx);
    char text[256], addr[80];
    size_t n = ttcp_report_notice(o, what, peer ? tt_addr_text(peer, addr, sizeof addr) : NULL,
                                  text, sizeof text);
    cli_put(o, stderr, text, n);
    if (what == TTCP_NOTICE_LISTENING)
        on_listening(o);
}

static void on_peer_port(void *ctx, const char *tool, uint64_t port, int code, int native)
{
    const struct ttcp_options *o = server_of(ctx);
    char text[512];
    size_t n = ttcp_report_peer_port(tool, port, code, native, text, sizeof text);
    cli_put(o, stderr, text, n);
}

static void on_web_port(void *ctx, uint64_t port)
{
    const struct ttcp_options *o = server_of(ctx);
    char text[160];
    size_t n = ttcp_report_web_port(port, text, sizeof text);
    cli_put(o, stderr, text, n);
}

/* A browser's test: its line, and with --json its document. */
static void on_web_test(void *ctx, const struct ttcp_web_figures *f)
{
    const struct ttcp_options *o = server_of(ctx);
    char text[400];
    size_t n = ttcp_report_web(f, text, sizeof text);
    cli_put(o, o->json || o->inetd ? stderr : stdout, text, n); /* stdout: JSON alone */
    if (o->json) {
        struct ttcp_json j;
        ttcp_json_init(&j);
        ttcp_json_object(&j, NULL);
        ttcp_json_string(&j, "schema", TTCP_JSON_SCHEMA);
        ttcp_json_string(&j, "version", ttcp_version());
        if (o->title != NULL)
            ttcp_json_string(&j, "title", o->title);
        ttcp_json_string(&j, "side", "web");
        ttcp_json_web(&j, f);
        ttcp_json_end(&j);
        cli_json_document(o, &j);
        ttcp_json_free(&j);
    }
}

/* Before the server starts: a pid file that names a running server, and
 * the fork of --daemon. 0, or the exit code. */
static int start(const struct ttcp_options *o)
{
    long holder = 0;
    int rc = o->pidfile != NULL ? tt_pidfile_check(o->pidfile, &holder) : 0;
    if (rc == TT_E_ADDRINUSE) {
        fprintf(stderr, "ttcp: --pidfile %s: a server already runs as pid %ld\n", o->pidfile,
                holder);
        return CLI_EXIT_FAILED;
    }
    if (rc == 0 && o->daemon)
        rc = tt_daemon_start(); /* only the child returns */
    if (rc == TT_E_UNSUPPORTED) {
        fprintf(stderr, "ttcp: %s: not supported on this system (run ttcp -S as a service "
                "instead)\n", o->daemon ? "--daemon" : "--pidfile");
        return CLI_EXIT_USAGE;
    }
    if (rc != 0) {
        char native[256];
        fprintf(stderr, "ttcp: %s: %s\n", o->daemon ? "--daemon" : "--pidfile",
                tt_error_text(rc, tt_last_error(), native, sizeof native));
        return CLI_EXIT_FAILED;
    }
    return 0;
}

int cli_serve(const struct ttcp_options *o)
{
    /* --third-party: the server runs a client's test to a third host as a
     * -C test of its own (docs/DESIGN.md: server/ does not call client/) */
    struct ttcp_server_observer obs = {on_event, on_failed, on_notice, on_peer_port, (void *)o,
                                       ttcp_client_run_until, NULL, 0, NULL, NULL, NULL};
    struct ttcp_failure failure;
    struct ttcp_result res;
    char why[256] = "";
    int rc = start(o);
    if (rc != 0)
        return rc;
    cli_stream_start(o);
    obs.peers = cli_peers(&obs.peer_count); /* the other tools it serves beside its own */
    obs.web = ttcp_web_row(); /* --web's page (web/) */
    obs.web_port = on_web_port;
    obs.web_test = on_web_test;
    rc = ttcp_serve(o, &obs, &failure, why, sizeof why);
    if (o->pidfile != NULL)
        tt_pidfile_remove(o->pidfile);
    if (rc == TT_E_INVAL && why[0] != '\0') {
        fprintf(stderr, "ttcp: %s\n", why);
        return CLI_EXIT_USAGE;
    }
    if (rc != 0) {
        struct ttcp_options shown = *o;
        shown.transmit = 0;
        res.failure = failure;
        cli_print_failure(&shown, &res);
        return CLI_EXIT_FAILED;
    }
    return CLI_EXIT_OK;
}
