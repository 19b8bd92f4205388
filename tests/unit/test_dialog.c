/* The IOS dialog from scripted answers: the prompts in IOS order with the
 * values in brackets, defaults, bad answers asked again, end of input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cli/dialog.h"
#include "test_support.h"

struct script {
    const char *answers; /* lines separated by '\n'; its end = end of input */
    char transcript[4096];
};

static int next_line(void *ctx, char *buf, size_t len)
{
    struct script *s = ctx;
    const char *end;
    size_t n;
    if (*s->answers == '\0')
        return -1;
    end = strchr(s->answers, '\n');
    n = end ? (size_t)(end - s->answers) : strlen(s->answers);
    snprintf(buf, len, "%.*s", (int)n, s->answers);
    s->answers += n + (end != NULL);
    strncat(s->transcript, buf, sizeof s->transcript - strlen(s->transcript) - 1);
    strncat(s->transcript, "\n", sizeof s->transcript - strlen(s->transcript) - 1);
    return 0;
}

static void record(void *ctx, const char *text)
{
    struct script *s = ctx;
    strncat(s->transcript, text, sizeof s->transcript - strlen(s->transcript) - 1);
}

static struct ttcp_options opts;
static char host[64];

/* Runs the dialog from the defaults of `line` (a command line). */
static int talk(struct script *s, const char *line)
{
    struct ttcp_dialog_io io = {next_line, record, s};
    char copy[256], why[128], *argv[32];
    int argc;
    snprintf(copy, sizeof copy, "%s", line);
    argc = split_args(copy, argv, 32);
    assert_int_equal(ttcp_options_parse(&opts, argc, argv, 0, why, sizeof why), 0);
    s->transcript[0] = '\0';
    return ttcp_dialog(&opts, &io, 131072, host, sizeof host);
}

static void transmit_defaults_in_ios_order(void **state)
{
    struct script s = {"transmit\n127.0.0.1\n\n\n\n\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I"), 0);
    assert_string_equal(s.transcript,
                        "transmit or receive [receive]: transmit\n"
                        "Target IP address: 127.0.0.1\n"
                        "perform tcp half close [n]: \n"
                        "send buflen [8192]: \n"
                        "send nbuf [2048]: \n"
                        "bufalign [16384]: \n"
                        "bufoffset [0]: \n"
                        "port [5001]: \n"
                        "sinkmode [y]: \n"
                        "buffering on writes [y]: \n"
                        "show tcp information at end [n]: \n");
    assert_true(opts.transmit);
    assert_string_equal(opts.host, "127.0.0.1");
    assert_true(opts.sinkmode);
    assert_int_equal(opts.buflen, 8192);
    assert_int_equal(opts.nbuf, 2048);
    assert_false(opts.nodelay);
    assert_false(opts.tcp_info);
}

static void receive_shows_the_system_window(void **state)
{
    struct script s = {"\n\n\n\n\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I -p 5002"), 0);
    assert_string_equal(s.transcript,
                        "transmit or receive [receive]: \n"
                        "perform tcp half close [n]: \n"
                        "receive buflen [8192]: \n"
                        "bufalign [16384]: \n"
                        "bufoffset [0]: \n"
                        "port [5002]: \n"
                        "sinkmode [y]: \n"
                        "rcvwndsize [131072]: \n"
                        "delayed ACK [y]: \n"
                        "show tcp information at end [n]: \n");
    assert_false(opts.transmit);
    assert_int_equal(opts.port, 5002);
    assert_int_equal(opts.rcvwnd, 0); /* unchanged: the OS keeps tuning it */
}

