/* The iperf3 server end's control connection (serve.h): whole sends,
 * the state bytes, SERVER_ERROR with the i_errno whose words iperf3's
 * client prints. */
#include "peers/iperf3/serve.h"

int ttcp_iperf3_serve_send(struct i3s *v, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    while (len > 0) {
        int64_t n = tt_send(v->s->control, p, len);
        if (n == TT_E_INTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ttcp_iperf3_serve_state(struct i3s *v, enum ttcp_iperf3_state st)
{
    unsigned char b = ttcp_iperf3_state_byte(st);
    return ttcp_iperf3_serve_send(v, &b, 1);
}

int ttcp_iperf3_serve_refuse(struct i3s *v, int32_t ierrno)
{
    unsigned char b[9];
    b[0] = ttcp_iperf3_state_byte(TTCP_IPERF3_SERVER_ERROR);
    ttcp_iperf3_error_put(ierrno, 0, b + 1);
    (void)ttcp_iperf3_serve_send(v, b, sizeof b);
    v->s->obs->notice(v->s->obs->ctx, TTCP_NOTICE_REFUSED_TEST, &v->s->client);
    return -1;
}
