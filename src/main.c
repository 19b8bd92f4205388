/* argv -> options -> run -> print -> exit code; nothing else. */
#include <stdio.h>

#include "options.h"
#include "report.h"
#include "run.h"
#include "version.h"
#include "ttcp/platform.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* Where the header and statistics go: stdout, unless stdout carries the
 * received data (non-sink receiver), as the FreeBSD port and BRL 1.10 do. */
static FILE *report_stream(const struct ttcp_options *o)
{
    return (!o->transmit && !o->sinkmode) ? stderr : stdout;
}

static void print_failure(const struct ttcp_options *o, const struct ttcp_result *res)
{
    char text[1024], native[256];
    const char *why = tt_error_text(res->failure.code, res->failure.native, native,
                                    sizeof native);
    ttcp_report_failure(o, &res->failure, why ? why : ttcp_strerror(res->failure.code), text,
                        sizeof text);
    fflush(stdout);
    fputs(text, stderr);
}

/* Everything the core reports while it runs becomes text here. */
static void print_event(void *ctx, enum ttcp_event ev, const char *detail,
                        const struct ttcp_result *res)
{
    const struct ttcp_options *o = ctx;
    char text[2048]; /* a host name can be 253 bytes */
    size_t n;

    switch (ev) {
    case TTCP_EV_READY:
        ttcp_report_header(o, text, sizeof text);
        fputs(text, report_stream(o));
        return;
    case TTCP_EV_FIGURES:
        ttcp_report_stats(o, res, text, sizeof text);
        fputs(text, report_stream(o));
        fflush(report_stream(o));
        return;
    case TTCP_EV_FAILED:
        print_failure(o, res);
        return;
    default:
        n = ttcp_report_event(o, ev, detail, res, text, sizeof text);
        fflush(stdout); /* keep the header ahead of progress lines on a terminal */
        fwrite(text, 1, n, stderr);
    }
}

static int usage(FILE *to, int code)
{
    char text[4096];
    size_t n = ttcp_usage(text, sizeof text);
    fwrite(text, 1, n < sizeof text ? n : sizeof text - 1, to);
    return code;
}

static int version(void)
{
    char platform[128];
    printf("ttcp %s (%s)\n", ttcp_version(), tt_platform_name(platform, sizeof platform));
    return EXIT_OK;
}

static int run(const struct ttcp_options *o)
{
    struct ttcp_observer obs = {print_event, (void *)o};
    struct ttcp_result res;

    if (ttcp_run(o, &obs, &res) == 0)
        return EXIT_OK;
    print_failure(o, &res);
    return EXIT_FAILED;
}

int main(int argc, char **argv)
{
    struct ttcp_options opts;
    char why[256];
    int code;

    if (argc < 2)
        return usage(stderr, EXIT_USAGE);
    if (ttcp_options_parse(&opts, argc, argv, why, sizeof why) != 0) {
        fprintf(stderr, "ttcp: %s\n", why);
        return EXIT_USAGE;
    }
    if (opts.action == TTCP_ACTION_HELP)
        return usage(stdout, EXIT_OK);
    if (opts.action == TTCP_ACTION_VERSION)
        return version();
    if (tt_init() != 0) {
        fprintf(stderr, "ttcp: the network could not be initialised\n");
        return EXIT_FAILED;
    }
    if (!opts.sinkmode)
        tt_stdio_binary(opts.transmit ? TT_STDIN : TT_STDOUT);
    code = run(&opts);
    tt_cleanup();
    return code;
}
