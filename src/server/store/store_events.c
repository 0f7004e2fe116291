/*
 * store_events.c - arenas and Swiss tournaments in the store (store.h,
 * "events"; docs/tournaments.md; issue 50): an event's settings and where
 * it stands, its entrants, and its tables, each a game of the site (or a
 * bye) with the points it gave once over.
 *
 * One server of a site runs an event at a time: a lease in the event's row
 * (runner, runner_until), taken and renewed as games' leases are. Every
 * write of the runner (tables made, a table's end) is one transaction that
 * first checks the lease still names it, so a server that froze past its
 * lease never writes beside the one that took the event over; a round's
 * tables are keyed by (event, round, table), so a round is made once.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENT_COLS                                                                                 \
    "e.id, e.name, e.organiser_id, a.name, e.format, e.variant, e.mode, e.seats, e.clock,"         \
    " e.rated, e.bots, e.starts_at, e.duration_s, e.rounds, e.days_per_round,"                     \
    " e.min_rated_games, e.status, e.round, e.round_deadline, e.ends_at, e.cancel_reason,"         \
    " e.created_at, e.creator_addr, (SELECT COUNT(*) FROM event_players p WHERE"                   \
    " p.event_id = e.id AND p.withdrawn = 0)"
#define EVENT_FROM " FROM events e LEFT JOIN accounts a ON a.id = e.organiser_id"
#define TABLE_COLS                                                                                 \
    "t.round, t.tbl, t.game_id, t.seats, t.players, t.points, t.places, t.running, t.counted,"     \
    " t.created_at, t.ended_at, t.deadline"

static const char *const event_sql[EV_COUNT] = {
    [EV_PUT] = "INSERT INTO events(id, name, organiser_id, format, variant, mode, seats, clock,"
               " rated, bots, starts_at, duration_s, rounds, days_per_round, min_rated_games,"
               " status, round, round_deadline, ends_at, created_at, creator_addr)"
               " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
               " 'upcoming', 0, 0, 0, ?16, ?17)",
    [EV_GET] = "SELECT " EVENT_COLS EVENT_FROM " WHERE e.id = ?1",
    /* upcoming and running soonest first, finished (and cancelled) newest first */
    [EV_LIST] = "SELECT " EVENT_COLS EVENT_FROM
                " WHERE e.status = ?1 OR (?1 = 'finished' AND e.status = 'cancelled')"
                " ORDER BY CASE WHEN ?1 = 'finished' THEN -e.starts_at ELSE e.starts_at END, e.id"
                " LIMIT ?2",
    [EV_ORGANISED] = "SELECT COUNT(*) FROM events WHERE organiser_id = ?1 AND"
                     " status IN ('upcoming', 'running')",
    [EV_BY_ADDR] = "SELECT COUNT(*) FROM events WHERE creator_addr = ?1 AND created_at >= ?2",
    [EV_OF] = "SELECT " EVENT_COLS EVENT_FROM " JOIN event_players q ON q.event_id = e.id"
              " WHERE q.account_id = ?1 AND q.withdrawn = 0 AND"
              " e.status IN ('upcoming', 'running') ORDER BY e.starts_at, e.id LIMIT 100",
    [EV_STATUS_OF] = "SELECT status FROM events WHERE id = ?1",
    [EV_PLAYERS] = "SELECT COUNT(*) FROM event_players WHERE event_id = ?1 AND withdrawn = 0",
    [EV_JOIN] = "INSERT INTO event_players(event_id, account_id, joined_at, withdrawn, misses)"
                " VALUES(?1, ?2, ?3, 0, 0) ON CONFLICT(event_id, account_id) DO UPDATE SET"
                " withdrawn = 0",
    [EV_WITHDRAW] = "UPDATE event_players SET withdrawn = 1 WHERE event_id = ?1 AND"
                    " account_id = ?2 AND withdrawn = 0",
    [EV_SET_STATUS] = "UPDATE events SET status = ?3, round = ?4, round_deadline = ?5,"
                      " ends_at = ?6, cancel_reason = ?7 WHERE id = ?1 AND status = ?2",
    [EV_ENTRANTS] = "SELECT p.account_id, a.name, a.bot, p.joined_at, p.withdrawn, p.misses"
                    " FROM event_players p LEFT JOIN accounts a ON a.id = p.account_id"
                    " WHERE p.event_id = ?1 ORDER BY p.joined_at, p.account_id",
    [EV_TABLES] = "SELECT " TABLE_COLS " FROM event_tables t WHERE t.event_id = ?1"
                  " ORDER BY t.round, t.tbl",
    [EV_ENDED] = "SELECT " TABLE_COLS " FROM event_tables t JOIN games g ON g.id = t.game_id"
                 " WHERE t.event_id = ?1 AND t.running = 1 AND"
                 " g.status NOT IN ('waiting', 'running') ORDER BY t.round, t.tbl",
    [EV_LEASE] = "UPDATE events SET runner = ?2, runner_until = ?4 WHERE id = ?1 AND"
                 " (runner = ?2 OR runner IS NULL OR runner_until < ?3)",
    [EV_FENCE_ROUND] = "UPDATE events SET round = ?3, round_deadline = ?4 WHERE id = ?1 AND"
                       " runner = ?2 AND status = 'running'",
    [EV_FENCE] = "UPDATE events SET runner = runner WHERE id = ?1 AND runner = ?2",
    [EV_TABLE_PUT] = "INSERT INTO event_tables(event_id, round, tbl, game_id, seats, players,"
                     " points, places, running, counted, created_at, ended_at, deadline)"
                     " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [EV_TABLE_END] = "UPDATE event_tables SET running = 0, points = ?4, places = ?5,"
                     " counted = ?6, ended_at = ?7 WHERE event_id = ?1 AND round = ?2 AND"
                     " tbl = ?3 AND running = 1",
    [EV_MISS] = "UPDATE event_players SET misses = misses + 1, withdrawn = CASE WHEN"
                " misses + 1 >= ?3 THEN 1 ELSE withdrawn END WHERE event_id = ?1 AND"
                " account_id = ?2",
    [EV_OF_GAME] = "SELECT event_id FROM event_tables WHERE game_id = ?1",
    [EV_DUE] = "SELECT " EVENT_COLS EVENT_FROM " WHERE e.status = 'running' OR"
               " (e.status = 'upcoming' AND e.starts_at <= ?1) ORDER BY e.starts_at, e.id",
};

