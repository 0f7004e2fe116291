/*
 * accounts.c - accounts, sessions, profiles and the leaderboard over HTTP
 * (docs/accounts.md, docs/protocol.md#accounts).
 *
 * POST /api/accounts, /api/login, /api/logout, /api/me/password and
 * /api/me/delete, GET /api/me, /api/players/{name} and /api/leaderboard.
 *
 * Whatever needs a password hashed or verified goes through a job on the
 * password workers (auth.c): the request is checked first (shape, name,
 * throttle), the job is submitted and the request is left pending (1 to
 * the transport). When the job is done the loop collects it
 * (accounts_collect), makes the answer and hands it to the transport
 * (hooks.answer). A request whose connection closes first is abandoned
 * (accounts_abandon): its job then only waits to be freed, and nothing it
 * was for is done. Only the loop thread sets or clears that link.
 *
 * A session is a random token (192 bits) in the cookie axio_session, which
 * the transport reads and writes; the service sees only the token's
 * SHA-256 coming in and gives a new token going out. The database keeps
 * only the hash, so a session is looked up by it (the lookup's timing can
 * tell nothing about a token whose hash is unknown).
 * Password checks are limited for the whole site (budgets.c): every check
 * per address; failed logins per address and per name, at most
 * LOGIN_ATTEMPTS_MAX within LOGIN_WINDOW_S; logins per account. A failed
 * attempt counts from the moment it is submitted, so parallel guesses count
 * too; one that succeeds is given back, and counts as a login of its
 * account instead. An account keeps its SESSIONS_PER_ACCOUNT newest
 * sessions. An unknown name is checked against a dummy hash, so that it
 * answers like a known one, as slowly.
 *
 * Nothing here logs a request body, a password, a token or a cookie, and
 * no error message repeats the body (the JSON parser's messages quote the
 * input, so these endpoints use their own).
 */
#include "accounts.h"
#include "api.h"
#include "auth.h"
#include "budgets.h"
#include "game.h"
#include "levels.h"
#include "lobby.h"
#include "moderation.h"
#include "names.h"
#include "owners.h"
#include "pairing.h"
#include "people.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#define PROFILE_GAMES_MAX 100
#define LEADERBOARD_MAX   100
#define SESSION_PRUNE_S   3600.0

enum { ACT_REGISTER, ACT_LOGIN, ACT_PASSWORD, ACT_DELETE };

typedef struct account_job {
    pw_job pw; /* first: the workers' part */
    int action;
    void *request;            /* the transport's; NULL once its connection closed */
    struct account_job *next; /* on the service's list of jobs whose request waits */
    int64_t account_id;
    char name[STORE_NAME_MAX + 1];
    char name_key[NAME_FOLD_MAX + 1];
    char skeleton[NAME_SKELETON_MAX + 1];
    char ip[48];
    char session_hash[65]; /* the session the request came with */
    bool known;            /* login: the name is a person's account */
} account_job;

struct accounts {
    account_job *pending_jobs; /* password jobs whose request waits */
    double last_session_prune;
};

accounts *accounts_new(void) { return calloc(1, sizeof(accounts)); }

/* --- login attempts --- */

/* Counts a password check that may fail against the address and the name
 * (either may be NULL); false, nothing counted, when one is exhausted. */
static bool attempt_take(service *svc, const char *ip, const char *name_key)
{
    if (ip && !budget_take(svc, BUDGET_FAILED_LOGINS_IP, ip, 1, NULL))
        return false;
    if (name_key && !budget_take(svc, BUDGET_FAILED_LOGINS_NAME, name_key, 1, NULL)) {
        if (ip)
            budget_take(svc, BUDGET_FAILED_LOGINS_IP, ip, -1, NULL);
        return false;
    }
    return true;
}

/* An attempt that succeeded, or never ran, does not count. */
static void attempt_give_back(service *svc, const char *ip, const char *name_key)
{
    if (ip)
        budget_take(svc, BUDGET_FAILED_LOGINS_IP, ip, -1, NULL);
    if (name_key)
        budget_take(svc, BUDGET_FAILED_LOGINS_NAME, name_key, -1, NULL);
}

/* --- jobs --- */

static void job_free(account_job *j)
{
    if (!j)
        return;
    pw_job_wipe(&j->pw);
    OPENSSL_cleanse(j, sizeof *j);
    free(j);
}

