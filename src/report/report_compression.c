/* --compression's words and JSON (report/report_compression.h). */
#include "report/report_compression.h"

#include <stdio.h>

#include "base/rate.h"
#include "base/text.h"
#include "report/report_json.h"

/* The tag of its lines: the classic transmitter's, or the client's. */
static const char *tag(const struct ttcp_options *o)
{
    return o->mode == TTCP_MODE_CLIENT ? "-C" : ttcp_options_side(o);
}

size_t ttcp_report_compression_test(const struct ttcp_options *o, int number, char *buf,
                                    size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    ttcp_text_add(&t, "ttcp%s: compression: test %d of 2: %s\n", tag(o), number,
                  number == 1 ? "the classic pattern"
                              : "the random pattern (incompressible), same size and options");
    return t.used;
}

static const char *rate_text(const struct ttcp_options *o, double bps, char *buf, size_t len)
{
    char number[64];
    snprintf(buf, len, "%s%s", ttcp_unit_format(o->unit, bps / 8.0, number, sizeof number),
             ttcp_unit_per_sec(o->unit));
    return buf;
}

size_t ttcp_report_compression(const struct ttcp_options *o, const struct ttcp_compression *c,
                               char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    char classic[80], random[80];
    if (c->finding == TTCP_COMPRESSION_UNKNOWN) {
        ttcp_text_add(&t, "ttcp%s: compression: no ratio: the %s pattern's test did not "
                      "complete\n", tag(o), c->classic_bps <= 0.0 ? "classic" : "random");
        return t.used;
    }
    rate_text(o, c->classic_bps, classic, sizeof classic);
    rate_text(o, c->random_bps, random, sizeof random);
    ttcp_text_add(&t, "ttcp%s: compression: classic %s, random %s: ratio %.2f\n", tag(o),
                  classic, random, c->ratio);
    if (c->finding == TTCP_COMPRESSION_FOUND)
        ttcp_text_add(&t, "ttcp%s: compression: the path compresses (ratio above %.1f): the "
                      "random pattern's %s is the link's rate\n", tag(o),
                      TTCP_COMPRESSION_THRESHOLD, random);
    else if (c->finding == TTCP_COMPRESSION_HOST_BOUND)
        ttcp_text_add(&t, "ttcp%s: compression: no finding: an end used %.0f %% of a CPU, so the "
                      "hosts, not the path, may have set the rates\n", tag(o), c->cpu_percent);
    return t.used;
}

size_t ttcp_report_compression_refused(const struct ttcp_options *o, char *buf, size_t len)
{
    struct ttcp_text t = {buf, len, 0};
    if (o->mode == TTCP_MODE_CLIENT)
        ttcp_text_add(&t, "ttcp-C: compression: the server did not run the second test: it "
                      "must serve two in a row (a ttcp -S without -1, a client slot free)\n");
    else
        ttcp_text_add(&t, "ttcp%s: compression: the receiver refused or reset the second test: "
                      "it must take two connections in a row (ttcp -r -s -c, or a ttcp -S)\n",
                      tag(o));
    return t.used;
}

void ttcp_json_compression_begin(struct ttcp_json *j, const struct ttcp_options *o,
                                 const char *version)
{
    ttcp_json_object(j, NULL);
    ttcp_json_string(j, "schema", TTCP_JSON_SCHEMA);
    ttcp_json_string(j, "version", version);
    if (o->title != NULL)
        ttcp_json_string(j, "title", o->title);
    ttcp_json_string(j, "side", o->mode == TTCP_MODE_CLIENT ? "client" : "transmit");
    ttcp_json_options(j, o);
    ttcp_json_object(j, "compression");
    ttcp_json_array(j, "runs");
}

void ttcp_json_compression_end(struct ttcp_json *j, const struct ttcp_compression *c,
                               const struct ttcp_failure *failure, const char *message)
{
    static const char *const codes[] = {
        [TTCP_COMPRESSION_UNKNOWN] = "unknown",
        [TTCP_COMPRESSION_NONE] = "none",
        [TTCP_COMPRESSION_FOUND] = "path_compresses",
        [TTCP_COMPRESSION_HOST_BOUND] = "host_bound",
    };
    ttcp_json_end(j); /* runs */
    if (c->classic_bps > 0.0)
        ttcp_json_double(j, "classic_bits_per_second", c->classic_bps);
    else
        ttcp_json_null(j, "classic_bits_per_second");
    if (c->random_bps > 0.0)
        ttcp_json_double(j, "random_bits_per_second", c->random_bps);
    else
        ttcp_json_null(j, "random_bits_per_second");
    if (c->finding != TTCP_COMPRESSION_UNKNOWN)
        ttcp_json_double(j, "ratio", c->ratio);
    else
        ttcp_json_null(j, "ratio");
    ttcp_json_double(j, "threshold", TTCP_COMPRESSION_THRESHOLD);
    ttcp_json_double(j, "cpu_percent", c->cpu_percent);
    ttcp_json_string(j, "finding", codes[c->finding]);
    /* ttcp_json_finish closes the level open (here "compression", in a
     * test's document "tests"), then writes "error" and closes the rest */
    ttcp_json_finish(j, failure, message);
}