static void answers_change_the_settings(void **state)
{
    struct script s = {"r\ny\n1000\n4096\n10\n0\n0\n6000\nno\nn\n65536\nn\nyes\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I"), 0);
    assert_non_null(strstr(s.transcript, "receive buflen [8192]: 1000\n"
                                         "send buflen [1000]: 4096\n"
                                         "send nbuf [2048]: 10\n"));
    assert_non_null(strstr(s.transcript, "buffering on writes [y]: n\nrcvwndsize [131072]: 65536\n"));
    assert_true(opts.half_close);
    assert_int_equal(opts.buflen, 1000);
    assert_int_equal(opts.back_buflen, 4096);
    assert_int_equal(opts.nbuf, 10);
    assert_int_equal(opts.bufalign, 0);
    assert_int_equal(opts.port, 6000);
    assert_false(opts.sinkmode);
    assert_true(opts.nodelay);
    assert_int_equal(opts.rcvwnd, 65536);
    assert_true(opts.no_delayed_ack);
    assert_true(opts.tcp_info);
}

static void transmitter_half_close_asks_the_way_back(void **state)
{
    struct script s = {"t\nh\ny\n\n\n2000\n\n\n\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I"), 0);
    assert_non_null(strstr(s.transcript, "send nbuf [2048]: \nreceive buflen [8192]: 2000\n"));
    assert_non_null(strstr(s.transcript, "buffering on writes [y]: \nrcvwndsize [131072]: \n"
                                         "delayed ACK [y]: \n"));
    assert_int_equal(opts.back_buflen, 2000);
}

static void bad_answers_are_asked_again(void **state)
{
    struct script s = {"x\nreceive\nmaybe\nn\n0\nabc\n\n\n16384\n3\n70000\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I"), 0);
    assert_non_null(strstr(s.transcript, "transmit or receive [receive]: x\n% answer transmit or receive\n"
                                         "transmit or receive [receive]: receive\n"));
    assert_non_null(strstr(s.transcript, "perform tcp half close [n]: maybe\n% answer y or n\n"));
    assert_non_null(strstr(s.transcript, "receive buflen [8192]: 0\n% '0' is out of range"));
    assert_non_null(strstr(s.transcript, "receive buflen [8192]: abc\n% 'abc' is not a number\n"));
    assert_non_null(strstr(s.transcript, "bufoffset [0]: 16384\n% '16384' is out of range (0 to 16383)\n"));
    assert_non_null(strstr(s.transcript, "port [5001]: 70000\n% '70000' is out of range"));
    assert_int_equal(opts.bufoffset, 3);
    assert_int_equal(opts.port, 5001);
}

static void end_of_input_stops(void **state)
{
    struct script s = {"transmit\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I"), -1);
    s.answers = "";
    assert_int_equal(talk(&s, "-I"), -1);
    assert_string_equal(s.transcript, "transmit or receive [receive]: ");
}

static void words_in_any_case_and_the_given_host(void **state)
{
    struct script s = {"T\n\nYES\n\n\n\n64\n\n\n\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I -O 100 10.1.2.3"), 0);
    assert_true(opts.transmit);
    assert_non_null(strstr(s.transcript, "Target IP address [10.1.2.3]: \n"));
    assert_string_equal(opts.host, "10.1.2.3");
    assert_true(opts.half_close);
    /* the offset given (100) does not fit the new alignment (64): 0 is offered */
    assert_non_null(strstr(s.transcript, "bufalign [16384]: 64\nbufoffset [0]: \n"));
    assert_int_equal(opts.bufoffset, 0);
}

static void dialog_forces_tcp(void **state)
{
    struct script s = {"\n\n\n\n\n\n\n\n\n\n", ""};
    (void)state;
    assert_int_equal(talk(&s, "-I -u"), 0);
    assert_false(opts.udp); /* IOS's ttcp speaks TCP only */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transmit_defaults_in_ios_order),
        cmocka_unit_test(receive_shows_the_system_window),
        cmocka_unit_test(answers_change_the_settings),
        cmocka_unit_test(transmitter_half_close_asks_the_way_back),
        cmocka_unit_test(bad_answers_are_asked_again),
        cmocka_unit_test(end_of_input_stops),
        cmocka_unit_test(words_in_any_case_and_the_given_host),
        cmocka_unit_test(dialog_forces_tcp),
    };
    return cmocka_run_group_tests_name("dialog", tests, NULL, NULL);
}
