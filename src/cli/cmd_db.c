/*
 * cmd_db.c - `axio db copy FROM TO`: moves a site's database from one
 * backend to another (SQLite to PostgreSQL and back, or any to any).
 *
 * Everything the server keeps is copied through the store's interface
 * (store_copy_table, store_copy_game: row by row, idempotent, a game in one
 * transaction; src/server/store/store_copy.c says how): accounts first, then
 * every game in the order it was stored with its seats, decisions, chat and
 * analyses, then sessions, ratings and the rating history. Each game is then
 * read back from the target and replayed through the engine from its seed
 * (ax_replay_decisions, as the server resumes a game), so that a
 * game the target could not resume is named now, not when a player opens it.
 * Run again after an interruption, the copy finds what is there equal and
 * adds what is missing; it prints what it did, table by table.
 */
#include "../engine/axio.h"
#include "../engine/decision.h"
#include "../engine/reason.h"
#include "../server/store/store.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio db copy FROM TO\n"
    "\n"
    "Copies everything an axio server keeps - games with their seats, decisions and\n"
    "chat, analyses, accounts, sessions, ratings and their history, and moderation (blocks,\n"
    "reports, sanctions, held names, the log) - from the database\n"
    "FROM to the database TO: SQLite to PostgreSQL, PostgreSQL to SQLite, or any to any.\n"
    "Each is given as `axio serve --db` takes it: FILE or sqlite:FILE, or a PostgreSQL\n"
    "URI postgresql://USER@HOST/DB. FROM must hold an axio database (an older one is\n"
    "migrated first, as a server would); TO is created when it is new. Neither may be in\n"
    "use by a running server (stop it first; both are refused while it runs).\n"
    "\n"
    "Each game is checked by replaying its decisions through the engine; a game that\n"
    "does not replay is copied as it is and named. A copy that was interrupted can be\n"
    "run again: rows there already are compared (equal ones are skipped, one with other\n"
    "values is left as it is and named) and missing ones are added.\n"
    "\n"
    "Exit status: 0 when everything is in TO, equal, and every game replays; 1 when\n"
    "a row differs, a game does not replay, or a database cannot be used; 2 bad usage.\n";

#define REPORT_MAX 50 /* differing rows named one by one */

typedef struct {
    store *from, *to;
    store_copy_count counts[STORE_T_COUNT];
    long games, replayed, damaged, unreplayable, reported;
    int failed;
} copy_run;

static void report(const char *what, void *arg)
{
    copy_run *run = arg;
    if (++run->reported <= REPORT_MAX)
        printf("  differs: %s\n", what);
}

/* Replays a stored game from its seed: 0, or -1 with the reason. */
static int replay(const stored_game *g, char *why, size_t n)
{
    if (strcmp(g->rules, AX_RULES_VERSION) != 0) {
        snprintf(why, n, "played under rules '%s'; this axio plays %s", g->rules, AX_RULES_VERSION);
        return -1;
    }
    int v = ax_variant_parse(g->variant), m = ax_mode_parse(g->mode);
    if (v < 0 || m < 0 || ax_config_check(v, g->players, m) != AX_OK) {
        snprintf(why, n, "unknown configuration %s/%d/%s", g->variant, g->players, g->mode);
        return -1;
    }
    ax_game *game = malloc(sizeof *game);
    int rc = -1;
    if (!game)
        snprintf(why, n, "out of memory");
    else if (ax_game_init(game, v, g->players, m, g->seed, NULL) != AX_OK)
        snprintf(why, n, "the engine cannot deal it");
    else if (ax_replay_decisions(game, g->decisions, g->ndecisions, NULL, NULL, why, n) ==
             AX_REPLAY_OK)
        rc = strcmp(g->status, "over") == 0 && game->phase != AX_PHASE_OVER
                 ? ax_fail(why, n, -1, "stored as over, but its decisions do not end it")
                 : 0;
    free(game);
    return rc;
}

/* Checks a copied game as the target holds it. */
static void check_game(copy_run *run, const char *id)
{
    stored_game g;
    char why[256] = "";
    int rc = store_load(run->to, id, &g);
    if (rc == 1 || rc == -1) {
        printf("  game %s: cannot be read back: %s\n", id,
               rc == 1 ? "missing" : store_error(run->to));
        run->unreplayable++;
        return;
    }
    if (strcmp(g.status, "damaged") == 0) {
        run->damaged++; /* set aside by a server already, with its reason */
    } else if (rc == 2 || replay(&g, why, sizeof why)) {
        printf("  game %s (%s): does not replay: %s\n", id, g.status,
               rc == 2 ? store_error(run->to) : why);
        run->unreplayable++;
    } else {
        run->replayed++;
    }
    stored_game_free(&g);
}

static int copy_one_game(const char *id, void *arg)
{
    copy_run *run = arg;
    run->games++;
    if (store_copy_game(run->from, run->to, id, run->counts, report, run)) {
        fprintf(stderr, "axio db: copying game %s failed: %s\n", id, store_error(run->to));
        run->failed = 1;
        return 1;
    }
    check_game(run, id);
    return 0;
}

