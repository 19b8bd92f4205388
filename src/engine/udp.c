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

