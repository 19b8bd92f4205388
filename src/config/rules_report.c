/* What a test reports and how its lines go out: the rules of its options
 * (rules_report.h), pure checks and the values they settle. */
#include "config/rules_report.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "config/optable.h"

/* --plot FILE: one test drawn, into a file the command line names. */
int ttcp_rules_check_plot(const struct ttcp_options *o, char *why, size_t why_len)
{
    if (o->plot == NULL)
        return 0;
    if (o->plot[0] == '\0' || strlen(o->plot) > TTCP_PLOT_PATH_MAX)
        snprintf(why, why_len, "--plot: give a file name of 1 to %d characters",
                 TTCP_PLOT_PATH_MAX);
    else if (o->mode == TTCP_MODE_SERVER)
        snprintf(why, why_len, "--plot draws a test: a server (-S) serves many; plot at the "
                 "client (ttcp -C --plot file host)");
    else if (o->continuous && !o->transmit)
        snprintf(why, why_len, "--plot draws one test: a receiver with -c takes test after test");
    else if (o->traceroute && !o->side_given && o->mode == TTCP_MODE_CLASSIC)
        snprintf(why, why_len, "--plot draws a test: --traceroute alone runs none (add -t)");
    else
        return 0;
    return -1;
}

/* --plot without -i takes intervals it never prints: 1 s, or a twentieth of
 * a --time shorter than 20 s (at least -i's shortest), so that a short test
 * has a shape. */
void ttcp_rules_settle_plot_interval(struct ttcp_options *o)
{
    int64_t shortest = (int64_t)ttcp_optable_letter('i')->min;
    int64_t share = o->duration_ns / TTCP_PLOT_POINTS;
    if (o->plot == NULL || o->interval_ns != 0)
        return;
    if (o->duration_ns == 0 || share >= TTCP_PLOT_PERIOD_NS)
        o->interval_ns = TTCP_PLOT_PERIOD_NS;
    else
        o->interval_ns = share < shortest ? shortest : share;
    o->quiet_intervals = 1;
}

/* --mtu and --framing serve --analyze's RFC 6349 figures alone. */
int ttcp_rules_check_analysis(const struct ttcp_options *o, char *why, size_t why_len)
{
    uint64_t bytes;
    char reason[160];
    if ((o->mtu || o->framing != NULL) && !o->analyze)
        snprintf(why, why_len, "%s is for --analyze (RFC 6349's figures)",
                 o->mtu ? "--mtu" : "--framing");
    else if (o->framing != NULL &&
             ttcp_parse_framing(o->framing, &bytes, reason, sizeof reason) != 0)
        snprintf(why, why_len, "--framing: %s", reason);
    else
        return 0;
    return -1;
}

/* The framing's bytes: as typed, else Ethernet's (RFC 6349's example). */
void ttcp_rules_settle_framing(struct ttcp_options *o)
{
    char why[8];
    o->framing_bytes = TTCP_FRAMING_ETHERNET;
    if (o->framing != NULL)
        ttcp_parse_framing(o->framing, &o->framing_bytes, why, sizeof why);
}

/* --json-stream, --logfile, --title: how the lines go out. */
int ttcp_rules_check_output(const struct ttcp_options *o, char *why, size_t why_len)
{
    size_t i, n = o->title ? strlen(o->title) : 0;
    for (i = 0; i < n; i++)
        if ((unsigned char)o->title[i] < 0x20 || o->title[i] == 0x7f)
            break;
    if (o->title && (n == 0 || n > TTCP_TITLE_MAX || i < n))
        snprintf(why, why_len, "--title: 1 to %d characters, none of them a control character",
                 TTCP_TITLE_MAX);
    else if (o->logfile && o->logfile[0] == '\0')
        snprintf(why, why_len, "--logfile: the file's name is empty");
    else if (o->json_stream && !o->transmit && !o->sinkmode)
        snprintf(why, why_len, "--json-stream needs -s on a receiver: its stdout carries the "
                 "data");
    else
        return 0;
    return -1;
}

