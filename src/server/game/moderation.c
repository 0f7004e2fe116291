/*
 * moderation.c - keeping order (docs/moderation.md, issue 51): players
 * block and report, moderators act and undo, and the site helps itself
 * with word lists and a watch on rated games lost on purpose.
 *
 * Everything a sanction changes is read from the store when it matters,
 * not cached: a chat message asks the store whether its writer is timed out
 * or shadow-muted (store_chat_restriction), a session lookup refuses a
 * closed account (store_accounts.c). So a sanction given on one server of a
 * site binds on every other at once; the servers are also told
 * ("moderated ACCOUNT", owners_tell) so that the account's open game
 * connections hear of a timeout, or are closed with the account, without
 * waiting for their next message.
 *
 * A block is private: the blocked player is refused a join or a challenge
 * with words that do not say why, and the blocker's connections hide the
 * blocked player's chat (each viewer holds its account's blocks, read when
 * it opens and again when they change). A report is seen by moderators
 * only: no answer to anyone else names one.
 *
 * Every action, undo and dismissed report goes into the moderation log
 * (store_log_add), which the database keeps append-only.
 */
#include "moderation.h"
#include "accounts.h"
#include "api.h"
#include "budgets.h"
#include "lobby.h"
#include "names.h"
#include "owners.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define ROLE_MODERATOR      "moderator"
#define CLOSED_SEAT_NAME    "closed account"
#define REPORT_CHARS_MAX    2000
#define WHY_CHARS_MAX       500
#define TIMEOUT_MINUTES_MAX (60 * 24 * 30)
#define BLOCKS_MAX          500 /* blocks an account may hold */
#define QUEUE_MAX           50
#define LOG_MAX             200
#define HISTORY_GAMES       10
#define CHAT_CONTEXT        5 /* lines shown before and after a reported one */
#define WORDS_CHECK_S       30.0
/* rating abuse: QUICK_LOSSES rated games lost having left after at most
 * QUICK_DECISIONS decisions, or SAME_LOSSES to one opponent, within
 * ABUSE_WINDOW_S */
#define QUICK_DECISIONS 2
#define QUICK_LOSSES    3
#define SAME_LOSSES     5
#define ABUSE_WINDOW_S  (7 * 24 * 3600)

static const char *const report_reasons[] = {
    "cheating", "insults", "stalling", "sandbagging", "spam", "offensive_name", "other", NULL};

struct moderation {
    char **words; /* folded, sorted */
    int nwords;
    time_t newest; /* the newest file's change when read */
    int nfiles;
    double last_check;
};

moderation *moderation_new(void) { return calloc(1, sizeof(moderation)); }

/* --- word lists --- */

static void free_words(moderation *m)
{
    for (int i = 0; i < m->nwords; i++)
        free(m->words[i]);
    free(m->words);
    m->words = NULL;
    m->nwords = 0;
}

static int compare_words(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_list(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".txt") == 0 && name[0] != '.';
}

/* The newest change among the lists, and their number; -1 when the
 * directory cannot be read. */
static int lists_changed_at(const char *dir, time_t *newest, int *nfiles)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    *newest = 0;
    *nfiles = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_list(e->d_name))
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0) {
            (*nfiles)++;
            if (st.st_mtime > *newest)
                *newest = st.st_mtime;
        }
    }
    closedir(d);
    return 0;
}

static int add_word(moderation *m, const char *line, int *cap)
{
    char normalized[4 * 256], folded[3 * 4 * 256];
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        n--;
    while (n && (*line == ' ' || *line == '\t'))
        line++, n--;
    if (!n || *line == '#' || n >= 256)
        return 0;
    memcpy(normalized, line, n);
    normalized[n] = 0;
    if (name_fold(normalized, folded, sizeof folded))
        return 0;
    if (m->nwords == *cap) {
        int grown_cap = *cap ? 2 * *cap : 256;
        char **grown = realloc(m->words, (size_t)grown_cap * sizeof *grown);
        if (!grown)
            return -1;
        m->words = grown;
        *cap = grown_cap;
    }
    if (!(m->words[m->nwords] = strdup(folded)))
        return -1;
    m->nwords++;
    return 0;
}

/* Reads every .txt file of dir: one word (or phrase of one word) a line, '#'
 * begins a comment line. */
static int read_lists(service *svc, const char *dir)
{
    moderation *m = svc->moderation;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    free_words(m);
    int cap = 0, rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!is_list(e->d_name))
            continue;
        char path[4096], line[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        while (rc == 0 && fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            rc = add_word(m, line, &cap);
        }
        fclose(f);
    }
    closedir(d);
    if (m->nwords)
        qsort(m->words, (size_t)m->nwords, sizeof *m->words, compare_words);
    lists_changed_at(dir, &m->newest, &m->nfiles);
    return rc;
}

int moderation_start(service *svc)
{
    const char *dir = svc->cfg.word_list_dir;
    if (!dir)
        return 0;
    if (read_lists(svc, dir)) {
        fprintf(stderr, "axio serve: cannot read the word lists in %s\n", dir);
        return -1;
    }
    service_log(svc, "word lists: %d words from %s", svc->moderation->nwords, dir);
    return 0;
}

void moderation_housekeeping(service *svc, double now)
{
    moderation *m = svc->moderation;
    const char *dir = svc->cfg.word_list_dir;
    if (!dir || now - m->last_check < WORDS_CHECK_S)
        return;
    m->last_check = now;
    time_t newest;
    int nfiles;
    if (lists_changed_at(dir, &newest, &nfiles) || (newest == m->newest && nfiles == m->nfiles))
        return;
    if (read_lists(svc, dir))
        service_log(svc, "cannot read the word lists in %s again", dir);
    else
        service_log(svc, "word lists read again: %d words", m->nwords);
}

void moderation_free(service *svc)
{
    if (!svc->moderation)
        return;
    free_words(svc->moderation);
    free(svc->moderation);
    svc->moderation = NULL;
}

static bool listed(const moderation *m, const char *word)
{
    return m->nwords &&
           bsearch(&word, m->words, (size_t)m->nwords, sizeof *m->words, compare_words) != NULL;
}

/* A byte of a word: a letter or digit of ASCII, or any byte of a
 * character beyond it (every script's letters). */
static bool word_byte(unsigned char b)
{
    return b >= 0x80 || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
}

/* The first listed word in a text: each of its words, case-folded, is
 * looked up; a name also as a whole with its separators taken out
 * ("bad_word" and "bad.word" are "badword"). NULL when none. */
