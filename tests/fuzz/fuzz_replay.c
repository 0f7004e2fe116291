/*
 * fuzz_replay.c - libFuzzer target for the record reader (replay.c).
 *
 * The input is a record's text; each line goes through ax_replay_line until
 * one is rejected, then the record is finished. Any crash, leak or undefined
 * behaviour is a bug: a record is untrusted input.
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ax_replay replay;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    ax_replay_init(&replay);
    char err[256];
    int code = 0;
    for (char *line = text; line && code == 0;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        code = ax_replay_line(&replay, line, err, sizeof err);
        line = next;
    }
    if (code == 0)
        ax_replay_finish(&replay, err, sizeof err);
    free(text);
    return 0;
}