int store_events_prepare(store *s) { return store_prepare_all(s, s->ev, event_sql, EV_COUNT); }

void store_events_finalize(store *s) { store_finalize_all(s, s->ev, EV_COUNT); }

int store_event_create(store *s, const stored_event *e)
{
    store_lock(s);
    sql_stmt *st = s->ev[EV_PUT];
    bind_text(s, st, 1, e->id);
    bind_text(s, st, 2, e->name);
    bind_int(s, st, 3, e->organiser_id);
    bind_text(s, st, 4, e->format);
    bind_text(s, st, 5, e->variant);
    bind_text(s, st, 6, e->mode);
    bind_int(s, st, 7, e->seats);
    bind_text(s, st, 8, e->clock);
    bind_int(s, st, 9, e->rated);
    bind_int(s, st, 10, e->bots);
    bind_int(s, st, 11, e->starts);
    bind_int(s, st, 12, e->duration_s);
    bind_int(s, st, 13, e->rounds);
    bind_int(s, st, 14, e->days_per_round);
    bind_int(s, st, 15, e->min_rated_games);
    bind_int(s, st, 16, e->created);
    bind_text_or_null(s, st, 17, e->creator_addr);
    return store_unlock(s, store_step_done(s, st, "storing an event"));
}

static void read_event(store *s, sql_stmt *st, void *item)
{
    stored_event *e = item;
    memset(e, 0, sizeof *e);
    store_copy_column(s, st, 0, e->id, sizeof e->id);
    store_copy_column(s, st, 1, e->name, sizeof e->name);
    e->organiser_id = col_int(s, st, 2);
    store_copy_column(s, st, 3, e->organiser, sizeof e->organiser);
    if (!e->organiser[0])
        snprintf(e->organiser, sizeof e->organiser, "%s", STORE_NEUTRAL_NAME);
    store_copy_column(s, st, 4, e->format, sizeof e->format);
    store_copy_column(s, st, 5, e->variant, sizeof e->variant);
    store_copy_column(s, st, 6, e->mode, sizeof e->mode);
    e->seats = (int)col_int(s, st, 7);
    store_copy_column(s, st, 8, e->clock, sizeof e->clock);
    e->rated = col_int(s, st, 9) != 0;
    e->bots = col_int(s, st, 10) != 0;
    e->starts = col_int(s, st, 11);
    e->duration_s = (int)col_int(s, st, 12);
    e->rounds = (int)col_int(s, st, 13);
    e->days_per_round = (int)col_int(s, st, 14);
    e->min_rated_games = (int)col_int(s, st, 15);
    store_copy_column(s, st, 16, e->status, sizeof e->status);
    e->round = (int)col_int(s, st, 17);
    e->round_deadline = col_int(s, st, 18);
    e->ends = col_int(s, st, 19);
    store_copy_column(s, st, 20, e->cancel_reason, sizeof e->cancel_reason);
    e->created = col_int(s, st, 21);
    store_copy_column(s, st, 22, e->creator_addr, sizeof e->creator_addr);
    e->players = (int)col_int(s, st, 23);
}