static const char *find_word(const moderation *m, const char *text, bool name, char *found,
                             size_t size)
{
    if (!m->nwords)
        return NULL;
    size_t len = strlen(text), cap = 3 * len + 16;
    char *folded = malloc(cap), *joined = malloc(cap);
    const char *hit = NULL;
    if (!folded || !joined || name_fold(text, folded, cap)) {
        free(folded);
        free(joined);
        return NULL;
    }
    size_t nj = 0;
    for (char *p = folded; *p && !hit;) {
        while (*p && !word_byte((unsigned char)*p))
            p++;
        char *start = p;
        while (*p && word_byte((unsigned char)*p))
            p++;
        if (p == start)
            break;
        char keep = *p;
        *p = 0;
        if (listed(m, start))
            hit = start;
        memcpy(joined + nj, start, (size_t)(p - start));
        nj += (size_t)(p - start);
        if (hit)
            snprintf(found, size, "%s", hit);
        *p = keep;
    }
    joined[nj] = 0;
    if (!hit && name && listed(m, joined)) {
        snprintf(found, size, "%s", joined);
        hit = found;
    }
    if (!hit && name) /* a listed word inside a name written as one word */
        for (int i = 0; i < m->nwords && !hit; i++)
            if (strlen(m->words[i]) >= 4 && strstr(joined, m->words[i])) {
                snprintf(found, size, "%s", m->words[i]);
                hit = found;
            }
    free(folded);
    free(joined);
    return hit ? found : NULL;
}

/* --- small helpers --- */

static int fail(api_answer *out, int http, const char *code, const char *message)
{
    return api_reply_error(out, http, code, message);
}

static int not_allowed(api_answer *out)
{
    return fail(out, 405, "method_not_allowed", "method not allowed here");
}

/* Characters of UTF-8 text (jansson checked it); -1 when it holds a
 * control character (a newline and a tab only where lines are allowed). */
static long text_chars(const char *s, bool lines)
{
    long chars = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && !(lines && (*p == '\n' || *p == '\t'))) || *p == 0x7f)
            return -1;
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0)
            return -1;
        if ((*p & 0xc0) != 0x80)
            chars++;
    }
    return chars;
}

/* A string field of 1 to max characters (0 to max when optional and
 * absent: *out NULL); the error in err. */
static int text_field(const json_t *body, const char *key, long max, bool optional, bool lines,
                      const char **out, api_error *err)
{
    const json_t *v = json_object_get(body, key);
    char why[128];
    *out = NULL;
    if (!v && optional)
        return 0;
    if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
        snprintf(why, sizeof why, "%s must be a string", key);
        return api_fail(err, 400, "bad_message", why);
    }
    long n = text_chars(json_string_value(v), lines);
    if (n < 0) {
        snprintf(why, sizeof why, "%s must not hold control characters", key);
        return api_fail(err, 400, "bad_message", why);
    }
    if (n == 0 && !optional) {
        snprintf(why, sizeof why, "%s must not be empty", key);
        return api_fail(err, 400, "bad_message", why);
    }
    if (n > max) {
        snprintf(why, sizeof why, "%s may have at most %ld characters", key, max);
        return api_fail(err, 400, "bad_message", why);
    }
    *out = json_string_value(v);
    return 0;
}

static bool is_moderator(service *svc, int64_t account_id)
{
    char role[STORE_ROLE_MAX + 1];
    bool closed = false;
    return store_account_role(svc->db, account_id, role, &closed) == 0 && !closed &&
           strcmp(role, ROLE_MODERATOR) == 0;
}

bool moderation_closed(service *svc, int64_t account_id)
{
    char role[STORE_ROLE_MAX + 1];
    bool closed = false;
    return store_account_role(svc->db, account_id, role, &closed) == 0 && closed;
}

/* Writes the log; a log that cannot be written is an error the caller
 * answers with (the action itself is stored already). detail (taken) is
 * an object of fields the log's reader shows in its language (GET
 * /api/mod/log): stored as JSON text, a warning's text shortened until it
 * fits the column. */
static int log_action(service *svc, int64_t moderator_id, const char *moderator, int64_t target_id,
                      const char *target, const char *action, json_t *detail, const char *reason)
{
    stored_log e;
    memset(&e, 0, sizeof e);
    e.at = unix_ms();
    e.moderator_id = moderator_id;
    snprintf(e.moderator, sizeof e.moderator, "%s", moderator ? moderator : "");
    e.target_id = target_id;
    snprintf(e.target, sizeof e.target, "%s", target ? target : "");
    snprintf(e.action, sizeof e.action, "%s", action);
    for (char *text = NULL;; free(text)) {
        text = detail ? json_dumps(detail, JSON_COMPACT) : strdup("");
        const char *warning = detail ? json_string_value(json_object_get(detail, "text")) : NULL;
        size_t len = text ? strlen(text) : 0, wlen = warning ? strlen(warning) : 0;
        if (text && (len <= STORE_MOD_TEXT_MAX || wlen == 0)) {
            snprintf(e.detail, sizeof e.detail, "%.*s", STORE_MOD_TEXT_MAX, text);
            free(text);
            break;
        }
        if (!text) {
            json_decref(detail);
            return -1;
        }
        /* too long: cut the warning by what is over, at a character's start */
        size_t keep = len - STORE_MOD_TEXT_MAX < wlen ? wlen - (len - STORE_MOD_TEXT_MAX) : 0;
        while (keep > 0 && (warning[keep] & 0xC0) == 0x80)
            keep--;
        json_object_set_new(detail, "text", json_stringn(warning, keep));
    }
    json_decref(detail);
    snprintf(e.reason, sizeof e.reason, "%s", reason ? reason : "");
    if (store_log_add(svc->db, &e)) {
        service_log(svc, "writing the moderation log failed: %s", store_error(svc->db));
        return -1;
    }
    return 0;
}

/* --- live: the account's open connections on this server --- */

int64_t moderation_writer(const viewer *c)
{
    if (c->account_id > 0)
        return c->account_id;
    return c->seat >= 0 ? c->gm->seats[c->seat].account_id : 0;
}

static int load_blocked(const stored_person *p, void *arg)
{
    viewer *c = arg;
    if (c->nblocked >= BLOCKS_MAX)
        return 1;
    int64_t *grown = realloc(c->blocked, (size_t)(c->nblocked + 1) * sizeof *grown);
    if (!grown)
        return 1;
    c->blocked = grown;
    c->blocked[c->nblocked++] = p->id;
    return 0;
}

