/* -S --web's endpoints for other speed-test engines (web/engines.c): which
 * endpoint a request names, the download lengths asked for (LibreSpeed's
 * ckSize, Cloudflare's bytes) parsed with bounds; and the runs: one per
 * address, --max-rate shared, the uploads as the server counts them, how a
 * run ends and the figures it leaves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "web/engines.h"

#define S 1000000000ll
#define MS 1000000ll
#define T0 (100 * S)
#define MIB (1ull << 20)

static struct ttcp_engine_table table;
static const unsigned char ADDR_A[4] = {10, 200, 1, 1}, ADDR_B[4] = {10, 200, 1, 5};

/* LibreSpeed's files with and without .php (and in backend/), Cloudflare's
 * two; each with its methods, OPTIONS as a preflight, nothing else. */
static void routes_name_the_endpoints(void **state)
{
    (void)state;
    assert_true(ttcp_engine_path("/librespeed/garbage.php"));
    assert_true(ttcp_engine_path("/__down"));
    assert_false(ttcp_engine_path("/__downs"));
    assert_false(ttcp_engine_path("/"));
    assert_false(ttcp_engine_path("/librespeed"));
    assert_int_equal(ttcp_engine_route("/librespeed/garbage.php", "GET"), TTCP_ENGINE_LS_GARBAGE);
    assert_int_equal(ttcp_engine_route("/librespeed/garbage", "GET"), TTCP_ENGINE_LS_GARBAGE);
    assert_int_equal(ttcp_engine_route("/librespeed/backend/garbage.php", "GET"),
                     TTCP_ENGINE_LS_GARBAGE);
    assert_int_equal(ttcp_engine_route("/librespeed/garbage.phpx", "GET"), TTCP_ENGINE_NONE);
    assert_int_equal(ttcp_engine_route("/librespeed/garbage.php", "POST"),
                     TTCP_ENGINE_BAD_METHOD);
    assert_int_equal(ttcp_engine_route("/librespeed/empty.php", "GET"), TTCP_ENGINE_LS_EMPTY);
    assert_int_equal(ttcp_engine_route("/librespeed/empty.php", "POST"), TTCP_ENGINE_LS_EMPTY);
    assert_int_equal(ttcp_engine_route("/librespeed/empty.php", "PUT"), TTCP_ENGINE_BAD_METHOD);
    assert_int_equal(ttcp_engine_route("/librespeed/getIP.php", "GET"), TTCP_ENGINE_LS_GETIP);
    assert_int_equal(ttcp_engine_route("/librespeed/getip.php", "GET"), TTCP_ENGINE_NONE);
    assert_int_equal(ttcp_engine_route("/librespeed/empty", "OPTIONS"), TTCP_ENGINE_PREFLIGHT);
    assert_int_equal(ttcp_engine_route("/__down", "GET"), TTCP_ENGINE_CF_DOWN);
    assert_int_equal(ttcp_engine_route("/__down", "POST"), TTCP_ENGINE_BAD_METHOD);
    assert_int_equal(ttcp_engine_route("/__up", "POST"), TTCP_ENGINE_CF_UP);
    assert_int_equal(ttcp_engine_route("/__up", "GET"), TTCP_ENGINE_BAD_METHOD);
    assert_int_equal(ttcp_engine_route("/__up", "OPTIONS"), TTCP_ENGINE_PREFLIGHT);
    assert_true(ttcp_engine_uploads(TTCP_ENGINE_LS_EMPTY, "POST"));
    assert_false(ttcp_engine_uploads(TTCP_ENGINE_LS_EMPTY, "GET"));
    assert_true(ttcp_engine_uploads(TTCP_ENGINE_CF_UP, "POST"));
    assert_false(ttcp_engine_uploads(TTCP_ENGINE_CF_DOWN, "GET"));
}

/* ckSize as LibreSpeed's garbage.php takes it (none or 0: 4 MiB; above
 * 1024: 1024 MiB) but only as a whole number; bytes required, 0 to 1e9. */
