/* iperf3's results message (wire.h), both ways: the figures of the end
 * that sends it, stream by stream, exchanged once the test has ended. */
#include "peers/iperf3/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "peers/iperf3/json.h"

#define MAX_SECONDS (2.0 * TTCP_IPERF3_MAX_TIME + TTCP_IPERF3_MAX_OMIT)
#define MAX_CPU 100000.0 /* percent: 1000 CPUs busy */

static int add_stream(cJSON *arr, const struct ttcp_iperf3_stream_result *s)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL || !cJSON_AddItemToArray(arr, o))
        return (cJSON_Delete(o), 0);
    return cJSON_AddNumberToObject(o, "id", s->id) && ttcp_iperf3_json_add_u64(o, "bytes", s->bytes) &&
           cJSON_AddNumberToObject(o, "retransmits", (double)s->retransmits) &&
           cJSON_AddNumberToObject(o, "jitter", s->jitter_s) &&
           ttcp_iperf3_json_add_u64(o, "errors", s->errors) &&
           ttcp_iperf3_json_add_u64(o, "omitted_errors", s->omitted_errors) &&
           ttcp_iperf3_json_add_u64(o, "packets", s->packets) &&
           ttcp_iperf3_json_add_u64(o, "omitted_packets", s->omitted_packets) &&
           cJSON_AddNumberToObject(o, "start_time", s->start_time) &&
           cJSON_AddNumberToObject(o, "end_time", s->end_time);
}

/* server_output_text / server_output_json, when given. */
static int add_server_output(cJSON *j, const struct ttcp_iperf3_results *r)
{
    cJSON *sub;
    if (r->server_output_text != NULL &&
        cJSON_AddStringToObject(j, "server_output_text", r->server_output_text) == NULL)
        return 0;
    if (r->server_output_json == NULL)
        return 1;
    sub = cJSON_Parse(r->server_output_json);
    if (sub == NULL || !cJSON_AddItemToObject(j, "server_output_json", sub))
        return (cJSON_Delete(sub), 0);
    return 1;
}

int ttcp_iperf3_results_build(const struct ttcp_iperf3_results *r, char *buf, size_t cap,
                              size_t *len)
{
    cJSON *j = cJSON_CreateObject(), *arr = NULL;
    int ok = j != NULL, i, rc = -1;
    ok = ok && cJSON_AddNumberToObject(j, "cpu_util_total", r->cpu_total) &&
         cJSON_AddNumberToObject(j, "cpu_util_user", r->cpu_user) &&
         cJSON_AddNumberToObject(j, "cpu_util_system", r->cpu_system) &&
         cJSON_AddNumberToObject(j, "sender_has_retransmits", r->sender_has_retransmits);
    if (ok && r->congestion_used[0])
        ok = cJSON_AddStringToObject(j, "congestion_used", r->congestion_used) != NULL;
    ok = ok && r->n >= 0 && r->n <= TTCP_IPERF3_MAX_STREAMS &&
         (arr = cJSON_AddArrayToObject(j, "streams")) != NULL;
    for (i = 0; ok && i < r->n; i++)
        ok = add_stream(arr, &r->streams[i]);
    if (ok && add_server_output(j, r))
        rc = ttcp_iperf3_json_print(j, buf, cap, TTCP_IPERF3_RESULTS_MAX, len);
    cJSON_Delete(j);
    return rc;
}

/* The keys iperf3 requires of every stream. */
static int has_required(const cJSON *o, char *why, size_t why_len)
{
    static const char *const keys[] = {"id", "bytes", "retransmits", "jitter", "errors",
                                       "packets"};
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (cJSON_GetObjectItemCaseSensitive(o, keys[i]) == NULL) {
            snprintf(why, why_len, "iperf3 results: a stream without \"%s\"", keys[i]);
            return 0;
        }
    return 1;
}

static int read_stream(const cJSON *o, struct ttcp_iperf3_stream_result *s, char *why,
                       size_t why_len)
{
    int64_t id = 0;
    memset(s, 0, sizeof *s);
    if (!cJSON_IsObject(o)) {
        snprintf(why, why_len, "iperf3 results: a stream that is not an object");
        return -1;
    }
    if (!has_required(o, why, why_len) ||
        ttcp_iperf3_json_i64(o, "id", 1, 0x7fffffff, &id, why, why_len) ||
        ttcp_iperf3_json_u64(o, "bytes", 0, TTCP_IPERF3_MAX_NUM, &s->bytes, why, why_len) ||
        ttcp_iperf3_json_count(o, "retransmits", 0x7fffffffffffll, &s->retransmits, why,
                               why_len) ||
        ttcp_iperf3_json_double(o, "jitter", 0, MAX_SECONDS, &s->jitter_s, why, why_len) ||
        ttcp_iperf3_json_u64(o, "errors", 0, TTCP_IPERF3_MAX_NUM, &s->errors, why, why_len) ||
        ttcp_iperf3_json_u64(o, "omitted_errors", 0, TTCP_IPERF3_MAX_NUM, &s->omitted_errors,
                             why, why_len) ||
        ttcp_iperf3_json_u64(o, "packets", 0, TTCP_IPERF3_MAX_NUM, &s->packets, why, why_len) ||
        ttcp_iperf3_json_u64(o, "omitted_packets", 0, TTCP_IPERF3_MAX_NUM,
                             &s->omitted_packets, why, why_len) ||
        ttcp_iperf3_json_double(o, "start_time", 0, MAX_SECONDS, &s->start_time, why,
                                why_len) ||
        ttcp_iperf3_json_double(o, "end_time", 0, MAX_SECONDS, &s->end_time, why, why_len))
        return -1;
    s->id = (int32_t)id;
    return 0;
}

