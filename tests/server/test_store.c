/*
 * test_store.c - the store's interface, on SQLite or (AXIO_TEST_DB=postgresql,
 * run inside tests/server/pgcluster.py, which sets PGHOST and PGUSER) on
 * PostgreSQL: games, seats and decisions come back as written, the writer
 * thread commits every queued decision and reports each, a database that is
 * not a sound axio database is refused untouched, a game whose decisions
 * have a gap is reported damaged and can be set aside; accounts and
 * sessions, and the ratings of a rated game written in the transaction of
 * its last decision; on PostgreSQL a terminated session is replaced.
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

#include "../../src/server/store/store.h"

static char dir[] = "/tmp/axio-store-XXXXXX";
static bool on_pg;

static void path_of(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

/* Runs a shell command built like printf; its exit status. */
static int shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int shell(const char *fmt, ...)
{
    char cmd[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

/* A new, empty database called name: a file in dir, or a new database of
 * the PostgreSQL cluster. */
static void new_db(char *out, size_t n, const char *name)
{
    if (!on_pg) {
        snprintf(out, n, "%s/%s.db", dir, name);
        return;
    }
    assert_int_equal(shell("createdb %s", name), 0);
    snprintf(out, n, "postgresql:///%s", name);
}

/* Runs SQL (no double quotes in it) on a PostgreSQL database. */
static void psql(const char *name, const char *sql)
{
    assert_int_equal(shell("psql -X -q -v ON_ERROR_STOP=1 -d %s -c \"%s\" >/dev/null", name, sql),
                     0);
}

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
    new_db(path, sizeof path, "round");
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

/* A write that comes after the writer stopped (a clock saved while the
 * server shuts down) is written there and then, and freed with the store:
 * nothing leaks (the ASan build checks), nothing is lost. */
static void test_write_after_stop(void **state)
{
    (void)state;
    char path[256], err[256];
    new_db(path, sizeof path, "afterstop");
    store *s = store_open(path, true, err, sizeof err);
    assert_non_null(s);
    stored_game a = sample_game("gameEEEEEEEE");
    assert_int_equal(store_create_game(s, &a), 0);
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    submit(s, a.id, 0, NULL);
    store_writer_stop(s);
    submit(s, a.id, 1, NULL); /* no writer now */
    submit(s, a.id, 2, NULL);
    store_close(s);
    s = store_open(path, false, err, sizeof err);
    assert_non_null(s);
    stored_game back;
    assert_int_equal(store_load(s, a.id, &back), 0);
    assert_int_equal(back.ndecisions, 3);
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
    new_db(path, sizeof path, "damaged");
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

/* Accounts: unique keys, computer levels, sessions that expire or are
 * revoked, a new password that revokes the other sessions, deletion. */
static void test_accounts_and_sessions(void **state)
{
    (void)state;
    char path[256], err[256];
    new_db(path, sizeof path, "accounts");
    store *s = store_open(path, true, err, sizeof err);
    assert_non_null(s);
    int64_t ann, other;
    assert_int_equal(store_account_create(s, "Ann", "ann", "ann", "$argon2id$x", 1, &ann), 0);
    assert_int_equal(store_account_create(s, "ANN", "ann", "ann", "$argon2id$y", 1, &other), 1);
    assert_int_equal(store_computer_ensure(s, "greedy", "greedy", 1), 0);
    assert_int_equal(store_computer_ensure(s, "greedy", "greedy", 2), 0); /* again: no change */
    stored_account a;
    assert_int_equal(store_account_by_key(s, "greedy", &a), 0);
    assert_true(a.computer);
    assert_string_equal(a.password_hash, "");
    assert_int_equal(store_account_by_key(s, "ann", &a), 0);
    assert_int_equal(a.id, ann);
    assert_string_equal(a.name, "Ann");
    assert_int_equal(store_account_by_key(s, "bo", &a), 1);
    assert_int_equal(store_session_create(s, "h1", ann, 100, 200), 0);
    assert_int_equal(store_session_create(s, "h2", ann, 100, 200), 0);
    assert_int_equal(store_session_account(s, "h1", 150, &a), 0);
    assert_int_equal(a.id, ann);
    assert_int_equal(store_session_account(s, "h1", 200, &a), 1); /* expired */
    assert_int_equal(store_session_account(s, "nope", 150, &a), 1);
    assert_int_equal(store_account_set_password(s, ann, "$argon2id$z", "h1"), 0);
    assert_int_equal(store_session_account(s, "h1", 150, &a), 0);
    assert_string_equal(a.password_hash, "$argon2id$z");
    assert_int_equal(store_session_account(s, "h2", 150, &a), 1); /* revoked */
    assert_int_equal(store_session_delete(s, "h1"), 0);
    assert_int_equal(store_session_account(s, "h1", 150, &a), 1);
    assert_int_not_equal(store_account_set_password(s, 999, "x", "h1"), 0);
    stored_account g;
    assert_int_equal(store_account_by_key(s, "greedy", &g), 0);
    assert_int_not_equal(store_account_delete(s, g.id), 0); /* a computer level stays */
    assert_int_equal(store_account_delete(s, ann), 0);
    assert_int_equal(store_account_by_key(s, "ann", &a), 1);
    assert_int_not_equal(store_account_delete(s, ann), 0);
    store_close(s);
}

/* A rated end through the writer: ratings read and written in the last
 * decision's transaction; two ends in a row see each other's results;
 * places are stored; a deleted account's seats keep the neutral name. */
static void submit_end(store *s, const char *id, int winner)
{
    store_write *w = calloc(1, sizeof *w);
    snprintf(w->game_id, sizeof w->game_id, "%s", id);
    w->kind = STORE_DECISION;
    w->ply = 0;
    w->decision = strdup("{\"type\":\"swap\",\"accept\":true}");
    w->status = "over";
    w->places[winner] = 1;
    w->places[1 - winner] = 2;
    w->rated = true;
    strcpy(w->variant, "square");
    w->rating_game = (rt_game){.nseats = 2,
                               .nteams = 2,
                               .team_size = {1, 1},
                               .team_seat = {{0}, {1}},
                               .team_place = {winner == 0 ? 0 : 1, winner == 0 ? 1 : 0}};
    store_writer_submit(s, w);
}

static store_write *wait_write(store *s)
{
    for (int tries = 0; tries < 30000; tries++) {
        store_write *w = store_writer_done(s);
        if (w)
            return w;
        usleep(1000);
    }
    fail_msg("no write came back");
    return NULL;
}

static void test_ratings_in_the_last_decision(void **state)
{
    (void)state;
    char path[256], err[256];
    new_db(path, sizeof path, "ratings");
    store *s = store_open(path, true, err, sizeof err);
    assert_non_null(s);
    int64_t ann, bo;
    assert_int_equal(store_account_create(s, "Ann", "ann", "ann", "h", 1, &ann), 0);
    assert_int_equal(store_account_create(s, "Bo", "bo", "bo", "h", 1, &bo), 0);
    stored_game g1 = sample_game("rated0000001"), g2 = sample_game("rated0000002");
    g1.rated = g2.rated = true;
    g1.seats[0].account_id = g2.seats[0].account_id = ann;
    g1.seats[1].account_id = g2.seats[1].account_id = bo;
    strcpy(g1.seats[1].name, "Bo");
    strcpy(g2.seats[1].name, "Bo");
    assert_int_equal(store_create_game(s, &g1), 0);
    assert_int_equal(store_create_game(s, &g2), 0);
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    submit_end(s, g1.id, 0);
    submit_end(s, g2.id, 0);
    store_write *got[2];
    for (int n = 0; n < 2;) /* in the order submitted */
        for (store_write *w = wait_write(s), *next; w && n < 2; w = next) {
            next = w->next;
            w->next = NULL;
            got[n++] = w;
        }
    store_write *first = got[0], *second = got[1];
    assert_int_equal(first->result, 0);
    assert_int_equal(second->result, 0);
    /* docs/ratings.md's first worked example */
    assert_true(first->seat_rated[0] && first->seat_rated[1]);
    assert_float_equal(first->before[0].mu, 1500.0, 1e-9);
    assert_float_equal(first->after[0].mu, 1658.123, 1e-3);
    assert_float_equal(first->after[1].mu, 1341.877, 1e-3);
    assert_float_equal(first->after[0].sigma, 483.954, 1e-3);
    /* the second game starts from the first one's results */
    assert_float_equal(second->before[0].mu, first->after[0].mu, 1e-9);
    assert_float_equal(second->before[1].sigma, first->after[1].sigma, 1e-9);
    rt_rating r;
    int games;
    assert_int_equal(store_rating(s, ann, "square", &r, &games), 0);
    assert_int_equal(games, 2);
    assert_float_equal(r.mu, second->after[0].mu, 1e-9);
    assert_int_equal(store_rating(s, ann, "hex", &r, &games), 0);
    assert_int_equal(games, 0);
    assert_float_equal(r.mu, 1500.0, 1e-9);
    store_write_free(first);
    store_write_free(second);
    stored_game back;
    assert_int_equal(store_load(s, g1.id, &back), 0);
    assert_true(back.rated);
    assert_int_equal(back.seats[0].place, 1);
    assert_int_equal(back.seats[1].place, 2);
    assert_true(back.seats[0].rated);
    assert_float_equal(back.seats[0].after.mu, 1658.123, 1e-3);
    assert_true(back.seats[0].has_rating);
    stored_game_free(&back);
    assert_int_equal(store_account_delete(s, bo), 0);
    assert_int_equal(store_load(s, g1.id, &back), 0);
    assert_string_equal(back.seats[1].name, STORE_NEUTRAL_NAME);
    assert_int_equal(back.seats[1].account_id, 0);
    assert_false(back.seats[1].rated); /* its history went with it */
    assert_true(back.seats[0].rated);
    stored_game_free(&back);
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
    if (on_pg) {
        skip();
        return;
    }
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

/* PostgreSQL: another program's database, one of a newer version, one in
 * use, one that does not exist: each refused, the first two unchanged. */
static void test_pg_refusals(void **state)
{
    (void)state;
    if (!on_pg) {
        skip();
        return;
    }
    char db[256], err[256];
    new_db(db, sizeof db, "other");
    psql("other", "CREATE TABLE ledger(id BIGINT PRIMARY KEY, balance BIGINT)");
    assert_null(store_open(db, true, err, sizeof err));
    assert_non_null(strstr(err, "not an axio database"));
    assert_int_equal(shell("test $(psql -X -A -t -d other -c 'SELECT count(*) FROM pg_tables"
                           " WHERE schemaname = current_schema()') = 1"),
                     0);

    new_db(db, sizeof db, "newer");
    store *s = store_open(db, true, err, sizeof err);
    assert_non_null(s);
    assert_string_equal(store_backend(s), "PostgreSQL");
    assert_null(store_open(db, true, err, sizeof err)); /* in use */
    assert_non_null(strstr(err, "in use"));
    store_close(s);
    psql("newer", "UPDATE axio_meta SET version = 99");
    assert_null(store_open(db, true, err, sizeof err));
    assert_non_null(strstr(err, "unknown axio database version 99"));
    assert_int_equal(
        shell("test $(psql -X -A -t -d newer -c 'SELECT version FROM axio_meta') = 99"), 0);

    assert_null(store_open("postgresql:///nosuchdatabase", true, err, sizeof err));
    assert_non_null(strstr(err, "nosuchdatabase"));
}

/* --- games listed by id, budgets, the site's secrets and addresses --- */

typedef struct {
    int n;
    char ids[512];
    char statuses[256];
} listed_seen;

static int listed(const stored_game *g, const char *entry, void *arg)
{
    listed_seen *l = arg;
    assert_null(entry);
    assert_string_equal(g->seats[0].name, "Ann");
    assert_int_equal(g->ndecisions, 0);
    strcat(l->ids, g->id);
    strcat(l->ids, ",");
    strcat(l->statuses, g->status);
    strcat(l->statuses, ",");
    l->n++;
    return 0;
}

/* store_each_listed: the games named, in the order named, unknown ones
 * skipped, at most STORE_LIST_MAX; budgets refilled in time, refused
 * without a change, shared by two stores of one site (PostgreSQL), pruned;
 * a site's secret made once; a server's address. */
static void test_listed_budgets_and_site(void **state)
{
    (void)state;
    char db[256], err[256];
    new_db(db, sizeof db, "site");
    store *s = store_open_server(db, false, err, sizeof err);
    assert_non_null(s);
    stored_game a = sample_game("gameLLLLLLL1"), b = sample_game("gameLLLLLLL2");
    strcpy(b.status, "cancelled");
    assert_int_equal(store_create_game(s, &a), 0);
    assert_int_equal(store_create_game(s, &b), 0);
    const char *ids[STORE_LIST_MAX + 1];
    ids[0] = "gameLLLLLLL2";
    ids[1] = "nosuchgame01";
    ids[2] = "gameLLLLLLL1";
    for (int i = 3; i <= STORE_LIST_MAX; i++)
        ids[i] = i == STORE_LIST_MAX ? "gameLLLLLLL1" : "nosuchgame02";
    listed_seen l = {0};
    assert_int_equal(store_each_listed(s, ids, 3, listed, &l), 0);
    assert_string_equal(l.ids, "gameLLLLLLL2,gameLLLLLLL1,");
    assert_string_equal(l.statuses, "cancelled,waiting,");
    memset(&l, 0, sizeof l);
    /* the fifty-first is not looked at */
    assert_int_equal(store_each_listed(s, ids, STORE_LIST_MAX + 1, listed, &l), 0);
    assert_string_equal(l.ids, "gameLLLLLLL2,gameLLLLLLL1,");

    /* 3 uses in a window of 10 s from its first use */
    int64_t t = 1700000000000, retry = 0;
    const char *k = "games ip 10.0.0.1";
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + i, &retry), 1);
    assert_int_equal(retry, 10000 - 2); /* granted, and now full: until the window ends */
    assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 5000, &retry), 0);
    assert_int_equal(retry, 5000);
    assert_int_equal(store_budget_take(s, k, 3, 10000, 0, t + 5000, &retry), 1); /* a look */
    assert_int_equal(retry, 5000);
    assert_int_equal(store_budget_take(s, "games ip 10.0.0.2", 3, 10000, 1, t + 5000, &retry), 1);
    assert_int_equal(retry, 0);
    /* a use given back fits again */
    assert_int_equal(store_budget_take(s, k, 3, 10000, -1, t + 6000, NULL), 1);
    assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 6000, NULL), 1);
    assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 6000, NULL), 0);
    /* a new window: full again, and given back uses never make it more */
    assert_int_equal(store_budget_take(s, k, 3, 10000, -1, t + 20000, NULL), 1);
    for (int i = 0; i < 3; i++)
        assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 20000, NULL), 1);
    assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 20000, &retry), 0);
    assert_int_equal(retry, 10000);

    char secret[128], again[128], address[STORE_ADDRESS_MAX + 1];
    assert_int_equal(store_site_secret(s, "site_key", "first", secret, sizeof secret), 0);
    assert_string_equal(secret, "first");
    assert_int_equal(store_site_secret(s, "site_key", "second", again, sizeof again), 0);
    assert_string_equal(again, "first");
    assert_int_equal(store_instance_address(s, "cccccccccccccccc", address, sizeof address), 1);
    assert_int_equal(store_instance_register(s, "cccccccccccccccc", "10.0.0.12:8081", t), 0);
    assert_int_equal(store_instance_address(s, "cccccccccccccccc", address, sizeof address), 0);
    assert_string_equal(address, "10.0.0.12:8081");

    if (on_pg) {
        /* a second server of the site draws on the same budget */
        store *u = store_open_server(db, false, err, sizeof err);
        assert_non_null(u);
        assert_int_equal(store_budget_take(u, k, 3, 10000, 1, t + 21000, NULL), 0);
        assert_int_equal(store_site_secret(u, "site_key", "third", again, sizeof again), 0);
        assert_string_equal(again, "first");
        store_close(u);
    }
    assert_int_equal(store_budgets_prune(s, t + 10000), 0);
    /* 10.0.0.2's window began before: forgotten; 10.0.0.1's is kept */
    assert_int_equal(store_budget_take(s, k, 3, 10000, 1, t + 21000, NULL), 0);
    store_close(s);
}

