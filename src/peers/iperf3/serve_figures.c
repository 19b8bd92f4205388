/* The iperf3 server end's results message (serve.h): each stream's
 * figures under the id the client gave it (bytes, retransmits, UDP's
 * datagrams, losses and jitter, its seconds), our CPU share, and with
 * get_server_output the text of our statistics lines, as figures.c
 * makes the client's. */
#include <stdlib.h>
#include <string.h>

#include "peers/iperf3/run_figures.h"
#include "peers/iperf3/serve.h"
#include "report/report.h"

#define TEXT_MAX 16384u /* get_server_output's text, within TTCP_IPERF3_RESULTS_MAX */

/* Our stream i of way: way 1 we sent. */
static void our_stream(const struct i3s *v, int way, int i, struct ttcp_iperf3_stream_result *s)
{
    ttcp_iperf3_stream_figures(&v->res[way][i], v->ids[way][i], way == 1, v->params.udp,
                               v->whole[1].buflen, s);
}

/* Every run of ours, for the CPU share. */
static void our_cpu(const struct i3s *v, struct ttcp_iperf3_results *r)
{
    const struct ttcp_result *runs[2 * TTCP_IPERF3_MAX_STREAMS];
    int way, i, n = 0;
    for (way = 0; way < 2; way++)
        for (i = 0; (v->ways & (1u << way)) && i < v->n; i++)
            runs[n++] = &v->res[way][i];
    ttcp_iperf3_cpu_share(runs, n, r);
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