/* --json-stream ends with the --json document. */
void ttcp_rules_settle_output(struct ttcp_options *o)
{
    if (o->json_stream)
        o->json = 1;
}

/* --compression: two TCP tests of ttcp's own patterns in a row, one way. */
int ttcp_rules_check_compression(const struct ttcp_options *o, char *why, size_t why_len)
{
    int classic = o->mode == TTCP_MODE_CLASSIC;
    const char *no = !o->compression ? NULL
        : o->mode == TTCP_MODE_SERVER ? "is the sending side's or a client's (-t, -C): a server "
                                        "takes the two tests as they come"
        : classic && (!o->side_given || !o->transmit) ? "runs the test from the transmitter "
                                                        "(-t) or a client (-C)"
        : o->pattern_given ? "sends the classic pattern, then the random one: leave --pattern out"
        : o->udp ? "works with TCP only, not with -u: UDP goes at the sender's pace whatever "
                   "the path does to it"
        : o->far_end != TTCP_FAR_TTCP ? "needs ttcp at the far end (-S, or a classic receiver): "
                                        "another tool's server sends its own payload"
        : o->bidir ? "measures one way at a time: leave --bidir out (-t, then -r)"
        : classic && !o->sinkmode ? "needs -s: it sends the patterns, not stdin"
        : o->continuous ? "does not go with -c: each of its two tests ends by itself"
        : classic && o->streams > 1 ? "with -P runs through a server (ttcp -C -P): a classic "
                                      "receiver with -P takes one test"
        : o->plot != NULL ? "runs two tests; --plot draws one"
        : o->json_stream ? "runs two tests; --json holds both, --json-stream does not tell them "
                           "apart"
        : NULL;
    if (no != NULL)
        snprintf(why, why_len, "--compression %s", no);
    return no != NULL ? -1 : 0;
}

/* --latency: UDP probes a ttcp -S echoes (-C), or the classic transmitter's
 * TCP RTT; --latency-interval and --latency-idle serve it alone. */
int ttcp_rules_check_latency(const struct ttcp_options *o, char *why, size_t why_len)
{
    int classic = o->mode == TTCP_MODE_CLASSIC;
    const char *no = !o->latency ? NULL
        : classic && (!o->side_given || !o->transmit)
            ? "in the classic pair is the transmitter's (-t): the RTT of its TCP connection "
              "(or ttcp -C --latency, whose probes a ttcp -S echoes)"
        : classic && o->udp ? "with -u needs a ttcp -S to echo its probes (ttcp -C -u --latency "
                              "host): a classic UDP receiver answers nothing"
        : classic && o->streams > 1 ? "in the classic pair samples one connection: leave -P "
                                      "out, or use ttcp -C -P"
        : o->far_end != TTCP_FAR_TTCP ? "needs a ttcp -S at the far end to echo its probes: "
                                        "another tool's server answers none"
        : o->target != NULL ? "is not carried to a third party's test (-C host1 host2)"
        : o->compression ? "does not go with --compression: run them one after the other"
        : NULL;
    if (!o->latency && (o->latency_interval_ns != 0 || o->latency_idle_given))
        no = o->latency_interval_ns ? "-interval is for --latency" : "-idle is for --latency";
    if (no != NULL)
        snprintf(why, why_len, "--latency%s%s", no[0] == '-' ? "" : " ", no);
    return no != NULL ? -1 : 0;
}

/* The probes' spacing and the idle part, where not typed. */
void ttcp_rules_settle_latency(struct ttcp_options *o)
{
    if (!o->latency)
        return;
    if (o->latency_interval_ns == 0)
        o->latency_interval_ns = TTCP_LATENCY_PERIOD_NS;
    if (!o->latency_idle_given && o->mode == TTCP_MODE_CLIENT)
        o->latency_idle_ns = TTCP_LATENCY_IDLE_NS;
}