static int copy_table(copy_run *run, int table)
{
    if (store_copy_table(run->from, run->to, table, &run->counts[table], report, run) == 0)
        return 0;
    fprintf(stderr, "axio db: copying %s failed: %s\n", store_table_name(table),
            store_error(run->to));
    run->failed = 1;
    return -1;
}

static int copy(const char *from_target, const char *to_target)
{
    char err[512], from_shown[512], to_shown[512];
    store_target_text(from_target, from_shown, sizeof from_shown);
    store_target_text(to_target, to_shown, sizeof to_shown);
    copy_run run = {0};
    if (!(run.from = store_open_existing(from_target, err, sizeof err))) {
        fprintf(stderr, "axio db: cannot use %s: %s\n", from_shown, err);
        return 1;
    }
    if (!(run.to = store_open(to_target, false, err, sizeof err))) {
        fprintf(stderr, "axio db: cannot use %s: %s\n", to_shown, err);
        store_close(run.from);
        return 1;
    }
    printf("axio db copy: from %s (%s) to %s (%s)\n", from_shown, store_backend(run.from), to_shown,
           store_backend(run.to));
    fflush(stdout);
    if (copy_table(&run, STORE_T_ACCOUNTS) == 0 &&
        store_each_game(run.from, copy_one_game, &run) != 0) {
        fprintf(stderr, "axio db: %s\n", store_error(run.from));
        run.failed = 1;
    }
    if (!run.failed && copy_table(&run, STORE_T_SESSIONS) == 0 &&
        copy_table(&run, STORE_T_RATINGS) == 0 && copy_table(&run, STORE_T_HISTORY) == 0 &&
        copy_table(&run, STORE_T_FOLLOWS) == 0 && copy_table(&run, STORE_T_TOKENS) == 0 &&
        copy_table(&run, STORE_T_BLOCKS) == 0 && copy_table(&run, STORE_T_REPORTS) == 0 &&
        copy_table(&run, STORE_T_SANCTIONS) == 0 && copy_table(&run, STORE_T_HELD_NAMES) == 0 &&
        copy_table(&run, STORE_T_MOD_LOG) == 0 && copy_table(&run, STORE_T_SITE) == 0 &&
        copy_table(&run, STORE_T_SUBSCRIPTIONS) == 0 &&
        copy_table(&run, STORE_T_NOTIFY_SETTINGS) == 0 && copy_table(&run, STORE_T_EMAILS) == 0 &&
        copy_table(&run, STORE_T_EVENTS) == 0 && copy_table(&run, STORE_T_EVENT_PLAYERS) == 0 &&
        copy_table(&run, STORE_T_EVENT_TABLES) == 0 && store_copy_finish(run.to) != 0) {
        fprintf(stderr, "axio db: %s\n", store_error(run.to));
        run.failed = 1;
    }
    if (run.reported > REPORT_MAX)
        printf("  ... and %ld more rows that differ\n", run.reported - REPORT_MAX);
    for (int t = 0; t < STORE_T_COUNT; t++) {
        const store_copy_count *c = &run.counts[t];
        printf("%-18s %7ld added, %7ld there already and equal", store_table_name(t), c->added,
               c->equal);
        if (c->different)
            printf(", %ld differ (left as they are)", c->different);
        printf("\n");
    }
    printf("games replayed: %ld of %ld", run.replayed, run.games);
    if (run.damaged)
        printf(", %ld set aside as damaged before (not replayed)", run.damaged);
    if (run.unreplayable)
        printf(", %ld do not replay (named above)", run.unreplayable);
    printf("\n");
    long different = 0;
    for (int t = 0; t < STORE_T_COUNT; t++)
        different += run.counts[t].different;
    if (run.failed)
        printf("stopped before the end: run it again to go on\n");
    else if (different || run.unreplayable)
        printf("copied, but not everything is equal or replays (above)\n");
    else
        printf("done: everything is in %s\n", to_shown);
    store_close(run.to);
    store_close(run.from);
    return run.failed || different || run.unreplayable ? 1 : 0;
}

int cmd_db(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    if (argc < 2)
        return usage_error("db", "no action given (copy)");
    if (strcmp(argv[1], "copy") != 0)
        return usage_error("db", "unknown action '%s' (copy)", argv[1]);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return 0;
        }
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error("db", "unknown option '%s'", argv[i]);
    }
    if (argc != 4)
        return usage_error("db", "copy needs FROM and TO, and nothing else");
    const char *from = argv[2], *to = argv[3];
    if (!*from || !*to || strcmp(from, "sqlite:") == 0 || strcmp(to, "sqlite:") == 0)
        return usage_error("db", "FROM and TO must name databases");
    if (strcmp(from, to) == 0)
        return usage_error("db", "FROM and TO are the same database");
    return copy(from, to);
}