#define GARBAGE(ck) ttcp_engine_down_bytes(TTCP_ENGINE_LS_GARBAGE, ck, &n, why, sizeof why)
#define CF_DOWN(b) ttcp_engine_down_bytes(TTCP_ENGINE_CF_DOWN, b, &n, why, sizeof why)

static void download_lengths_are_bounded(void **state)
{
    char why[200];
    uint64_t n = 0;
    (void)state;
    assert_int_equal(GARBAGE(NULL), 0);
    assert_int_equal(n, 4 * MIB);
    assert_int_equal(GARBAGE("0"), 0);
    assert_int_equal(n, 4 * MIB);
    assert_int_equal(GARBAGE("100"), 0);
    assert_int_equal(n, 100 * MIB);
    assert_int_equal(GARBAGE("5000"), 0);
    assert_int_equal(n, 1024 * MIB);
    assert_int_equal(GARBAGE("abc"), -1);
    assert_non_null(strstr(why, "ckSize"));
    assert_int_equal(GARBAGE("-1"), -1);
    assert_int_equal(GARBAGE("99999999999999999999999"), -1);
    assert_int_equal(GARBAGE("1.5"), -1);
    assert_int_equal(CF_DOWN("0"), 0);
    assert_int_equal(n, 0);
    assert_int_equal(CF_DOWN("1000000000"), 0);
    assert_int_equal(n, 1000000000ull);
    assert_int_equal(CF_DOWN("1000000001"), -1);
    assert_non_null(strstr(why, "bytes"));
    assert_int_equal(CF_DOWN(NULL), -1);
    assert_non_null(strstr(why, "missing"));
    assert_int_equal(CF_DOWN("1e6"), -1);
}

/* One run per address, found by address and by serial while open; a freed
 * run's serial finds nothing; --max-time or the default bounds its life. */
static void runs_are_one_per_address(void **state)
{
    struct ttcp_engine_run *a, *b;
    uint64_t serial;
    (void)state;
    memset(&table, 0, sizeof table);
    a = ttcp_engine_run_open(&table, ADDR_A, 4, 0, T0);
    assert_non_null(a);
    assert_int_equal(a->life_ns, TTCP_ENGINE_LIFE_NS);
    assert_ptr_equal(ttcp_engine_run_of(&table, ADDR_A, 4), a);
    assert_null(ttcp_engine_run_of(&table, ADDR_B, 4));
    b = ttcp_engine_run_open(&table, ADDR_B, 4, 8 * S, T0);
    assert_int_equal(b->life_ns, 8 * S);
    assert_true(a->serial != b->serial);
    assert_ptr_equal(ttcp_engine_run_find(&table, b->serial), b);
    serial = a->serial;
    a->state = TTCP_ENGINE_FREE;
    assert_null(ttcp_engine_run_find(&table, serial));
    assert_null(ttcp_engine_run_of(&table, ADDR_A, 4));
    assert_null(ttcp_engine_run_open(&table, ADDR_A, 17, 0, T0));
}

/* --max-rate 8 Mbit/s: a burst of 64 KiB, then 1 MB a second; the run's
 * life ends its downloads. */
static void downloads_share_the_rate_and_the_life(void **state)
{
    struct ttcp_engine_run *r;
    uint64_t sent = 0;
    int64_t t;
    (void)state;
    memset(&table, 0, sizeof table);
    r = ttcp_engine_run_open(&table, ADDR_A, 4, 10 * S, T0);
    assert_int_equal(ttcp_engine_down_take(r, 1 << 20, 8000000, T0), 65536);
    assert_int_equal(ttcp_engine_down_take(r, 1 << 20, 8000000, T0), 0);
    for (t = T0 + MS; t <= T0 + S; t += MS)
        sent += (uint64_t)ttcp_engine_down_take(r, 65536, 8000000, t);
    assert_in_range(sent, 999000, 1000000);
    assert_int_equal(r->down_sent, sent + 65536);
    assert_int_equal(ttcp_engine_down_take(r, 1000, 0, T0 + 2 * S), 1000);
    assert_int_equal(ttcp_engine_down_take(r, 1000, 0, T0 + 11 * S), -1);
}

