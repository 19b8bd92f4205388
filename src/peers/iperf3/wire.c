/* iperf3's messages (wire.h): the states, the cookie, the length field,
 * SERVER_ERROR's integers, the UDP connect words and the parameters
 * message; the results message is wire_results.c's. */
#include "peers/iperf3/wire.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "peers/iperf3/json.h"

static const char cookie_chars[] = "abcdefghijklmnopqrstuvwxyz234567";

unsigned char ttcp_iperf3_state_byte(enum ttcp_iperf3_state st)
{
    return (unsigned char)(signed char)st;
}

static const struct {
    enum ttcp_iperf3_state st;
    const char *name;
} states[] = {
    {TTCP_IPERF3_TEST_START, "TEST_START"},
    {TTCP_IPERF3_TEST_RUNNING, "TEST_RUNNING"},
    {TTCP_IPERF3_TEST_END, "TEST_END"},
    {TTCP_IPERF3_PARAM_EXCHANGE, "PARAM_EXCHANGE"},
    {TTCP_IPERF3_CREATE_STREAMS, "CREATE_STREAMS"},
    {TTCP_IPERF3_SERVER_TERMINATE, "SERVER_TERMINATE"},
    {TTCP_IPERF3_CLIENT_TERMINATE, "CLIENT_TERMINATE"},
    {TTCP_IPERF3_EXCHANGE_RESULTS, "EXCHANGE_RESULTS"},
    {TTCP_IPERF3_DISPLAY_RESULTS, "DISPLAY_RESULTS"},
    {TTCP_IPERF3_IPERF_START, "IPERF_START"},
    {TTCP_IPERF3_IPERF_DONE, "IPERF_DONE"},
    {TTCP_IPERF3_ACCESS_DENIED, "ACCESS_DENIED"},
    {TTCP_IPERF3_SERVER_ERROR, "SERVER_ERROR"},
};

int ttcp_iperf3_state_known(unsigned char b, enum ttcp_iperf3_state *st)
{
    size_t i;
    for (i = 0; i < sizeof states / sizeof states[0]; i++)
        if (ttcp_iperf3_state_byte(states[i].st) == b) {
            *st = states[i].st;
            return 1;
        }
    return 0;
}

const char *ttcp_iperf3_state_name(enum ttcp_iperf3_state st)
{
    size_t i;
    for (i = 0; i < sizeof states / sizeof states[0]; i++)
        if (states[i].st == st)
            return states[i].name;
    return "?";
}

void ttcp_iperf3_cookie_make(const unsigned char random[36], char cookie[TTCP_IPERF3_COOKIE_LEN])
{
    int i;
    for (i = 0; i < TTCP_IPERF3_COOKIE_LEN - 1; i++)
        cookie[i] = cookie_chars[random[i] % 32];
    cookie[TTCP_IPERF3_COOKIE_LEN - 1] = '\0';
}

int ttcp_iperf3_cookie_valid(const unsigned char cookie[TTCP_IPERF3_COOKIE_LEN])
{
    int i;
    for (i = 0; i < TTCP_IPERF3_COOKIE_LEN - 1; i++)
        if (cookie[i] == '\0' || strchr(cookie_chars, cookie[i]) == NULL)
            return 0;
    return cookie[TTCP_IPERF3_COOKIE_LEN - 1] == '\0';
}