static void free_pw_job(pw_job *job) { job_free((account_job *)job); }

static account_job *job_new(int action, int kind, const api_request *r)
{
    account_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->action = action;
    j->pw.kind = kind;
    j->request = r->request;
    snprintf(j->ip, sizeof j->ip, "%s", r->ip);
    return j;
}

/* Queues the job for a worker; the request waits for it. When the workers
 * are busy, the login attempt counted for the job (its address and name,
 * NULL for none) is given back, the job is freed and the answer is 429. */
static int submit(service *svc, api_answer *out, account_job *j, const char *ip,
                  const char *name_key)
{
    if (auth_submit(svc->auth, &j->pw)) {
        attempt_give_back(svc, ip, name_key);
        job_free(j);
        return api_reply_error(out, 429, "rate_limited",
                               "the server is busy checking passwords; try again in a moment");
    }
    j->next = svc->accounts->pending_jobs;
    svc->accounts->pending_jobs = j;
    return API_PENDING;
}

void accounts_abandon(service *svc, void *request)
{
    for (account_job *j = svc->accounts->pending_jobs; j; j = j->next)
        if (j->request == request)
            j->request = NULL; /* a worker has it: freed when collected */
}

/* --- sessions --- */

/* The account of the request's session (the transport hashed its cookie). */
static bool session_of(service *svc, const api_request *r, stored_account *out)
{
    return accounts_session_by_hash(svc, r->session_hash, out);
}

bool accounts_session_by_hash(service *svc, const char *hash, stored_account *out)
{
    if (!hash || !hash[0])
        return false;
    int rc = store_session_account(svc->db, hash, (int64_t)time(NULL), out);
    if (rc < 0)
        service_log(svc, "reading a session failed: %s", store_error(svc->db));
    if (rc == 0)
        people_seen(svc, out->id);
    return rc == 0;
}

/* A new session for the account; its cookie goes with the answer. */
static int start_session(service *svc, api_answer *out, int64_t account_id)
{
    char token[TOKEN_LEN + 1], hash[65];
    if (secret_token(token))
        return -1;
    sha256_hex(token, hash);
    int64_t now = (int64_t)time(NULL);
    int rc = store_session_create(svc->db, hash, account_id, now, now + SESSION_TTL_S);
    if (rc == 0 && store_sessions_cap(svc->db, account_id, hash, SESSIONS_PER_ACCOUNT))
        service_log(svc, "revoking old sessions failed: %s", store_error(svc->db));
    if (rc) {
        service_log(svc, "storing a session failed: %s", store_error(svc->db));
    } else {
        out->session = SESSION_SET;
        memcpy(out->session_token, token, sizeof token);
    }
    OPENSSL_cleanse(token, sizeof token);
    return rc;
}

/* --- request bodies --- */

/* The body as a JSON object; the error never quotes it (passwords). */
static json_t *private_body(const api_request *r, api_error *err)
{
    json_t *v = r->body_len ? json_loadb(r->body, r->body_len,
                                         JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL)
                            : NULL;
    if (!json_is_object(v)) {
        json_decref(v);
        *err = (api_error){400, v || !r->body_len ? "bad_message" : "bad_json", "", NULL, 0};
        snprintf(err->message, sizeof err->message, "the body must be a JSON object");
        return NULL;
    }
    return v;
}

static int bad(api_error *err, int http, const char *code, const char *message)
{
    err->http = http;
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    err->reason = NULL;
    return -1;
}

/* A password refused by password_acceptable, with its reason's id. */
static void bad_password(api_error *err, const char *why, const char *reason)
{
    bad(err, 400, "bad_message", why);
    err->reason = reason;
}

/* A password field: a string (its length in *len). */
static const char *password_field(const json_t *body, const char *key, size_t *len, api_error *err)
{
    const json_t *v = json_object_get(body, key);
    if (!json_is_string(v)) {
        char why[64];
        snprintf(why, sizeof why, "%s must be a string", key);
        bad(err, 400, "bad_message", why);
        return NULL;
    }
    *len = json_string_length(v);
    return json_string_value(v);
}

/* A copy of a password for a job; wiped by pw_job_wipe. */
static char *password_copy(const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len);
        copy[len] = 0;
    }
    return copy;
}

