/* --latency's datagrams (probe.h): the hello and the probe, built and read. */
#include "remote/probe.h"

#include <string.h>

#include "base/le64.h"
#include "remote/wire.h"

size_t ttcp_probe_hello(const char *token, unsigned char *out, size_t cap)
{
    struct ttcp_frame f;
    ttcp_frame_begin(&f, "probe");
    ttcp_frame_add(&f, "token", token);
    if (ttcp_frame_end(&f) != 0 || TTCP_PROTO_MAGIC_LEN + f.len > cap)
        return 0;
    memcpy(out, TTCP_PROTO_MAGIC, TTCP_PROTO_MAGIC_LEN);
    memcpy(out + TTCP_PROTO_MAGIC_LEN, f.bytes, f.len);
    return TTCP_PROTO_MAGIC_LEN + f.len;
}

int ttcp_probe_read_hello(const struct ttcp_message *m, char *token)
{
    const char *t = ttcp_proto_get(m, "token");
    if (strcmp(ttcp_proto_type(m), "probe") != 0 || t == NULL || !ttcp_wire_token_ok(t))
        return 0;
    memcpy(token, t, TTCP_TOKEN_HEX + 1);
    return 1;
}

void ttcp_probe_build(unsigned char out[TTCP_PROBE_LEN], uint32_t seq, int64_t sent_ns)
{
    memset(out, 0, TTCP_PROBE_LEN);
    memcpy(out, TTCP_PROBE_TAG, TTCP_PROBE_TAG_LEN);
    out[8] = (unsigned char)(seq >> 24);
    out[9] = (unsigned char)(seq >> 16);
    out[10] = (unsigned char)(seq >> 8);
    out[11] = (unsigned char)seq;
    ttcp_le64_put(out + 12, (uint64_t)sent_ns);
}

int ttcp_probe_echoable(const unsigned char *buf, size_t len)
{
    return len == TTCP_PROBE_LEN && memcmp(buf, TTCP_PROBE_TAG, TTCP_PROBE_TAG_LEN) == 0;
}

int ttcp_probe_read(const unsigned char *buf, size_t len, uint32_t *seq, int64_t *sent_ns)
{
    if (!ttcp_probe_echoable(buf, len))
        return -1;
    *seq = (uint32_t)buf[8] << 24 | (uint32_t)buf[9] << 16 | (uint32_t)buf[10] << 8 | buf[11];
    *sent_ns = (int64_t)ttcp_le64_get(buf + 12);
    return 0;
}
