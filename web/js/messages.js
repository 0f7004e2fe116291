// messages.js — every text of the web client in English (the table EN; German and
// Hungarian in lang/de.js and lang/hu.js, same keys), and the ways to say them in the
// current language (lang.js): t('key', {name: 'Bo'}) fills {name}; tn() fills
// {placeholders} with page nodes too (a colour's shape, a name in bold); tv() lets a
// game name its pieces its own way; errorText() says a server error by its code.
// A value may be a function of the parameters (for plurals).
import { lang } from './lang.js';
import DE from './lang/de.js';
import HU from './lang/hu.js';

const AND = { en: 'and', de: 'und', hu: 'és' }; // joinNames' last link

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
  // hints and a busy server
  'hint.button': 'Hint',
  'hint.searching': 'Thinking…',
  'hint.title': 'Ask the computer for a good move (casual games only)',
  'hint.shown': 'The hint is on the board: click it to place it, or pick another tile.',
  'hint.swap_yes': 'Hint: swap your tiles.',
  'hint.swap_no': 'Hint: keep your tiles.',
  'ai.hurried': '(the server is busy: the computer plays faster and a little weaker than usual)',

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

  // the header
  'nav.lobby': 'Lobby',
  'nav.leaderboard': 'Leaderboard',

  // accounts: the header's area, the log-in and sign-up pages
  'account.login': 'Log in',
  'account.signup': 'Sign up',
  'account.logout': 'Log out',
  'account.profile_title': 'Your profile: ratings, games, password',
  'auth.login_title': 'Log in',
  'auth.signup_title': 'Sign up',
  'auth.login_intro': 'Log in to play rated games under your name.',
  'auth.signup_intro': 'An account keeps your name, gives you a rating in each game and a list of your games. You can still play as a guest without one.',
  'auth.name': 'Name',
  'auth.name_help': '1 to 24 characters: letters (any alphabet), digits, spaces, _ - . — others see it next to your rating.',
  'auth.password': 'Password',
  'auth.password_help': ({ n }) => `At least ${n} characters.`,
  'auth.login_button': 'Log in',
  'auth.signup_button': 'Create the account',
  'auth.login_question': 'Have an account?',
  'auth.signup_question': 'New here?',
  'auth.login_link': 'Log in',
  'auth.signup_link': 'Sign up',
  'auth.as_guest': 'Go on as a guest',
  'auth.already': ({ name }) => `You are logged in as ${name}.`,
  'auth.continue': 'Continue',
  'auth.your_profile': 'Your profile',
  'auth.name_empty': 'Please type your name.',
  'auth.password_empty': 'Please type your password.',
  'auth.password_short': ({ n }) => `The password needs at least ${n} characters.`,
  'auth.name_taken': 'This name is taken. Please choose another one.',
  'auth.wrong': 'Wrong name or password.',
  'auth.wrong_password': 'Wrong password.',
  'auth.rate_limited': 'Too many attempts. Please wait a minute and try again.',
  'auth.failed': ({ msg }) => `That did not work: ${msg}`,

  // ratings
  'rating.with_name': ({ name, rating }) => `${name} (${rating})`,
  'rating.seat': ({ rating }) => `rating ${rating}`,
  'rating.seat_title': 'rating in this game',
  'rating.ordinal': ({ n }) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`,
  'rating.place_of': ({ place, of }) => `${place} of ${of}`,
  'rating.games': ({ n }) => (n === 1 ? '1 game' : `${n} games`),
  'rating.rated': 'rated',
  'rating.casual': 'casual',
  'rating.explain': 'A rating R ± D: R is the best estimate of a player\'s strength (newcomers start at 1500), D how sure it is — the strength is within R ± 2D with 95% certainty. D starts at 500 and shrinks with every rated game. A win against stronger players gains more.',
  'rating.provisional_title': 'provisional: fewer games so far, the rating may still move a lot',
  'rating.after': ({ rating }) => `rating now ${rating}`,
  'rating.end_rated': 'Rated game: the ratings changed.',
  'rating.signup_cta': 'Sign up to get a rating',
  'rating.signup_why': '— your rated games, their results and your rating over time on your own page.',
  'chart.x_title': 'rated games',
  'chart.tip_start': ({ rating }) => `before: ${rating}`,
  'chart.tip': ({ n, date, rating, change }) => `game ${n}${date ? ` · ${date}` : ''}: ${rating} (${change})`,
  'chart.label': ({ game, name }) => `${name}'s rating in ${game} over the rated games`,

  // the lobby's parts of accounts and ratings
  'lobby.leaderboard': 'Leaderboard →',
  'lobby.playing_as': 'Playing as',
  'lobby.your_name': 'Your name',
  'lobby.signup_for_rating': 'Sign up to get a rating',
  'rated.label': 'Rated or casual',
  'rated.casual': 'Casual',
  'rated.rated': 'Rated',
  'rated.why_login': 'Rated games need an account.',
  'rated.why_clock': 'Rated games need a clock: choose one above.',
  'rated.why_solo': 'Solo games are not rated.',
  'rated.note_rated': 'The result changes the ratings. Everyone who joins needs an account.',
  'rated.note_casual': 'The result does not change any rating.',
  'rated.join_needs_login': 'This is a rated game: log in or sign up to join it.',
  'rated.login_to_join': 'Log in to join',
  'rated.already_seated': 'You already play in this game (with your account).',
  'invite.join_as': ({ name }) => `Join as ${name}`,
  'invite.rated_login': 'This is a rated game: only players with an account can join. Log in or sign up, and you come back here.',

  // profiles
  'profile.loading': 'Loading the profile…',
  'profile.unknown_title': 'No such player',
  'profile.unknown_text': ({ name }) => `There is no player “${name}” on this server.`,
  'profile.error_title': 'The profile cannot be shown',
  'profile.computer': 'computer',
  'profile.computer_title': 'a computer player of this server; rated like everyone else',
  'profile.you': 'you',
  'profile.to_leaderboard': 'Leaderboard',
  'profile.chart_title': 'Rating over time',
  'profile.no_rated': 'No rated games yet.',
  'profile.games_title': 'Recent games',
  'profile.no_games': 'No finished games yet.',
  'profile.settings_title': 'Your account',
  'profile.pw_title': 'Change the password',
  'profile.pw_current': 'Current password',
  'profile.pw_new': 'New password',
  'profile.pw_button': 'Change the password',
  'profile.pw_changed': 'The password is changed.',
  'profile.delete_title': 'Delete the account',
  'profile.delete_text': 'Your name, password and ratings are removed. Finished games stay, under a neutral name.',
  'profile.delete_button': 'Delete my account…',
  'profile.delete_ask': ({ name }) => `Delete the account ${name} for good? This cannot be undone. Type your password to confirm.`,
  'profile.delete_confirm': 'Delete the account',
  'profile.delete_keep': 'Keep it',
  'profile.deleted_title': 'The account is deleted',
  'profile.deleted_text': 'You are logged out. You can still play as a guest.',

  // the leaderboard
  'leaderboard.title': 'Leaderboard',
  'leaderboard.tabs': 'Game',
  'leaderboard.loading': 'Loading…',
  'leaderboard.error': ({ msg }) => `The leaderboard cannot be shown: ${msg}`,
  'leaderboard.empty': 'Nobody is rated in this game yet. Play a rated game!',
  'leaderboard.player': 'Player',
  'leaderboard.rating': 'Rating',
  'leaderboard.games': 'Games',
  'leaderboard.deviation_title': 'deviation D: how sure the rating is (smaller is surer)',
  'leaderboard.provisional_note': 'A "?" after a rating: provisional (D over 200), the player has not played enough rated games for a sure rating. Computer players are marked.',

  // the replay (replay.js) and its analysis (analysis_view.js)
  'replay.toolbar': 'Step through the game',
  'replay.slider': 'Move',
  'replay.first': 'First',
  'replay.back': 'Back (left arrow)',
  'replay.forward': 'Forward (right arrow)',
  'replay.last': 'Last',
  'replay.close': '✕ Close',
  'replay.close_title': 'Back to the game',
  'replay.start': 'start',
  'replay.end': 'end',
  'replay.move': 'move {n}',
  'analysis.title': 'Analysis',
  'analysis.seat': 'Player',
  'analysis.player_n': ({ n }) => `Player ${n}`,
  'analysis.you': ({ name }) => `${name} (you)`,
  'analysis.intro': ({ name }) => `The computer judges every decision of ${name}: the chance to win after the move played, and after the best move it finds.`,
  'analysis.intro_solo': ({ name }) => `The computer judges every decision of ${name}: the expected result after the move played, and after the best move it finds.`,
  'analysis.start': 'Analyse the moves',
  'analysis.asking': 'Asking the server…',
  'analysis.working': ({ judged, total }) => `Analysing… ${judged} of ${total} decisions judged`,
  'analysis.chart_label': ({ name }) => `The chance to win of ${name} after each decision, with the move played and with the best move`,
  'analysis.chart_label_solo': ({ name }) => `The expected result of ${name} after each decision, with the move played and with the best move`,
  'analysis.axis_win': 'chance to win',
  'analysis.axis_solo': 'expected result',
  'analysis.axis_move': 'move',
  'analysis.line_played': 'move played',
  'analysis.line_best': 'best move',
  'analysis.tip': ({ move, played, best }) => `Move ${move}: ${played} (best move: ${best})`,
  'analysis.mistakes': 'Biggest mistakes',
  'analysis.mistake_win': ({ move, played, best }) => `Move ${move}: chance to win ${played} instead of ${best}`,
  'analysis.mistake_solo': ({ move, played, best }) => `Move ${move}: expected result ${played} instead of ${best}`,
  'analysis.loss_win': ({ n }) => `−${n} percentage points`,
  'analysis.loss_solo': ({ n }) => `−${n}`,
  'analysis.kind_bonus': 'bonus move',
  'analysis.kind_swap': 'swap',
  'analysis.no_mistakes_win': ({ n }) => `No big mistakes: no decision lost more than ${n} percentage points.`,
  'analysis.no_mistakes_solo': ({ n }) => `No big mistakes: no decision lost more than ${n} of the result.`,
  'analysis.no_decisions': ({ name }) => `${name} took no decision that can be judged.`,
  'analysis.show_title': 'Show this move',
  'analysis.legend_played': 'move played',
  'analysis.legend_best': 'better move',
  'analysis.toggle_best': 'Show or hide the better move',
  'analysis.board_played': 'played',
  'analysis.board_best': 'better',
  'analysis.same': 'The move played was the best one found.',
  'analysis.swap_kept': 'keep the tiles',
  'analysis.swap_swapped': 'swap the tiles',
  'analysis.swap_detail': ({ played, best }) => `Chosen: ${played}. Better: ${best}.`,
  'analysis.note': ({ ms }) => `Judged by the computer player “strong”, ${ms} ms per decision, from what the player could see; small differences are chance.`,
  'analysis.retry': 'Try again',
  'analysis.err_damaged': 'This game is damaged: its moves can no longer be replayed, so they cannot be analysed.',
  'analysis.err_busy': 'The server is busy analysing other games. Try again in a minute.',
  'analysis.err_unavailable': 'This server does not analyse games.',
  'analysis.err_not_over': 'The analysis is available once the game is over.',
  'analysis.err_not_found': 'This game is not on the server.',
  'analysis.err_bad_seat': 'This player cannot be analysed in this game.',
  'analysis.err_rate': 'Too many requests at once. Try again in a moment.',
  'analysis.err_network': 'The server cannot be reached. Try again when the connection is back.',
  'analysis.err_other': ({ msg }) => `The analysis failed: ${msg}`,

  // ===== the game page, the lobby's form, dialogs, the log, server errors =====
  // (keys of the i18n branch, kept together for merging)

  // words used in many places
  'common.player': 'Player',
  'common.player_n': ({ n }) => `Player ${n}`,
  'common.you': ({ name }) => `${name} (you)`,
  'kind.human': 'human',
  'kind.computer': ({ level }) => `computer, ${level}`,
  'ai.computer': 'Computer',
  'ai.tag': 'AI',
  'ai.level.random': 'beginner',
  'ai.level.greedy': 'casual',
  'ai.level.strong': 'strong',
  'ai.name.random': 'Beginner',
  'ai.name.greedy': 'Casual',
  'ai.name.strong': 'Strong',
  'ai.level.expert': 'expert',
  'ai.name.expert': 'Expert',
  'ai.desc.random': 'Beginner plays any legal move: good for learning the rules.',
  'ai.desc.greedy': 'Casual takes the most points for its weakest colour now, without looking ahead.',
  'ai.desc.strong': 'Strong looks ahead for a third of a second a move and beats Casual almost always.',
  'ai.desc.expert': 'Expert looks ahead for a whole second a move: the strongest.',
  'ai.numbered': ({ name, n }) => `${name} ${n}`,
  'mode.standard': 'standard',
  'mode.solo': 'solo',
  'mode.team': 'team',
  'variant.square.blurb': 'Dominoes on the square board, with pyramids',
  'variant.rota.blurb': 'Square tiles with four corners; circles form where they meet',
  'variant.hex.blurb': 'Six colours on the hexagonal board (the online game)',
  'team.name': ({ team }) => `Team ${team}`,

  // colours and their shapes
  'color.red': 'red',
  'color.green': 'green',
  'color.blue': 'blue',
  'color.orange': 'orange',
  'color.purple': 'purple',
  'color.yellow': 'yellow',
  'shape.circle': 'circle',
  'shape.triangle': 'triangle',
  'shape.square': 'square',
  'shape.diamond': 'diamond',
  'shape.star': 'star',
  'shape.hexagon': 'hexagon',
  'color.with_shape': '{color} {shape}',

  // the connection (the header's badge, the notice over the board)
  'conn.open': 'connected',
  'conn.connecting': 'connecting…',
  'conn.reconnecting': 'reconnecting…',
  'conn.lost': ({ s }) => `connection lost — retrying in ${s} s`,
  'conn.closed': 'closed',
  'conn.notice_lost': ({ s }) => `Connection lost — retrying in ${s} s`,
  'conn.notice_reconnecting': 'Reconnecting…',
  'conn.retry': 'Retry now',

  // the page's frame
  'page.brand': 'axio — lobby',
  'page.noscript': 'axio needs JavaScript.',

  // the game page
  'game.connecting': 'Connecting…',
  'game.missing_title': 'No such game',
  'game.missing_text': ({ id }) => `There is no game “${id}” on this server.`,
  'game.watching': 'You are watching this game. Racks are hidden.',
  'game.results': 'Results',
  'game.step_through': 'Step through the game',
  'game.your_tiles': 'Your tiles',
  'game.help_mouse': 'Click a tile, turn it with the right mouse button (or R / ⟳), click the board to place it. Keys: 1–6 pick, arrows move, Enter places.',
  'game.help_touch': 'Tap a tile, then tap the board: the first tap shows what it scores, a second tap on the same place puts it there. ⟳ turns the tile.',
  'game.moves': 'Moves',
  'game.token_refused': 'Your seat token was not accepted; watching instead.',
  'game.not_your_turn': 'Not your turn yet.',
  'game.pick_first': 'Pick a tile from your rack first.',
  'game.offline': 'Not connected — try again in a moment.',
  'game.record_missing': ({ msg }) => `The record is not available: ${msg}`,
  'game.axio_you': ({ name }) => `You (${name})`,
  'game.legend': 'Colours of this game',

  // the preview under the rack
  'preview.pick': 'Pick a tile from your rack.',
  'preview.point': 'Point at the board to see what the tile would score there.',
  'preview.tap': 'Tap the board to see what the tile would score there.',
  'preview.asking': 'asking the server…',
  'preview.here': ' here: ',
  'preview.lost': ({ n }) => ` (${n} lost)`,
  'preview.no_points': 'no points',
  'preview.wild': ' · naming the empty corner',
  'preview.pyramids': ({ n }) => (n === 1 ? ' · 1 pyramid' : ` · ${n} pyramids`),
  'preview.tap_again': ' · tap again to place',

  // the status line
  'status.replay': 'Stepping through the finished game.',
  'status.over': 'The game is over.',
  'status.bonus': 'bonus move',
  'status.sending_choice': ' Sending your choice…',
  'status.placing': ' Placing…',
  'status.swap_choice': 'Your choice: swap your tiles or keep them.',
  'status.your_turn': 'Your turn',
  'status.pick': ' — pick a tile.',
  'status.place': ' — place the tile.',
  'status.ai_thinking': ({ name }) => `${name} (computer) is thinking… `,
  'status.waiting_for': ({ name }) => `Waiting for ${name}`,
  'status.not_connected': ' (not connected)',

  // the game's facts under the log
  'info.players': ({ n }) => (n === 1 ? '1 player' : `${n} players`),
  'info.you_seat': ({ n }) => `you play seat ${n}`,
  'info.watching': 'watching',
  'info.clock': ({ clock }) => `clock ${clock}`,
  'info.seed_title': 'SHA-256 of the seed; the record reveals the seed after the game',
  'info.seed': ({ seed }) => `seed ${seed}`,
  'info.seed_hash': ({ hash }) => `seed hash ${hash}…`,
  'info.spectators': ({ n }) => `${n} watching`,

  // the rack
  'rack.turn': '⟳ Turn',
  'rack.turn_title': 'Turn the tile (right mouse button or R)',
  'rack.tile': ({ n, tile }) => `Tile ${n}: ${tile}`,
  'rack.empty_corner': 'empty',
  'rack.none': 'no tiles',

  // the score panel
  'scores.label': ({ name }) => `${name} scores`,
  'scores.rack': ({ n }) => `rack ${n}`,
  'scores.hand': ({ n }) => `hand ${n}`,
  'scores.stack': ({ n }) => `stack ${n}`,
  'scores.computer': 'computer',
  'scores.team': ({ team }) => `team ${team}`,
  'scores.bar': ({ color, n }) => `${color}: ${n}`,
  'scores.bar_lowest': ({ color, n }) => `${color}: ${n} (lowest)`,

  // the AXIO! banner
  'axio.reached': '{name} reached {score} in {color}',
  'axio.bonus': 'Bonus move!',

  // the swap offer
  'swap.title': 'Swap your tiles?',
  'swap.none_one': 'None of your tiles shows your weakest colour {colors}.',
  'swap.none_many': 'None of your tiles shows any of your weakest colours {colors}.',
  'swap.explain': ({ n }) => `Swap: put all ${n} tiles back and draw new ones. Keep: keep them and refill.`,
  'swap.yes': 'Swap all tiles',
  'swap.no': 'Keep my tiles',

  // the ROTA empty corner
  'wild.label': 'Colour of the empty corner',
  'wild.title': 'Empty corner: name a colour',
  'wild.text': 'The empty corner scores as the colour you name (points of the whole placement shown).',
  'wild.points_title': 'points of this placement in all',
  'wild.none': 'none',
  'wild.cancel': 'Cancel',

  // the end screen
  'end.title': 'Game over',
  'end.result': ({ result }) => `Result: ${result}`,
  'end.wins': ({ who }) => `${who} wins!`,
  'end.share_win': ({ names }) => `${names} share the win!`,
  'end.you_win': 'You win!',
  'end.you_share': 'You share the win!',
  'end.team_wins': 'Your team wins!',
  'end.team': ({ team, names }) => `Team ${team} (${names})`,
  'end.share_place': ({ names }) => `${names} share the place: equal in every colour.`,
  'end.reason': ({ reason }) => `The game ended because ${reason}.`,
  'end.solo_hex': 'Solo result: your three lowest tracks, lowest first.',
  'end.solo': 'Solo result: your lowest track.',
  'end.how': 'How the places were decided',
  'end.only_weakest': 'Only the weakest colour counts; on a tie the next weakest decides, and so on.',
  'end.ahead': ({ a, b, tied, nth, x, y }) => `${a} ahead of ${b}: ${tied}${nth} colour ${x} vs ${y}.`,
  'end.tied': ({ ords, values }) => `tied on the ${ords} (${values}), then `,
  'end.ord.1': 'lowest',
  'end.ord.2': '2nd lowest',
  'end.ord.3': '3rd lowest',
  'end.ord.4': '4th lowest',
  'end.ord.5': '5th lowest',
  'end.ord.6': '6th lowest',
  'end.look': 'Look at the board',
  'end.lobby': 'Lobby',
  'end.reason.blocked': 'the player to move could not place a tile',
  'end.reason.all-max': 'a player reached the top in every colour',
  'end.reason.tiles-out': 'all stacks were played',

  // the move log
  'log.start': 'Game started.',
  'log.place': '{who} placed {tile} {points}',
  'log.bonus_place': '{who} bonus move {tile} {points}',
  'log.wild': ' wild {color}',
  'log.no_points': 'no points',
  'log.pyramid': '▲ pyramid for {who} {points}',
  'log.pyramid_moved': '▲ pyramid (moved) for {who} {points}',
  'log.axio': '{axio} {who} reached {score} in {color}',
  'log.axio_bonus': ' — bonus move',
  'log.swapped': '{who} swapped {returned} tiles for {drawn} new ones',
  'log.kept': '{who} kept the tiles',
  'log.end': ({ reason }) => `Game over: ${reason}.`,

  // the lobby's form and lists
  'lobby.new_game': 'New game',
  'lobby.game': 'Game',
  'lobby.players_label': 'Players',
  'lobby.mode': 'Mode',
  'lobby.seats': 'Seats',
  'lobby.seat': ({ n }) => `Seat ${n}`,
  'lobby.team': ({ team }) => ` team ${team}`,
  'lobby.human_you': 'Human — you',
  'lobby.human_invite': 'Human (invite)',
  'lobby.computer_level': ({ level }) => `Computer — ${level}`,
  'lobby.need_human': 'At least one seat must be human.',
  'lobby.create': 'Create game',
  'lobby.creating': 'Creating…',
  'lobby.create_failed': ({ msg }) => `Could not create the game: ${msg}`,
  'lobby.no_seat': 'That game has no free seat any more.',
  'lobby.unreachable': ({ msg }) => `The server cannot be reached (${msg}); retrying…`,
  'lobby.open_games': 'Open games',
  'lobby.running_games': 'Running games',
  'lobby.no_open': 'No open games. Create one!',
  'lobby.no_running': 'No games running.',

  // the daily clock's short units
  'clock.fmt_dh': ({ d, h }) => `${d}d ${h}h`,
  'clock.fmt_hm': ({ h, m }) => `${h}h ${m}m`,
  'clock.fmt_ms': ({ m, s }) => `${m}m ${s}s`,
  'clock.fmt_s': ({ s }) => `${s}s`,

  // server errors by their code (errorText); the server's English message is the fallback
  'error.network': 'The server cannot be reached.',
  'error.http': ({ status }) => `The server answered with an error (HTTP ${status}).`,
  'error.bad_json': 'The server could not read the request.',
  'error.bad_message': 'The server did not accept the request.',
  'error.too_large': 'That is too long for the server.',
  'error.unauthorized': 'You may not do that here (not your seat, or not logged in).',
  'error.forbidden': 'That is not allowed in this game.',
  'error.not_your_turn': 'It is not your turn.',
  'error.illegal_move': 'That move is not allowed.',
  'error.game_over': 'The game is over.',
  'error.rate_limited': 'Too many requests at once. Please wait a moment.',
  'error.not_absent': 'That player is not absent.',
  'error.not_started': 'The game has not started yet.',
  'error.not_over': 'The game is not over yet.',
  'error.internal': 'The server had a problem and changed nothing. Please try again.',
  'error.not_found': 'There is no such game or player on this server.',
  'error.damaged': 'This game is damaged and cannot go on.',
  'error.full': 'The game has no free seat.',
  'error.name_taken': 'This name is taken.',
  'error.already_seated': 'You already play in this game.',
  'error.method_not_allowed': 'The server does not allow that here.',
  'error.not_waiting': 'Only a game that waits for players can be cancelled.',
  'error.expired': 'The game expired.',
  'error.cancelled': 'The game was cancelled.',
  'error.busy': 'The server is busy. Please try again in a moment.',
  'error.unavailable': 'This server does not offer that.',
  // ... and the reasons the server names (an illegal placement: the engine's; a refused name or password)
  'reason.cell': 'This place is outside the play area or not empty.',
  'reason.adjacent': 'The two halves must lie on neighbouring places.',
  'reason.first_tile': 'Your first tile must touch a start symbol that no tile touches yet.',
  'reason.display': 'The tile must go on an empty place beside the tiles already out.',
  'reason.rack': 'That tile is not on your rack.',
  'reason.phase': 'That is not the decision asked for now.',
  'reason.rotation': 'That turn of the tile does not exist.',
  'reason.wild': 'That colour is not in this game.',
  'reason.over': 'The game is over.',
  'reason.left': 'That player has left the game.',
  'reason.name_length': 'A name has 1 to 24 characters.',
  'reason.name_chars': 'A name may hold letters, digits, spaces and _ - . only.',
  'reason.name_mark': 'An accent mark in a name must follow a letter.',
  'reason.name_utf8': 'The name is not valid text.',
  'reason.password_short': 'The password is too short.',
  'reason.password_long': 'The password is too long (at most 1024 bytes).',
  'reason.password_nul': 'The password holds a character that is not allowed.',
};

