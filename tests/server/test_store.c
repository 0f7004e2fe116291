/*
 * test_store.c - the SQLite store: games, seats and decisions come back as
 * written, the writer thread commits every queued decision and reports each,
 * a file that is not a sound axio database is refused untouched, and a game
 * whose decisions have a gap is reported damaged and can be set aside.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/server/store.h"

static char dir[] = "/tmp/axio-store-XXXXXX";

static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static stored_game sample_game(const char *id)
{
    stored_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    strcpy(g.variant, "square");
    strcpy(g.mode, "standard");
    strcpy(g.status, "waiting");
    g.players = 2;
    g.seed = 18446744073709551615ull;
    g.created = 1700000000;
    strcpy(g.seats[0].kind, "human");
    strcpy(g.seats[0].name, "Ann");
    strcpy(g.seats[0].token_hash, "ab");
    strcpy(g.seats[1].kind, "human");
    strcpy(g.seats[1].name, "");
    return g;
}

static pthread_mutex_t notified_lock = PTHREAD_MUTEX_INITIALIZER;
static int notified;

static void notify(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&notified_lock);
    notified++;
    pthread_mutex_unlock(&notified_lock);
}

/* Waits for n writes to come back; returns how many of them failed. */
static int collect(store *s, int n)
{
    int got = 0, failed = 0;
    for (int tries = 0; got < n && tries < 30000; tries++) {
        store_write *w = store_writer_done(s);
        if (!w)
            usleep(1000);
        while (w) {
            store_write *next = w->next;
            got++;
            failed += w->result != 0;
            store_write_free(w);
            w = next;
        }
    }
    assert_int_equal(got, n);
    return failed;
}

static void submit(store *s, const char *id, int ply, const char *status)
{
    store_write *w = calloc(1, sizeof *w);
    snprintf(w->game_id, sizeof w->game_id, "%s", id);
    w->ply = ply;
    w->seat = ply % 2;
    w->decision = strdup("{\"type\":\"swap\",\"accept\":true}");
    w->status = status;
    store_writer_submit(s, w);
}

static int count_ids(const char *id, void *arg)
{
    (void)id;
    (*(int *)arg)++;
    return 0;
}

static void test_round_trip(void **state)
{
    (void)state;
    char path[256], err[256];
    path_of(path, sizeof path, "round.db");
    store *s = store_open(path, true, err, sizeof err);
    assert_non_null(s);
    stored_game a = sample_game("gameAAAAAAAA"), b = sample_game("gameBBBBBBBB");
    assert_int_equal(store_create_game(s, &a), 0);
    assert_int_equal(store_create_game(s, &b), 0);
    assert_int_not_equal(store_create_game(s, &a), 0); /* the id is taken */
    assert_int_equal(store_take_seat(s, a.id, 1, "Bo", "cd", 0, "running"), 0);
    assert_int_not_equal(store_take_seat(s, a.id, 1, "Cy", "ef", 0, "running"), 0);
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    for (int ply = 0; ply < 50; ply++) {
        submit(s, a.id, ply, ply == 49 ? "over" : NULL);
        submit(s, b.id, ply, NULL);
    }
    submit(s, a.id, 7, NULL); /* a second decision 7: refused, alone */
    assert_int_equal(collect(s, 101), 1);
    pthread_mutex_lock(&notified_lock);
    assert_true(notified > 0);
    pthread_mutex_unlock(&notified_lock);
    stored_game back;
    assert_int_equal(store_load(s, a.id, &back), 0);
    assert_string_equal(back.status, "over");
    assert_int_equal(back.ndecisions, 50);
    assert_true(back.seed == a.seed);
    assert_string_equal(back.seats[1].name, "Bo");
    assert_string_equal(back.seats[1].token_hash, "cd");
    assert_string_equal(back.decisions[3], "{\"type\":\"swap\",\"accept\":true}");
    stored_game_free(&back);
    assert_int_equal(store_load(s, "nope", &back), 1);
    int unfinished = 0;
    assert_int_equal(store_each_unfinished(s, count_ids, &unfinished), 0);
    assert_int_equal(unfinished, 1);
    store_close(s);
    /* and again after reopening */
    s = store_open(path, false, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(store_load(s, b.id, &back), 0);
    assert_int_equal(back.ndecisions, 50);
    stored_game_free(&back);
    store_close(s);
}

static int collect_ply(int ply, int seat, const char *decision, int64_t at, void *arg)
{
    (void)seat;
    (void)at;
    int *plies = arg;
    assert_string_equal(decision, "{\"type\":\"swap\",\"accept\":true}");
    plies[++plies[0]] = ply;
    return 0;
}

/* The rules version comes back as written; a game whose decisions have a gap
 * loads as damaged (2) with its status readable, its decisions are still
 * listed as stored, and once set aside it is no longer unfinished. */
static void test_rules_and_damaged(void **state)
{
    (void)state;
    char path[256], err[256];
    path_of(path, sizeof path, "damaged.db");
    store *s = store_open(path, false, err, sizeof err);
    assert_non_null(s);
    stored_game g = sample_game("gameCCCCCCCC");
    strcpy(g.rules, "axio-rules/1");
    strcpy(g.status, "running");
    assert_int_equal(store_create_game(s, &g), 0);
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    submit(s, g.id, 0, NULL);
    submit(s, g.id, 1, NULL);
    submit(s, g.id, 3, NULL); /* decision 2 never was */
    assert_int_equal(collect(s, 3), 0);
    stored_game back;
    assert_int_equal(store_load_summary(s, g.id, &back), 0);
    assert_string_equal(back.rules, "axio-rules/1");
    assert_string_equal(back.damage, "");
    stored_game_free(&back);
    assert_int_equal(store_load(s, g.id, &back), 2);
    assert_string_equal(store_error(s), "decision 2 is missing");
    assert_string_equal(back.status, "running");
    assert_int_equal(back.ndecisions, 0);
    int plies[8] = {0};
    assert_int_equal(store_each_decision(s, g.id, collect_ply, plies), 0);
    assert_int_equal(plies[0], 3);
    assert_int_equal(plies[1], 0);
    assert_int_equal(plies[2], 1);
    assert_int_equal(plies[3], 3);
    assert_int_equal(store_set_damaged(s, g.id, "decision 2 is missing"), 0);
    assert_int_not_equal(store_set_damaged(s, "nope", "no such game"), 0);
    assert_int_equal(store_load(s, g.id, &back), 2);
    assert_string_equal(back.status, "damaged");
    assert_string_equal(back.damage, "decision 2 is missing");
    int unfinished = 0;
    assert_int_equal(store_each_unfinished(s, count_ids, &unfinished), 0);
    assert_int_equal(unfinished, 0);
    store_close(s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_refusals(void **state)
{
    (void)state;
    char path[256], err[256];
    struct stat before, after;
    path_of(path, sizeof path, "text.db");
    write_file(path, "not a database, certainly not an axio one\n");
    stat(path, &before);
    assert_null(store_open(path, true, err, sizeof err));
    assert_non_null(strstr(err, "not a database"));
    stat(path, &after);
    assert_int_equal(before.st_size, after.st_size);
    assert_int_equal(before.st_mtime, after.st_mtime);

    path_of(path, sizeof path, "busy.db");
    store *s = store_open(path, true, err, sizeof err);
    assert_non_null(s);
    assert_null(store_open(path, true, err, sizeof err));
    assert_non_null(strstr(err, "in use"));
    store_close(s);

    path_of(path, sizeof path, "missing/dir.db");
    assert_null(store_open(path, true, err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_rules_and_damaged),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