static int read_streams(const cJSON *arr, struct ttcp_iperf3_results *r, char *why,
                        size_t why_len)
{
    const cJSON *o;
    int k;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > TTCP_IPERF3_MAX_STREAMS) {
        snprintf(why, why_len, "iperf3 results: \"streams\" is not an array of at most %d",
                 TTCP_IPERF3_MAX_STREAMS);
        return -1;
    }
    cJSON_ArrayForEach(o, arr)
    {
        if (read_stream(o, &r->streams[r->n], why, why_len) != 0)
            return -1;
        for (k = 0; k < r->n; k++)
            if (r->streams[k].id == r->streams[r->n].id) {
                snprintf(why, why_len, "iperf3 results: stream %d twice",
                         (int)r->streams[k].id);
                return -1;
            }
        r->n++;
    }
    return 0;
}

static int read_output_text(const cJSON *j, struct ttcp_iperf3_results *r, char *why,
                            size_t why_len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "server_output_text");
    size_t n;
    if (v == NULL)
        return 0;
    if (!cJSON_IsString(v) || v->valuestring == NULL) {
        snprintf(why, why_len, "iperf3 results: \"server_output_text\" is not a string");
        return -1;
    }
    n = strlen(v->valuestring); /* bounded by the message's own bound */
    r->server_output_text = malloc(n + 1);
    if (r->server_output_text == NULL) {
        snprintf(why, why_len, "iperf3 results: out of memory");
        return -1;
    }
    memcpy(r->server_output_text, v->valuestring, n + 1);
    return 0;
}

static int read_results(const cJSON *j, struct ttcp_iperf3_results *r, char *why,
                        size_t why_len)
{
    int64_t has = -1;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, "streams");
    if (arr == NULL) {
        snprintf(why, why_len, "iperf3 results: no \"streams\"");
        return -1;
    }
    if (ttcp_iperf3_json_double(j, "cpu_util_total", 0, MAX_CPU, &r->cpu_total, why, why_len) ||
        ttcp_iperf3_json_double(j, "cpu_util_user", 0, MAX_CPU, &r->cpu_user, why, why_len) ||
        ttcp_iperf3_json_double(j, "cpu_util_system", 0, MAX_CPU, &r->cpu_system, why,
                                why_len) ||
        ttcp_iperf3_json_count(j, "sender_has_retransmits", 1, &has, why, why_len) ||
        ttcp_iperf3_json_text(j, "congestion_used", r->congestion_used,
                              sizeof r->congestion_used, why, why_len) ||
        read_streams(arr, r, why, why_len) || read_output_text(j, r, why, why_len))
        return -1;
    r->sender_has_retransmits = (int)has;
    return 0;
}

int ttcp_iperf3_results_parse(const char *json, size_t len, struct ttcp_iperf3_results *r,
                              char *why, size_t why_len)
{
    cJSON *j;
    int rc;
    memset(r, 0, sizeof *r);
    r->sender_has_retransmits = -1;
    if (why_len > 0)
        why[0] = '\0';
    j = len > 0 && len <= TTCP_IPERF3_RESULTS_MAX ? cJSON_ParseWithLength(json, len) : NULL;
    if (j == NULL || !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        snprintf(why, why_len, "iperf3 results: not a JSON object of at most %u bytes",
                 TTCP_IPERF3_RESULTS_MAX);
        return TTCP_IPERF3_BAD;
    }
    rc = read_results(j, r, why, why_len) == 0 ? TTCP_IPERF3_OK : TTCP_IPERF3_BAD;
    cJSON_Delete(j);
    if (rc != TTCP_IPERF3_OK)
        ttcp_iperf3_results_release(r);
    return rc;
}

void ttcp_iperf3_results_release(struct ttcp_iperf3_results *r)
{
    free(r->server_output_text);
    r->server_output_text = NULL;
}

const struct ttcp_iperf3_stream_result *ttcp_iperf3_results_stream(
    const struct ttcp_iperf3_results *r, int32_t id)
{
    int i;
    for (i = 0; i < r->n; i++)
        if (r->streams[i].id == id)
            return &r->streams[i];
    return NULL;
}
