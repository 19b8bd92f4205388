/* The control protocol's messages (docs/PROTOCOL.md): the magic that opens a
 * controlled connection, frames of a 2-byte length and a body of key=value
 * lines, and a bounded parser and builder for bodies. Pure: no I/O. */
#ifndef TTCP_PROTO_MESSAGE_H
#define TTCP_PROTO_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#define TTCP_PROTO_MAGIC "\xffTCTL\r\n\x1a"
#define TTCP_PROTO_MAGIC_LEN 8
#define TTCP_PROTO_LENGTH_LEN 2   /* the frame's length field, big-endian */
#define TTCP_PROTO_BODY_MAX 4096
#define TTCP_PROTO_FIELDS_MAX 64
#define TTCP_PROTO_KEY_MAX 32
#define TTCP_PROTO_VALUE_MAX 255

/* 1 when the first len bytes of a connection (len <= 8) can still become the
 * magic, 0 when they cannot: from then on the connection is classic data. */
int ttcp_proto_magic_prefix(const unsigned char *buf, size_t len);

/* 1 when len bytes start with the whole magic (a client's UDP token datagram). */
int ttcp_proto_is_magic(const unsigned char *buf, size_t len);

/* The body length a frame header announces, or -1 when it is out of range
 * (0, or more than TTCP_PROTO_BODY_MAX). */
int ttcp_proto_frame_length(const unsigned char header[TTCP_PROTO_LENGTH_LEN]);

/* A parsed body: the fields point into the message's own copy of it. */
struct ttcp_field {
    const char *key, *value;
};

struct ttcp_message {
    char text[TTCP_PROTO_BODY_MAX + 1]; /* the body, lines cut into strings */
    struct ttcp_field field[TTCP_PROTO_FIELDS_MAX];
    int count;
};

/* Parses a body of len bytes. 0, or -1 with a one-line reason in why (it
 * never quotes more than a short, printable part of the input). */
int ttcp_proto_parse(const unsigned char *body, size_t len, struct ttcp_message *m,
                     char *why, size_t why_len);

/* The message's type (its first field, msg=). */
const char *ttcp_proto_type(const struct ttcp_message *m);
/* A field's value, or NULL when the message has no such key. */
const char *ttcp_proto_get(const struct ttcp_message *m, const char *key);
/* A required number within [min, max]: 0, or -1 with a reason naming key. */
int ttcp_proto_get_u64(const struct ttcp_message *m, const char *key, uint64_t min,
                       uint64_t max, uint64_t *out, char *why, size_t why_len);

/* Builds a frame: its length field, then the body, field by field. */
struct ttcp_frame {
    unsigned char bytes[TTCP_PROTO_LENGTH_LEN + TTCP_PROTO_BODY_MAX];
    size_t len;     /* header and body so far */
    int count;      /* fields so far */
    int failed;     /* a field was refused, or the frame is full */
};

void ttcp_frame_begin(struct ttcp_frame *f, const char *type);
/* Adds key=value; a key or value that breaks the rules, or no more room,
 * marks the frame failed (ttcp_frame_end then returns -1). */
void ttcp_frame_add(struct ttcp_frame *f, const char *key, const char *value);
void ttcp_frame_add_u64(struct ttcp_frame *f, const char *key, uint64_t value);
/* Writes the length field; 0, or -1 when the frame failed. */
int ttcp_frame_end(struct ttcp_frame *f);

#endif
