/*
 * mail.c - the daily e-mail digest (mail.h; issue 52, docs/notifications.md).
 *
 * A person gives an address (POST /api/me/email); a message with a link
 * that carries a fresh token (kept as its SHA-256 only) confirms it. Once
 * confirmed, and while the account wants `turn` by e-mail, the server
 * sends at most one e-mail a day listing the games that wait for the
 * person's move, and only when some do. Every digest carries
 * List-Unsubscribe with the token's link and List-Unsubscribe-Post
 * (RFC 8058): a POST there, or opening it, forgets the address.
 * Messages go through --smtp on the notifications' sending thread
 * (push.c): retried, never on the loop.
 */
#include "mail.h"
#include "accounts.h"
#include "api.h"
#include "lobby.h"
#include "push.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DAY_MS    (24LL * 3600 * 1000)
#define CHECK_S   5.0 /* how often the loop looks for digests due */
#define GAMES_MAX 20  /* listed in one digest */

/* Whether an address is one to send to: one @, a dot after it, printable
 * ASCII without spaces, quotes or angle brackets, at most 254 bytes. */
static bool address_ok(const char *a)
{
    size_t n = strlen(a);
    const char *at = strchr(a, '@');
    if (n < 3 || n > STORE_EMAIL_MAX || !at || at == a || strchr(at + 1, '@') ||
        !strchr(at + 1, '.') || a[n - 1] == '.')
        return false;
    for (const char *p = a; *p; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f || strchr("\"<>(),;:\\[]", *p))
            return false;
    return true;
}

/* A header's text: as it is when ASCII, else RFC 2047's =?UTF-8?B?...?=. */
static void header_text(const char *text, char *out, size_t size)
{
    bool ascii = true;
    for (const char *p = text; *p; p++)
        ascii = ascii && (unsigned char)*p < 0x80;
    if (ascii) {
        snprintf(out, size, "%s", text);
        return;
    }
    size_t n = strlen(text);
    char *b64 = malloc(4 * ((n + 2) / 3) + 1);
    if (!b64) {
        snprintf(out, size, "axio");
        return;
    }
    EVP_EncodeBlock((unsigned char *)b64, (const unsigned char *)text, (int)n);
    snprintf(out, size, "=?UTF-8?B?%s?=", b64);
    free(b64);
}

/* A whole message (malloc'd), or NULL. unsubscribe: the link for the
 * List-Unsubscribe headers, or NULL. */
static char *message(service *svc, const char *to, const char *subject, const char *body,
                     const char *unsubscribe)
{
    char date[64], subj[512], id[TOKEN_LEN + 1], host[256];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    header_text(subject, subj, sizeof subj);
    if (secret_token(id))
        return NULL;
    const char *at = strchr(svc->cfg.mail_from, '@');
    snprintf(host, sizeof host, "%s", at ? at + 1 : "axio");
    char list[600] = "";
    if (unsubscribe)
        snprintf(list, sizeof list,
                 "List-Unsubscribe: <%s>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
                 unsubscribe);
    /* the body's lines end in CRLF, as SMTP wants them */
    size_t n = strlen(body);
    char *crlf = malloc(2 * n + 1);
    if (!crlf)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (body[i] == '\n' && (i == 0 || body[i - 1] != '\r'))
            crlf[k++] = '\r';
        crlf[k++] = body[i];
    }
    crlf[k] = 0;
    char *out = NULL;
    int len = asprintf(&out,
                       "Date: %s\r\nFrom: axio <%s>\r\nTo: <%s>\r\nSubject: %s\r\n"
                       "Message-ID: <%s@%s>\r\nMIME-Version: 1.0\r\n"
                       "Content-Type: text/plain; charset=utf-8\r\n"
                       "Content-Transfer-Encoding: 8bit\r\nAuto-Submitted: auto-generated\r\n"
                       "%s\r\n%s\r\n",
                       date, svc->cfg.mail_from, to, subj, id, host, list, crlf);
    free(crlf);
    return len < 0 ? NULL : out;
}

static bool mail_on(const service *svc)
{
    return svc->cfg.smtp_url && svc->cfg.mail_from && svc->cfg.public_url;
}

