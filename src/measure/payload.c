/* Payload patterns and the receiver's check of them. The random pattern is
 * a seeded xorshift64* stream: incompressible, never repeating a block (a
 * modem's compression cannot flatter it), and about a nanosecond per 8
 * bytes to make. */
#include "measure/payload.h"

#include <string.h>

#include "base/le64.h"
#include "measure/pattern.h"

static const char *const names[] = {
    [TTCP_PAYLOAD_CLASSIC] = "classic",
    [TTCP_PAYLOAD_RANDOM] = "random",
    [TTCP_PAYLOAD_ZEROS] = "zeros",
};

int ttcp_payload_parse(const char *text)
{
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i]) == 0)
            return (int)i;
    return -1;
}

const char *ttcp_payload_name(enum ttcp_payload p)
{
    return (unsigned)p < sizeof names / sizeof names[0] ? names[p] : "unknown";
}

void ttcp_prng_seed(struct ttcp_prng *g, uint64_t seed)
{
    /* splitmix64 of the seed: any seed, 0 included, gives a good state */
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    g->state = (z ^ (z >> 31)) | 1;
    g->spare_len = 0;
}

static uint64_t next_word(struct ttcp_prng *g)
{
    g->state ^= g->state >> 12;
    g->state ^= g->state << 25;
    g->state ^= g->state >> 27;
    return g->state * 0x2545F4914F6CDD1Dull;
}

void ttcp_prng_fill(struct ttcp_prng *g, unsigned char *buf, size_t len)
{
    size_t take = g->spare_len < len ? g->spare_len : len;
    memcpy(buf, g->spare + 8 - g->spare_len, take);
    g->spare_len -= take;
    buf += take;
    len -= take;
    for (; len >= 8; buf += 8, len -= 8)
        ttcp_le64_put(buf, next_word(g));
    if (len > 0) {
        ttcp_le64_put(g->spare, next_word(g));
        memcpy(buf, g->spare, len);
        g->spare_len = 8 - len;
    }
}

void ttcp_random_preamble(unsigned char out[TTCP_RANDOM_PREAMBLE], uint64_t seed)
{
    memcpy(out, TTCP_RANDOM_MAGIC, 8);
    ttcp_le64_put(out + 8, seed);
}

int ttcp_random_preamble_read(const unsigned char *buf, size_t len, uint64_t *seed)
{
    if (len < TTCP_RANDOM_PREAMBLE || memcmp(buf, TTCP_RANDOM_MAGIC, 8) != 0)
        return 0;
    *seed = ttcp_le64_get(buf + 8);
    return 1;
}

void ttcp_verify_start(struct ttcp_verifier *v, int kind, uint64_t classic_len,
                       uint64_t seed)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->classic_len = classic_len;
    v->seed = seed;
}

static void mismatch(struct ttcp_verifier *v, uint64_t at)
{
    if (v->corrupted++ == 0)
        v->first_bad = at;
}

/* The first byte tells the sender's pattern: ' ' classic, 0 zeros, 't' the
 * random preamble. */
static void decide_kind(struct ttcp_verifier *v, unsigned char first)
{
    v->kind = first == 't' ? TTCP_PAYLOAD_RANDOM : first == 0 ? TTCP_PAYLOAD_ZEROS
                                                              : TTCP_PAYLOAD_CLASSIC;
}

/* Random: the preamble (16 bytes) first, then the seeded stream. */
static size_t verify_preamble(struct ttcp_verifier *v, const unsigned char *buf, size_t len)
{
    size_t take = TTCP_RANDOM_PREAMBLE - (size_t)v->offset;
    uint64_t seed;
    size_t i;
    if (take > len)
        take = len;
    memcpy(v->head + v->offset, buf, take);
    v->offset += take;
    if (v->offset < TTCP_RANDOM_PREAMBLE)
        return take;
    if (ttcp_random_preamble_read(v->head, TTCP_RANDOM_PREAMBLE, &seed)) {
        v->seed = seed;
    } else {
        for (i = 0; i < TTCP_RANDOM_PREAMBLE; i++)
            mismatch(v, i);
    }
    ttcp_prng_seed(&v->prng, v->seed);
    return take;
}

static void verify_random(struct ttcp_verifier *v, const unsigned char *buf, size_t len)
{
    unsigned char want[256];
    while (len > 0) {
        size_t n = len < sizeof want ? len : sizeof want, i;
        ttcp_prng_fill(&v->prng, want, n);
        for (i = 0; i < n; i++)
            if (buf[i] != want[i])
                mismatch(v, v->offset + i);
        v->offset += n;
        buf += n;
        len -= n;
    }
}

void ttcp_verify_bytes(struct ttcp_verifier *v, const unsigned char *buf, size_t len)
{
    size_t i;
    if (len == 0)
        return;
    if (v->kind == TTCP_PAYLOAD_AUTO)
        decide_kind(v, buf[0]);
    if (v->kind == TTCP_PAYLOAD_RANDOM) {
        if (v->offset < TTCP_RANDOM_PREAMBLE) {
            size_t used = verify_preamble(v, buf, len);
            buf += used;
            len -= used;
        }
        verify_random(v, buf, len);
        return;
    }
    for (i = 0; i < len; i++, v->offset++) {
        unsigned char want = v->kind == TTCP_PAYLOAD_ZEROS ? 0
                             : v->classic_len ? ttcp_pattern_byte(v->offset % v->classic_len)
                                              : ttcp_pattern_byte(v->offset);
        /* The classic pattern restarts at every sender buffer: the first
         * restart tells that buffer's length. */
        if (buf[i] != want && v->kind == TTCP_PAYLOAD_CLASSIC && v->classic_len == 0 &&
            v->offset > 0 && buf[i] == ttcp_pattern_byte(0))
            v->classic_len = v->offset;
        else if (buf[i] != want)
            mismatch(v, v->offset);
    }
}

uint64_t ttcp_payload_check(enum ttcp_payload kind, uint64_t seed, uint64_t offset,
                            const unsigned char *buf, size_t len)
{
    struct ttcp_verifier v;
    ttcp_verify_start(&v, (int)kind, 0, seed);
    if (kind == TTCP_PAYLOAD_RANDOM) {
        ttcp_prng_seed(&v.prng, seed);
        v.offset = TTCP_RANDOM_PREAMBLE; /* no preamble in a datagram */
    } else {
        v.offset = offset;
        v.classic_len = UINT64_MAX;
    }
    ttcp_verify_bytes(&v, buf, len);
    return v.corrupted;
}