/* The normalized name of a body and its key (names.c). */
static int body_name(const json_t *body, char name[STORE_NAME_MAX + 1], char key[NAME_FOLD_MAX + 1],
                     api_error *err)
{
    const json_t *v = json_object_get(body, "name");
    if (!json_is_string(v))
        return bad(err, 400, "bad_message", "name must be a string");
    char why[128];
    if (strlen(json_string_value(v)) != json_string_length(v)) {
        bad(err, 400, "bad_message", "name may hold letters, digits, spaces and _ - . only");
        err->reason = name_refusal_id(NAME_REFUSED_CHARS);
        return -1;
    }
    int refused = name_normalize(json_string_value(v), name, why, sizeof why);
    if (refused) {
        bad(err, refused == NAME_REFUSED_MEMORY ? 500 : 400,
            refused == NAME_REFUSED_MEMORY ? "internal" : "bad_message", why);
        err->reason = name_refusal_id(refused);
        return -1;
    }
    if (name_fold(name, key, NAME_FOLD_MAX + 1))
        return bad(err, 500, "internal", "out of memory");
    return 0;
}

/* Whether two folded names look alike (equal UTS #39 skeletons). */
static bool looks_like(const char *skeleton, const char *name)
{
    char key[NAME_FOLD_MAX + 1], other[NAME_SKELETON_MAX + 1];
    return name_fold(name, key, sizeof key) == 0 && name_skeleton(key, other, sizeof other) == 0 &&
           strcmp(skeleton, other) == 0;
}

/* A name no person may take, nor one that looks like it: a computer
 * level's, or the neutral name of deleted accounts' seats. */
static bool reserved_name(const char *skeleton)
{
    for (const ai_level *l = ai_levels; l->name; l++)
        if (looks_like(skeleton, l->name))
            return true;
    return looks_like(skeleton, STORE_NEUTRAL_NAME) || looks_like(skeleton, "closed account");
}

/* Refuses a new account's name that is, or looks like, a reserved or a
 * taken one; 0 when it may be registered. */
static int name_free(service *svc, const char *key, const char *skeleton, api_error *err)
{
    stored_account existing;
    int found;
    if (reserved_name(skeleton))
        return bad(err, 409, "name_taken", "this name belongs to a computer player");
    if ((found = store_account_by_key(svc->db, key, &existing)) <= 0)
        return bad(err, found == 0 ? 409 : 500, found == 0 ? "name_taken" : "internal",
                   found == 0 ? "this name is taken" : "the accounts cannot be read");
    if ((found = store_account_by_skeleton(svc->db, skeleton, &existing)) <= 0) {
        bad(err, found == 0 ? 409 : 500, found == 0 ? "name_taken" : "internal",
            found == 0 ? "this name looks like a taken one" : "the accounts cannot be read");
        if (found == 0)
            err->reason = "name_confusable";
        return -1;
    }
    /* held back after a rename, or refused by the word lists */
    return moderation_name_refused(svc, key, skeleton, err) ? -1 : 0;
}

/* --- ratings as JSON --- */

json_t *rating_json(rt_rating r, int games)
{
    rt_shown shown = rt_show(r);
    return json_pack("{s:i,s:i,s:i}", "rating", shown.rating, "deviation", shown.deviation, "games",
                     games);
}

/* {"square":{...},"rota":{...},"hex":{...}} of an account. */
static json_t *ratings_json(service *svc, int64_t account_id)
{
    json_t *o = json_object();
    for (int v = AX_SQUARE; v <= AX_HEX; v++) {
        rt_rating r;
        int games;
        if (store_rating(svc->db, account_id, ax_variant_name(v), &r, &games)) {
            json_decref(o);
            return NULL;
        }
        json_object_set_new(o, ax_variant_name(v), rating_json(r, games));
    }
    return o;
}

/* --- the endpoints --- */