/* The site's link to an API path with a token. */
static void link_to(const service *svc, const char *path, const char *token, char *out, size_t size)
{
    const char *base = svc->cfg.public_url;
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] == '/')
        n--;
    snprintf(out, size, "%.*s/api/email/%s?token=%s", (int)n, base, path, token);
}

/* --- the digest --- */

typedef struct {
    service *svc;
    int64_t now_ms;
    int sent;
} due_arg;

static int send_digest(const stored_email *e, void *arg)
{
    due_arg *d = arg;
    service *svc = d->svc;
    char lang[8];
    bool push[PUSH_KINDS], email[PUSH_KINDS];
    push_prefs(svc, e->account_id, lang, push, email);
    if (!email[PUSH_TURN])
        return 0;
    /* the games waiting for this person's move */
    char *lines = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&lines, &len);
    if (!f)
        return 0;
    int count = 0;
    const char *base = svc->cfg.public_url;
    size_t bn = strlen(base);
    while (bn > 0 && base[bn - 1] == '/')
        bn--;
    for (game *gm = lobby_first(svc); gm && count < GAMES_MAX; gm = gm->next) {
        int seat = gm->g.to_move;
        if (gm->status != GAME_RUNNING || seat < 0 || seat >= gm->g.players ||
            gm->seats[seat].account_id != e->account_id || gm->seats[seat].kind != SEAT_HUMAN ||
            gm->seats[seat].ai)
            continue;
        char url[512], line[700];
        snprintf(url, sizeof url, "%.*s/#/game/%s?seat=%d", (int)bn, base, gm->id, seat);
        const char *vars[] = {"variant", push_variant_title(gm->g.variant), "url", url, NULL};
        if (push_fill(mail_text(MAIL_DIGEST_LINE, lang), vars, line, sizeof line) == 0)
            fprintf(f, "%s\n", line);
        count++;
    }
    fclose(f);
    if (count == 0) {
        free(lines);
        return 0;
    }
    /* the token itself is not kept: the digest's links carry a new one */
    char token[TOKEN_LEN + 1], hash[65], unsub[600], footer[800], subject[200], count_text[16];
    if (secret_token(token)) {
        free(lines);
        return 0;
    }
    sha256_hex(token, hash);
    link_to(svc, "unsubscribe", token, unsub, sizeof unsub);
    snprintf(count_text, sizeof count_text, "%d", count);
    const char *vars[] = {"url", unsub, "count", count_text, NULL};
    push_fill(mail_text(MAIL_DIGEST_FOOTER, lang), vars, footer, sizeof footer);
    push_fill(mail_text(MAIL_DIGEST_SUBJECT, lang), vars, subject, sizeof subject);
    char *body = NULL;
    int n = asprintf(&body, "%s\n\n%s\n%s\n", mail_text(MAIL_DIGEST_BODY, lang), lines, footer);
    free(lines);
    if (n < 0)
        return 0;
    /* a new token for the address: the old one's links (the confirmation)
     * stop working, this digest's work */
    char *msg = message(svc, e->address, subject, body, unsub);
    free(body);
    if (!msg)
        return 0;
    if (store_email_digest_sent(svc->db, e->account_id, hash, d->now_ms)) {
        service_log(svc, "mail: storing a digest failed: %s", store_error(svc->db));
        free(msg);
        return 0;
    }
    if (push_enqueue_mail(svc, e->account_id, e->address, msg) == 0)
        d->sent++;
    return 0;
}

void mail_tick(service *svc, double now)
{
    if (!mail_on(svc) || svc->stopping)
        return;
    if (svc->mail_checked > 0 && now - svc->mail_checked < CHECK_S)
        return;
    svc->mail_checked = now;
    due_arg d = {svc, unix_ms(), 0};
    if (store_each_email_due(svc->db, d.now_ms - DAY_MS, send_digest, &d) < 0)
        service_log(svc, "mail: reading addresses failed: %s", store_error(svc->db));
}

/* --- the HTTP API --- */

static int email_json(service *svc, int64_t account_id, int status, api_answer *out)
{
    stored_email e;
    int rc = store_email_get(svc->db, account_id, &e);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the address cannot be read");
    return api_reply_json(out, status,
                          json_pack("{s:o,s:b,s:b}", "address",
                                    rc == 0 ? json_string(e.address) : json_null(), "verified",
                                    rc == 0 && e.verified, "available", mail_on(svc)));
}

