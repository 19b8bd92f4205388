#include "report/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ttcp_json_init(struct ttcp_json *j)
{
    memset(j, 0, sizeof *j);
}

void ttcp_json_free(struct ttcp_json *j)
{
    free(j->buf);
    ttcp_json_init(j);
}

static void raw(struct ttcp_json *j, const char *text, size_t n)
{
    if (j->failed)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = (j->len + n + 1) * 2;
        char *grown = realloc(j->buf, cap);
        if (grown == NULL) {
            j->failed = 1;
            return;
        }
        j->buf = grown;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, text, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

static void rawf(struct ttcp_json *j, const char *fmt, ...)
{
    char text[64];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n > 0)
        raw(j, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

static void quoted(struct ttcp_json *j, const char *s)
{
    raw(j, "\"", 1);
    for (; s != NULL && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            raw(j, esc, 2);
        } else if (c < 0x20) {
            rawf(j, "\\u%04x", c);
        } else {
            raw(j, (const char *)&c, 1);
        }
    }
    raw(j, "\"", 1);
}

/* The comma before an item and its key, when inside an object. */
static void item(struct ttcp_json *j, const char *key)
{
    if (j->depth > 0 && j->items[j->depth - 1]++ > 0)
        raw(j, ",", 1);
    if (key != NULL) {
        quoted(j, key);
        raw(j, ":", 1);
    }
}

static void open_level(struct ttcp_json *j, const char *key, const char *bracket)
{
    item(j, key);
    raw(j, bracket, 1);
    if (j->depth >= TTCP_JSON_DEPTH) {
        j->failed = 1;
        return;
    }
    j->closers[j->depth] = bracket[0] == '{' ? '}' : ']';
    j->items[j->depth++] = 0;
}

void ttcp_json_object(struct ttcp_json *j, const char *key)
{
    open_level(j, key, "{");
}

void ttcp_json_array(struct ttcp_json *j, const char *key)
{
    open_level(j, key, "[");
}

void ttcp_json_end(struct ttcp_json *j)
{
    if (j->depth == 0) {
        j->failed = 1;
        return;
    }
    j->depth--;
    raw(j, &j->closers[j->depth], 1);
}

void ttcp_json_string(struct ttcp_json *j, const char *key, const char *value)
{
    item(j, key);
    quoted(j, value);
}

void ttcp_json_u64(struct ttcp_json *j, const char *key, uint64_t value)
{
    item(j, key);
    rawf(j, "%llu", (unsigned long long)value);
}

void ttcp_json_i64(struct ttcp_json *j, const char *key, int64_t value)
{
    item(j, key);
    rawf(j, "%lld", (long long)value);
}

void ttcp_json_double(struct ttcp_json *j, const char *key, double value)
{
    item(j, key);
    if (isfinite(value))
        rawf(j, "%.9g", value);
    else
        raw(j, "null", 4); /* JSON has no nan or inf */
}

void ttcp_json_bool(struct ttcp_json *j, const char *key, int value)
{
    item(j, key);
    raw(j, value ? "true" : "false", value ? 4 : 5);
}

void ttcp_json_null(struct ttcp_json *j, const char *key)
{
    item(j, key);
    raw(j, "null", 4);
}

void ttcp_json_value(struct ttcp_json *j, const char *key, const char *json_text)
{
    item(j, key);
    raw(j, json_text, strlen(json_text));
}
