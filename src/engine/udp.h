/* UDP markers, as 1.12 and every derivative put them on the wire: a
 * datagram of 4 bytes or less starts or ends a test. */
#ifndef TTCP_UDP_H
#define TTCP_UDP_H

#include <stddef.h>

#define TTCP_UDP_MARKER_MAX 4   /* any datagram this short is a marker */
#define TTCP_UDP_TRAILING_MARKERS 4

/* The first 4 bytes of the classic pattern, as 1.12's markers carry. */
extern const unsigned char ttcp_udp_marker[TTCP_UDP_MARKER_MAX];

enum ttcp_udp_state { TTCP_UDP_WAITING, TTCP_UDP_RUNNING, TTCP_UDP_DONE };

enum ttcp_udp_action {
    TTCP_UDP_START,      /* start marker: start the timer */
    TTCP_UDP_START_DATA, /* data before any marker (start marker lost): start the timer, count it */
    TTCP_UDP_DATA,       /* count it */
    TTCP_UDP_END,        /* end marker: stop the timer */
    TTCP_UDP_IGNORE      /* after the end: nothing */
};

/* The receiver's state machine. 1.12's rule: the first marker starts, the
 * next one ends. Added: data that arrives before any marker starts the
 * test, so a lost start marker no longer restarts the timer at the first
 * end marker. */
enum ttcp_udp_action ttcp_udp_step(enum ttcp_udp_state *state, size_t datagram_len);

#endif