/* Two uploads at once, then a gap, then one more: every byte counted; the
 * rate over the time with an upload arriving (not twice, not the gap),
 * without each upload's first piece (it came before its time began). */
static void uploads_are_the_servers_count(void **state)
{
    struct ttcp_engine_upload u1 = {0, 0}, u2 = {0, 0}, u3 = {0, 0};
    struct ttcp_web_figures f;
    struct ttcp_engine_run *r;
    (void)state;
    memset(&table, 0, sizeof table);
    r = ttcp_engine_run_open(&table, ADDR_A, 4, 0, T0);
    ttcp_engine_request_begin(r, T0);
    ttcp_engine_request_begin(r, T0);
    assert_int_equal(ttcp_engine_up_piece(r, &u1, 1000, T0), 0);
    assert_int_equal(ttcp_engine_up_piece(r, &u2, 1000, T0 + 100 * MS), 0);
    assert_int_equal(ttcp_engine_up_piece(r, &u1, 50000, T0 + 500 * MS), 0);
    assert_int_equal(ttcp_engine_up_piece(r, &u2, 75000, T0 + 1000 * MS), 0);
    ttcp_engine_up_end(r, &u1);
    ttcp_engine_request_end(r, &u1, T0 + 1000 * MS);
    ttcp_engine_request_end(r, &u2, T0 + 1000 * MS); /* its end not told: the request's end */
    ttcp_engine_request_begin(r, T0 + 3 * S);
    assert_int_equal(ttcp_engine_up_piece(r, &u3, 500, T0 + 3 * S), 0);
    assert_int_equal(ttcp_engine_up_piece(r, &u3, 125000, T0 + 4 * S), 0);
    ttcp_engine_up_end(r, &u3);
    ttcp_engine_up_end(r, &u3); /* once only */
    ttcp_engine_request_end(r, NULL, T0 + 4 * S);
    assert_int_equal(r->active, 0);
    ttcp_engine_run_figures(r, TTCP_WEB_DONE, T0 + 11 * S, &f);
    assert_int_equal(f.up_bytes, 252500);
    assert_int_equal(f.up_ns, 2 * S);
    assert_true(f.up_valid);
    assert_true(f.up_bps == 250000.0 * 8 / 2);
    assert_false(f.down_valid);
    assert_false(f.latency_valid);
    assert_int_equal(f.ran_ns, 11 * S);
}

/* Quiet for TTCP_WEB_IDLE_NS with nothing in flight: done; a request in
 * flight keeps it; past its life: cut; the server stopping: stopped. */
static void a_run_ends_when_quiet_or_cut(void **state)
{
    struct ttcp_engine_run *r;
    (void)state;
    memset(&table, 0, sizeof table);
    r = ttcp_engine_run_open(&table, ADDR_A, 4, 20 * S, T0);
    ttcp_engine_request_begin(r, T0);
    assert_int_equal(ttcp_engine_run_ended(r, 0, T0 + 10 * S), -1); /* a slow download */
    ttcp_engine_request_end(r, NULL, T0 + 10 * S);
    assert_int_equal(ttcp_engine_run_ended(r, 0, T0 + 10 * S + TTCP_WEB_IDLE_NS), -1);
    assert_int_equal(ttcp_engine_run_ended(r, 0, T0 + 11 * S + TTCP_WEB_IDLE_NS), TTCP_WEB_DONE);
    assert_int_equal(ttcp_engine_run_ended(r, 1, T0 + S), TTCP_WEB_STOPPED);
    ttcp_engine_request_begin(r, T0 + 19 * S);
    assert_int_equal(ttcp_engine_run_ended(r, 0, T0 + 21 * S), TTCP_WEB_CUT);
    assert_int_equal(ttcp_engine_up_piece(r, &(struct ttcp_engine_upload){0, 0}, 10, T0 + 21 * S),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(routes_name_the_endpoints),
        cmocka_unit_test(download_lengths_are_bounded),
        cmocka_unit_test(runs_are_one_per_address),
        cmocka_unit_test(downloads_share_the_rate_and_the_life),
        cmocka_unit_test(uploads_are_the_servers_count),
        cmocka_unit_test(a_run_ends_when_quiet_or_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