static int set_address(service *svc, const api_request *r, int64_t account_id, api_answer *out)
{
    if (!mail_on(svc))
        return api_reply_error(out, 503, "unavailable", "this site sends no e-mail");
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    char address[STORE_EMAIL_MAX + 1] = "";
    const char *a = json_string_value(json_object_get(body, "address"));
    bool ok = a && address_ok(a);
    if (ok)
        snprintf(address, sizeof address, "%s", a);
    json_decref(body);
    if (!ok)
        return api_reply_error(out, 400, "bad_message", "address must be an e-mail address");
    char token[TOKEN_LEN + 1], hash[65], link[600], text[1200];
    if (secret_token(token))
        return api_reply_error(out, 500, "internal", "no randomness available");
    sha256_hex(token, hash);
    if (store_email_set(svc->db, account_id, address, hash))
        return api_reply_error(out, 500, "internal", "the address could not be stored");
    char lang[8];
    bool push[PUSH_KINDS], email[PUSH_KINDS];
    push_prefs(svc, account_id, lang, push, email);
    link_to(svc, "verify", token, link, sizeof link);
    const char *vars[] = {"url", link, NULL};
    push_fill(mail_text(MAIL_VERIFY_BODY, lang), vars, text, sizeof text);
    char *msg = message(svc, address, mail_text(MAIL_VERIFY_SUBJECT, lang), text, NULL);
    if (!msg || push_enqueue_mail(svc, account_id, address, msg)) {
        store_email_delete(svc->db, account_id);
        return api_reply_error(out, 503, "unavailable", "the confirmation could not be sent");
    }
    return email_json(svc, account_id, 202, out);
}

/* GET or POST /api/email/{verify,unsubscribe}?token=T: by the link's
 * token, no session (a mail program's one-click POST has none). */
static int by_token(service *svc, const api_request *r, bool verify, api_answer *out)
{
    char token[TOKEN_LEN + 2], hash[65];
    stored_email e;
    if (!api_query_arg(r, "token", token, sizeof token) || !is_base64url(token, TOKEN_LEN))
        return api_reply_error(out, 400, "bad_message", "token must be the link's");
    sha256_hex(token, hash);
    int rc = store_email_by_token(svc->db, hash, &e);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the address cannot be read");
    if (rc > 0)
        return api_reply_error(out, 404, "not_found", "this link is no longer valid");
    rc = verify ? store_email_verify(svc->db, e.account_id)
                : store_email_delete(svc->db, e.account_id);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the address could not be changed");
    char lang[8];
    bool push[PUSH_KINDS], email[PUSH_KINDS];
    push_prefs(svc, e.account_id, lang, push, email);
    char *text = strdup(mail_text(verify ? MAIL_VERIFIED : MAIL_UNSUBSCRIBED, lang));
    if (!text)
        return api_reply_error(out, 500, "internal", "out of memory");
    return api_reply_text(out, 200, "text/plain; charset=utf-8", text, strlen(text));
}

int mail_route(service *svc, const api_request *r, api_answer *out)
{
    bool verify = strcmp(r->path, "/email/verify") == 0;
    bool unsub = strcmp(r->path, "/email/unsubscribe") == 0;
    if (verify || unsub) {
        if (r->method != API_GET && r->method != API_POST)
            return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
        return by_token(svc, r, verify, out);
    }
    if (strcmp(r->path, "/me/email") != 0)
        return API_NOT_MINE;
    stored_account me;
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return api_reply_error(out, 401, "unauthorized", "log in first");
    if (me.computer)
        return api_reply_error(out, 403, "forbidden", "a computer level has no address");
    if (r->method == API_GET)
        return email_json(svc, me.id, 200, out);
    if (r->method == API_POST)
        return set_address(svc, r, me.id, out);
    if (r->method == API_DELETE) {
        int rc = store_email_delete(svc->db, me.id);
        if (rc < 0)
            return api_reply_error(out, 500, "internal", "the address could not be forgotten");
        return rc > 0 ? api_reply_error(out, 404, "not_found", "no address is kept")
                      : api_reply_empty(out, 204);
    }
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}