// German and Hungarian in lang/de.js and lang/hu.js; a key missing there is said in English.
export const MESSAGES = { en: EN, de: DE, hu: HU };

export function t(key, params = {}) {
  const v = MESSAGES[lang()]?.[key] ?? EN[key];
  if (v === undefined) return key;
  if (typeof v === 'function') return v(params);
  return v.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A game's own word for its pieces: the key `KEY@VARIANT` where a language has one
// (German ROTA says Plättchen, the others Stein), else KEY.
export function tv(key, variant, params = {}) {
  const alt = `${key}@${variant}`;
  return MESSAGES[lang()]?.[alt] !== undefined ? t(alt, params) : t(key, params);
}

// A message as a list of strings and nodes: {x} takes params.x, which may be a DOM
// node or a list of nodes (a colour's shape, a name in bold); for h(tag, attrs, tn(...)).
export function tn(key, params = {}) {
  const v = MESSAGES[lang()]?.[key] ?? EN[key];
  if (typeof v !== 'string') return [t(key, params)];
  const out = [];
  let last = 0;
  for (const m of v.matchAll(/\{(\w+)\}/g)) {
    if (m.index > last) out.push(v.slice(last, m.index));
    const p = params[m[1]];
    if (p === undefined || p === null) out.push(m[0]);
    else if (Array.isArray(p)) out.push(...p.filter((x) => x !== null && x !== undefined));
    else out.push(typeof p === 'object' ? p : String(p));
    last = m.index + m[0].length;
  }
  if (last < v.length) out.push(v.slice(last));
  return out;
}

// What a server error says in the reader's language: its reason (an illegal
// placement's, a refused name's) when we know it, else its code, else the server's
// English message. e: an error answer ({code, reason, message}) or an api.js Error.
export function errorText(e) {
  if (!e) return t('error.internal');
  const known = (k) => MESSAGES.en[k] !== undefined;
  if (e.reason && known(`reason.${e.reason}`)) return t(`reason.${e.reason}`);
  if (e.code === 'http' && e.status) return t('error.http', { status: e.status });
  if (e.code && known(`error.${e.code}`)) return t(`error.${e.code}`);
  return e.message || e.code || t('error.internal');
}

// "Ann", "Ann and Bo", "Ann, Bo and Cy".
export function joinNames(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${AND[lang()] || AND.en} ${names[names.length - 1]}`;
}
