/* UDP markers, as 1.12 and every derivative put them on the wire: a
 * datagram of 4 bytes or less starts or ends a test. */
#ifndef TTCP_UDP_H
#define TTCP_UDP_H

#include <stddef.h>
#include <stdint.h>

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

/* nuttcp's datagrams (enum ttcp_udp_dialect, TTCP_UDP_NUTTCP; Debian's
 * 6.1.2 as seen on the wire): the transmitter sends "BOD0", 250 ms later
 * "BOD1", the data, "EOD0", then "EOD1" to "EOD4" half a second apart. Each
 * data datagram carries at offset 24 the bytes sent so far, itself
 * included, as 64 bits in the sender's byte order (the receiver takes a
 * first count above 2^32 for the other order). */
#define TTCP_NUTTCP_BOD_GAP_NS 250000000ll
#define TTCP_NUTTCP_EOD_GAP_NS 500000000ll
#define TTCP_NUTTCP_EOD_COUNT 5
#define TTCP_NUTTCP_COUNT_AT 24
#define TTCP_NUTTCP_COUNT_END 32  /* a datagram shorter than this carries no count */

/* The k-th start (begin) or end marker's 4 bytes: "BOD0", "EOD3". */
void ttcp_nuttcp_marker(int begin, int k, unsigned char out[TTCP_UDP_MARKER_MAX]);
/* nuttcp's rule for a datagram: of 4 bytes or less, "BOD?" starts a test
 * (each one: START, which restarts a timer no data has run on yet), "EOD?"
 * or anything else that short ends a running one; longer is data (before
 * any start: data that starts it, as ttcp_udp_step's). */
enum ttcp_udp_action ttcp_nuttcp_step(enum ttcp_udp_state *state, const unsigned char *d,
                                      size_t len);
/* The count at offset 24 of a data datagram, written (little-endian, as
 * x86 nuttcp does) and read in the order the first count showed
 * (*swapped: 0 unknown yet, 1 same, 2 swapped). 0 when len is too short. */
void ttcp_nuttcp_count_write(unsigned char *d, size_t len, uint64_t count);
uint64_t ttcp_nuttcp_count_read(const unsigned char *d, size_t len, int *swapped);

#endif
