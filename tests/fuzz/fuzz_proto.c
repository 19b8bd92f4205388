/* libFuzzer: the control protocol's frames (docs/PROTOCOL.md), as a client
 * or anyone on the network can send them: a length header, then a body.
 * Whatever the bytes, the parser returns 0 or -1 with a one-line printable
 * reason; what it accepts obeys every rule, and builds the same frame again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/message.h"

static void check_accepted(const struct ttcp_message *m, const uint8_t *body, size_t len)
{
    struct ttcp_frame f;
    int i;
    if (m->count < 1 || m->count > TTCP_PROTO_FIELDS_MAX || strcmp(m->field[0].key, "msg") != 0)
        abort();
    for (i = 0; i < m->count; i++)
        if (strlen(m->field[i].key) > TTCP_PROTO_KEY_MAX ||
            strlen(m->field[i].value) > TTCP_PROTO_VALUE_MAX ||
            ttcp_proto_get(m, m->field[i].key) != m->field[i].value)
            abort(); /* too long, or a key twice */
    ttcp_frame_begin(&f, m->field[0].value);
    for (i = 1; i < m->count; i++)
        ttcp_frame_add(&f, m->field[i].key, m->field[i].value);
    if (ttcp_frame_end(&f) != 0 || f.len != TTCP_PROTO_LENGTH_LEN + len ||
        memcmp(f.bytes + TTCP_PROTO_LENGTH_LEN, body, len) != 0)
        abort(); /* what parses is what the builder writes */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct ttcp_message m;
    char why[160];
    uint64_t n;
    int len;
    size_t i;

    if (size < TTCP_PROTO_LENGTH_LEN)
        return 0;
    len = ttcp_proto_frame_length(data);
    if (len < 0 || (size_t)len > size - TTCP_PROTO_LENGTH_LEN)
        len = (int)(size - TTCP_PROTO_LENGTH_LEN); /* the parser must refuse bad lengths too */
    why[0] = '\0';
    if (ttcp_proto_parse(data + TTCP_PROTO_LENGTH_LEN, (size_t)len, &m, why, sizeof why) == 0) {
        check_accepted(&m, data + TTCP_PROTO_LENGTH_LEN, (size_t)len);
        if (ttcp_proto_get_u64(&m, "bytes", 1, 1000000, &n, why, sizeof why) == 0 &&
            (n < 1 || n > 1000000))
            abort();
    } else {
        if (why[0] == '\0')
            abort();
        for (i = 0; why[i] != '\0'; i++)
            if ((unsigned char)why[i] < 0x20 || (unsigned char)why[i] == 0x7f)
                abort(); /* one printable line */
    }
    return 0;
}