static void read_blocks(viewer *c)
{
    free(c->blocked);
    c->blocked = NULL;
    c->nblocked = 0;
    int64_t me = moderation_writer(c);
    if (me > 0 && store_each_blocked(c->svc->db, me, load_blocked, c))
        service_log(c->svc, "reading blocks failed: %s", store_error(c->svc->db));
}

void moderation_viewer_open(viewer *c) { read_blocks(c); }

void moderation_viewer_ready(viewer *c)
{
    stored_sanction x;
    int64_t who = moderation_writer(c);
    if (who > 0 && store_chat_restriction(c->svc->db, who, c->gm->id, unix_ms(), &x) == 0 &&
        strcmp(x.kind, "timeout") == 0) /* a page opened while timed out knows it at once */
        play_send_json(c, json_pack("{s:s,s:s,s:I}", "type", "moderation", "chat", "timeout",
                                    "until", (json_int_t)x.until));
}

void moderation_viewer_close(viewer *c)
{
    free(c->blocked);
    c->blocked = NULL;
    c->nblocked = 0;
}

bool moderation_hides(const viewer *c, int64_t writer)
{
    for (int i = 0; writer > 0 && i < c->nblocked; i++)
        if (c->blocked[i] == writer)
            return true;
    return false;
}

/* Tells a connection of a timed-out account so (or that it may chat
 * again); a closed account's connection is closed. */
static void tell_viewer(viewer *c)
{
    service *svc = c->svc;
    int64_t who = moderation_writer(c);
    if (moderation_closed(svc, who)) {
        play_send_error(c, "account_closed", "this account is closed");
        c->closed = true;
        svc->hooks.close(c->conn, CLOSE_POLICY);
        return;
    }
    stored_sanction x;
    int rc = store_chat_restriction(svc->db, who, c->gm->id, unix_ms(), &x);
    if (rc < 0)
        return;
    bool timed_out = rc == 0 && strcmp(x.kind, "timeout") == 0;
    json_t *m =
        json_pack("{s:s,s:s}", "type", "moderation", "chat", timed_out ? "timeout" : "open");
    if (timed_out)
        json_object_set_new(m, "until", json_integer(x.until));
    play_send_json(c, m);
}

/* Every seat of the account in this server's games shows `name` now (a
 * game whose seat changed is sent again). */
static void seats_renamed(service *svc, int64_t account_id, const char *name)
{
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        bool any = false;
        for (int i = 0; i < gm->g.players; i++)
            if (gm->seats[i].account_id == account_id && strcmp(gm->seats[i].name, name) != 0) {
                snprintf(gm->seats[i].name, sizeof gm->seats[i].name, "%s", name);
                any = true;
            }
        if (any)
            play_broadcast_state(gm);
    }
}

/* The account's seats in this server's games, named as the store has it:
 * closed, renamed, reopened or renamed back on another server. */
static void seats_as_stored(service *svc, int64_t account_id)
{
    bool seated = false;
    for (game *gm = lobby_first(svc); gm && !seated; gm = gm->next)
        for (int i = 0; i < gm->g.players; i++)
            seated = seated || gm->seats[i].account_id == account_id;
    stored_account a;
    if (!seated || store_account_by_id(svc->db, account_id, &a))
        return;
    seats_renamed(svc, account_id, moderation_closed(svc, account_id) ? CLOSED_SEAT_NAME : a.name);
}

void moderation_heard(service *svc, const char *verb, int64_t account_id)
{
    bool blocks = strcmp(verb, "blocks") == 0;
    if (!blocks)
        seats_as_stored(svc, account_id);
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        viewer *next;
        for (viewer *c = gm->viewers; c; c = next) {
            next = c->next;
            if (c->closed || moderation_writer(c) != account_id)
                continue;
            if (blocks) {
                read_blocks(c);
                continue;
            }
            tell_viewer(c);
        }
    }
}

/* This server's connections hear of it now, the others' when told. */
static void changed(service *svc, const char *verb, int64_t account_id)
{
    moderation_heard(svc, verb, account_id);
    owners_tell(svc, "%s %lld", verb, (long long)account_id);
}

/* --- chat --- */

int moderation_chat_check(viewer *c)
{
    service *svc = c->svc;
    int64_t who = moderation_writer(c);
    if (who <= 0)
        return CHAT_PASS;
    if (moderation_closed(svc, who)) { /* its seat token still shows the game */
        play_send_error(c, "account_closed", "this account is closed");
        return CHAT_REFUSED;
    }
    stored_sanction x;
    int rc = store_chat_restriction(svc->db, who, c->gm->id, unix_ms(), &x);
    if (rc < 0) {
        service_log(svc, "reading chat sanctions failed: %s", store_error(svc->db));
        play_send_error(c, "internal", "the chat cannot be checked now; try again");
        return CHAT_REFUSED;
    }
    if (rc == 0 && strcmp(x.kind, "timeout") == 0) {
        play_send_json(c, json_pack("{s:s,s:s,s:s,s:I}", "type", "error", "code", "chat_timeout",
                                    "message", "a moderator has timed out your chat", "until",
                                    (json_int_t)x.until));
        return CHAT_REFUSED;
    }
    return rc == 0 ? CHAT_SHADOW : CHAT_PASS;
}

/* Files a report the site itself makes, once while one like it is open:
 * a player who keeps writing listed words files one report, not one a
 * line (its chat is shown around the line it names). */
static void auto_report(service *svc, int64_t target, const char *game_id, int chat_n,
                        const char *reason, const char *text)
{
    int open = store_report_open_auto(svc->db, target, reason);
    if (open == 0)
        return;
    stored_report r;
    memset(&r, 0, sizeof r);
    r.target_id = target;
    snprintf(r.game_id, sizeof r.game_id, "%s", game_id ? game_id : "");
    r.chat_n = chat_n;
    snprintf(r.reason, sizeof r.reason, "%s", reason);
    snprintf(r.text, sizeof r.text, "%s", text);
    r.created = unix_ms();
    if (open < 0 || store_report_create(svc->db, &r))
        service_log(svc, "filing a report failed: %s", store_error(svc->db));
    else
        service_log(svc, "report %lld filed by the site (%s)", (long long)r.id, reason);
}

void moderation_chat_stored(game *gm, int64_t account_id, int chat_n, const char *text)
{
    char word[256], why[320];
    if (account_id <= 0 || !find_word(gm->svc->moderation, text, false, word, sizeof word))
        return;
    snprintf(why, sizeof why, "a chat line holds \"%s\" of the word lists", word);
    auto_report(gm->svc, account_id, gm->id, chat_n, "insults", why);
}

