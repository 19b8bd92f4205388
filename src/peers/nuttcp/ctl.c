/* nuttcp's control connection (ctl.h): lines in, text out, bounded; and
 * the test's problem and waits, which test.c and data.c share. */
#include "peers/nuttcp/ctl.h"

#include "peers/nuttcp/internal.h"
#include "remote/channel.h"

#include <string.h>

#define WAIT_SLICE_MS 250

int nuttcp_ctl_send(struct nuttcp_ctl *c, const char *text, size_t len)
{
    while (len > 0) {
        int64_t n = tt_send(c->s, text, len);
        if (n == TT_E_INTR && !tt_interrupted())
            continue;
        if (n <= 0)
            return n < 0 ? (int)n : TT_E_IO;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

/* A whole line in the buffer: moved out, 1; else 0. */
static int take_line(struct nuttcp_ctl *c, char *line)
{
    char *nl = memchr(c->buf, '\n', c->have);
    size_t n;
    if (nl == NULL)
        return 0;
    n = (size_t)(nl - c->buf);
    memcpy(line, c->buf, n);
    line[n] = '\0';
    if (n > 0 && line[n - 1] == '\r')
        line[n - 1] = '\0';
    c->have -= n + 1;
    memmove(c->buf, nl + 1, c->have);
    return 1;
}

int nuttcp_ctl_line(struct nuttcp_ctl *c, char *line, size_t cap, int64_t end_ns)
{
    if (cap < TTCP_NUTTCP_LINE_MAX)
        return TT_E_INVAL;
    for (;;) {
        int64_t left = (end_ns - tt_now_ns()) / 1000000, n;
        int r;
        if (take_line(c, line))
            return 1;
        if (c->have >= sizeof c->buf - 1)
            return TT_E_INVAL;
        if (left <= 0 || tt_interrupted())
            return tt_interrupted() ? TT_E_INTR : TT_E_TIMEDOUT;
        r = tt_wait_readable(c->s, left < WAIT_SLICE_MS ? (int)left : WAIT_SLICE_MS);
        if (r < 0 && r != TT_E_INTR)
            return r;
        if (r <= 0)
            continue;
        n = tt_recv(c->s, c->buf + c->have, sizeof c->buf - 1 - c->have);
        if (n == TT_E_INTR || n == TT_E_AGAIN)
            continue;
        if (n < 0)
            return (int)n;
        if (n == 0) { /* the end: a last line without '\n' still counts */
            if (c->have == 0)
                return 0;
            memcpy(line, c->buf, c->have);
            line[c->have] = '\0';
            c->have = 0;
            return 1;
        }
        c->have += (size_t)n;
    }
}

int nuttcp_connect_by(tt_socket s, const struct tt_addr *a, int64_t end_ns)
{
    return end_ns == 0 ? TT_E_TIMEDOUT : ttcp_channel_connect(s, a, end_ns);
}

int nuttcp_problem(struct nuttcp_test *t, enum ttcp_client_problem p, int code)
{
    return ttcp_outcome_problem(t->out, p, code);
}

int64_t nuttcp_wait_end(const struct nuttcp_test *t, int64_t span)
{
    int64_t end = tt_now_ns() + span;
    return t->deadline != 0 && t->deadline < end ? t->deadline : end;
}
