/*
 * api.h - what every handler of the HTTP API uses (api.c): answers, the
 * body, query arguments, errors.
 */
#ifndef AX_SERVER_API_H
#define AX_SERVER_API_H

#include "game.h"

/* Answers (each returns 0): JSON (the value released), an error, an
 * api_error (with its reason when it has one), text of a type, or none. */
int api_reply_json(api_answer *a, int status, json_t *body);
int api_reply_error(api_answer *a, int status, const char *code, const char *message);
int api_reply_fail(api_answer *a, const api_error *err);
int api_reply_text(api_answer *a, int status, const char *type, char *text, size_t len);
int api_reply_empty(api_answer *a, int status);
/* The request's JSON body ({} when empty); NULL with err (400) when it is
 * not JSON. */
json_t *api_body(const api_request *r, api_error *err);
/* The value of a query argument `name` (copied into out), NULL when it is
 * absent or longer than out. */
const char *api_query_arg(const api_request *r, const char *name, char *out, size_t size);
/* Fills err (no reason, no Retry-After) and returns -1. */
int api_fail(api_error *err, int http, const char *code, const char *message);

#endif