/* --- joins, challenges, names --- */

int moderation_may_join(game *gm, const stored_account *a, api_error *err)
{
    for (int i = 0; a && i < gm->g.players; i++) {
        int64_t seated = gm->seats[i].account_id;
        if (seated > 0 && seated != a->id && store_blocks(gm->svc->db, seated, a->id) == 0)
            return api_fail(err, 403, "forbidden", "you cannot join this game");
    }
    return 0;
}

int moderation_may_challenge(service *svc, int64_t from, int64_t to, api_error *err)
{
    int rc = store_blocks(svc->db, to, from);
    if (rc < 0)
        return api_fail(err, 500, "internal", "the players cannot be read");
    if (rc == 0)
        return api_fail(err, 403, "forbidden", "this player does not take your challenges");
    return 0;
}

bool moderation_name_refused(service *svc, const char *key, const char *skeleton, api_error *err)
{
    char word[256];
    int64_t holder;
    int held = store_name_held(svc->db, key, skeleton, &holder);
    if (held < 0) {
        api_fail(err, 500, "internal", "the accounts cannot be read");
        return true;
    }
    if (held == 0) {
        api_fail(err, 409, "name_taken", "this name is taken");
        err->reason = "name_held";
        return true;
    }
    if (find_word(svc->moderation, key, true, word, sizeof word)) {
        api_fail(err, 400, "bad_message", "this name is not allowed here");
        err->reason = "name_offensive";
        return true;
    }
    return false;
}

/* --- rating abuse --- */

typedef struct {
    char text[50 * (GAME_ID_LEN + 1) + 1]; /* the store gives at most 50 */
    int n;
} game_list;

static int add_game_id(const char *id, void *arg)
{
    game_list *l = arg;
    size_t len = strlen(l->text);
    snprintf(l->text + len, sizeof l->text - len, "%s%s", l->n ? " " : "", id);
    l->n++;
    return 0;
}

void moderation_rated_end(game *gm, const store_write *w)
{
    service *svc = gm->svc;
    int64_t since = (int64_t)time(NULL) - ABUSE_WINDOW_S;
    int winner = -1;
    for (int i = 0; i < gm->g.players; i++)
        if (w->places[i] == 1)
            winner = winner < 0 ? i : -2; /* a shared first place: no one winner */
    for (int i = 0; i < gm->g.players; i++) {
        int64_t loser = w->seat_account[i];
        if (!w->seat_rated[i] || loser <= 0 || w->places[i] <= 1)
            continue;
        game_list quick = {"", 0}, same = {"", 0};
        if (store_quick_losses(svc->db, loser, since, QUICK_DECISIONS, add_game_id, &quick) == 0 &&
            quick.n >= QUICK_LOSSES) {
            char text[STORE_REPORT_TEXT_MAX + 1];
            snprintf(text, sizeof text,
                     "%d rated games lost in 7 days having left after at most %d decisions: %s",
                     quick.n, QUICK_DECISIONS, quick.text);
            auto_report(svc, loser, gm->id, -1, "sandbagging", text);
        }
        int64_t opponent = winner >= 0 ? w->seat_account[winner] : 0;
        if (gm->g.players == 2 && opponent > 0 &&
            store_losses_to(svc->db, loser, opponent, since, add_game_id, &same) == 0 &&
            same.n >= SAME_LOSSES) {
            char text[STORE_REPORT_TEXT_MAX + 1];
            snprintf(text, sizeof text, "%d rated games lost in 7 days to %s: %s", same.n,
                     gm->seats[winner].name, same.text);
            auto_report(svc, loser, gm->id, -1, "sandbagging", text);
        }
    }
}

/* --- players: blocks, reports, warnings --- */

static int add_blocked(const stored_person *p, void *arg)
{
    json_array_append_new(arg, json_pack("{s:s}", "name", p->name));
    return 0;
}

static int block(service *svc, const stored_account *me, const char *name, bool on, api_answer *out)
{
    stored_account them;
    int rc = accounts_by_name(svc, name, &them);
    if (rc < 0)
        return fail(out, 500, "internal", "the players cannot be read");
    if (rc != 0)
        return fail(out, 404, "not_found", "no such player");
    if (them.id == me->id)
        return fail(out, 400, "bad_message", "you cannot block yourself");
    if (them.computer)
        return fail(out, 400, "bad_message", "a computer player cannot be blocked");
    if (on) {
        json_t *list = json_array();
        if (store_each_blocked(svc->db, me->id, add_blocked, list) == 0 &&
            json_array_size(list) >= BLOCKS_MAX) {
            json_decref(list);
            return fail(out, 409, "too_many", "you block as many players as one may");
        }
        json_decref(list);
    }
    rc = on ? store_block(svc->db, me->id, them.id, unix_ms())
            : store_unblock(svc->db, me->id, them.id);
    if (rc < 0)
        return fail(out, 500, "internal", "the change could not be stored");
    changed(svc, "blocks", me->id);
    return api_reply_empty(out, 204);
}

static int blocks_route(service *svc, const api_request *r, const stored_account *me,
                        api_answer *out)
{
    if (strcmp(r->path, "/me/blocks") == 0) {
        if (r->method == API_GET) {
            json_t *list = json_array();
            if (store_each_blocked(svc->db, me->id, add_blocked, list)) {
                json_decref(list);
                return fail(out, 500, "internal", "the players cannot be read");
            }
            return api_reply_json(out, 200, json_pack("{s:o}", "blocks", list));
        }
        if (r->method != API_POST)
            return not_allowed(out);
        api_error err = {0};
        json_t *body = api_body(r, &err);
        if (!body)
            return api_reply_fail(out, &err);
        const char *name = json_string_value(json_object_get(body, "name"));
        int rc = name ? block(svc, me, name, true, out)
                      : fail(out, 400, "bad_message", "name must be a player's name");
        json_decref(body);
        return rc;
    }
    return r->method == API_DELETE ? block(svc, me, r->path + 11, false, out) : not_allowed(out);
}

static bool known_reason(const char *reason)
{
    for (int i = 0; reason && report_reasons[i]; i++)
        if (strcmp(reason, report_reasons[i]) == 0)
            return true;
    return false;
}

static int found_line(const stored_chat_line *l, void *arg)
{
    (void)l;
    *(bool *)arg = true;
    return 1;
}

