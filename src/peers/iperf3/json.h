/* iperf3's JSON values, bounded (wire.c and wire_results.c's helpers):
 * each reader leaves its output alone when the key is absent, returns 0,
 * or -1 with a line in why when the key is of the wrong type or out of
 * bounds. Numbers are JSON doubles: an integer must be whole and exact. */
#ifndef TTCP_PEERS_IPERF3_JSON_H
#define TTCP_PEERS_IPERF3_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

int ttcp_iperf3_json_u64(const cJSON *j, const char *key, uint64_t min, uint64_t max,
                         uint64_t *out, char *why, size_t why_len);
int ttcp_iperf3_json_i64(const cJSON *j, const char *key, int64_t min, int64_t max,
                         int64_t *out, char *why, size_t why_len);
/* A count or -1 for "unknown" (which 3.12 sends as 2^64 - 1), in [-1, max]. */
int ttcp_iperf3_json_count(const cJSON *j, const char *key, int64_t max, int64_t *out,
                           char *why, size_t why_len);
/* A finite number in [min, max]. */
int ttcp_iperf3_json_double(const cJSON *j, const char *key, double min, double max,
                            double *out, char *why, size_t why_len);
/* true/false, or a number (not 0: set), as iperf3 sends flags both ways. */
int ttcp_iperf3_json_flag(const cJSON *j, const char *key, int *out, char *why,
                          size_t why_len);
/* A string of printable ASCII that fits cap with its NUL. */
int ttcp_iperf3_json_text(const cJSON *j, const char *key, char *out, size_t cap, char *why,
                          size_t why_len);
/* Adds key: v as a number; 1, or 0 when out of memory. */
int ttcp_iperf3_json_add_u64(cJSON *j, const char *key, uint64_t v);
/* j unformatted into buf (cap bytes, NUL-terminated), at most max bytes
 * without the NUL: 0 with *len, or -1. */
int ttcp_iperf3_json_print(const cJSON *j, char *buf, size_t cap, size_t max, size_t *len);

#endif