/* --- the servers of one site (store_owners.c) --- */

static int collect_id(const char *id, void *arg)
{
    char *out = arg;
    strcat(out, id);
    strcat(out, ",");
    return 0;
}

typedef struct {
    int n;
    char ids[256];
} entries_seen;

static int entry_seen(const char *id, int64_t created, int people, const char *entry, void *arg)
{
    entries_seen *e = arg;
    assert_true(created > 0);
    assert_int_equal(people, 1);
    assert_non_null(strstr(entry, "\"status\""));
    e->n++;
    strcat(e->ids, id);
    return 0;
}

/* Writes a decision of game id fenced by instance; the write's result and
 * whether its lease was lost. */
static int fenced_decision(store *s, const char *id, const char *instance, int ply, bool *lost)
{
    store_write *w = calloc(1, sizeof *w);
    snprintf(w->game_id, sizeof w->game_id, "%s", id);
    snprintf(w->instance, sizeof w->instance, "%s", instance);
    w->ply = ply;
    w->seat = ply % 2;
    w->decision = strdup("{\"type\":\"swap\",\"accept\":true}");
    store_writer_submit(s, w);
    store_write *done = NULL;
    for (int tries = 0; !done && tries < 30000; tries++)
        if (!(done = store_writer_done(s)))
            usleep(1000);
    assert_non_null(done);
    int rc = done->result;
    *lost = done->lease_lost;
    store_write_free(done);
    return rc;
}