int store_event_get(store *s, const char *id, stored_event *out)
{
    store_lock(s);
    bind_text(s, s->ev[EV_GET], 1, id);
    return store_unlock_result(
        s, store_read_row(s, s->ev[EV_GET], read_event, out, "reading an event"));
}

static int each_event(store *s, sql_stmt *st, int (*fn)(const stored_event *e, void *arg),
                      void *arg)
{
    stored_event *list;
    int n;
    int rc =
        store_read_rows(s, st, sizeof *list, read_event, (void **)&list, &n, "reading the events");
    rc = store_unlock(s, rc);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = fn(&list[i], arg) ? 1 : 0;
    free(list);
    return rc < 0 ? -1 : 0;
}

int store_each_event(store *s, const char *status, int max,
                     int (*fn)(const stored_event *e, void *arg), void *arg)
{
    store_lock(s);
    bind_text(s, s->ev[EV_LIST], 1, status);
    bind_int(s, s->ev[EV_LIST], 2, max);
    return each_event(s, s->ev[EV_LIST], fn, arg);
}

int store_each_event_of(store *s, int64_t account_id, int (*fn)(const stored_event *e, void *arg),
                        void *arg)
{
    store_lock(s);
    bind_int(s, s->ev[EV_OF], 1, account_id);
    return each_event(s, s->ev[EV_OF], fn, arg);
}

int store_each_due_event(store *s, int64_t now_ms, int (*fn)(const stored_event *e, void *arg),
                         void *arg)
{
    store_lock(s);
    bind_int(s, s->ev[EV_DUE], 1, now_ms);
    return each_event(s, s->ev[EV_DUE], fn, arg);
}

/* One integer of the first row; -1 on error. */
static int count_of(store *s, sql_stmt *st, int *out, const char *what)
{
    int rc = step(s, st);
    *out = rc == SQL_ROW ? (int)col_int(s, st, 0) : 0;
    reset(s, st);
    return rc == SQL_ERROR ? store_fail(s, what) : 0;
}

int store_events_organised(store *s, int64_t account_id, const char *creator_addr, int64_t since_ms,
                           int *organised, int *by_addr)
{
    store_lock(s);
    bind_int(s, s->ev[EV_ORGANISED], 1, account_id);
    int rc = count_of(s, s->ev[EV_ORGANISED], organised, "counting events");
    bind_text(s, s->ev[EV_BY_ADDR], 1, creator_addr);
    bind_int(s, s->ev[EV_BY_ADDR], 2, since_ms);
    if (rc == 0)
        rc = count_of(s, s->ev[EV_BY_ADDR], by_addr, "counting events");
    return store_unlock(s, rc);
}

int store_event_join(store *s, const char *id, int64_t account_id, int64_t now_ms,
                     bool allow_running, int max_players)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->ev[EV_STATUS_OF];
    bind_text(s, st, 1, id);
    int rc = step(s, st);
    char status[16] = "";
    if (rc == SQL_ROW)
        snprintf(status, sizeof status, "%s", col_text(s, st, 0) ? col_text(s, st, 0) : "");
    reset(s, st);
    if (rc == SQL_ERROR) {
        store_fail(s, "reading an event");
        return store_unlock(s, store_rollback(s));
    }
    if (strcmp(status, "upcoming") && !(allow_running && strcmp(status, "running") == 0)) {
        store_rollback(s);
        return store_unlock_result(s, 1);
    }
    int players = 0;
    bind_text(s, s->ev[EV_PLAYERS], 1, id);
    if (count_of(s, s->ev[EV_PLAYERS], &players, "counting players"))
        return store_unlock(s, store_rollback(s));
    if (players >= max_players) {
        store_rollback(s);
        return store_unlock_result(s, 2);
    }
    st = s->ev[EV_JOIN];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, account_id);
    bind_int(s, st, 3, now_ms);
    if (store_step_done(s, st, "joining an event"))
        return store_unlock(s, store_rollback(s));
    return store_unlock(s, store_commit(s));
}

