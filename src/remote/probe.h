/* --latency through -C: the probes' datagrams, both ends' (docs/PROTOCOL.md
 * section 3b). The client's probe socket introduces itself with a hello
 * (the magic and a frame, `msg=probe token=...`, as a UDP stream's token
 * datagram); the server's echo socket, connected to that source, then
 * sends every probe back unchanged: PROBE_LEN bytes, a tag, the sequence
 * number and the client's send stamp. The server reads no more of a probe
 * than its tag and length, so an echo is never larger than what came. */
#ifndef TTCP_PROBE_H
#define TTCP_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/message.h"

#define TTCP_PROBE_LEN 32
#define TTCP_PROBE_TAG "ttcp-prb" /* 8 bytes, then seq (4), stamp (8), zeros */
#define TTCP_PROBE_TAG_LEN 8
/* the server echoes at most this many a second for a test (a probe every
 * 10 ms, --latency-interval's shortest, twice over) */
#define TTCP_PROBE_ECHO_PER_S 200

/* The hello datagram (magic + frame) into out[cap]: its length, or 0. */
size_t ttcp_probe_hello(const char *token, unsigned char *out, size_t cap);
/* A datagram on the shared port is a probe hello: 1 and its token copied
 * (TTCP_TOKEN_HEX + 1 bytes), else 0. */
int ttcp_probe_read_hello(const struct ttcp_message *m, char *token);
void ttcp_probe_build(unsigned char out[TTCP_PROBE_LEN], uint32_t seq, int64_t sent_ns);
/* 0 and its fields when buf holds a probe, else -1. */
int ttcp_probe_read(const unsigned char *buf, size_t len, uint32_t *seq, int64_t *sent_ns);
/* Whether the server echoes buf: a probe's length and tag. */
int ttcp_probe_echoable(const unsigned char *buf, size_t len);
#endif