/* POST /api/reports {"player","reason","text"[,"game"[,"chat"]]} */
static int report(service *svc, const api_request *r, const stored_account *me, api_answer *out)
{
    if (r->method != API_POST)
        return not_allowed(out);
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    stored_report rep;
    memset(&rep, 0, sizeof rep);
    rep.chat_n = -1;
    const char *player = json_string_value(json_object_get(body, "player"));
    const char *reason = json_string_value(json_object_get(body, "reason"));
    const json_t *game_v = json_object_get(body, "game"), *chat_v = json_object_get(body, "chat");
    const char *text = NULL;
    stored_account them;
    int found = player ? accounts_by_name(svc, player, &them) : 1;
    int rc = -1;
    if (!json_is_object(body))
        api_fail(&err, 400, "bad_message", "the body must be a JSON object");
    else if (!player)
        api_fail(&err, 400, "bad_message", "player must be a player's name");
    else if (!known_reason(reason))
        api_fail(&err, 400, "bad_message",
                 "reason must be one of cheating, insults, stalling, sandbagging, spam, "
                 "offensive_name, other");
    else if (text_field(body, "text", REPORT_CHARS_MAX, true, true, &text, &err))
        ; /* err is set */
    else if (game_v && (!json_is_string(game_v) || json_string_length(game_v) != GAME_ID_LEN))
        api_fail(&err, 400, "bad_message", "game must be a game's id");
    else if (chat_v && (!game_v || !json_is_integer(chat_v) || json_integer_value(chat_v) < 0 ||
                        json_integer_value(chat_v) >= CHAT_STORED_MAX))
        api_fail(&err, 400, "bad_message", "chat must be a chat line's number in the game");
    else if (found < 0)
        api_fail(&err, 500, "internal", "the players cannot be read");
    else if (found > 0 || them.computer)
        api_fail(&err, 404, "not_found", "no such player");
    else if (them.id == me->id)
        api_fail(&err, 400, "bad_message", "you cannot report yourself");
    else
        rc = 0;
    if (rc == 0 && game_v) {
        snprintf(rep.game_id, sizeof rep.game_id, "%s", json_string_value(game_v));
        stored_game sg;
        int loaded = store_load_summary(svc->db, rep.game_id, &sg);
        if (loaded == 0)
            stored_game_free(&sg);
        if (loaded != 0)
            rc = api_fail(&err, loaded < 0 ? 500 : 404, loaded < 0 ? "internal" : "not_found",
                          loaded < 0 ? "the game cannot be read" : "no such game");
    }
    if (rc == 0 && chat_v) {
        bool there = false;
        rep.chat_n = (int)json_integer_value(chat_v);
        if (store_each_chat_line(svc->db, rep.game_id, rep.chat_n, rep.chat_n, found_line,
                                 &there) ||
            !there)
            rc = api_fail(&err, 404, "not_found", "no such chat line in the game");
    }
    if (rc == 0) {
        rep.reporter_id = me->id;
        rep.target_id = them.id;
        snprintf(rep.reason, sizeof rep.reason, "%s", reason);
        snprintf(rep.text, sizeof rep.text, "%s", text ? text : "");
    }
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    double wait = 0;
    if (!budget_take_account(svc, BUDGET_REPORTS, me->id, &wait)) {
        api_error e = {429, "rate_limited", "you have sent many reports lately; try again later",
                       "reports", (int)wait + 1};
        return api_reply_fail(out, &e);
    }
    rep.created = unix_ms();
    if (store_report_create(svc->db, &rep)) {
        service_log(svc, "storing a report failed: %s", store_error(svc->db));
        return fail(out, 500, "internal", "the report could not be stored");
    }
    return api_reply_json(out, 201, json_pack("{s:I}", "id", (json_int_t)rep.id));
}

static int add_warning(const stored_sanction *x, void *arg)
{
    json_array_append_new(arg, json_pack("{s:I,s:s,s:I}", "id", (json_int_t)x->id, "text",
                                         x->detail, "at", (json_int_t)x->created));
    return 0;
}

void moderation_me(service *svc, int64_t account_id, json_t *o)
{
    json_t *warnings = json_array();
    if (store_each_warning(svc->db, account_id, add_warning, warnings))
        service_log(svc, "reading warnings failed: %s", store_error(svc->db));
    json_object_set_new(o, "warnings", warnings);
    json_object_set_new(o, "moderator", json_boolean(is_moderator(svc, account_id)));
}

/* --- moderators --- */

/* The moderator of a request: 0, or -1 with the answer given (401 without
 * a session, 403 for anyone else). */
static int moderator_of(service *svc, const api_request *r, stored_account *me, api_answer *out)
{
    if (!accounts_session_by_hash(svc, r->session_hash, me)) {
        fail(out, 401, "unauthorized", "log in first");
        return -1;
    }
    if (!is_moderator(svc, me->id)) {
        fail(out, 403, "forbidden", "only moderators may do this");
        return -1;
    }
    return 0;
}

static int add_line(const stored_chat_line *l, void *arg)
{
    json_array_append_new(arg, json_pack("{s:i,s:o,s:s,s:s,s:I}", "n", l->n, "seat",
                                         l->seat >= 0 ? json_integer(l->seat) : json_null(), "name",
                                         l->name, "text", l->text, "at", (json_int_t)l->at));
    return 0;
}

static int add_history_game(const stored_player_game *g, void *arg)
{
    json_array_append_new(arg, json_pack("{s:s,s:s,s:b,s:o,s:I}", "id", g->id, "variant",
                                         g->variant, "rated", g->rated, "place",
                                         g->place > 0 ? json_integer(g->place) : json_null(),
                                         "ended", (json_int_t)g->ended));
    return 0;
}

static json_t *sanction_json(const stored_sanction *x)
{
    json_t *o = json_pack("{s:I,s:s,s:I,s:b}", "id", (json_int_t)x->id, "action", x->kind, "at",
                          (json_int_t)x->created, "undone", x->lifted > 0);
    if (x->game_id[0])
        json_object_set_new(o, "game", json_string(x->game_id));
    if (x->until > 0)
        json_object_set_new(o, "until", json_integer(x->until));
    if (x->detail[0])
        json_object_set_new(o, "detail", json_string(x->detail));
    return o;
}

static int add_sanction(const stored_sanction *x, void *arg)
{
    json_array_append_new(arg, sanction_json(x));
    return 0;
}

typedef struct {
    service *svc;
    json_t *list;
    bool failed;
} queue_args;

