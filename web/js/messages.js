// messages.js — the texts of the online-play parts of the web client (clocks,
// leaving, chat, rematch, turn alerts, lobby lists, invitations) in one table, so
// that they can move into per-language message files later. t('key', {name: 'Bo'}) fills {name}.
// A value may be a function of the parameters (for plurals).

const EN = {
  // clocks
  'clock.none': 'No clock',
  'clock.blitz': '3+2',
  'clock.rapid': '10+5',
  'clock.daily': '1 day per move',
  'clock.custom': 'Custom',
  'clock.label': 'Clock',
  'clock.base_min': 'minutes',
  'clock.base_sec': 'seconds',
  'clock.increment': 'increment (s)',
  'clock.custom_help': 'Time for the whole game per player, plus seconds added after each move.',
  'clock.bad_custom': 'A custom clock needs 1 second to 3 hours, and an increment of 0 to 600 seconds.',
  'clock.realtime_desc': ({ base, inc }) => `${base} + ${inc} s`,
  'clock.daily_desc': ({ per }) => `${per} per move`,
  'clock.days': ({ n }) => (n === 1 ? '1 day' : `${n} days`),
  'clock.hours': ({ n }) => `${n} h`,
  'clock.minutes': ({ n }) => `${n} min`,
  'clock.title': ({ name }) => `Time left for ${name}`,
  'clock.not_charged': 'the clock does not run for the computer',

  // leaving
  'leave.resign': 'Resign',
  'leave.resign_title': 'Resign this game?',
  'leave.resign_two': 'You leave the game: the other side wins.',
  'leave.resign_more': 'You leave the game: the computer plays your seat to the end, and you rank below everyone who stays.',
  'leave.resign_confirm': 'Resign',
  'leave.resign_cancel': 'Keep playing',
  'leave.why.resign': 'resigned',
  'leave.why.timeout': 'ran out of time',
  'leave.why.absent': 'absent',
  'leave.you_left': ({ why }) => `You left this game (${why}).`,
  'leave.played_by': ({ level, name }) => `the computer (${level}) plays for ${name}`,
  'leave.thinking_for': ({ level, name }) => `The computer (${level}) plays for ${name}… `,
  'leave.not_connected': ({ name }) => `${name} is not connected`,
  'leave.claim_in': ({ time }) => `you can claim in ${time}`,
  'leave.claim_now': 'you can claim now',
  'leave.claim_win': 'Claim the win',
  'leave.claim_seat': 'Declare absent',
  'leave.claim_help_two': 'The game ends and you win.',
  'leave.claim_help_more': ({ name }) => `The computer takes over ${name}'s seat.`,
  'leave.not_absent': ({ name }) => `${name} is not absent (any more): no claim yet.`,
  'log.leave.resign': 'resigned',
  'log.leave.timeout': 'ran out of time',
  'log.leave.absent': 'was declared absent',
  'end.reason.left': 'too few players stayed',
  'end.left_mark': ({ why }) => `left: ${why}`,
  'end.leavers_rank': 'Players who left rank below everyone who stayed; a later leaver above an earlier one.',

  // chat
  'chat.title': 'Chat',
  'chat.placeholder': 'Write a message…',
  'chat.send': 'Send',
  'chat.empty': 'No messages yet.',
  'chat.spectator': 'spectator',
  'chat.you': ({ name }) => `${name} (you)`,
  'chat.unread': ({ n }) => `${n} unread`,
  'chat.open': 'Open the chat',
  'chat.close': 'Close the chat',
  'chat.too_long': 'At most 500 characters.',
  'chat.bad_message': 'That message cannot be sent (empty, too long or with control characters).',
  'chat.rate_limited': 'Slow down: at most 5 messages in 10 seconds.',
  'chat.offline': 'Not connected — the message was not sent.',

  // rematch
  'rematch.button': 'Rematch',
  'rematch.join': 'Join',
  'rematch.wants': ({ names, n }) => `${names} ${n > 1 ? 'want' : 'wants'} a rematch`,
  'rematch.go': 'Go to the rematch',
  'rematch.playing': ({ names }) => `${names} play a rematch`,
  'rematch.watch': 'Watch the rematch',
  'rematch.asking': 'Setting up the rematch…',
  'rematch.not_over': 'The game is not over yet.',
  'rematch.waiting': 'Waiting for the other players to accept the rematch… ',
  'rematch.failed': ({ msg }) => `The rematch could not be set up: ${msg}`,

  // your turn
  'turn.title': ({ game }) => `▶ Your turn · ${game}`,
  'turn.notify_title': 'Your turn',
  'turn.notify_body': ({ game }) => `It is your turn in ${game}.`,
  'turn.sound': 'Sound on my turn',
  'turn.notify': 'Notify me when it is my turn',
  'turn.notify_denied': 'Notifications are blocked in this browser.',
  'turn.notify_unsupported': 'This browser cannot show notifications.',

  // lobby
  'lobby.age.now': 'just now',
  'lobby.age.min': ({ n }) => `${n} min ago`,
  'lobby.age.hour': ({ n }) => `${n} h ago`,
  'lobby.age.day': ({ n }) => (n === 1 ? 'yesterday' : `${n} days ago`),
  'lobby.connected': 'connected',
  'lobby.not_connected': 'not connected',
  'lobby.cancel': 'Cancel',
  'lobby.cancel_failed': ({ msg }) => `Could not cancel the game: ${msg}`,
  'lobby.my_games': 'My games',
  'lobby.no_my_games': 'Games you create or join appear here.',
  'lobby.finished': 'Finished games',
  'lobby.no_finished': 'No finished games yet.',
  'lobby.replay': 'Replay',
  'lobby.your_turn': 'your turn',
  'lobby.to_move': ({ name }) => `${name} to move`,
  'lobby.waiting_players': 'waiting for players',
  'lobby.over': 'finished',
  'lobby.expired': 'expired',
  'lobby.cancelled': 'cancelled',
  'lobby.won': ({ names }) => `won by ${names}`,
  'lobby.rematch': 'rematch',
  'lobby.open': 'Open',
  'lobby.resume': 'Resume',
  'lobby.join': 'Join',
  'lobby.watch': 'Watch',
  'lobby.free_seat': 'free seat',
  'lobby.players': ({ n }) => `${n}p`,

  // a game that did not start
  'gone.cancelled_title': 'This game was cancelled',
  'gone.cancelled_text': 'Its creator cancelled it before it started.',
  'gone.expired_title': 'This game expired',
  'gone.expired_text': 'Nobody started it in time: its creator was away for too long.',
  'gone.lobby': 'Back to the lobby',
  'gone.cancel_game': 'Cancel game',
  'gone.cancel_confirm': 'Cancel this game? Nobody can join it afterwards.',

  // invitations: the link and the page it opens
  'invite.hint': 'Send this link to a friend',
  'invite.copy': 'Copy',
  'invite.copied': 'Copied.',
  'invite.select_hint': 'The link is selected: copy it (Ctrl+C, or press and hold → Copy).',
  'invite.making': 'making the link…',
  'invite.waiting': ({ n }) => (n === 1 ? 'Waiting for 1 more player…' : `Waiting for ${n} more players…`),
  'invite.page_title': 'invitation',
  'invite.loading': 'Looking up the game…',
  'invite.join_title': 'Join the game',
  'invite.from': ({ names, game }) => `${names} invites you to play ${game}.`,
  'invite.to': ({ game }) => `You are invited to play ${game}.`,
  'invite.players': ({ n }) => (n === 1 ? '1 player' : `${n} players`),
  'invite.computers': ({ n }) => (n === 1 ? '1 computer player' : `${n} computer players`),
  'invite.name_label': 'Your name',
  'invite.name_help': '1 to 24 characters: letters, digits, spaces, _ - .',
  'invite.name_empty': 'Please type your name.',
  'invite.join': 'Join and play',
  'invite.join_failed': ({ msg }) => `Could not join: ${msg}`,
  'invite.just_watch': 'Just watch',
  'invite.full_title': 'This game is full',
  'invite.full_text': 'All its seats are taken. You can watch it.',
  'invite.watch': 'Watch the game',
  'invite.over_title': 'This game is over',
  'invite.over_text': 'It finished before you came. You can step through it move by move.',
  'invite.replay': 'Watch the replay',
  'invite.unknown_title': 'No such game',
  'invite.unknown_text': 'This server has no game with this link: it may be mistyped, or from another server.',
  'invite.unreachable_title': 'The server cannot be reached',
  'invite.retry': 'Try again',
};

export const MESSAGES = { en: EN };

export function t(key, params = {}) {
  const v = EN[key];
  if (v === undefined) return key;
  if (typeof v === 'function') return v(params);
  return v.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// "Ann", "Ann and Bo", "Ann, Bo and Cy".
export function joinNames(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
