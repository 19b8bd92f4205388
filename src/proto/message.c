/* The control protocol's framing and bodies (docs/PROTOCOL.md, "Framing").
 * Every rule is checked before anything is kept: a frame either parses
 * whole or is refused with the rule it broke. */
#include "proto/message.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "base/text.h"

int ttcp_proto_magic_prefix(const unsigned char *buf, size_t len)
{
    return len <= TTCP_PROTO_MAGIC_LEN && memcmp(buf, TTCP_PROTO_MAGIC, len) == 0;
}

int ttcp_proto_frame_length(const unsigned char header[TTCP_PROTO_LENGTH_LEN])
{
    int len = header[0] << 8 | header[1];
    return len >= 1 && len <= TTCP_PROTO_BODY_MAX ? len : -1;
}

static int key_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

/* A key as the rules allow it: 0, or -1 with the reason. */
static int check_key(const char *key, size_t len, char *why, size_t why_len)
{
    size_t i;
    if (len == 0 || len > TTCP_PROTO_KEY_MAX) {
        snprintf(why, why_len, "a key of %zu bytes (1 to %d)", len, TTCP_PROTO_KEY_MAX);
        return -1;
    }
    for (i = 0; i < len; i++)
        if (!key_char(key[i], i == 0)) {
            snprintf(why, why_len, "a key with a byte that no key has (0x%02x)",
                     (unsigned char)key[i]);
            return -1;
        }
    return 0;
}

static int check_value(const char *value, size_t len, char *why, size_t why_len)
{
    size_t i;
    if (len > TTCP_PROTO_VALUE_MAX) {
        snprintf(why, why_len, "a value of %zu bytes (at most %d)", len, TTCP_PROTO_VALUE_MAX);
        return -1;
    }
    for (i = 0; i < len; i++)
        if ((unsigned char)value[i] < 0x20 || (unsigned char)value[i] > 0x7e) {
            snprintf(why, why_len, "a value with an unprintable byte (0x%02x)",
                     (unsigned char)value[i]);
            return -1;
        }
    return 0;
}

/* One line, "key=value" without its "\n", cut in place into two strings. */
static int take_line(struct ttcp_message *m, char *line, size_t len, char *why, size_t why_len)
{
    char *eq = memchr(line, '=', len);
    int i;
    if (m->count == TTCP_PROTO_FIELDS_MAX) {
        snprintf(why, why_len, "more than %d fields", TTCP_PROTO_FIELDS_MAX);
        return -1;
    }
    if (eq == NULL) {
        snprintf(why, why_len, "field %d has no '='", m->count + 1);
        return -1;
    }
    if (check_key(line, (size_t)(eq - line), why, why_len) != 0 ||
        check_value(eq + 1, len - (size_t)(eq - line) - 1, why, why_len) != 0)
        return -1;
    *eq = '\0';
    line[len] = '\0';
    for (i = 0; i < m->count; i++)
        if (strcmp(m->field[i].key, line) == 0) {
            snprintf(why, why_len, "the key '%s' twice", line);
            return -1;
        }
    m->field[m->count].key = line;
    m->field[m->count++].value = eq + 1;
    return 0;
}

int ttcp_proto_parse(const unsigned char *body, size_t len, struct ttcp_message *m,
                     char *why, size_t why_len)
{
    size_t start = 0;
    int rc = 0;

    m->count = 0;
    if (len == 0 || len > TTCP_PROTO_BODY_MAX) {
        snprintf(why, why_len, "a body of %zu bytes (1 to %d)", len, TTCP_PROTO_BODY_MAX);
        return -1;
    }
    if (body[len - 1] != '\n') {
        snprintf(why, why_len, "a body that does not end with a line end");
        return -1;
    }
    memcpy(m->text, body, len);
    m->text[len] = '\0';
    while (start < len && rc == 0) {
        char *line = m->text + start;
        size_t n = (size_t)((char *)memchr(line, '\n', len - start) - line);
        rc = take_line(m, line, n, why, why_len);
        start += n + 1;
    }
    if (rc == 0 && strcmp(m->field[0].key, "msg") != 0) {
        snprintf(why, why_len, "a first field that is not msg=");
        rc = -1;
    }
    if (rc != 0) {
        m->count = 0;
        ttcp_text_printable(why);
    }
    return rc;
}

const char *ttcp_proto_type(const struct ttcp_message *m)
{
    return m->count > 0 ? m->field[0].value : "";
}

const char *ttcp_proto_get(const struct ttcp_message *m, const char *key)
{
    int i;
    for (i = 0; i < m->count; i++)
        if (strcmp(m->field[i].key, key) == 0)
            return m->field[i].value;
    return NULL;
}

int ttcp_proto_get_u64(const struct ttcp_message *m, const char *key, uint64_t min,
                       uint64_t max, uint64_t *out, char *why, size_t why_len)
{
    const char *value = ttcp_proto_get(m, key);
    char reason[160];
    if (value == NULL) {
        snprintf(why, why_len, "%s: missing", key);
        return -1;
    }
    if (ttcp_parse_u64(value, TTCP_SUFFIX_NONE, min, max, out, reason, sizeof reason) != 0) {
        snprintf(why, why_len, "%s: %s", key, reason);
        ttcp_text_printable(why);
        return -1;
    }
    return 0;
}

void ttcp_frame_begin(struct ttcp_frame *f, const char *type)
{
    f->len = TTCP_PROTO_LENGTH_LEN;
    f->count = 0;
    f->failed = 0;
    ttcp_frame_add(f, "msg", type);
}

void ttcp_frame_add(struct ttcp_frame *f, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value), need = klen + 1 + vlen + 1;
    char why[96];
    if (f->failed || f->count == TTCP_PROTO_FIELDS_MAX ||
        f->len - TTCP_PROTO_LENGTH_LEN + need > TTCP_PROTO_BODY_MAX ||
        check_key(key, klen, why, sizeof why) != 0 ||
        check_value(value, vlen, why, sizeof why) != 0) {
        f->failed = 1;
        return;
    }
    memcpy(f->bytes + f->len, key, klen);
    f->bytes[f->len + klen] = '=';
    memcpy(f->bytes + f->len + klen + 1, value, vlen);
    f->bytes[f->len + klen + 1 + vlen] = '\n';
    f->len += need;
    f->count++;
}

void ttcp_frame_add_u64(struct ttcp_frame *f, const char *key, uint64_t value)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)value);
    ttcp_frame_add(f, key, text);
}

int ttcp_frame_end(struct ttcp_frame *f)
{
    size_t body = f->len - TTCP_PROTO_LENGTH_LEN;
    if (f->failed)
        return -1;
    f->bytes[0] = (unsigned char)(body >> 8);
    f->bytes[1] = (unsigned char)body;
    return 0;
}

int ttcp_proto_is_magic(const unsigned char *buf, size_t len)
{
    return len >= TTCP_PROTO_MAGIC_LEN && memcmp(buf, TTCP_PROTO_MAGIC, TTCP_PROTO_MAGIC_LEN) == 0;
}
