/* argv (or the dialog) -> options -> run -> print -> exit code; nothing else. */
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "base/version.h"
#include "cli/compression_cli.h"
#include "cli/dialog.h"
#include "cli/modes.h"
#include "cli/peers.h"
#include "cli/plot_cli.h"
#include "cli/print.h"
#include "config/options.h"
#include "engine/parallel.h"
#include "engine/run.h"
#include "remote/auth.h"
#include "report/report_json.h"
#include "ttcp/platform.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* What the printer needs while the core runs. */
struct printer {
    const struct ttcp_options *opts;
    struct ttcp_json json; /* --json: the document, test by test */
    const struct ttcp_parallel *parallel; /* -P: the streams, for the JSON */
};

/* Everything the core reports while it runs becomes text here; a stream of
 * -P has options of its own (its tag in every line). */
static void print_event(void *ctx, const struct ttcp_event *ev, const struct ttcp_result *res)
{
    struct printer *p = ctx;
    const struct ttcp_options *o = ev->opts != NULL ? ev->opts : p->opts;
    cli_print_event(o, ev, res);
    cli_stream_interval(o, ev, res, 0);
    if (ev->kind != TTCP_EV_FIGURES || !p->opts->json || o->stream_number != 0)
        return;
    if (p->parallel != NULL)
        ttcp_json_test_streams(&p->json, o, NULL, res, p->parallel->opts,
                               p->parallel->results, p->parallel->n);
    else
        ttcp_json_test(&p->json, o, res);
}

/* The name the program was started by, for the usage text: "ttcpw" for
 * ttcpw.exe, "ttcp" when it cannot be told. */
