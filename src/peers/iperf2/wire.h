/* iperf2's messages (iperf 2.1.8 as Debian ships it; facts in
 * ../shared/peers.md section 14 and docs/COMPAT.md), pure: every number
 * big-endian on the wire, every length bounded, nothing read past len.
 *
 * What 2.1.8 puts on the wire (captured on loopback):
 * - TCP: the client's first 60 bytes are its test header: client_hdr_v1
 *   (flags, numThreads, mPort, mBufLen, mWinBand, mAmount: six 32-bit
 *   words) and the extension (type, length, upper and lower flags of 16
 *   bits, version_u, version_l, reserved and TOS of 16 bits, rate low and
 *   high (bits 32 and up, shifted 8 bits left), write prefetch: nine words). flags is EXTEND | LEN_BIT | the
 *   header's length << 1 (0x40010078); -r adds VERSION1 (the server
 *   connects back to mPort after the test), -d VERSION1 | RUN_NOW (at
 *   once); -R sets VERSION2 and the upper flag REVERSE (the server sends
 *   on the same connection), --full-duplex VERSION2 and FULLDUPLEX (both
 *   send on it at once). mAmount: bytes (> 0) or -(seconds * 100).
 *   The server answers an EXTEND header that is neither with a 28-byte
 *   CLIENTHDRACK (type 2, length 28, flags, version_u, version_l, two
 *   reserved words) before any data, and counts the header in its bytes.
 * - UDP: every datagram starts with {id, tv_sec, tv_usec, id2}: a 64-bit
 *   sequence number from 1, low word first, then the client header as in
 *   TCP (flags EXTEND | SEQNO64B | LEN_BIT | 76 << 1). The end is a run of
 *   datagrams whose sequence is negative, -(last + 1) first, one more
 *   negative each try, every 10 ms, until the server report comes.
 *   -u -R: one datagram (sequence 1, UDPTESTS | VERSION2, REVERSE) asks;
 *   the server sends datagrams of the same header from sequence 1 and
 *   ends with one of sequence -(last + 1), and reports nothing back.
 *   -u -r: VERSION1 in every datagram's header (-u -d: VERSION1 | RUN_NOW);
 *   after the client's test and its report (-d: at once) the server sends
 *   from a socket of its own to the client's address at mPort (its -L
 *   listener), as a client in compatibility mode: the sequence header
 *   alone in each datagram (then its pattern), 2.1.8's -l (1470) unless
 *   mBufLen names one, at the header's rate, for mAmount; it ends as a
 *   client does, negative sequences every 10 ms until the listener's
 *   report (the same 128 bytes) comes.
 *   -u --full-duplex: UDPTESTS | VERSION2, FULLDUPLEX | NOUDPFIN (which
 *   the server reads only beside UDPTESTS): both send, each ends with one
 *   negative datagram, and no report is asked for or sent.
 * - The server report: a 128-byte datagram: 16 bytes of datagram header,
 *   then server_hdr: flags (VERSION1 | SEQNO64B), total bytes (high, low
 *   words), stop time (s, us), lost, out of order, datagrams, jitter
 *   (s, us); 15 words of transit statistics; then the high words of lost,
 *   out of order and datagrams. */
#ifndef TTCP_PEERS_IPERF2_WIRE_H
#define TTCP_PEERS_IPERF2_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define TTCP_IPERF2_VERSION1 0x80000000u  /* -r: the server connects back after */
#define TTCP_IPERF2_EXTEND 0x40000000u    /* the extension follows the v1 words */
#define TTCP_IPERF2_UDPTESTS 0x20000000u
#define TTCP_IPERF2_SEQNO64B 0x08000000u  /* UDP: 64-bit sequence numbers */
#define TTCP_IPERF2_VERSION2 0x04000000u
#define TTCP_IPERF2_PEERDETECT 0x02000000u
#define TTCP_IPERF2_LEN_BIT 0x00010000u   /* the header's length is in the low bits */
#define TTCP_IPERF2_LEN_MASK 0x000001feu
#define TTCP_IPERF2_RUN_NOW 0x00000001u   /* with VERSION1: both ways at once (-d) */
#define TTCP_IPERF2_UP_REVERSE 0x0400u    /* upper flag: the server sends (-R) */
#define TTCP_IPERF2_UP_BWSET 0x0100u
#define TTCP_IPERF2_UP_FULLDUPLEX 0x0800u /* upper flag: both send at once (--full-duplex) */
#define TTCP_IPERF2_UP_NOUDPFIN 0x0008u   /* UDP: the end wants no server report */

