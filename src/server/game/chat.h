/*
 * chat.h - chat messages (chat.c): checked, stored, then sent to everyone.
 */
#ifndef AX_SERVER_CHAT_H
#define AX_SERVER_CHAT_H

#include "game.h"

void chat_handle(viewer *c, const json_t *msg);
/* The chat_history message a connecting client gets (the newest messages:
 * at most CHAT_KEEP, and CHAT_HISTORY_BYTES of them), made once after each
 * change and shared; the game keeps its reference. NULL out of memory. */
msg *chat_history_msg(game *gm);
/* The chat_history message of one viewer (a reference of its own): the
 * shared one, or one without the messages of the players it blocks. */
msg *chat_history_for(viewer *c);
/* Takes over the chat a stored game was loaded with. */
void chat_load(game *gm, stored_game *sg);
void chat_free(game *gm);
/* A written chat message is durable: send it to everyone. */
void chat_written(service *svc, store_write *w);

#endif