/* POST /api/accounts: checked, then the password hashed by a worker. */
static int create_account(service *svc, const api_request *r, api_answer *out)
{
    api_error err = {0};
    json_t *body = private_body(r, &err);
    account_job *j = body ? job_new(ACT_REGISTER, PW_HASH, r) : NULL;
    size_t len = 0;
    const char *password = NULL;
    char why[96];
    bool ready = false;
    if (!body) {
        /* err is set */
    } else if (!j) {
        bad(&err, 500, "internal", "out of memory");
    } else if (body_name(body, j->name, j->name_key, &err) == 0 &&
               (password = password_field(body, "password", &len, &err))) {
        const char *reason = NULL;
        if (!password_acceptable(password, len, why, sizeof why, &reason))
            bad_password(&err, why, reason);
        else if (name_skeleton(j->name_key, j->skeleton, sizeof j->skeleton))
            bad(&err, 500, "internal", "the name cannot be checked");
        else if (name_free(svc, j->name_key, j->skeleton, &err))
            ; /* err is set */
        else if (!(j->pw.password = password_copy(password, len)))
            bad(&err, 500, "internal", "out of memory");
        else if (!budget_take(svc, BUDGET_SIGNUPS, j->ip, 1, NULL)) /* once it would be hashed */
            bad(&err, 429, "rate_limited",
                "too many accounts created from this address; try later");
        else
            ready = true;
    }
    json_decref(body);
    if (!ready) {
        job_free(j);
        return api_reply_fail(out, &err);
    }
    return submit(svc, out, j, NULL, NULL);
}

static int finish_register(service *svc, account_job *j, api_answer *out)
{
    if (j->pw.result != PW_OK)
        return api_reply_error(out, 500, "internal", "the password could not be hashed");
    /* checked again: another sign-up may have taken a look-alike meanwhile */
    api_error err = {0};
    if (name_free(svc, j->name_key, j->skeleton, &err))
        return api_reply_fail(out, &err);
    int64_t id;
    int rc = store_account_create(svc->db, j->name, j->name_key, j->skeleton, j->pw.new_hash,
                                  (int64_t)time(NULL), &id);
    if (rc == 1)
        return api_reply_error(out, 409, "name_taken", "this name is taken");
    if (rc != 0 || start_session(svc, out, id)) {
        if (rc != 0)
            service_log(svc, "storing an account failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the account could not be stored");
    }
    return api_reply_json(out, 201, json_pack("{s:s}", "name", j->name));
}

/* 429 for a throttled password check: what is locked ("login_address":
 * every name from this address after failed logins; "login_name": this
 * name from everywhere; "login_rate": logins from this address, right or
 * wrong; "login_account": logins to this account) and for how long, so
 * that a person is told the truth (docs/accounts.md). */
static int throttled(api_answer *out, const char *reason, double wait_s)
{
    char message[160];
    long s = (long)wait_s + 1, minutes = (s + 59) / 60;
    out->retry_after_s = (int)s;
    const char *what = strcmp(reason, "login_address") == 0 ? "failed logins from this address"
                       : strcmp(reason, "login_name") == 0  ? "failed logins for this name"
                       : strcmp(reason, "login_rate") == 0  ? "logins from this address"
                                                            : "logins to this account";
    snprintf(message, sizeof message, "too many %s; try again in %ld minute%s", what, minutes,
             minutes == 1 ? "" : "s");
    return api_reply_json(out, 429,
                          json_pack("{s:{s:s,s:s,s:s,s:i}}", "error", "code", "rate_limited",
                                    "message", message, "reason", reason, "retry_after_s", (int)s));
}

/* POST /api/login: throttled, then verified by a worker against the
 * account's hash or the dummy one. */