static json_t *report_json(service *svc, const stored_report *r, bool *failed)
{
    json_t *o = json_pack("{s:I,s:o,s:s,s:s,s:s,s:s,s:I}", "id", (json_int_t)r->id, "reporter",
                          r->reporter_id > 0 ? json_string(r->reporter) : json_null(), "player",
                          r->target, "reason", r->reason, "text", r->text, "status", r->status,
                          "at", (json_int_t)r->created);
    json_object_set_new(o, "automatic", json_boolean(r->reporter_id == 0));
    if (r->game_id[0]) {
        json_t *lines = json_array();
        int from = r->chat_n >= 0 ? r->chat_n - CHAT_CONTEXT : 0;
        int to = r->chat_n >= 0 ? r->chat_n + CHAT_CONTEXT : CHAT_STORED_MAX;
        if (store_each_chat_line(svc->db, r->game_id, from < 0 ? 0 : from, to, add_line, lines))
            *failed = true;
        json_object_set_new(o, "game", json_string(r->game_id));
        json_object_set_new(o, "chat", lines);
    }
    if (r->chat_n >= 0)
        json_object_set_new(o, "chat_line", json_integer(r->chat_n));
    json_t *games = json_array(), *sanctions = json_array();
    if (store_player_games(svc->db, r->target_id, HISTORY_GAMES, add_history_game, games) ||
        store_each_sanction(svc->db, r->target_id, HISTORY_GAMES, add_sanction, sanctions))
        *failed = true;
    json_object_set_new(o, "history", json_pack("{s:o,s:o}", "games", games, "actions", sanctions));
    return o;
}

static int add_report(const stored_report *r, void *arg)
{
    queue_args *q = arg;
    json_array_append_new(q->list, report_json(q->svc, r, &q->failed));
    return 0;
}