#define TTCP_IPERF2_V1_LEN 24u            /* client_hdr_v1 alone (2.0's -r, -d) */
#define TTCP_IPERF2_TCP_HDR_LEN 60u       /* what 2.1.8 sends: v1 + extension */
#define TTCP_IPERF2_UDP_DGRAM_LEN 16u     /* id, tv_sec, tv_usec, id2 */
#define TTCP_IPERF2_UDP_HDR_LEN 76u       /* datagram header + the client header */
#define TTCP_IPERF2_HDR_MAX 256u          /* the longest header a length can say */
#define TTCP_IPERF2_ACK_TYPE 2            /* CLIENTHDRACK */
#define TTCP_IPERF2_ACK_LEN 28u
#define TTCP_IPERF2_REPORT_LEN 128u       /* 2.1.8's server report datagram */
#define TTCP_IPERF2_REPORT_MIN 56u        /* datagram header + server_hdr_v1 */
#define TTCP_IPERF2_THREADS_MAX 1000      /* iperf2's own -P limit is lower still */
/* The buffer 2.1.8's server sends from is its own -l (these by default):
 * asked by the header's mBufLen for longer writes (-R, --full-duplex), it
 * writes past it (valgrind: a heap overrun; a crash, now and then). */
#define TTCP_IPERF2_SERVER_TCP_BUF 131072u
#define TTCP_IPERF2_SERVER_UDP_BUF 1470u /* (TTCP_IPERF2_UDP_BUFLEN: -C --iperf2 -u -l) */
#define TTCP_IPERF2_VERSION_U 0x00020001u /* 2.1 */
#define TTCP_IPERF2_VERSION_L 0x00080003u /* .8, final */

/* The client's test header (TCP's first bytes; UDP after each datagram's
 * sequence header). */
struct ttcp_iperf2_hdr {
    uint32_t flags;
    int32_t threads;      /* numThreads: the client's -P */
    int32_t port;         /* mPort: where -r / -d connect back (the client's -L) */
    int32_t buflen;       /* mBufLen: 0 unless -l was given */
    int32_t window;       /* mWinBand: the client's -w, or UDP's rate */
    int32_t amount;       /* mAmount: bytes, or -(seconds * 100) */
    int extended;         /* the extension was there (EXTEND and room for it) */
    uint16_t upper, lower;
    uint32_t version_u, version_l;
    uint16_t tos;
    uint64_t rate;        /* UDP: the bits per second asked for */
};

/* What a client header asks the server to send (2.1.8's reading): SAME,
 * -R (the upper flag REVERSE): on the client's own connection or socket;
 * BACK_AFTER, -r (VERSION1): after the client's test, to the client's
 * address at mPort; BACK_NOW, -d (VERSION1 | RUN_NOW): that, at once;
 * NONE: nothing (VERSION1 beside VERSION2 is no v1 test, as 2.1.8 has it). */
enum ttcp_iperf2_send {
    TTCP_IPERF2_SEND_NONE,
    TTCP_IPERF2_SEND_SAME,
    TTCP_IPERF2_SEND_BACK_AFTER,
    TTCP_IPERF2_SEND_BACK_NOW
};
enum ttcp_iperf2_send ttcp_iperf2_hdr_send(const struct ttcp_iperf2_hdr *h);

/* A client header of the client's test: flags EXTEND | LEN_BIT | its
 * length, 2.1.8's version, with mAmount from bytes (0: none) or else
 * from ns. */
void ttcp_iperf2_hdr_init(struct ttcp_iperf2_hdr *h, int udp, int threads, uint64_t bytes,
                          int64_t ns);

/* Writes h at buf: 60 bytes (udp 0), or the 60 bytes after a datagram's
 * 16 (udp 1: buf is the datagram's start, its sequence header not
 * touched). Returns the bytes written, or 0 when len is too short. */
size_t ttcp_iperf2_hdr_write(unsigned char *buf, size_t len, const struct ttcp_iperf2_hdr *h,
                             int udp);

/* The server's recogniser, over the first len bytes of a TCP connection:
 * YES: an iperf2 client header, of *hdr_len bytes (h filled); NO: not one
 * (classic data, ttcp's control magic, an iperf2 client in -C mode that
 * sends none); MORE: too few bytes yet to tell (at most HDR_MAX needed).
 * The rule (no classic byte stream of 1.12's pattern, zeros or text can
 * pass it):
 *   - bytes 0-3, flags: VERSION1 or EXTEND set, and no bit outside those
 *     iperf2 defines (the mask of wire.c's KNOWN_FLAGS);
 *   - EXTEND: LEN_BIT set, the length (flags & LEN_MASK) >> 1 from 60 to
 *     256, and the extension's version_u's major (bytes 36-37) equal to 2;
 *     without EXTEND the header is the 24 v1 bytes (2.0's -r or -d);
 *   - numThreads (bytes 4-7) from 1 to THREADS_MAX, mPort (bytes 8-11)
 *     from 0 to 65535.
 * Decided NO as soon as any of those fails within the bytes at hand. */