static int login(service *svc, const api_request *r, api_answer *out)
{
    api_error err = {0};
    json_t *body = private_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    account_job *j = job_new(ACT_LOGIN, PW_VERIFY, r);
    size_t len = 0;
    const char *password = j ? password_field(body, "password", &len, &err) : NULL;
    bool nul = password && memchr(password, 0, len);
    if (!j || !password || !json_is_string(json_object_get(body, "name")) || len > PASSWORD_MAX ||
        nul) {
        if (!j)
            bad(&err, 500, "internal", "out of memory");
        else if (password && len > PASSWORD_MAX)
            bad_password(&err, "a password may have at most 1024 bytes", "password_long");
        else if (nul) /* no password has one: what follows it must not be ignored */
            bad_password(&err, "a password must not hold the character NUL", "password_nul");
        else if (password)
            bad(&err, 400, "bad_message", "name must be a string");
        json_decref(body);
        job_free(j);
        return api_reply_fail(out, &err);
    }
    api_error name_err = {0};
    bool valid_name = body_name(body, j->name, j->name_key, &name_err) == 0;
    j->pw.password = password_copy(password, len);
    json_decref(body);
    const char *name_key = valid_name ? j->name_key : NULL;
    double wait_ip = 0, wait_name = 0, wait;
    bool locked_ip = budget_full(svc, BUDGET_FAILED_LOGINS_IP, j->ip, &wait_ip);
    bool locked_name =
        name_key && budget_full(svc, BUDGET_FAILED_LOGINS_NAME, name_key, &wait_name);
    if (locked_ip || locked_name) {
        job_free(j);
        return locked_ip
                   ? throttled(out, "login_address", wait_ip > wait_name ? wait_ip : wait_name)
                   : throttled(out, "login_name", wait_name);
    }
    /* every check costs a hash: an address (however right its passwords)
     * and an account get only so many */
    if (!budget_take(svc, BUDGET_PASSWORD_CHECKS, j->ip, 1, &wait)) {
        job_free(j);
        return throttled(out, "login_rate", wait);
    }
    stored_account account;
    j->known = valid_name && store_account_by_key(svc->db, j->name_key, &account) == 0 &&
               !account.computer && account.password_hash[0];
    j->account_id = j->known ? account.id : 0;
    char who[24];
    snprintf(who, sizeof who, "%lld", (long long)j->account_id);
    if (j->known && budget_full(svc, BUDGET_LOGINS_ACCOUNT, who, &wait)) {
        job_free(j);
        return throttled(out, "login_account", wait);
    }
    snprintf(j->pw.hash, sizeof j->pw.hash, "%s",
             j->known ? account.password_hash : auth_dummy_hash(svc->auth));
    if (j->known)
        snprintf(j->name, sizeof j->name, "%s", account.name); /* its own spelling */
    if (!j->pw.password) {
        job_free(j);
        return api_reply_error(out, 500, "internal", "out of memory");
    }
    if (!attempt_take(svc, j->ip, name_key)) { /* a parallel guess got there first */
        job_free(j);
        return throttled(out, "login_address", LOGIN_WINDOW_S);
    }
    return submit(svc, out, j, j->ip, name_key);
}

static int finish_login(service *svc, account_job *j, api_answer *out)
{
    if (j->pw.result != PW_OK || !j->known)
        return api_reply_error(out, 401, "unauthorized", "wrong name or password");
    attempt_give_back(svc, j->ip, j->name_key);
    if (moderation_closed(svc, j->account_id)) /* told only to who knows its password */
        return api_reply_error(out, 403, "account_closed", "this account is closed");
    budget_take_account(svc, BUDGET_LOGINS_ACCOUNT, j->account_id, NULL);
    if (start_session(svc, out, j->account_id))
        return api_reply_error(out, 500, "internal", "the session could not be stored");
    return api_reply_json(out, 200, json_pack("{s:s}", "name", j->name));
}

/* POST /api/logout: the session is revoked, the cookie cleared. */
static int logout(service *svc, const api_request *r, api_answer *out)
{
    stored_account account;
    if (session_of(svc, r, &account) && store_session_delete(svc->db, r->session_hash)) {
        service_log(svc, "revoking a session failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the session could not be revoked");
    }
    out->session = SESSION_CLEAR;
    return api_reply_empty(out, 204);
}

static int unauthorized(api_answer *out)
{
    return api_reply_error(out, 401, "unauthorized", "log in first");
}

/* GET /api/me */
/* GET /api/me: the account of the session, or {"name":null} for a guest
 * (every page asks: a guest's must not be an error). */
static int me(service *svc, const api_request *r, api_answer *out)
{
    stored_account account;
    if (!session_of(svc, r, &account))
        return api_reply_json(out, 200, json_pack("{s:n,s:n}", "name", "ratings"));
    json_t *ratings = ratings_json(svc, account.id);
    if (!ratings)
        return api_reply_error(out, 500, "internal", "the ratings cannot be read");
    json_t *o =
        json_pack("{s:s,s:b,s:o}", "name", account.name, "bot", account.bot, "ratings", ratings);
    moderation_me(svc, account.id, o); /* "moderator", and warnings not yet seen */
    return api_reply_json(out, 200, o);
}

/* POST /api/me/password and /api/me/delete: the session's account, the
 * current password verified by a worker (throttled like logins, per
 * name), then the change. */