int store_event_withdraw(store *s, const char *id, int64_t account_id)
{
    store_lock(s);
    sql_stmt *st = s->ev[EV_WITHDRAW];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, account_id);
    return store_unlock_result(s, store_step_changed(s, st, "withdrawing from an event"));
}

int store_event_set_status(store *s, const stored_event *e, const char *from_status)
{
    store_lock(s);
    sql_stmt *st = s->ev[EV_SET_STATUS];
    bind_text(s, st, 1, e->id);
    bind_text(s, st, 2, from_status);
    bind_text(s, st, 3, e->status);
    bind_int(s, st, 4, e->round);
    bind_int(s, st, 5, e->round_deadline);
    bind_int(s, st, 6, e->ends);
    bind_text_or_null(s, st, 7, e->cancel_reason);
    return store_unlock_result(s, store_step_changed(s, st, "changing an event"));
}

static void read_entrant(store *s, sql_stmt *st, void *item)
{
    stored_entrant *p = item;
    memset(p, 0, sizeof *p);
    p->account_id = col_int(s, st, 0);
    store_copy_column(s, st, 1, p->name, sizeof p->name);
    if (!p->name[0])
        snprintf(p->name, sizeof p->name, "%s", STORE_NEUTRAL_NAME);
    p->bot = col_int(s, st, 2) != 0;
    p->joined = col_int(s, st, 3);
    p->withdrawn = col_int(s, st, 4) != 0;
    p->misses = (int)col_int(s, st, 5);
}

int store_event_entrants(store *s, const char *id, stored_entrant **list, int *n)
{
    store_lock(s);
    bind_text(s, s->ev[EV_ENTRANTS], 1, id);
    return store_unlock(s, store_read_rows(s, s->ev[EV_ENTRANTS], sizeof **list, read_entrant,
                                           (void **)list, n, "reading the entrants"));
}

/* "a,b,c" -> up to STORE_EVENT_SEATS integers. */
static void read_list(const char *text, int64_t *out)
{
    for (int i = 0; i < STORE_EVENT_SEATS; i++)
        out[i] = 0;
    for (int i = 0; text && *text && i < STORE_EVENT_SEATS; i++) {
        char *end;
        out[i] = strtoll(text, &end, 10);
        text = *end == ',' ? end + 1 : end;
    }
}

static void write_list(const int64_t *v, int n, char *out, size_t size)
{
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%lld", i ? "," : "", (long long)v[i]);
}

static void read_table(store *s, sql_stmt *st, void *item)
{
    stored_event_table *t = item;
    memset(t, 0, sizeof *t);
    int64_t v[STORE_EVENT_SEATS];
    t->round = (int)col_int(s, st, 0);
    t->table = (int)col_int(s, st, 1);
    store_copy_column(s, st, 2, t->game_id, sizeof t->game_id);
    t->seats = (int)col_int(s, st, 3);
    read_list(col_text(s, st, 4), t->player);
    read_list(col_text(s, st, 5), v);
    for (int i = 0; i < STORE_EVENT_SEATS; i++)
        t->points[i] = (int)v[i];
    read_list(col_text(s, st, 6), v);
    for (int i = 0; i < STORE_EVENT_SEATS; i++)
        t->places[i] = (int)v[i];
    t->running = col_int(s, st, 7) != 0;
    t->counted = col_int(s, st, 8) != 0;
    t->created = col_int(s, st, 9);
    t->ended = col_int(s, st, 10);
    t->deadline = col_int(s, st, 11);
}

int store_event_tables(store *s, const char *id, stored_event_table **list, int *n)
{
    store_lock(s);
    bind_text(s, s->ev[EV_TABLES], 1, id);
    return store_unlock(s, store_read_rows(s, s->ev[EV_TABLES], sizeof **list, read_table,
                                           (void **)list, n, "reading an event's tables"));
}

int store_event_tables_ended(store *s, const char *id, stored_event_table **list, int *n)
{
    store_lock(s);
    bind_text(s, s->ev[EV_ENDED], 1, id);
    return store_unlock(s, store_read_rows(s, s->ev[EV_ENDED], sizeof **list, read_table,
                                           (void **)list, n, "reading an event's tables"));
}

int store_event_lease(store *s, const char *id, const char *instance, int64_t now_ms,
                      int64_t until_ms)
{
    store_lock(s);
    sql_stmt *st = s->ev[EV_LEASE];
    bind_text(s, st, 1, id);
    bind_text(s, st, 2, instance);
    bind_int(s, st, 3, now_ms);
    bind_int(s, st, 4, until_ms);
    return store_unlock_result(s, store_step_changed(s, st, "taking an event's lease"));
}