enum ttcp_iperf2_seen { TTCP_IPERF2_NO, TTCP_IPERF2_YES, TTCP_IPERF2_MORE };
enum ttcp_iperf2_seen ttcp_iperf2_hdr_recognise(const unsigned char *buf, size_t len,
                                                struct ttcp_iperf2_hdr *h, size_t *hdr_len);

/* The server's recogniser of a UDP datagram on the shared port (every one
 * of iperf2's carries the client header, not just the first):
 *   - bytes 0-15, the sequence header: microseconds below 1000000, the
 *     sequence not 0 (START: positive, a test's data; END: negative, the
 *     end of a test this server may have finished already);
 *   - bytes 16 on, the client header as TCP's rule has it (flags, threads,
 *     port, version major 2), with EXTEND, LEN_BIT and SEQNO64B set and a
 *     length (counted from the datagram's start) from 76 to 256 that the
 *     datagram holds whole.
 * Anything else is NO (a classic datagram, ttcp's own, a marker). */
enum ttcp_iperf2_udp_seen { TTCP_IPERF2_UDP_NO, TTCP_IPERF2_UDP_START, TTCP_IPERF2_UDP_END };
enum ttcp_iperf2_udp_seen ttcp_iperf2_udp_recognise(const unsigned char *buf, size_t len,
                                                    struct ttcp_iperf2_hdr *h);

/* A UDP datagram's sequence header. seq < 0: the end, as iperf2 marks it. */
struct ttcp_iperf2_dgram {
    int64_t seq;
    uint32_t sec, usec;
};
void ttcp_iperf2_dgram_write(unsigned char *buf, const struct ttcp_iperf2_dgram *d);
/* 0, or -1 when len < 16 or usec is not below 1000000. */
int ttcp_iperf2_dgram_read(const unsigned char *buf, size_t len, struct ttcp_iperf2_dgram *d);
/* The sequence header of a datagram sent at at_ns (a clock's nanoseconds,
 * 0 or more: seconds and microseconds of it), at buf's first 16 bytes. */
void ttcp_iperf2_dgram_stamp(unsigned char *buf, int64_t seq, int64_t at_ns);

/* A receiver's reading of the datagrams of one sender (ttcp -S of iperf
 * -c -u; ttcp -C --iperf2 -u -r of iperf -s -u -R): each datagram's
 * sequence as 0, 1, ... and its sending moment from the first's, so the
 * differences stay exact in a double. */
struct ttcp_iperf2_arrivals {
    int64_t base_ns;     /* the first datagram's sending moment, as stamped */
    int based;
    int ended;           /* the sender's end came */
};
/* TTCP_IPERF2_TAKE_NONE: no sequence header (short, or sequence 0);
 * DATA: *seq = sequence - 1; END: the sender's end, -(last + 1), taken as
 * the datagram after the last (*seq = last), as iperf2 counts it. */
enum ttcp_iperf2_take { TTCP_IPERF2_TAKE_NONE, TTCP_IPERF2_TAKE_DATA, TTCP_IPERF2_TAKE_END };
enum ttcp_iperf2_take ttcp_iperf2_dgram_take(struct ttcp_iperf2_arrivals *a,
                                             const unsigned char *buf, size_t len,
                                             uint64_t *seq, int64_t *sent_ns);

/* The server's CLIENTHDRACK: builds 28 bytes; reads one (0, or -1 when it
 * is not one: type 2, its length from 8 to HDR_MAX and not above len). */
size_t ttcp_iperf2_ack_write(unsigned char *buf, size_t len);
int ttcp_iperf2_ack_read(const unsigned char *buf, size_t len, size_t *ack_len);

/* The UDP server report: what the server received of the test. */
struct ttcp_iperf2_report {
    uint32_t flags;
    uint64_t bytes;
    int64_t stop_ns;      /* the test's length as the server timed it */
    uint64_t lost, out_of_order, datagrams;
    int64_t jitter_ns;
};
/* Builds the 128-byte report datagram (sequence header 0). 0 when len is
 * too short. */
size_t ttcp_iperf2_report_write(unsigned char *buf, size_t len,
                                const struct ttcp_iperf2_report *r);
/* 0, or -1 with why: shorter than 56 bytes, no VERSION1 flag, a time's
 * microseconds not below 1000000 or a negative time or count. With
 * SEQNO64B and all 128 bytes the counts take their high words. */
int ttcp_iperf2_report_read(const unsigned char *buf, size_t len, struct ttcp_iperf2_report *r,
                            char *why, size_t why_len);

#endif