static int account_change(service *svc, const api_request *r, api_answer *out, int action)
{
    stored_account account;
    if (!session_of(svc, r, &account))
        return unauthorized(out);
    api_error err = {0};
    json_t *body = private_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    account_job *j = job_new(action, action == ACT_PASSWORD ? PW_CHANGE : PW_VERIFY, r);
    size_t len = 0, new_len = 0;
    const char *password = j ? password_field(body, "password", &len, &err) : NULL;
    const char *new_password = password && action == ACT_PASSWORD
                                   ? password_field(body, "new_password", &new_len, &err)
                                   : NULL;
    char why[96];
    const char *reason = NULL;
    int rc = -1;
    if (!j)
        bad(&err, 500, "internal", "out of memory");
    else if (!password || (action == ACT_PASSWORD && !new_password))
        ; /* err is set */
    else if (len > PASSWORD_MAX)
        bad_password(&err, "a password may have at most 1024 bytes", "password_long");
    else if (memchr(password, 0, len))
        bad_password(&err, "a password must not hold the character NUL", "password_nul");
    else if (new_password && !password_acceptable(new_password, new_len, why, sizeof why, &reason))
        bad_password(&err, why, reason);
    else if (!(j->pw.password = password_copy(password, len)) ||
             (new_password && !(j->pw.new_password = password_copy(new_password, new_len))))
        bad(&err, 500, "internal", "out of memory");
    else
        rc = 0;
    json_decref(body);
    if (rc) {
        job_free(j);
        return api_reply_fail(out, &err);
    }
    j->account_id = account.id;
    snprintf(j->name, sizeof j->name, "%s", account.name);
    name_fold(account.name, j->name_key, sizeof j->name_key);
    snprintf(j->session_hash, sizeof j->session_hash, "%s", r->session_hash);
    snprintf(j->pw.hash, sizeof j->pw.hash, "%s", account.password_hash);
    double wait = 0;
    if (budget_full(svc, BUDGET_FAILED_LOGINS_NAME, j->name_key, &wait) ||
        !attempt_take(svc, NULL, j->name_key)) {
        job_free(j);
        return throttled(out, "login_name", wait > 0 ? wait : LOGIN_WINDOW_S);
    }
    return submit(svc, out, j, NULL, j->name_key);
}

/* The job's session must still be the account's: it may have been
 * revoked while the password was checked. */
static bool session_still_valid(service *svc, const account_job *j)
{
    stored_account account;
    return store_session_account(svc->db, j->session_hash, (int64_t)time(NULL), &account) == 0 &&
           account.id == j->account_id;
}

static int finish_change(service *svc, account_job *j, api_answer *out)
{
    if (j->pw.result == PW_FAILED)
        return api_reply_error(out, 500, "internal", "the password could not be hashed");
    if (j->pw.result != PW_OK)
        return api_reply_error(out, 401, "unauthorized", "wrong password");
    attempt_give_back(svc, NULL, j->name_key);
    if (!session_still_valid(svc, j))
        return unauthorized(out);
    if (j->action == ACT_PASSWORD) {
        if (store_account_set_password(svc->db, j->account_id, j->pw.new_hash, j->session_hash)) {
            service_log(svc, "storing a password failed: %s", store_error(svc->db));
            return api_reply_error(out, 500, "internal", "the password could not be stored");
        }
        return api_reply_empty(out, 204);
    }
    if (store_account_delete(svc->db, j->account_id)) {
        service_log(svc, "deleting an account failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the account could not be deleted");
    }
    lobby_account_deleted(svc, j->account_id);
    owners_tell(svc, "deleted %lld", (long long)j->account_id);
    out->session = SESSION_CLEAR;
    return api_reply_empty(out, 204);
}

/* The answer of a finished job, handed to the transport. */
static void answer_job(service *svc, account_job *j)
{
    api_answer out = {0};
    switch (j->action) {
    case ACT_REGISTER: finish_register(svc, j, &out); break;
    case ACT_LOGIN: finish_login(svc, j, &out); break;
    default: finish_change(svc, j, &out); break;
    }
    svc->hooks.answer(j->request, &out);
    OPENSSL_cleanse(out.session_token, sizeof out.session_token);
}

void accounts_collect(service *svc)
{
    if (!svc->auth)
        return;
    job_queue done = auth_take_done(svc->auth);
    pw_job *pw;
    while ((pw = auth_next_done(&done))) {
        account_job *j = (account_job *)pw;
        for (account_job **p = &svc->accounts->pending_jobs; *p; p = &(*p)->next)
            if (*p == j) {
                *p = j->next;
                break;
            }
        if (j->request)
            answer_job(svc, j);
        job_free(j);
    }
}