static void program_name(const char *argv0, char *buf, size_t len)
{
    const char *base = argv0 ? argv0 : "ttcp", *p;
    size_t n;
    for (p = base; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    n = strlen(base);
    if (n > 4 && (strcmp(base + n - 4, ".exe") == 0 || strcmp(base + n - 4, ".EXE") == 0))
        n -= 4;
    if (n == 0)
        snprintf(buf, len, "ttcp");
    else
        snprintf(buf, len, "%.*s", (int)n, base);
    ttcp_text_printable(buf);
}

static int usage(const char *argv0, FILE *to, int code)
{
    char text[8192], name[64];
    size_t n;
    program_name(argv0, name, sizeof name);
    n = ttcp_usage(name, text, sizeof text);
    cli_put(NULL, to, text, n < sizeof text ? n : sizeof text - 1);
    return code;
}

static int version(void)
{
    char platform[128];
    printf("ttcp %s (%s, cJSON %s)\n", ttcp_version(), tt_platform_name(platform, sizeof platform),
           ttcp_cjson_version());
    return EXIT_OK;
}

/* --json: the document goes to stdout whole, at the end, failed or not
 * (with --compression, to the pair's document: took). */
static void print_json(struct printer *p, const struct ttcp_result *res, int rc,
                       struct cli_took *took)
{
    char native[256];
    ttcp_json_finish(&p->json, rc ? &res->failure : NULL,
                     rc ? cli_failure_text(&res->failure, native, sizeof native) : NULL);
    if (took != NULL) {
        took->doc = p->json; /* the pair's to print and free */
        if (rc != 0) {
            took->failure = res->failure;
            cli_failure_text(&res->failure, took->message, sizeof took->message);
        }
        return;
    }
    cli_json_document(p->opts, &p->json);
    ttcp_json_free(&p->json);
}

/* --plot: the test as it ended; a plot that cannot be written fails a
 * test that did not. */
static int plot_end(struct cli_plot *pl, const struct ttcp_options *o,
                    const struct ttcp_result *res, const struct ttcp_parallel *par, int code)
{
    struct ttcp_plot p;
    ttcp_plot_init(&p, o, pl->date[0] ? pl->date : NULL);
    if (par != NULL)
        ttcp_plot_add(&p, o, &par->total, par->results, par->n, 0);
    else
        ttcp_plot_add(&p, o, res, NULL, 0, 0);
    ttcp_plot_latency(&p, par != NULL ? &par->total.latency : &res->latency); /* --latency */
    if (cli_plot_write(pl, o, &p) != 0 && code == EXIT_OK)
        return EXIT_FAILED;
    return code;
}

/* --compression: what the test left for the pair (the transmitter's figure
 * waits for delivery). A receiver without -c refuses the second test, or,
 * when the connection reaches its listener before it exits, resets it. */
static void keep_figure(struct cli_took *took, const struct ttcp_result *res, int rc)
{
    int code = res->failure.code;
    took->figure.complete = rc == 0 && res->started && !res->interrupted;
    took->figure.bytes = res->bytes;
    took->figure.real_ns = res->real_ns;
    took->figure.cpu_percent = 100.0 * ttcp_cpu_seconds(res) / ttcp_real_seconds(res);
    took->refused = code == TT_E_CONNREFUSED || code == TT_E_CONNRESET || code == TT_E_PIPE;
}

static int run(const struct ttcp_options *o, struct cli_plot *pl, struct cli_took *took)
{
    struct printer p;
    struct ttcp_observer obs = {print_event, &p, NULL, NULL};
    struct ttcp_result res;
    int rc, code;

    p.opts = o;
    p.parallel = NULL;
    ttcp_json_init(&p.json);
    if (o->json)
        ttcp_json_begin(&p.json, o, ttcp_version());
    cli_stream_start(o);
    rc = ttcp_run(o, &obs, &res);
    if (rc != 0)
        cli_print_failure(o, &res);
    if (o->json)
        print_json(&p, &res, rc, took);
    if (took != NULL)
        keep_figure(took, &res, rc);
    code = plot_end(pl, o, &res, NULL, rc == 0 ? EXIT_OK : EXIT_FAILED);
    ttcp_result_release(&res);
    return code;
}

/* --compression: one test of its pair (no --plot: it draws one test). */
static int run_took(const struct ttcp_options *o, struct cli_took *took)
{
    struct cli_plot none;
    memset(&none, 0, sizeof none);
    return run(o, &none, took);
}

/* -P: the streams side by side; each failed one is told with its number
 * (after the total: the others' figures come first). */
static int run_parallel(const struct ttcp_options *o, struct cli_plot *pl)
{
    struct printer p;
    struct ttcp_observer obs = {print_event, &p, NULL, NULL};
    struct ttcp_parallel par;
    int rc, i, code;

    p.opts = o;
    p.parallel = &par;
    ttcp_json_init(&p.json);
    if (o->json)
        ttcp_json_begin(&p.json, o, ttcp_version());
    cli_stream_start(o);
    rc = ttcp_run_parallel(o, &obs, &par);
    for (i = 0; i < par.n; i++)
        if (par.rc[i] != 0)
            cli_print_failure(&par.opts[i], &par.results[i]);
    if (par.n == 0)
        cli_print_failure(o, &par.total);
    if (o->json)
        print_json(&p, &par.total, rc, NULL);
    code = plot_end(pl, o, NULL, &par, rc == 0 ? EXIT_OK : EXIT_FAILED);
    ttcp_parallel_release(&par);
    return code;
}

/* A classic side: the path first when asked (--traceroute; alone with a
 * host, only the path; --pmtu alone, only the path MTU: with a test, the
 * test finds it first), then the test. */
static int run_classic(const struct ttcp_options *o, struct cli_plot *pl)
{
    if (o->traceroute) {
        int code = cli_trace(o);
        struct ttcp_result none;
        memset(&none, 0, sizeof none); /* a trace that failed: no test to draw */
        if (code != EXIT_OK || (!o->side_given && !o->pmtu))
            return plot_end(pl, o, &none, NULL, code);
    }
    if (o->pmtu && !o->side_given)
        return cli_pmtu(o);
    if (o->compression)
        return cli_compression(o, run_took);
    return o->streams > 1 ? run_parallel(o, pl) : run(o, pl, NULL);
}

/* The dialog's input: stdin, one byte at a time, so that what follows the
 * answers (a transmitter's data without -s) stays unread. */
static int read_answer(void *ctx, char *buf, size_t len)
{
    const int *echo = ctx;
    size_t n = 0;
    char c;
    int64_t got = 0;
    while (!tt_interrupted() && (got = tt_stdin_read(&c, 1)) == 1 && c != '\n')
        if (n + 1 < len && c != '\r')
            buf[n++] = c;
    buf[n] = '\0';
    if ((got != 1 && n == 0) || tt_interrupted())
        return -1; /* end of input, or Ctrl+C: the dialog ends at once */
    if (*echo) /* piped answers: show them, so the transcript reads as on IOS */
        fprintf(stderr, "%s\n", buf);
    return 0;
}

static void write_prompt(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stderr);
    fflush(stderr);
}

/* A console window opened just for ttcp closes when it ends: keep the
 * figures on screen until they have been read, also after a Ctrl+C ended
 * the test (a read then waits as ever; a second Ctrl+C closes it). */
static void wait_for_enter(void)
{
    char c;
    fputs("\nPress Enter to close.\n", stderr);
    fflush(stderr);
    while (tt_stdin_read(&c, 1) == 1 && c != '\n')
        continue;
}