/* Inside a transaction: 0 while the runner holds the event, 1 (rolled
 * back) when it does not, -1 (rolled back). */
static int fenced(store *s, sql_stmt *st, const char *what)
{
    if (store_step_done(s, st, what))
        return store_rollback(s);
    if (s->drv->changes(s->c) > 0)
        return 0;
    store_rollback(s);
    return 1;
}

int store_event_add_tables(store *s, const stored_event *e, const char *instance,
                           const stored_event_table *tables, int n)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->ev[EV_FENCE_ROUND];
    bind_text(s, st, 1, e->id);
    bind_text(s, st, 2, instance);
    bind_int(s, st, 3, e->round);
    bind_int(s, st, 4, e->round_deadline);
    int rc = fenced(s, st, "changing an event's round");
    for (int i = 0; rc == 0 && i < n; i++) {
        const stored_event_table *t = &tables[i];
        char players[128], points[128], places[128];
        int64_t v[STORE_EVENT_SEATS], w[STORE_EVENT_SEATS];
        for (int k = 0; k < STORE_EVENT_SEATS; k++) {
            v[k] = t->points[k];
            w[k] = t->places[k];
        }
        write_list(t->player, t->seats, players, sizeof players);
        write_list(v, t->seats, points, sizeof points);
        write_list(w, t->seats, places, sizeof places);
        st = s->ev[EV_TABLE_PUT];
        bind_text(s, st, 1, e->id);
        bind_int(s, st, 2, t->round);
        bind_int(s, st, 3, t->table);
        bind_text_or_null(s, st, 4, t->game_id);
        bind_int(s, st, 5, t->seats);
        bind_text(s, st, 6, players);
        bind_text(s, st, 7, points);
        bind_text(s, st, 8, places);
        bind_int(s, st, 9, t->running);
        bind_int(s, st, 10, t->counted);
        bind_int(s, st, 11, t->created);
        bind_int(s, st, 12, t->ended);
        bind_int(s, st, 13, t->deadline);
        if (store_step_done(s, st, "storing an event's table")) {
            rc = s->drv->unique_violation(s->c) ? 1 : -1;
            store_rollback(s);
        }
    }
    if (rc == 0)
        rc = store_commit(s);
    return store_unlock_result(s, rc);
}

int store_event_end_table(store *s, const char *id, const char *instance,
                          const stored_event_table *t, const int64_t *missed, int n_missed,
                          int max_misses)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->ev[EV_FENCE];
    bind_text(s, st, 1, id);
    bind_text(s, st, 2, instance);
    int rc = fenced(s, st, "checking an event's runner");
    if (rc == 0) {
        char points[128], places[128];
        int64_t v[STORE_EVENT_SEATS], w[STORE_EVENT_SEATS];
        for (int k = 0; k < STORE_EVENT_SEATS; k++) {
            v[k] = t->points[k];
            w[k] = t->places[k];
        }
        write_list(v, t->seats, points, sizeof points);
        write_list(w, t->seats, places, sizeof places);
        st = s->ev[EV_TABLE_END];
        bind_text(s, st, 1, id);
        bind_int(s, st, 2, t->round);
        bind_int(s, st, 3, t->table);
        bind_text(s, st, 4, points);
        bind_text(s, st, 5, places);
        bind_int(s, st, 6, t->counted);
        bind_int(s, st, 7, t->ended);
        rc = fenced(s, st, "ending an event's table");
    }
    for (int i = 0; rc == 0 && i < n_missed; i++) {
        st = s->ev[EV_MISS];
        bind_text(s, st, 1, id);
        bind_int(s, st, 2, missed[i]);
        bind_int(s, st, 3, max_misses);
        if (store_step_done(s, st, "counting a miss"))
            rc = store_rollback(s);
    }
    if (rc == 0)
        rc = store_commit(s);
    return store_unlock_result(s, rc);
}

int store_event_of_game(store *s, const char *game_id, char event_id[24])
{
    store_lock(s);
    sql_stmt *st = s->ev[EV_OF_GAME];
    bind_text(s, st, 1, game_id);
    int rc = step(s, st);
    if (rc == SQL_ROW)
        store_copy_column(s, st, 0, event_id, 24);
    reset(s, st);
    if (rc == SQL_ERROR)
        return store_unlock(s, store_fail(s, "reading a game's event"));
    return store_unlock_result(s, rc == SQL_ROW ? 0 : 1);
}