/* --- players and the leaderboard --- */

static int player_game(const stored_player_game *g, void *arg)
{
    json_t *change = json_null(), *after = json_null();
    if (g->has_change) {
        change = json_integer(rt_show(g->after).rating - rt_show(g->before).rating);
        after = json_integer(rt_show(g->after).rating);
    }
    json_array_append_new(
        arg, json_pack("{s:s,s:s,s:i,s:s,s:b,s:o,s:o,s:o,s:I}", "id", g->id, "variant", g->variant,
                       "players", g->players, "mode", g->mode, "rated", g->rated, "place",
                       g->place > 0 ? json_integer(g->place) : json_null(), "rating_change", change,
                       "rating_after", after, "ended", (json_int_t)g->ended));
    return 0;
}

/* GET /api/players/{name} (the name percent-decoded by the transport) */
int accounts_by_name(service *svc, const char *name, stored_account *out)
{
    char normalized[STORE_NAME_MAX + 1], key[NAME_FOLD_MAX + 1], why[128];
    bool valid = name && name_normalize(name, normalized, why, sizeof why) == 0 &&
                 name_fold(normalized, key, sizeof key) == 0;
    return valid ? store_account_by_key(svc->db, key, out) : 1;
}

static int player(service *svc, api_answer *out, const char *name)
{
    stored_account account;
    int rc = accounts_by_name(svc, name, &account);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the players cannot be read");
    if (rc != 0 || moderation_closed(svc, account.id))
        return api_reply_error(out, 404, "not_found", "no such player");
    json_t *ratings = ratings_json(svc, account.id), *games = json_array();
    if (!ratings ||
        store_player_games(svc->db, account.id, PROFILE_GAMES_MAX, player_game, games)) {
        json_decref(ratings);
        json_decref(games);
        return api_reply_error(out, 500, "internal", "the player cannot be read");
    }
    json_t *o = json_pack("{s:s,s:b,s:b,s:o,s:o}", "name", account.name, "computer",
                          account.computer, "bot", account.bot, "ratings", ratings, "games", games);
    if (account.bot) /* who runs it and which engine: shown as text */
        json_object_set_new(o, "about", json_string(account.bot_about));
    return api_reply_json(out, 200, o);
}

typedef struct {
    stored_ranked *list;
    size_t n, cap;
} ranked_list;

static int add_ranked(const stored_ranked *p, void *arg)
{
    ranked_list *l = arg;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        stored_ranked *grown = realloc(l->list, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->list = grown;
        l->cap = cap;
    }
    l->list[l->n++] = *p;
    return 0;
}

/* docs/ratings.md: the listed (D <= 200) first, then the provisional;
 * each by R, then D (rt_leaderboard_compare), games, name. */
