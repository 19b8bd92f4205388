/* The JSON writer: well formed, escaped, and a misuse noticed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "report/json.h"
#include "test_support.h"

static void json_is_well_formed_and_escaped(void **state)
{
    struct ttcp_json j;
    (void)state;
    ttcp_json_init(&j);
    ttcp_json_object(&j, NULL);
    ttcp_json_string(&j, "host", "a\"b\\c\n\x01");
    ttcp_json_double(&j, "nan", 0.0 / 0.0);
    ttcp_json_double(&j, "rate", 1.5);
    ttcp_json_array(&j, "list");
    ttcp_json_u64(&j, NULL, 1);
    ttcp_json_object(&j, NULL);
    ttcp_json_bool(&j, "ok", 1);
    ttcp_json_end(&j);
    ttcp_json_i64(&j, NULL, -2);
    ttcp_json_end(&j);
    ttcp_json_null(&j, "error");
    ttcp_json_end(&j);
    assert_false(j.failed);
    assert_string_equal(j.buf, "{\"host\":\"a\\\"b\\\\c\\u000a\\u0001\",\"nan\":null,\"rate\":1.5,"
                               "\"list\":[1,{\"ok\":true},-2],\"error\":null}");
    ttcp_json_end(&j); /* one end too many is noticed */
    assert_true(j.failed);
    ttcp_json_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_is_well_formed_and_escaped),
    };
    return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
