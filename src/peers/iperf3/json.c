/* iperf3's JSON values, bounded (json.h). */
#include "peers/iperf3/json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const cJSON *item(const cJSON *j, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(j, key);
}

static int refuse(const char *key, const char *what, char *why, size_t why_len)
{
    snprintf(why, why_len, "iperf3 message: \"%s\" %s", key, what);
    return -1;
}

int ttcp_iperf3_json_double(const cJSON *j, const char *key, double min, double max,
                            double *out, char *why, size_t why_len)
{
    const cJSON *v = item(j, key);
    if (v == NULL)
        return 0;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return refuse(key, "is not a number", why, why_len);
    if (v->valuedouble < min || v->valuedouble > max)
        return refuse(key, "is out of bounds", why, why_len);
    *out = v->valuedouble;
    return 0;
}

int ttcp_iperf3_json_u64(const cJSON *j, const char *key, uint64_t min, uint64_t max,
                         uint64_t *out, char *why, size_t why_len)
{
    double d = 0;
    const cJSON *v = item(j, key);
    if (v == NULL)
        return 0;
    if (ttcp_iperf3_json_double(j, key, (double)min, (double)max, &d, why, why_len) != 0)
        return -1;
    if (d != floor(d) || (uint64_t)d < min || (uint64_t)d > max)
        return refuse(key, "is not a whole number in bounds", why, why_len);
    *out = (uint64_t)d;
    return 0;
}

int ttcp_iperf3_json_i64(const cJSON *j, const char *key, int64_t min, int64_t max,
                         int64_t *out, char *why, size_t why_len)
{
    double d = 0;
    const cJSON *v = item(j, key);
    if (v == NULL)
        return 0;
    if (ttcp_iperf3_json_double(j, key, (double)min, (double)max, &d, why, why_len) != 0)
        return -1;
    if (d != floor(d) || (int64_t)d < min || (int64_t)d > max)
        return refuse(key, "is not a whole number in bounds", why, why_len);
    *out = (int64_t)d;
    return 0;
}

int ttcp_iperf3_json_count(const cJSON *j, const char *key, int64_t max, int64_t *out,
                           char *why, size_t why_len)
{
    const cJSON *v = item(j, key);
    /* iperf3 3.12 prints its -1 through an unsigned 64-bit number */
    if (v != NULL && cJSON_IsNumber(v) && v->valuedouble == 18446744073709551616.0) {
        *out = -1;
        return 0;
    }
    return ttcp_iperf3_json_i64(j, key, -1, max, out, why, why_len);
}

int ttcp_iperf3_json_flag(const cJSON *j, const char *key, int *out, char *why,
                          size_t why_len)
{
    const cJSON *v = item(j, key);
    if (v == NULL)
        return 0;
    if (cJSON_IsBool(v))
        *out = cJSON_IsTrue(v) ? 1 : 0;
    else if (cJSON_IsNumber(v) && isfinite(v->valuedouble))
        *out = v->valuedouble != 0;
    else
        return refuse(key, "is not true, false or a number", why, why_len);
    return 0;
}

int ttcp_iperf3_json_text(const cJSON *j, const char *key, char *out, size_t cap, char *why,
                          size_t why_len)
{
    const cJSON *v = item(j, key);
    size_t n, i;
    if (v == NULL)
        return 0;
    if (!cJSON_IsString(v) || v->valuestring == NULL)
        return refuse(key, "is not a string", why, why_len);
    n = strlen(v->valuestring);
    if (n >= cap)
        return refuse(key, "is too long", why, why_len);
    for (i = 0; i < n; i++)
        if ((unsigned char)v->valuestring[i] < 0x20 || (unsigned char)v->valuestring[i] > 0x7e)
            return refuse(key, "holds a character that is not printable ASCII", why, why_len);
    memcpy(out, v->valuestring, n + 1);
    return 0;
}

int ttcp_iperf3_json_add_u64(cJSON *j, const char *key, uint64_t v)
{
    return cJSON_AddNumberToObject(j, key, (double)v) != NULL;
}

int ttcp_iperf3_json_print(const cJSON *j, char *buf, size_t cap, size_t max, size_t *len)
{
    /* cJSON wants 5 bytes to spare in a buffer it is given */
    if (cap < 6 || cap > 0x7fffffff ||
        !cJSON_PrintPreallocated((cJSON *)j, buf, (int)cap, 0))
        return -1;
    *len = strlen(buf);
    return *len + 5 < cap && *len <= max ? 0 : -1;
}
