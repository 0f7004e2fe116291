/*
 * test_job_queue.c - the worker pools' intrusive FIFO queue: first in,
 * first out, counted, a job found again from its node wherever the node
 * lies in it, taking everything at once leaves the queue empty, and a
 * queue emptied and filled again works as a new one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../../src/server/game/job_queue.h"

typedef struct {
    int id;
    jq_node node; /* not first: JQ_ENTRY must subtract its offset */
    char pad[3];
} job;

static int pop_id(job_queue *q)
{
    jq_node *n = jq_pop(q);
    return n ? JQ_ENTRY(n, job, node)->id : -1;
}

static void test_first_in_first_out(void **state)
{
    (void)state;
    job jobs[5];
    job_queue q = {0};
    assert_true(jq_empty(&q));
    assert_null(jq_pop(&q));
    for (int i = 0; i < 5; i++) {
        jobs[i].id = i;
        jq_push(&q, &jobs[i].node);
        assert_int_equal(q.count, i + 1);
    }
    assert_false(jq_empty(&q));
    for (int i = 0; i < 3; i++)
        assert_int_equal(pop_id(&q), i);
    assert_int_equal(q.count, 2);
    jq_push(&q, &jobs[0].node); /* back on, behind the others */
    assert_int_equal(pop_id(&q), 3);
    assert_int_equal(pop_id(&q), 4);
    assert_int_equal(pop_id(&q), 0);
    assert_int_equal(pop_id(&q), -1);
    assert_true(jq_empty(&q));
    assert_int_equal(q.count, 0);
    assert_null(q.tail);
    jq_push(&q, &jobs[2].node); /* emptied, then used again */
    assert_int_equal(pop_id(&q), 2);
    assert_true(jq_empty(&q));
}

static void test_take_all(void **state)
{
    (void)state;
    job jobs[3];
    job_queue q = {0};
    job_queue none = jq_take_all(&q);
    assert_true(jq_empty(&none));
    assert_int_equal(none.count, 0);
    for (int i = 0; i < 3; i++) {
        jobs[i].id = 10 + i;
        jq_push(&q, &jobs[i].node);
    }
    job_queue all = jq_take_all(&q);
    assert_true(jq_empty(&q));
    assert_int_equal(q.count, 0);
    assert_null(q.tail);
    assert_int_equal(all.count, 3);
    assert_ptr_equal(all.head, &jobs[0].node);
    job more = {.id = 99};
    jq_push(&q, &more.node); /* the emptied queue works on */
    assert_int_equal(pop_id(&q), 99);
    for (int i = 0; i < 3; i++)
        assert_int_equal(pop_id(&all), 10 + i);
    assert_true(jq_empty(&all));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_in_first_out),
        cmocka_unit_test(test_take_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
