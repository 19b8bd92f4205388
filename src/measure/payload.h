/* What the transmitter sends in sink mode, and how a receiver checks it. */
#ifndef TTCP_PAYLOAD_H
#define TTCP_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

enum ttcp_payload {
    TTCP_PAYLOAD_CLASSIC, /* 1.12's printable bytes, restarting every buffer */
    TTCP_PAYLOAD_RANDOM,  /* incompressible, never repeating: a seeded stream */
    TTCP_PAYLOAD_ZEROS    /* as compressible as data gets */
};

/* "classic", "random", "zeros" -> the enum; -1 for anything else. */
int ttcp_payload_parse(const char *text);
const char *ttcp_payload_name(enum ttcp_payload p);

/* A small fast generator (xorshift64*): the random pattern's bytes. */
struct ttcp_prng {
    uint64_t state;
    unsigned char spare[8]; /* made but not yet handed out */
    size_t spare_len;
};

void ttcp_prng_seed(struct ttcp_prng *g, uint64_t seed);
/* Fills len bytes; the stream continues byte for byte across calls,
 * however the calls cut it. */
void ttcp_prng_fill(struct ttcp_prng *g, unsigned char *buf, size_t len);

/* The random TCP stream begins with this preamble: magic and the seed, so a
 * receiver can check it without being told the seed. */
#define TTCP_RANDOM_MAGIC "ttcpRND1"
#define TTCP_RANDOM_PREAMBLE 16
void ttcp_random_preamble(unsigned char out[TTCP_RANDOM_PREAMBLE], uint64_t seed);
/* 1 and the seed when buf starts with a preamble. */
int ttcp_random_preamble_read(const unsigned char *buf, size_t len, uint64_t *seed);

/* Checks a received stream piece by piece: the classic pattern of a given
 * buffer length, or the random stream (its seed from the preamble or set
 * beforehand). Counts the bytes that differ from what was sent. */
#define TTCP_PAYLOAD_AUTO (-1) /* the verifier tells the kind from the first bytes */

struct ttcp_verifier {
    int kind;              /* enum ttcp_payload, or TTCP_PAYLOAD_AUTO until known */
    uint64_t classic_len;  /* the sender's buffer length (classic) */
    uint64_t offset;       /* stream bytes checked so far */
    uint64_t corrupted;    /* bytes that differ */
    uint64_t first_bad;    /* offset of the first, when corrupted != 0 */
    uint64_t unchecked;    /* UDP: bytes in datagrams of no known pattern */
    uint64_t seed;         /* random: from the preamble, else the one given */
    struct ttcp_prng prng;
    unsigned char head[TTCP_RANDOM_PREAMBLE]; /* random: the preamble as it arrives */
};

/* seed: the random pattern's seed to use when the stream's own preamble
 * arrives damaged (--seed on the receiver). */
void ttcp_verify_start(struct ttcp_verifier *v, int kind, uint64_t classic_len,
                       uint64_t seed);
void ttcp_verify_bytes(struct ttcp_verifier *v, const unsigned char *buf, size_t len);

/* One datagram's payload: the bytes that differ from the pattern that
 * starts `offset` bytes into a buffer (classic, zeros), or from the
 * generator seeded with seed (random). */
uint64_t ttcp_payload_check(enum ttcp_payload kind, uint64_t seed, uint64_t offset,
                            const unsigned char *buf, size_t len);

#endif
