/* UDP: the marker protocol of 1.12, the receiver's side of it. The
 * transmitter (udp_send.c) sends a start marker, the data, an end marker,
 * then four more end markers after a short pause; the receiver
 * (udp_recv.c) never hangs once a test has begun. */
#include "engine/udp.h"

const unsigned char ttcp_udp_marker[TTCP_UDP_MARKER_MAX] = {' ', '!', '"', '#'};

enum ttcp_udp_action ttcp_udp_step(enum ttcp_udp_state *state, size_t datagram_len)
{
    int is_marker = datagram_len <= TTCP_UDP_MARKER_MAX;
    switch (*state) {
    case TTCP_UDP_WAITING:
        *state = TTCP_UDP_RUNNING;
        return is_marker ? TTCP_UDP_START : TTCP_UDP_START_DATA;
    case TTCP_UDP_RUNNING:
        if (!is_marker)
            return TTCP_UDP_DATA;
        *state = TTCP_UDP_DONE;
        return TTCP_UDP_END;
    case TTCP_UDP_DONE:
    default:
        return TTCP_UDP_IGNORE;
    }
}


void ttcp_nuttcp_marker(int begin, int k, unsigned char out[TTCP_UDP_MARKER_MAX])
{
    out[0] = begin ? 'B' : 'E';
    out[1] = 'O';
    out[2] = 'D';
    out[3] = (unsigned char)('0' + (k < 0 ? 0 : k > 9 ? 9 : k));
}

enum ttcp_udp_action ttcp_nuttcp_step(enum ttcp_udp_state *state, const unsigned char *d,
                                      size_t len)
{
    int begin = len == TTCP_UDP_MARKER_MAX && d[0] == 'B' && d[1] == 'O' && d[2] == 'D';
    if (*state == TTCP_UDP_DONE)
        return TTCP_UDP_IGNORE;
    if (len > TTCP_UDP_MARKER_MAX) {
        enum ttcp_udp_action a = *state == TTCP_UDP_WAITING ? TTCP_UDP_START_DATA : TTCP_UDP_DATA;
        *state = TTCP_UDP_RUNNING;
        return a;
    }
    if (begin) { /* BOD1 after BOD0 too: the receiver restarts a timer no data ran on */
        *state = TTCP_UDP_RUNNING;
        return TTCP_UDP_START;
    }
    if (*state == TTCP_UDP_WAITING)
        return TTCP_UDP_IGNORE; /* a last test's EOD: nothing began */
    *state = TTCP_UDP_DONE;
    return TTCP_UDP_END;
}

void ttcp_nuttcp_count_write(unsigned char *d, size_t len, uint64_t count)
{
    int i;
    if (len < TTCP_NUTTCP_COUNT_END)
        return;
    for (i = 0; i < 8; i++)
        d[TTCP_NUTTCP_COUNT_AT + i] = (unsigned char)(count >> (8 * i));
}

uint64_t ttcp_nuttcp_count_read(const unsigned char *d, size_t len, int *swapped)
{
    uint64_t le = 0, be = 0;
    int i;
    if (len < TTCP_NUTTCP_COUNT_END)
        return 0;
    for (i = 0; i < 8; i++) {
        le |= (uint64_t)d[TTCP_NUTTCP_COUNT_AT + i] << (8 * i);
        be = be << 8 | d[TTCP_NUTTCP_COUNT_AT + i];
    }
    if (*swapped == 0)
        *swapped = le > 0x100000000ull ? 2 : 1;
    return *swapped == 2 ? be : le;
}
