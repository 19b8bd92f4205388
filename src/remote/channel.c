/* Frames over a stream socket, each read bounded in size and in time. */
#include "remote/channel.h"

#include <stdio.h>

#define READ_SLICE_MS 100 /* the longest wait between two looks at Ctrl+C and the deadline */

static int send_bytes(tt_socket s, const unsigned char *p, size_t len)
{
    while (len > 0) {
        int64_t n = tt_send(s, p, len);
        if (n == TT_E_INTR && !tt_interrupted())
            continue;
        if (n < 0)
            return (int)n;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ttcp_channel_send_magic(tt_socket s)
{
    return send_bytes(s, (const unsigned char *)TTCP_PROTO_MAGIC, TTCP_PROTO_MAGIC_LEN);
}

int ttcp_channel_send(tt_socket s, const struct ttcp_frame *f)
{
    return f->failed ? TT_E_INVAL : send_bytes(s, f->bytes, f->len);
}

int ttcp_channel_send_error(tt_socket s, const char *reason, const char *message)
{
    struct ttcp_frame f;
    ttcp_frame_begin(&f, "error");
    ttcp_frame_add(&f, "reason", reason);
    ttcp_frame_add(&f, "message", message);
    if (ttcp_frame_end(&f) != 0)
        return TT_E_INVAL;
    return ttcp_channel_send(s, &f);
}

int ttcp_channel_read_exact(tt_socket s, void *buf, size_t len, int64_t deadline_ns)
{
    unsigned char *p = buf;
    while (len > 0) {
        int64_t left = deadline_ns - tt_now_ns(), n;
        int rc;
        if (left <= 0)
            return TT_E_TIMEDOUT;
        rc = tt_wait_readable(s, left / 1000000 < READ_SLICE_MS ? (int)(left / 1000000) + 1
                                                                 : READ_SLICE_MS);
        if (rc == 0 || rc == TT_E_INTR)
            continue; /* after Ctrl+C too: the far end's figures are still wanted */
        if (rc < 0)
            return rc;
        n = tt_recv(s, p, len);
        if (n == 0)
            return TT_E_CONNRESET;
        if (n == TT_E_INTR || n == TT_E_AGAIN)
            continue;
        if (n < 0)
            return (int)n;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ttcp_channel_receive(tt_socket s, struct ttcp_message *m, int64_t deadline_ns, char *why,
                         size_t why_len)
{
    unsigned char head[TTCP_PROTO_LENGTH_LEN], body[TTCP_PROTO_BODY_MAX];
    int len, rc = ttcp_channel_read_exact(s, head, sizeof head, deadline_ns);
    if (rc != 0)
        return rc;
    len = ttcp_proto_frame_length(head);
    if (len < 0) {
        snprintf(why, why_len, "a frame length of %u is out of range (1 to %d)",
                 (unsigned)head[0] << 8 | head[1], TTCP_PROTO_BODY_MAX);
        return TT_E_INVAL;
    }
    rc = ttcp_channel_read_exact(s, body, (size_t)len, deadline_ns);
    if (rc != 0)
        return rc;
    return ttcp_proto_parse(body, (size_t)len, m, why, why_len) == 0 ? 0 : TT_E_INVAL;
}

int ttcp_channel_connect(tt_socket s, const struct tt_addr *a, int64_t deadline_ns)
{
    int64_t left_ms;
    int rc;
    if (deadline_ns == 0)
        return tt_connect(s, a);
    left_ms = (deadline_ns - tt_now_ns()) / 1000000;
    if (left_ms < 1)
        return TT_E_TIMEDOUT;
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, left_ms > 0x7fffffff ? 0x7fffffff : (int)left_ms);
    rc = tt_connect(s, a);
    tt_setopt(s, TT_OPT_SNDTIMEO_MS, 0);
    return rc;
}