/* GET /api/mod/reports[?status=open|closed|all] */
static int queue(service *svc, const api_request *r, api_answer *out)
{
    char buf[16];
    const char *status = api_query_arg(r, "status", buf, sizeof buf);
    if (!status)
        status = "open";
    if (strcmp(status, "open") && strcmp(status, "closed") && strcmp(status, "all"))
        return fail(out, 400, "bad_message", "status must be open, closed or all");
    queue_args q = {svc, json_array(), false};
    if (store_each_report(svc->db, strcmp(status, "all") ? status : NULL, 0, QUEUE_MAX, add_report,
                          &q) ||
        q.failed) {
        json_decref(q.list);
        return fail(out, 500, "internal", "the reports cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "reports", q.list));
}

/* A moderator's why: 1 to WHY_CHARS_MAX characters. */
static const char *why_of(const json_t *body, api_error *err)
{
    const char *why;
    return text_field(body, "reason", WHY_CHARS_MAX, false, false, &why, err) ? NULL : why;
}

/* POST /api/mod/reports/{id}/close {"reason"}: dismissed or handled */
static int close_report(service *svc, const api_request *r, const stored_account *me, int64_t id,
                        api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    stored_report rep;
    const char *why = json_is_object(body) ? why_of(body, &err) : NULL;
    if (!json_is_object(body))
        api_fail(&err, 400, "bad_message", "the body must be a JSON object");
    int found = why ? store_report_get(svc->db, id, &rep) : -2;
    char reason[WHY_CHARS_MAX * 4 + 1];
    snprintf(reason, sizeof reason, "%s", why ? why : "");
    json_decref(body);
    if (found == -2)
        return api_reply_fail(out, &err);
    if (found < 0)
        return fail(out, 500, "internal", "the report cannot be read");
    if (found > 0)
        return fail(out, 404, "not_found", "no such report");
    int rc = store_report_close(svc->db, id, me->id, unix_ms());
    if (rc < 0)
        return fail(out, 500, "internal", "the report could not be closed");
    if (rc > 0)
        return fail(out, 409, "closed", "the report is closed already");
    if (log_action(svc, me->id, me->name, rep.target_id, rep.target, "close_report",
                   json_pack("{s:I}", "report", (json_int_t)id), reason))
        return fail(out, 500, "internal", "the moderation log could not be written");
    return api_reply_empty(out, 204);
}

/* The new name of a rename: normalized, folded, its skeleton, and free. */
static int new_name(service *svc, const char *wanted, char name[STORE_NAME_MAX + 1],
                    char key[NAME_FOLD_MAX + 1], char skeleton[NAME_SKELETON_MAX + 1],
                    int64_t account_id, api_error *err)
{
    char why[128];
    if (!wanted)
        return api_fail(err, 400, "bad_message", "name must be the account's new name");
    int refused = name_normalize(wanted, name, why, sizeof why);
    if (refused) {
        api_fail(err, 400, "bad_message", why);
        err->reason = name_refusal_id(refused);
        return -1;
    }
    if (name_fold(name, key, NAME_FOLD_MAX + 1) ||
        name_skeleton(key, skeleton, NAME_SKELETON_MAX + 1))
        return api_fail(err, 500, "internal", "the name cannot be checked");
    stored_account other;
    int found = store_account_by_key(svc->db, key, &other);
    if (found == 0 && other.id != account_id)
        return api_fail(err, 409, "name_taken", "this name is taken");
    if (found >= 0 && (found = store_account_by_skeleton(svc->db, skeleton, &other)) == 0 &&
        other.id != account_id)
        return api_fail(err, 409, "name_taken", "this name looks like a taken one");
    int64_t holder = 0;
    int held = store_name_held(svc->db, key, skeleton, &holder);
    if (found < 0 || held < 0)
        return api_fail(err, 500, "internal", "the accounts cannot be read");
    if (held == 0 && holder != account_id)
        return api_fail(err, 409, "name_taken", "this name is held back");
    return 0;
}

/* POST /api/mod/actions {"action","player","reason",...} */
static int act(service *svc, const api_request *r, const stored_account *me, api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const char *action = json_string_value(json_object_get(body, "action"));
    const char *player = json_string_value(json_object_get(body, "player"));
    const json_t *game_v = json_object_get(body, "game"),
                 *minutes_v = json_object_get(body, "minutes");
    const json_t *report_v = json_object_get(body, "report");
    stored_sanction x;
    memset(&x, 0, sizeof x);
    stored_account them;
    char name[STORE_NAME_MAX + 1] = "", key[NAME_FOLD_MAX + 1], skeleton[NAME_SKELETON_MAX + 1];
    const char *why = NULL, *text = NULL;
    int found = player ? accounts_by_name(svc, player, &them) : 1;
    int rc = -1;
    bool warn = action && strcmp(action, "warn") == 0,
         timeout = action && strcmp(action, "timeout") == 0,
         mute = action && strcmp(action, "shadow_mute") == 0,
         rename = action && strcmp(action, "rename") == 0,
         close = action && strcmp(action, "close") == 0;
    if (!json_is_object(body))
        api_fail(&err, 400, "bad_message", "the body must be a JSON object");
    else if (!warn && !timeout && !mute && !rename && !close)
        api_fail(&err, 400, "bad_message",
                 "action must be warn, timeout, shadow_mute, rename or close");
    else if (!player)
        api_fail(&err, 400, "bad_message", "player must be a player's name");
    else if (!(why = why_of(body, &err)))
        ; /* err is set */
    else if (warn && text_field(body, "text", WHY_CHARS_MAX, false, true, &text, &err))
        ;
    else if (timeout && (!json_is_integer(minutes_v) || json_integer_value(minutes_v) < 1 ||
                         json_integer_value(minutes_v) > TIMEOUT_MINUTES_MAX))
        api_fail(&err, 400, "bad_message", "minutes must be 1 to 43200 (30 days)");
    else if (timeout && game_v &&
             (!json_is_string(game_v) || json_string_length(game_v) != GAME_ID_LEN))
        api_fail(&err, 400, "bad_message", "game must be a game's id");
    else if (report_v && (!json_is_integer(report_v) || json_integer_value(report_v) < 1))
        api_fail(&err, 400, "bad_message", "report must be a report's id");
    else if (found < 0)
        api_fail(&err, 500, "internal", "the players cannot be read");
    else if (found > 0 || them.computer)
        api_fail(&err, 404, "not_found", "no such player");
    else if (them.id == me->id)
        api_fail(&err, 400, "bad_message", "a moderator does not act on their own account");
    else if (rename && new_name(svc, json_string_value(json_object_get(body, "name")), name, key,
                                skeleton, them.id, &err))
        ;
    else
        rc = 0;
    char reason[WHY_CHARS_MAX * 4 + 1];
    snprintf(reason, sizeof reason, "%s", why ? why : "");
    if (rc == 0) {
        x.account_id = them.id;
        snprintf(x.kind, sizeof x.kind, "%s", action);
        x.created = unix_ms();
        x.by_id = me->id;
        if (warn)
            snprintf(x.detail, sizeof x.detail, "%s", text);
        if (rename)
            snprintf(x.detail, sizeof x.detail, "%s", them.name);
        if (timeout) {
            x.until = x.created + json_integer_value(minutes_v) * 60000;
            if (game_v)
                snprintf(x.game_id, sizeof x.game_id, "%s", json_string_value(game_v));
        }
    }
    int64_t report_id = report_v ? json_integer_value(report_v) : 0;
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    double wait = 0;
    if (!budget_take_account(svc, BUDGET_MOD_ACTIONS, me->id, &wait)) {
        api_error e = {429, "rate_limited", "too many moderation actions; try again later",
                       "moderation", (int)wait + 1};
        return api_reply_fail(out, &e);
    }
    /* the change itself, then its sanction row (what undo reads) */
    if (close) {
        int c = store_account_close(svc->db, them.id, true, CLOSED_SEAT_NAME);
        if (c < 0)
            return fail(out, 500, "internal", "the account could not be closed");
        if (c > 0)
            return fail(out, 409, "closed", "the account is closed already");
        seats_renamed(svc, them.id, CLOSED_SEAT_NAME);
    } else if (rename) {
        int c = store_account_rename(svc->db, them.id, name, key, skeleton, true);
        if (c < 0)
            return fail(out, 500, "internal", "the account could not be renamed");
        if (c > 0)
            return fail(out, 409, "name_taken", "this name is taken");
        seats_renamed(svc, them.id, name);
    }
    if (store_sanction_add(svc->db, &x)) {
        service_log(svc, "storing a sanction failed: %s", store_error(svc->db));
        return fail(out, 500, "internal", "the action could not be stored");
    }
    json_t *detail = json_pack("{s:I}", "action_id", (json_int_t)x.id);
    if (timeout) {
        json_object_set_new(detail, "minutes", json_integer((x.until - x.created) / 60000));
        if (x.game_id[0])
            json_object_set_new(detail, "game", json_string(x.game_id));
    } else if (rename)
        json_object_set_new(detail, "name", json_string(name));
    else if (warn)
        json_object_set_new(detail, "text", json_string(x.detail));
    if (log_action(svc, me->id, me->name, them.id, them.name, x.kind, detail, reason))
        return fail(out, 500, "internal", "the moderation log could not be written");
    if (report_id > 0 && store_report_close(svc->db, report_id, me->id, unix_ms()) < 0)
        service_log(svc, "closing a report failed: %s", store_error(svc->db));
    if (timeout || close || rename) /* a shadow mute is never told */
        changed(svc, "moderated", them.id);
    json_t *o = sanction_json(&x);
    json_object_set_new(o, "player", json_string(rename ? name : them.name));
    return api_reply_json(out, 201, o);
}

/* POST /api/mod/actions/{id}/undo {"reason"} */
static int undo(service *svc, const api_request *r, const stored_account *me, int64_t id,
                api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const char *why = json_is_object(body) ? why_of(body, &err) : NULL;
    if (!json_is_object(body))
        api_fail(&err, 400, "bad_message", "the body must be a JSON object");
    char reason[WHY_CHARS_MAX * 4 + 1];
    snprintf(reason, sizeof reason, "%s", why ? why : "");
    json_decref(body);
    if (!why)
        return api_reply_fail(out, &err);
    stored_sanction x;
    stored_account them;
    int found = store_sanction_get(svc->db, id, &x);
    if (found < 0)
        return fail(out, 500, "internal", "the action cannot be read");
    if (found > 0)
        return fail(out, 404, "not_found", "no such action");
    if (x.lifted)
        return fail(out, 409, "undone", "the action is undone already");
    if (store_account_by_id(svc->db, x.account_id, &them))
        return fail(out, 404, "not_found", "the player is gone");
    double wait = 0;
    if (!budget_take_account(svc, BUDGET_MOD_ACTIONS, me->id, &wait)) {
        api_error e = {429, "rate_limited", "too many moderation actions; try again later",
                       "moderation", (int)wait + 1};
        return api_reply_fail(out, &e);
    }
    char old[STORE_NAME_MAX + 1];
    snprintf(old, sizeof old, "%s", them.name);
    if (strcmp(x.kind, "close") == 0) {
        if (store_account_close(svc->db, them.id, false, NULL) < 0)
            return fail(out, 500, "internal", "the account could not be reopened");
        seats_renamed(svc, them.id, them.name);
    } else if (strcmp(x.kind, "rename") == 0) {
        char name[STORE_NAME_MAX + 1], key[NAME_FOLD_MAX + 1], skeleton[NAME_SKELETON_MAX + 1];
        if (new_name(svc, x.detail, name, key, skeleton, them.id, &err))
            return api_reply_fail(out, &err);
        /* the name it had is its own again; the one a moderator gave is
         * not held back */
        int c = store_account_rename(svc->db, them.id, name, key, skeleton, false);
        if (c < 0)
            return fail(out, 500, "internal", "the account could not be renamed");
        if (c > 0)
            return fail(out, 409, "name_taken", "the old name is taken");
        seats_renamed(svc, them.id, name);
        snprintf(them.name, sizeof them.name, "%s", name);
    }
    int lifted = store_sanction_lift(svc->db, id, unix_ms());
    if (lifted < 0)
        return fail(out, 500, "internal", "the action could not be undone");
    if (lifted > 0)
        return fail(out, 409, "undone", "the action is undone already");
    if (log_action(svc, me->id, me->name, them.id, old, "undo",
                   json_pack("{s:I,s:s}", "action_id", (json_int_t)id, "undid", x.kind), reason))
        return fail(out, 500, "internal", "the moderation log could not be written");
    if (strcmp(x.kind, "timeout") == 0 || strcmp(x.kind, "close") == 0 ||
        strcmp(x.kind, "rename") == 0)
        changed(svc, "moderated", them.id);
    return api_reply_json(
        out, 200,
        json_pack("{s:I,s:s,s:b}", "id", (json_int_t)id, "action", x.kind, "undone", true));
}

/* A line of the log: its fields, and what its detail says (an object of
 * fields; a line written by an earlier build holds text: "action N
 * ..." or "report N", given as action_id or report and the text as detail). */
static int add_log(const stored_log *e, void *arg)
{
    json_t *o =
        json_pack("{s:I,s:I,s:o,s:o,s:s,s:s}", "id", (json_int_t)e->id, "at", (json_int_t)e->at,
                  "moderator", e->moderator_id > 0 ? json_string(e->moderator) : json_null(),
                  "player", e->target[0] ? json_string(e->target) : json_null(), "action",
                  e->action, "reason", e->reason);
    json_t *fields = e->detail[0] == '{' ? json_loads(e->detail, 0, NULL) : NULL;
    long long n = 0;
    if (json_is_object(fields)) {
        json_object_update_missing(o, fields);
    } else if (e->detail[0]) {
        if (sscanf(e->detail, "action %lld", &n) == 1)
            json_object_set_new(o, "action_id", json_integer(n));
        else if (sscanf(e->detail, "report %lld", &n) == 1)
            json_object_set_new(o, "report", json_integer(n));
        json_object_set_new(o, "detail", json_string(e->detail));
    }
    json_decref(fields);
    json_array_append_new(arg, o);
    return 0;
}

/* GET /api/mod/log[?player=NAME][&before=ID][&limit=N] */
static int read_log(service *svc, const api_request *r, api_answer *out)
{
    char player[STORE_NAME_MAX + 1], before_s[24], limit_s[8];
    int64_t target = 0, before = 0;
    long limit = 50;
    if (api_query_arg(r, "player", player, sizeof player)) {
        stored_account them;
        int found = accounts_by_name(svc, player, &them);
        if (found < 0)
            return fail(out, 500, "internal", "the players cannot be read");
        if (found > 0)
            return fail(out, 404, "not_found", "no such player");
        target = them.id;
    }
    char *end;
    if (api_query_arg(r, "before", before_s, sizeof before_s)) {
        before = strtoll(before_s, &end, 10);
        if (!*before_s || *end || before < 1)
            return fail(out, 400, "bad_message", "before must be a log entry's id");
    }
    if (api_query_arg(r, "limit", limit_s, sizeof limit_s)) {
        limit = strtol(limit_s, &end, 10);
        if (!*limit_s || *end || limit < 1 || limit > LOG_MAX)
            return fail(out, 400, "bad_message", "limit must be 1 to 200");
    }
    json_t *list = json_array();
    if (store_each_log(svc->db, target, before, (int)limit, add_log, list)) {
        json_decref(list);
        return fail(out, 500, "internal", "the moderation log cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "log", list));
}

/* "/{id}/suffix" after a prefix: the id, or 0 when the path is not so. */
static int64_t id_in(const char *path, const char *suffix)
{
    char *end;
    if (*path != '/' || path[1] < '1' || path[1] > '9')
        return 0;
    long long id = strtoll(path + 1, &end, 10);
    return strcmp(end, suffix) == 0 && id > 0 ? id : 0;
}

static int moderator_route(service *svc, const api_request *r, api_answer *out)
{
    stored_account me;
    if (moderator_of(svc, r, &me, out))
        return API_ANSWERED;
    const char *path = r->path + 4; /* after "/mod" */
    int64_t id;
    if (strcmp(path, "/reports") == 0)
        return r->method == API_GET ? queue(svc, r, out) : not_allowed(out);
    if (strncmp(path, "/reports/", 9) == 0 && (id = id_in(path + 8, "/close")))
        return r->method == API_POST ? close_report(svc, r, &me, id, out) : not_allowed(out);
    if (strcmp(path, "/actions") == 0)
        return r->method == API_POST ? act(svc, r, &me, out) : not_allowed(out);
    if (strncmp(path, "/actions/", 9) == 0 && (id = id_in(path + 8, "/undo")))
        return r->method == API_POST ? undo(svc, r, &me, id, out) : not_allowed(out);
    if (strcmp(path, "/log") == 0)
        return r->method == API_GET ? read_log(svc, r, out) : not_allowed(out);
    return fail(out, 404, "not_found", "no such endpoint");
}

int moderation_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    if (strcmp(path, "/mod") == 0 || strncmp(path, "/mod/", 5) == 0)
        return moderator_route(svc, r, out);
    bool blocks = strcmp(path, "/me/blocks") == 0 || strncmp(path, "/me/blocks/", 11) == 0;
    bool reports = strcmp(path, "/reports") == 0;
    bool seen = strcmp(path, "/me/warnings/seen") == 0;
    if (!blocks && !reports && !seen)
        return API_NOT_MINE;
    stored_account me;
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return fail(out, 401, "unauthorized", "log in first");
    if (blocks)
        return blocks_route(svc, r, &me, out);
    if (reports)
        return report(svc, r, &me, out);
    if (r->method != API_POST)
        return not_allowed(out);
    if (store_warnings_seen(svc->db, me.id, unix_ms()))
        return fail(out, 500, "internal", "the change could not be stored");
    return api_reply_empty(out, 204);
}
