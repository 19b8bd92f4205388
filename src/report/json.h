/* A small JSON writer: well-formed by construction (commas, nesting,
 * escaping), numbers that are not finite written as null. */
#ifndef TTCP_JSON_H
#define TTCP_JSON_H

#include <stddef.h>
#include <stdint.h>

#define TTCP_JSON_DEPTH 16

struct ttcp_json {
    char *buf;
    size_t len, cap;
    int depth;
    int items[TTCP_JSON_DEPTH];   /* members written at each level */
    char closers[TTCP_JSON_DEPTH]; /* '}' or ']' for each open level */
    int failed;                 /* out of memory or too deep */
};

void ttcp_json_init(struct ttcp_json *j);
void ttcp_json_free(struct ttcp_json *j);

/* key is NULL inside an array. */
void ttcp_json_object(struct ttcp_json *j, const char *key);
void ttcp_json_array(struct ttcp_json *j, const char *key);
void ttcp_json_end(struct ttcp_json *j); /* closes the innermost object or array */
void ttcp_json_string(struct ttcp_json *j, const char *key, const char *value);
void ttcp_json_u64(struct ttcp_json *j, const char *key, uint64_t value);
void ttcp_json_i64(struct ttcp_json *j, const char *key, int64_t value);
void ttcp_json_double(struct ttcp_json *j, const char *key, double value);
void ttcp_json_bool(struct ttcp_json *j, const char *key, int value);
void ttcp_json_null(struct ttcp_json *j, const char *key);
/* A value another writer made (well-formed: this writer's own output). */
void ttcp_json_value(struct ttcp_json *j, const char *key, const char *json_text);

#endif