/* Leases: one holder at a time, renewal, release and the handover, expiry
 * and orphans, fenced writes refused to a server that lost its game; the
 * lobby entries; on PostgreSQL a second server on the same database, and
 * messages between them. */
static void test_leases(void **state)
{
    (void)state;
    char db[256], err[256], holder[STORE_INSTANCE_LEN + 1];
    const char *a = "aaaaaaaaaaaaaaaa", *b = "bbbbbbbbbbbbbbbb";
    new_db(db, sizeof db, "leases");
    store *s = store_open_server(db, false, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(store_shared(s), on_pg);
    store *t = store_open_server(db, false, err, sizeof err);
    if (on_pg) {
        assert_non_null(t);                                  /* a second server of the site */
        assert_null(store_open(db, false, err, sizeof err)); /* a copy waits for them */
        assert_non_null(strstr(err, "in use"));
    } else {
        assert_null(t); /* SQLite: one server per file */
        t = s;
    }
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    if (t != s)
        assert_int_equal(store_writer_start(t, notify, NULL), 0);
    stored_game g = sample_game("LeaseGame001");
    strcpy(g.status, "running");
    strcpy(g.seats[1].token_hash, "cd");
    assert_int_equal(store_create_game(s, &g), 0);
    int64_t now = 1800000000000;

    /* nobody holds it: an orphan; a takes it; b cannot while it is a's */
    char ids[256] = "";
    assert_int_equal(store_each_orphan(s, now, 10, collect_id, ids), 0);
    assert_string_equal(ids, "LeaseGame001,");
    assert_int_equal(store_lease_take(s, "LeaseGame001", a, now, now + 6000, holder), 0);
    assert_int_equal(store_lease_take(t, "LeaseGame001", b, now + 1000, now + 7000, holder), 1);
    assert_string_equal(holder, a);
    ids[0] = 0;
    assert_int_equal(store_each_orphan(t, now + 1000, 10, collect_id, ids), 0);
    assert_string_equal(ids, "");

    /* a's writes go through; renewal keeps it a's */
    bool lost;
    assert_int_equal(fenced_decision(s, "LeaseGame001", a, 0, &lost), 0);
    assert_false(lost);
    int64_t held = 0;
    assert_int_equal(store_leases_renew(s, a, now + 5000, now + 11000, &held), 0);
    assert_int_equal(held, 1);
    assert_int_equal(store_lease_take(t, "LeaseGame001", b, now + 7000, now + 13000, holder), 1);

    /* a freezes past its lease: b takes the game, a's next write is refused */
    assert_int_equal(store_lease_take(t, "LeaseGame001", b, now + 12000, now + 18000, holder), 0);
    assert_int_equal(fenced_decision(s, "LeaseGame001", a, 1, &lost), -1);
    assert_true(lost);
    assert_int_equal(fenced_decision(t, "LeaseGame001", b, 1, &lost), 0);
    assert_false(lost);
    assert_int_equal(store_leases_renew(s, a, now + 12000, now + 18000, &held), 0);
    assert_int_equal(held, 0);
    ids[0] = 0;
    assert_int_equal(store_each_lease(t, b, collect_id, ids), 0);
    assert_string_equal(ids, "LeaseGame001,");

    /* b lets it go: anyone may take it at once; an orphan only after until */
    assert_int_equal(store_lease_release(t, "LeaseGame001", b, now + 14000), 0);
    ids[0] = 0;
    assert_int_equal(store_each_orphan(s, now + 13000, 10, collect_id, ids), 0);
    assert_string_equal(ids, "");
    assert_int_equal(store_each_orphan(s, now + 15000, 10, collect_id, ids), 0);
    assert_string_equal(ids, "LeaseGame001,");
    assert_int_equal(store_lease_take(s, "LeaseGame001", a, now + 13000, now + 19000, holder), 0);

    /* a stops: its leases are released for adoption */
    assert_int_equal(store_leases_release_all(s, a, now + 13000), 0);
    assert_int_equal(store_lease_take(t, "LeaseGame001", b, now + 13500, now + 19500, holder), 0);

    /* the lobby entry b writes is listed by everyone but b */
    store_write *w = calloc(1, sizeof *w);
    w->kind = STORE_ENTRY;
    snprintf(w->game_id, sizeof w->game_id, "LeaseGame001");
    snprintf(w->instance, sizeof w->instance, "%s", b);
    w->entry = strdup("{\"id\":\"LeaseGame001\",\"status\":\"running\"}");
    w->people = 1;
    store_writer_submit(t, w);
    (void)collect(t, 1);
    entries_seen e = {0, ""};
    assert_int_equal(store_each_entry(s, a, entry_seen, &e), 0);
    assert_int_equal(e.n, 1);
    assert_int_equal(store_each_entry(s, b, entry_seen, &e), 0);
    assert_int_equal(e.n, 1);
    char *entry = NULL;
    assert_int_equal(store_get_entry(s, "LeaseGame001", &entry), 0);
    assert_non_null(strstr(entry, "running"));
    free(entry);

    if (on_pg) {
        /* messages: every server hears every other, itself too */
        assert_int_equal(store_listen_start(s, notify, NULL), 0);
        assert_int_equal(store_notify(t, "bbbbbbbbbbbbbbbb release LeaseGame001"), 0);
        store_message *m = NULL;
        for (int tries = 0; !m && tries < 5000; tries++)
            if (!(m = store_messages(s)))
                usleep(1000);
        assert_non_null(m);
        assert_string_equal(m->text, "bbbbbbbbbbbbbbbb release LeaseGame001");
        store_messages_free(m);
        int alive = 0;
        assert_int_equal(store_leases_renew(t, b, now + 14000, now + 20000, &held), 0);
        assert_int_equal(held, 1);
        assert_int_equal(store_instances_alive(s, now, &alive), 0);
        assert_int_equal(alive, 1); /* b; a forgot itself when it stopped */
        store_close(t);
    }
    store_close(s);
}

/* PostgreSQL: a session ended by the database server is replaced before
 * the next call, with its statements prepared again. */
static void test_pg_session_replaced(void **state)
{
    (void)state;
    if (!on_pg) {
        skip();
        return;
    }
    char db[256], err[256];
    new_db(db, sizeof db, "replaced");
    store *s = store_open(db, true, err, sizeof err);
    assert_non_null(s);
    stored_game g = sample_game("gameDDDDDDDD");
    assert_int_equal(store_create_game(s, &g), 0);
    psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE datname = 'replaced' AND application_name = 'axio'");
    usleep(100000);
    stored_game back;
    assert_int_equal(store_load(s, g.id, &back), 0);
    assert_string_equal(back.seats[0].name, "Ann");
    stored_game_free(&back);
    assert_int_equal(store_writer_start(s, notify, NULL), 0);
    submit(s, g.id, 0, NULL);
    assert_int_equal(collect(s, 1), 0);
    store_close(s);
}

static void test_target_text(void **state)
{
    (void)state;
    char out[256];
    store_target_text("postgresql://axio:s3cret@db.example.org:5433/axio?sslmode=require", out,
                      sizeof out);
    assert_string_equal(out, "postgresql://axio:***@db.example.org:5433/axio?sslmode=require");
    store_target_text("postgres://u@/db?host=/run/x&password=s3cret&user=u", out, sizeof out);
    assert_string_equal(out, "postgres://u@/db?host=/run/x&password=***&user=u");
    store_target_text("/var/lib/axio/axio.db", out, sizeof out);
    assert_string_equal(out, "/var/lib/axio/axio.db");
}

int main(void)
{
    const char *kind = getenv("AXIO_TEST_DB");
    on_pg = kind && strcmp(kind, "postgresql") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_write_after_stop),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_pg_refusals),
        cmocka_unit_test(test_leases),
        cmocka_unit_test(test_listed_budgets_and_site),
        cmocka_unit_test(test_pg_session_replaced),
        cmocka_unit_test(test_target_text),
        cmocka_unit_test(test_rules_and_damaged),
        cmocka_unit_test(test_accounts_and_sessions),
        cmocka_unit_test(test_ratings_in_the_last_decision),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
