/* --json-stream's events (report/report_stream.h). */
#include "report/report_stream.h"

#include "report/report_json.h"

static void open_event(struct ttcp_json *j, const char *event)
{
    ttcp_json_object(j, NULL);
    ttcp_json_string(j, "event", event);
}

void ttcp_json_event_start(struct ttcp_json *j, const struct ttcp_options *o,
                           const char *version)
{
    open_event(j, "start");
    ttcp_json_object(j, "data");
    ttcp_json_string(j, "schema", TTCP_JSON_STREAM_SCHEMA);
    ttcp_json_string(j, "version", version);
    if (o->title != NULL)
        ttcp_json_string(j, "title", o->title);
    ttcp_json_options(j, o);
    ttcp_json_end(j);
    ttcp_json_end(j);
}

void ttcp_json_event_interval(struct ttcp_json *j, const struct ttcp_options *o,
                              const struct ttcp_interval *in, const struct ttcp_result *res,
                              int far)
{
    char peer[80];
    open_event(j, "interval");
    ttcp_json_object(j, "data");
    /* which end and which part: the client's own or the server's, the
     * sender's or the receiver's, and with -P the stream (else the total) */
    ttcp_json_string(j, "from", far ? "server" : "local");
    ttcp_json_string(j, "side", o->transmit ? "transmit" : "receive");
    if (o->stream_number > 0)
        ttcp_json_u64(j, "stream", (uint64_t)o->stream_number);
    if (res != NULL && !far && res->peer_valid)
        ttcp_json_string(j, "peer", tt_addr_text(&res->peer, peer, sizeof peer));
    if (res != NULL && o->continuous)
        ttcp_json_u64(j, "test", (uint64_t)res->test_number);
    ttcp_json_interval_members(j, in);
    ttcp_json_end(j);
    ttcp_json_end(j);
}

void ttcp_json_event_end(struct ttcp_json *j, const char *document)
{
    open_event(j, "end");
    ttcp_json_value(j, "data", document);
    ttcp_json_end(j);
}