static void put32(uint32_t v, unsigned char *out)
{
    out[0] = (unsigned char)(v >> 24);
    out[1] = (unsigned char)(v >> 16);
    out[2] = (unsigned char)(v >> 8);
    out[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *in)
{
    return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 | (uint32_t)in[2] << 8 | in[3];
}

void ttcp_iperf3_length_put(uint32_t len, unsigned char out[4])
{
    put32(len, out);
}

int ttcp_iperf3_length_get(const unsigned char in[4], uint32_t max, uint32_t *len)
{
    *len = get32(in);
    return *len == 0 || *len > max ? -1 : 0;
}

void ttcp_iperf3_error_put(int32_t ierrno, int32_t err, unsigned char out[8])
{
    put32((uint32_t)ierrno, out);
    put32((uint32_t)err, out + 4);
}

void ttcp_iperf3_error_get(const unsigned char in[8], int32_t *ierrno, int32_t *err)
{
    *ierrno = (int32_t)get32(in);
    *err = (int32_t)get32(in + 4);
}

int32_t ttcp_iperf3_stream_id(int k)
{
    return k == 0 ? 1 : (int32_t)k + 2;
}

int ttcp_iperf3_udp_connect_ok(const unsigned char *b, size_t len)
{
    /* iperf3's server does not look at the bytes: any 4 will do */
    (void)b;
    return len == 4;
}

int ttcp_iperf3_udp_reply_ok(const unsigned char *b, size_t len)
{
    static const unsigned char legacy_le[4] = {0xB1, 0x68, 0xDE, 0x3A};
    static const unsigned char legacy_be[4] = {0x3A, 0xDE, 0x68, 0xB1};
    return len == 4 && (memcmp(b, TTCP_IPERF3_UDP_REPLY, 4) == 0 ||
                        memcmp(b, TTCP_IPERF3_UDP_CONNECT, 4) == 0 ||
                        memcmp(b, legacy_le, 4) == 0 || memcmp(b, legacy_be, 4) == 0);
}

/* The parameters' optional keys: a number when not 0, a string when not "". */
static int add_params_numbers(cJSON *j, const struct ttcp_iperf3_params *p)
{
    int ok = ttcp_iperf3_json_add_u64(j, "omit", p->omit_s) &&
             ttcp_iperf3_json_add_u64(j, "time", p->time_s) &&
             ttcp_iperf3_json_add_u64(j, "num", p->num) &&
             ttcp_iperf3_json_add_u64(j, "blockcount", p->blockcount) &&
             ttcp_iperf3_json_add_u64(j, "parallel", p->parallel) &&
             ttcp_iperf3_json_add_u64(j, "len", p->len) &&
             ttcp_iperf3_json_add_u64(j, "bandwidth", p->bandwidth) &&
             ttcp_iperf3_json_add_u64(j, "pacing_timer", 1000);
    if (ok && p->mss)
        ok = ttcp_iperf3_json_add_u64(j, "MSS", p->mss);
    if (ok && p->window)
        ok = ttcp_iperf3_json_add_u64(j, "window", p->window);
    if (ok && p->tos)
        ok = ttcp_iperf3_json_add_u64(j, "TOS", p->tos);
    if (ok && p->get_server_output)
        ok = ttcp_iperf3_json_add_u64(j, "get_server_output", 1);
    if (ok && p->udp_counters_64bit)
        ok = ttcp_iperf3_json_add_u64(j, "udp_counters_64bit", 1);
    return ok;
}

/* The flags iperf3 sends as true when set (and leaves out otherwise). */
static int add_params_flags(cJSON *j, const struct ttcp_iperf3_params *p)
{
    int ok = cJSON_AddTrueToObject(j, p->udp ? "udp" : "tcp") != NULL;
    if (ok && p->reverse)
        ok = cJSON_AddTrueToObject(j, "reverse") != NULL;
    if (ok && p->bidirectional)
        ok = cJSON_AddTrueToObject(j, "bidirectional") != NULL;
    if (ok && p->nodelay)
        ok = cJSON_AddTrueToObject(j, "nodelay") != NULL;
    if (ok && p->congestion[0])
        ok = cJSON_AddStringToObject(j, "congestion", p->congestion) != NULL;
    if (ok && p->title[0])
        ok = cJSON_AddStringToObject(j, "title", p->title) != NULL;
    if (ok && p->client_version[0])
        ok = cJSON_AddStringToObject(j, "client_version", p->client_version) != NULL;
    return ok;
}

int ttcp_iperf3_params_build(const struct ttcp_iperf3_params *p, char *buf, size_t cap,
                             size_t *len)
{
    cJSON *j = cJSON_CreateObject();
    int rc = -1;
    if (j != NULL && add_params_flags(j, p) && add_params_numbers(j, p))
        rc = ttcp_iperf3_json_print(j, buf, cap, TTCP_IPERF3_PARAMS_MAX, len);
    cJSON_Delete(j);
    return rc;
}

/* The numbers' keys and bounds. */
static int read_params_numbers(const cJSON *j, struct ttcp_iperf3_params *p, char *why,
                               size_t why_len)
{
    uint64_t v[10] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    v[5] = p->len; /* the protocol's default when len is left out */
    uint32_t block_min = p->udp ? TTCP_IPERF3_UDP_MIN_BLOCK : 1;
    uint32_t block_max = p->udp ? TTCP_IPERF3_UDP_MAX_BLOCK : TTCP_IPERF3_MAX_BLOCK;
    if (ttcp_iperf3_json_u64(j, "time", 0, TTCP_IPERF3_MAX_TIME, &v[0], why, why_len) ||
        ttcp_iperf3_json_u64(j, "num", 0, TTCP_IPERF3_MAX_NUM, &v[1], why, why_len) ||
        ttcp_iperf3_json_u64(j, "blockcount", 0, TTCP_IPERF3_MAX_NUM, &v[2], why, why_len) ||
        ttcp_iperf3_json_u64(j, "omit", 0, TTCP_IPERF3_MAX_OMIT, &v[3], why, why_len) ||
        ttcp_iperf3_json_u64(j, "parallel", 1, TTCP_IPERF3_MAX_STREAMS, &v[4], why, why_len) ||
        ttcp_iperf3_json_u64(j, "len", block_min, block_max, &v[5], why, why_len) ||
        ttcp_iperf3_json_u64(j, "bandwidth", 0, TTCP_IPERF3_MAX_BANDWIDTH, &v[6], why,
                             why_len) ||
        ttcp_iperf3_json_u64(j, "window", 0, TTCP_IPERF3_MAX_WINDOW, &v[7], why, why_len) ||
        ttcp_iperf3_json_u64(j, "MSS", 0, 65535, &v[8], why, why_len) ||
        ttcp_iperf3_json_u64(j, "TOS", 0, 255, &v[9], why, why_len))
        return TTCP_IPERF3_BAD;
    p->time_s = (uint32_t)v[0];
    p->num = v[1];
    p->blockcount = v[2];
    p->omit_s = (uint32_t)v[3];
    p->parallel = (uint32_t)v[4];
    p->len = (uint32_t)v[5];
    p->bandwidth = v[6];
    p->window = (uint32_t)v[7];
    p->mss = (uint32_t)v[8];
    p->tos = (uint32_t)v[9];
    return TTCP_IPERF3_OK;
}

static int read_params_words(const cJSON *j, struct ttcp_iperf3_params *p, char *why,
                             size_t why_len)
{
    if (ttcp_iperf3_json_flag(j, "reverse", &p->reverse, why, why_len) ||
        ttcp_iperf3_json_flag(j, "bidirectional", &p->bidirectional, why, why_len) ||
        ttcp_iperf3_json_flag(j, "nodelay", &p->nodelay, why, why_len) ||
        ttcp_iperf3_json_flag(j, "get_server_output", &p->get_server_output, why, why_len) ||
        ttcp_iperf3_json_flag(j, "udp_counters_64bit", &p->udp_counters_64bit, why,
                              why_len) ||
        ttcp_iperf3_json_text(j, "congestion", p->congestion, sizeof p->congestion, why,
                              why_len) ||
        ttcp_iperf3_json_text(j, "client_version", p->client_version,
                              sizeof p->client_version, why, why_len) ||
        ttcp_iperf3_json_text(j, "title", p->title, sizeof p->title, why, why_len))
        return TTCP_IPERF3_BAD;
    if (p->reverse && p->bidirectional) {
        snprintf(why, why_len, "iperf3 parameters: reverse and bidirectional together");
        return TTCP_IPERF3_BAD;
    }
    return TTCP_IPERF3_OK;
}

/* tcp or udp (sctp and anything else: refused), and the block's default. */
static int read_protocol(const cJSON *j, struct ttcp_iperf3_params *p, char *why,
                         size_t why_len)
{
    int tcp = 0, udp = 0, sctp = 0;
    if (ttcp_iperf3_json_flag(j, "tcp", &tcp, why, why_len) ||
        ttcp_iperf3_json_flag(j, "udp", &udp, why, why_len) ||
        ttcp_iperf3_json_flag(j, "sctp", &sctp, why, why_len))
        return TTCP_IPERF3_BAD;
    if (sctp || tcp + udp != 1) {
        snprintf(why, why_len, "iperf3 parameters: %s", sctp ? "SCTP is not served"
                                                              : "neither TCP nor UDP, or both");
        return TTCP_IPERF3_BAD;
    }
    p->udp = udp;
    p->len = udp ? 1460 : 128 * 1024; /* iperf3's defaults when len is left out */
    return TTCP_IPERF3_OK;
}

int ttcp_iperf3_params_parse(const char *json, size_t len, struct ttcp_iperf3_params *p,
                             char *why, size_t why_len)
{
    cJSON *j;
    int rc;
    memset(p, 0, sizeof *p);
    p->parallel = 1;
    if (why_len > 0)
        why[0] = '\0';
    j = len > 0 && len <= TTCP_IPERF3_PARAMS_MAX ? cJSON_ParseWithLength(json, len) : NULL;
    if (j == NULL || !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        snprintf(why, why_len, "iperf3 parameters: not a JSON object of at most %u bytes",
                 TTCP_IPERF3_PARAMS_MAX);
        return TTCP_IPERF3_BAD;
    }
    if (cJSON_GetObjectItemCaseSensitive(j, "authtoken") != NULL) {
        snprintf(why, why_len, "iperf3 parameters: authentication (authtoken) is not served");
        rc = TTCP_IPERF3_AUTH;
    } else if ((rc = read_protocol(j, p, why, why_len)) == TTCP_IPERF3_OK &&
               (rc = read_params_numbers(j, p, why, why_len)) == TTCP_IPERF3_OK) {
        rc = read_params_words(j, p, why, why_len);
    }
    cJSON_Delete(j);
    return rc;
}
