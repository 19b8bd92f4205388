/* The plot's sentences, from the options and the results' facts. */
#include "report/plot_words.h"

#include "base/text.h"
#include "measure/result.h"
#include "report/report_latency.h"
#include "ttcp/platform.h"

/* Where the data went, from the side of the one who ran this ttcp. */
static void route(const struct ttcp_plot *p, struct ttcp_text *t)
{
    const struct ttcp_options *o = p->opts;
    const struct ttcp_result *first = p->tests > 0 ? p->test[0].res : NULL;
    char peer[80];
    if (o->mode == TTCP_MODE_CLIENT && o->bidir)
        ttcp_text_add(t, " both ways between this client and %s", o->host);
    else if (o->mode == TTCP_MODE_CLIENT)
        ttcp_text_add(t, o->transmit ? " from this client to %s" : " from %s to this client",
                      o->host);
    else if (o->transmit)
        ttcp_text_add(t, " to %s", o->host);
    else if (first != NULL && first->peer_valid)
        ttcp_text_add(t, " from %s", tt_addr_text(&first->peer, peer, sizeof peer));
    else
        ttcp_text_add(t, " received on port %llu", (unsigned long long)o->port);
}

const char *plot_words_title(const struct ttcp_plot *p, char *buf, size_t len)
{
    const struct ttcp_options *o = p->opts;
    struct ttcp_text t = {buf, len, 0};
    buf[0] = '\0';
    ttcp_text_add(&t, "ttcp: %s", o->udp ? "UDP" : "TCP");
    route(p, &t);
    if (o->udp && !o->transmit) /* -l: the largest datagram it takes */
        ttcp_text_add(&t, ", datagrams of up to %llu bytes", (unsigned long long)o->buflen);
    else
        ttcp_text_add(&t, ", %llu-byte %s", (unsigned long long)o->buflen,
                      o->udp ? "datagrams" : "buffers");
    if (o->streams > 1)
        ttcp_text_add(&t, ", %llu streams", (unsigned long long)o->streams);
    return buf;
}

/* How the test ended, when not as planned. */
static const char *ending(const struct ttcp_plot *p)
{
    int i, interrupted = 0, failed = 0, idle = 0;
    for (i = 0; i < p->tests; i++) {
        interrupted |= p->test[i].res->interrupted;
        failed |= p->test[i].res->failure.code != 0;
        idle |= p->test[i].res->idle_timeout;
    }
    return failed ? "ended by an error" : interrupted ? "interrupted (Ctrl+C)"
                                        : idle ? "ended by the idle timeout" : NULL;
}

const char *plot_words_subtitle(const struct ttcp_plot *p, char *buf, size_t len)
{
    const struct ttcp_options *o = p->opts;
    struct ttcp_text t = {buf, len, 0};
    char rate[48];
    const char *end = ending(p);
    buf[0] = '\0';
    if (p->date != NULL)
        ttcp_text_add(&t, "%s  |  ", p->date);
    if (o->interval_ns)
        ttcp_text_add(&t, "intervals of %g s  |  ", (double)o->interval_ns / 1e9);
    ttcp_text_add(&t, "port %llu", (unsigned long long)o->port);
    if (o->pace_bps)
        ttcp_text_add(&t, "  |  paced to %s (-R)",
                      ttcp_unit_format_bps((double)o->pace_bps, rate, sizeof rate));
    if (end != NULL)
        ttcp_text_add(&t, "  |  %s", end);
    return buf;
}

/* Which end measured the test, and which way its data went. */
static const char *end_name(const struct ttcp_plot *p, const struct ttcp_plot_test *t)
{
    if (p->opts->mode != TTCP_MODE_CLIENT)
        return t->side->transmit ? "sent" : "received";
    if (t->remote)
        return t->side->transmit ? "server sent" : "server received";
    return t->side->transmit ? "client sent" : "client received";
}

const char *plot_words_test(const struct ttcp_plot *p, const struct ttcp_plot_test *t,
                            enum ttcp_unit unit, char *buf, size_t len)
{
    struct ttcp_text text = {buf, len, 0};
    const struct ttcp_result *r = t->res;
    char rate[48];
    buf[0] = '\0';
    ttcp_text_add(&text, "%s", end_name(p, t));
    if (t->n_parts > 1)
        ttcp_text_add(&text, ", total of %d streams (thin: each)", t->n_parts);
    if (r->started)
        ttcp_text_add(&text, ": average %s%s", ttcp_unit_format(unit, (double)r->bytes /
                                                                   ttcp_real_seconds(r),
                                                               rate, sizeof rate),
                      ttcp_unit_per_sec(unit));
    else
        ttcp_text_add(&text, ": no data");
    return buf;
}

const char *plot_words_link(const struct ttcp_options *o, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    char rate[48];
    buf[0] = '\0';
    ttcp_text_add(&t, "link rate %s (--link-rate)",
                  ttcp_unit_format_bps((double)o->link_bps, rate, sizeof rate));
    return buf;
}

const char *plot_words_rate_axis(enum ttcp_unit unit, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    buf[0] = '\0';
    ttcp_text_add(&t, "Throughput (%s%s)", ttcp_unit_name(unit), ttcp_unit_per_sec(unit));
    return buf;
}

/* A phase's median, or why there is none. */
static void median_words(struct ttcp_text *t, const char *phase,
                         const struct ttcp_latency_quantiles *q)
{
    if (q->valid)
        ttcp_text_add(t, "%s median %.2f ms", phase, q->median_ms);
    else
        ttcp_text_add(t, "%s: %s", phase, q->probes ? "no answer" : "none");
}

const char *plot_words_latency(const struct ttcp_latency *l, const struct ttcp_latency_summary *s,
                               char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    int echoed = l->source == TTCP_LATENCY_UDP_ECHO;
    uint32_t probes = s->idle.probes + s->loaded.probes;
    uint32_t lost = probes - s->idle.answered - s->loaded.answered;
    buf[0] = '\0';
    if (s->increase_valid)
        ttcp_text_add(&t, "Latency under load: %+.2f ms, grade %s",
                      s->increase_ms > -0.005 && s->increase_ms < 0.005 ? 0.0 : s->increase_ms,
                      ttcp_latency_grade_text(s->grade));
    else
        ttcp_text_add(&t, "Latency: no grade (it needs an idle round trip and 3 loaded ones)");
    ttcp_text_add(&t, "  |  ");
    median_words(&t, "idle", &s->idle);
    ttcp_text_add(&t, ", ");
    median_words(&t, "loaded", &s->loaded);
    if (echoed)
        ttcp_text_add(&t, "  |  UDP probes every %g s, %u of %u lost", (double)l->period_ns / 1e9,
                      (unsigned)lost, (unsigned)probes);
    else
        ttcp_text_add(&t, "  |  TCP_INFO's RTT every %g s", (double)l->period_ns / 1e9);
    return buf;
}
