/*
 * reason.h - why something was refused, written into the caller's buffer.
 *
 * Everything that can refuse an input (the engine's readers of records,
 * positions and decisions, the players' weights files, the cli, the C ABI)
 * takes a buffer `err` of `errlen` bytes for the reason and returns a code;
 * ax_fail writes the one and returns the other, so that a refusal is one
 * line: `return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "line %d: ...", n);`.
 */
#ifndef AX_REASON_H
#define AX_REASON_H

#include <jansson.h>
#include <stddef.h>

/* Writes the reason (printf format) into err when there is room for it
 * (err NULL or errlen 0: nothing), truncated to fit; returns `code`. */
int ax_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* jansson's reason for refusing a text, as valid UTF-8 (every byte of a
 * malformed character becomes '?'), so that it can travel inside JSON: the
 * reason may quote the refused text. */
void ax_json_error_text(const json_error_t *e, char *out, size_t size);

#endif