static int compare_ranked(const void *pa, const void *pb)
{
    const stored_ranked *a = pa, *b = pb;
    rt_params p = rt_default_params();
    bool la = rt_on_leaderboard(&p, a->rating), lb = rt_on_leaderboard(&p, b->rating);
    if (la != lb)
        return la ? -1 : 1;
    int c = rt_leaderboard_compare(a->rating, b->rating);
    if (c)
        return c;
    if (a->games != b->games)
        return a->games > b->games ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* GET /api/leaderboard?variant=V[&bots=1]: the people's (and the computer
 * levels'), or the bots' */
static int leaderboard(service *svc, const api_request *r, api_answer *out)
{
    char variant[16], bots_arg[8];
    const char *v = api_query_arg(r, "variant", variant, sizeof variant);
    const char *b = api_query_arg(r, "bots", bots_arg, sizeof bots_arg);
    bool bots = b && (strcmp(b, "1") == 0 || strcmp(b, "true") == 0);
    if (!v || ax_variant_parse(v) < 0)
        return api_reply_error(out, 400, "bad_message", "variant must be square, rota or hex");
    ranked_list l = {NULL, 0, 0};
    if (store_each_rated(svc->db, v, add_ranked, &l)) {
        free(l.list);
        return api_reply_error(out, 500, "internal", "the ratings cannot be read");
    }
    if (l.n)
        qsort(l.list, l.n, sizeof *l.list, compare_ranked);
    rt_params p = rt_default_params();
    json_t *a = json_array();
    for (size_t i = 0, shown_n = 0; i < l.n && shown_n < LEADERBOARD_MAX; i++) {
        if (l.list[i].bot != bots)
            continue;
        rt_shown shown = rt_show(l.list[i].rating);
        json_t *o =
            json_pack("{s:s,s:i,s:i,s:i,s:b,s:b}", "name", l.list[i].name, "rating", shown.rating,
                      "deviation", shown.deviation, "games", l.list[i].games, "computer",
                      l.list[i].computer, "provisional", !rt_on_leaderboard(&p, l.list[i].rating));
        if (l.list[i].bot)
            json_object_set_new(o, "bot", json_true());
        json_array_append_new(a, o);
        shown_n++;
    }
    free(l.list);
    return api_reply_json(out, 200, a);
}

static int not_allowed(api_answer *out)
{
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}

/* A POST endpoint: its handler, or 405. */
static int post_only(service *svc, const api_request *r, api_answer *out,
                     int (*fn)(service *, const api_request *, api_answer *))
{
    return r->method == API_POST ? fn(svc, r, out) : not_allowed(out);
}

static int change_password(service *svc, const api_request *r, api_answer *out)
{
    return account_change(svc, r, out, ACT_PASSWORD);
}

static int delete_account(service *svc, const api_request *r, api_answer *out)
{
    return account_change(svc, r, out, ACT_DELETE);
}

int accounts_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    if (strcmp(path, "/accounts") == 0)
        return post_only(svc, r, out, create_account);
    if (strcmp(path, "/login") == 0)
        return post_only(svc, r, out, login);
    if (strcmp(path, "/logout") == 0)
        return post_only(svc, r, out, logout);
    if (strcmp(path, "/me/password") == 0)
        return post_only(svc, r, out, change_password);
    if (strcmp(path, "/me/delete") == 0)
        return post_only(svc, r, out, delete_account);
    if (strcmp(path, "/me") == 0)
        return r->method == API_GET ? me(svc, r, out) : not_allowed(out);
    if (strcmp(path, "/leaderboard") == 0)
        return r->method == API_GET ? leaderboard(svc, r, out) : not_allowed(out);
    if (strncmp(path, "/players/", 9) == 0)
        return r->method == API_GET ? player(svc, out, path + 9) : not_allowed(out);
    return API_NOT_MINE;
}

/* --- start, stop, housekeeping --- */

/* Two accounts made before names were compared as they are now may look
 * alike: both keep their names and sign in as before (each by its own
 * case-folded name), and no new name may look like either. Said once, when
 * their keys are written, for the operator to judge. */
static void look_alike_accounts(void *arg, const char *name, const char *other)
{
    (void)arg;
    fprintf(stderr, "axio serve: the accounts \"%s\" and \"%s\" look alike (both kept)\n", name,
            other);
}

int accounts_start(service *svc)
{
    int64_t now = (int64_t)time(NULL);
    for (const ai_level *l = ai_levels; l->name; l++) {
        char key[NAME_FOLD_MAX + 1];
        if (name_fold(l->name, key, sizeof key) ||
            store_computer_ensure(svc->db, l->name, key, now)) {
            fprintf(stderr, "axio serve: cannot store the computer player %s: %s\n", l->name,
                    store_error(svc->db));
            return -1;
        }
    }
    int rewritten = store_fill_skeletons(svc->db, name_skeleton, look_alike_accounts, NULL);
    if (rewritten < 0) {
        fprintf(stderr, "axio serve: cannot store the accounts' look-alike keys: %s\n",
                store_error(svc->db));
        return -1;
    }
    if (rewritten > 0)
        service_log(svc, "look-alike keys of %d accounts written", rewritten);
    return 0;
}

void accounts_free(service *svc)
{
    auth_free(svc->auth, free_pw_job); /* every pending job was one of the pool's */
    svc->auth = NULL;
    free(svc->accounts);
    svc->accounts = NULL;
}

void accounts_housekeeping(service *svc, double now)
{
    if (now - svc->accounts->last_session_prune < SESSION_PRUNE_S &&
        svc->accounts->last_session_prune > 0)
        return;
    svc->accounts->last_session_prune = now;
    if (store_sessions_prune(svc->db, (int64_t)time(NULL)))
        service_log(svc, "forgetting expired sessions failed: %s", store_error(svc->db));
    budgets_housekeeping(svc);
    pairing_housekeeping(svc);
}
