/* The iperf3 server end's results message (serve.h): each stream's
 * figures under the id the client gave it (bytes, retransmits, UDP's
 * datagrams, losses and jitter, its seconds), our CPU share, and with
 * get_server_output the text of our statistics lines, as figures.c
 * makes the client's. */
#include <stdlib.h>
#include <string.h>

#include "peers/iperf3/serve.h"
#include "report/report.h"

#define NS 1e9
#define TEXT_MAX 16384u /* get_server_output's text, within TTCP_IPERF3_RESULTS_MAX */

static void our_stream(const struct i3s *v, int way, int i, struct ttcp_iperf3_stream_result *s)
{
    const struct ttcp_result *r = &v->res[way][i];
    memset(s, 0, sizeof *s);
    s->id = v->ids[way][i];
    s->bytes = r->bytes;
    s->retransmits = way == 1 && r->tcp_end_valid ? (int64_t)r->tcp_end.retransmits : -1;
    s->end_time = (double)r->real_ns / NS;
    if (!v->params.udp)
        return;
    if (way == 1) {
        s->packets = v->whole[1].buflen ? r->bytes / v->whole[1].buflen : 0;
    } else if (r->udp_stats_valid) {
        s->packets = r->udp.expected;
        s->errors = ttcp_udp_stats_lost(&r->udp);
        s->jitter_s = r->udp.jitter_ns / NS;
    }
}

/* The CPU share of our streams, in percent, as iperf3 reports its own. */
static void our_cpu(const struct i3s *v, struct ttcp_iperf3_results *r)
{
    int64_t user = 0, sys = 0, real = 0;
    int way, i;
    for (way = 0; way < 2; way++)
        for (i = 0; (v->ways & (1u << way)) && i < v->n; i++) {
            const struct ttcp_result *m = &v->res[way][i];
            user += m->cpu_end.user_ns - m->cpu_start.user_ns;
            sys += m->cpu_end.sys_ns - m->cpu_start.sys_ns;
            if (m->real_ns > real)
                real = m->real_ns;
        }
    if (real <= 0)
        return;
    r->cpu_user = 100.0 * (double)user / (double)real;
    r->cpu_system = 100.0 * (double)sys / (double)real;
    r->cpu_total = r->cpu_user + r->cpu_system;
}

/* get_server_output: our streams' statistics lines, as ttcp -S prints them. */
static char *our_text(const struct i3s *v)
{
    char *text = malloc(TEXT_MAX);
    size_t used = 0;
    int way, i;
    if (text == NULL)
        return NULL;
    text[0] = '\0';
    for (way = 0; way < 2; way++)
        for (i = 0; (v->ways & (1u << way)) && i < v->n; i++) {
            if (!v->res[way][i].started)
                continue;
            used += ttcp_report_stats(&v->side[way][i], &v->res[way][i], text + used,
                                      TEXT_MAX - used);
            if (used >= TEXT_MAX - 1) {
                text[TEXT_MAX - 1] = '\0';
                return text;
            }
        }
    return text;
}

int ttcp_iperf3_serve_results(struct i3s *v, char *buf, size_t cap, size_t *len)
{
    static const struct ttcp_iperf3_results zero;
    struct ttcp_iperf3_results *r = malloc(sizeof *r);
    int way, i, rc, tcp_info = 1;
    if (r == NULL)
        return -1;
    *r = zero;
    for (way = 0; way < 2; way++)
        for (i = 0; (v->ways & (1u << way)) && i < v->n; i++) {
            our_stream(v, way, i, &r->streams[r->n++]);
            tcp_info &= way != 1 || v->res[1][i].tcp_end_valid;
        }
    r->sender_has_retransmits = !(v->ways & 2u) ? -1 : !v->params.udp && tcp_info;
    our_cpu(v, r);
    if (v->params.get_server_output)
        r->server_output_text = our_text(v);
    rc = ttcp_iperf3_results_build(r, buf, cap, len);
    if (rc != 0 && r->server_output_text != NULL) { /* too long with the text: without it */
        free(r->server_output_text);
        r->server_output_text = NULL;
        rc = ttcp_iperf3_results_build(r, buf, cap, len);
    }
    free(r->server_output_text);
    free(r);
    return rc;
}