/* -I, or no arguments on a console: IOS's questions, then the same
 * validation as a command line gets. */
static int dialog(struct ttcp_options *o, char *host, size_t host_len)
{
    int echo = !tt_stdin_is_console();
    struct ttcp_dialog_io io = {read_answer, write_prompt, &echo};
    char why[256];
    if (ttcp_dialog(o, &io, ttcp_system_rcvwnd(), host, host_len) != 0) {
        fprintf(stderr, "\nttcp: %s: no test was run\n",
                tt_interrupted() ? "interrupted" : "end of input");
        return -1;
    }
    fputs("\n", stderr);
    if (ttcp_options_validate(o, why, sizeof why) != 0) {
        fprintf(stderr, "ttcp: %s\n", why);
        return -1;
    }
    return 0;
}

/* --check: the key file as -S or -C would read it (the --plot file is not
 * made: a check writes nothing). */
static int check_files(const struct ttcp_options *o)
{
    struct ttcp_key key;
    char why[256];
    int rc = 0;
    if (o->key_file != NULL) {
        rc = ttcp_key_load(o->key_file, &key, why, sizeof why);
        ttcp_key_wipe(&key);
    }
    if (rc != 0) {
        fprintf(stderr, "ttcp: %s\n", why);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* --logfile: from here on what ttcp prints goes to the end of the file;
 * stdout stays where it was when it carries the data (-r without -s). */
static int open_logfile(const struct ttcp_options *o)
{
    char native[256];
    struct ttcp_failure f = {0, 0, TTCP_OP_NONE, 0};
    if (o->logfile == NULL)
        return 0;
    f.code = tt_output_append(o->logfile, o->transmit || o->sinkmode);
    if (f.code == 0)
        return 0;
    f.native = tt_last_error();
    fprintf(stderr, "ttcp: --logfile %s: %s\n", o->logfile,
            cli_failure_text(&f, native, sizeof native));
    return -1;
}

/* -C --iperf3 and the like: the options the far end's protocol carries
 * (said in one line when one does not). */
static int far_end_takes(const struct ttcp_options *o)
{
    char why[256];
    if (cli_peer_check(o, why, sizeof why) == 0)
        return 1;
    fprintf(stderr, "ttcp: %s\n", why);
    return 0;
}

int main(int argc, char **argv)
{
    static char *dialog_argv[] = {"ttcp", "-I", NULL};
    const char *argv0 = argc > 0 ? argv[0] : NULL;
    struct ttcp_options opts;
    struct cli_plot plot;
    char why[256], host[256];
    int code, own_window = 0;

    /* No arguments: on a console, ask (opened from Explorer, a usage
     * screen would flash and vanish); elsewhere, the usage. */
    if (argc < 2 && !tt_stdin_is_console())
        return usage(argv0, stderr, EXIT_USAGE);
    if (argc < 2) {
        argc = 2;
        argv = dialog_argv;
        own_window = tt_console_is_own();
    }
    if (ttcp_options_parse(&opts, argc, argv,
                           tt_slash_switches() ? TTCP_PARSE_SLASH_SWITCHES : 0, why,
                           sizeof why) != 0) {
        fprintf(stderr, "ttcp: %s\n", why);
        return EXIT_USAGE;
    }
    if (opts.action == TTCP_ACTION_HELP)
        return usage(argv0, stdout, EXIT_OK);
    if (opts.action == TTCP_ACTION_VERSION)
        return version();
    if (!far_end_takes(&opts))
        return EXIT_USAGE;
    if (opts.check_only) /* for tools that build command lines (contrib/pscheduler) */
        return check_files(&opts);
    if (tt_init() != 0) {
        fprintf(stderr, "ttcp: the network could not be initialised\n");
        return EXIT_FAILED;
    }
    if (opts.dialog && dialog(&opts, host, sizeof host) != 0) {
        tt_cleanup();
        if (own_window)
            wait_for_enter();
        return EXIT_USAGE;
    }
    if (cli_plot_open(&plot, &opts) != 0 || open_logfile(&opts) != 0) {
        tt_cleanup();
        return EXIT_USAGE;
    }
    if (!opts.sinkmode)
        tt_stdio_binary(opts.transmit ? TT_STDIN : TT_STDOUT);
    if (opts.mode == TTCP_MODE_SERVER)
        code = cli_serve(&opts);
    else if (opts.mode == TTCP_MODE_CLIENT)
        code = opts.compression ? cli_compression(&opts, cli_client_took)
                                : cli_client(&opts, &plot);
    else
        code = run_classic(&opts, &plot);
    tt_cleanup();
    if (own_window)
        wait_for_enter();
    return code;
}
