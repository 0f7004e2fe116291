// rules/en.js — the rules pages in English: per game a lead, short sections (body:
// paragraphs, {list}, {steps}, {note}; **bold**, [[colour]] shows its shape) and the
// captions of the diagrams (rules_figs.js holds the positions and the points they
// show). Written for players from docs/rules.md and the original rulebooks.

export default {
  ui: {
    rules: 'Rules',
    games: 'Games',
    contents: 'Contents',
    play: 'Play now',
    source: 'The precise rules, with every special case, are in docs/rules.md of the axio project.',
    tile: 'Tile:',
    pyramid: 'Pyramid:',
    wild: 'Empty corner:',
    or: 'or',
    lost: 'lost',
    wins: 'wins',
    result: 'Result',
    tracks: 'Your tracks (lowest marked)',
    rack: 'Your tiles',
  },

  square: {
    title: 'AXIO — how to play',
    lead: 'A tile-laying game by Reiner Knizia for 1 to 4 players. Lay dominoes with coloured symbols and score points for matching symbols in a row — but in the end **only your weakest colour counts**.',
    sections: {
      goal: {
        title: 'The idea',
        body: [
          'You have a score track for each of the five colours: [[red]] red, [[green]] green, [[blue]] blue, [[orange]] orange and [[purple]] purple. Every tile you lay scores points in one or more colours.',
          'At the end, everybody compares their **lowest** track. So do not race ahead in one colour: keep all five moving, and always look for points in the colour that lags behind.',
          'Every colour has its own shape, so you can tell them apart without seeing colour.',
        ],
      },
      setup: {
        title: 'Setup',
        body: [
          'The board has 13×13 squares. How much of it you use depends on the number of players: **2 players** (and solo) use the light 9×9 centre, **3 players** add the light grey ring (11×11), **4 players** use the whole board. Squares outside do not exist in that game.',
          'Five symbols are printed on the board: one in the centre and one in the middle of each edge of the 9×9 area. No tile can go on them, but they count like symbols on tiles.',
          'Each player gets a rack of **5 tiles** from the bag (100 tiles: every pair of colours and every double). Nobody sees the others’ tiles. Next to the board stand 20 pyramids.',
        ],
      },
      turn: {
        title: 'Your turn',
        body: [
          { steps: [
            '**Lay one tile** from your rack on two neighbouring empty squares (side by side or one above the other, turned any way you like).',
            '**Score** it (see below), and set up a **pyramid** on every square your tile has closed in.',
            'Reached 18 in a colour? Call **AXIO!** and play a **bonus move**.',
            '**Refill** your rack to 5 tiles — or **swap** it, if you may.',
          ] },
          'Your **first tile** must touch one of the printed symbols that no tile touches yet, so each player starts at a different symbol. After that, a tile may go anywhere in the play area; it does not have to touch anything.',
        ],
      },
      scoring: {
        title: 'Scoring',
        body: [
          'Each half of the tile scores on its own. From the half, look along the **three directions** that do not point at its other half. In each direction count the matching symbols in an unbroken row — on tiles or printed on the board. The row ends at a different symbol, an empty square or the edge of the play area.',
          'The half itself does not count, so a double scores nothing for itself. Both halves of a tile make up one scoring, added to your tracks together.',
        ],
      },
      axio: {
        title: 'AXIO! and the bonus move',
        body: [
          'A track goes up to **18**. When a colour reaches 18, call **AXIO!** — points beyond 18 in that colour are lost.',
          'For each colour that reaches 18 you play a **bonus move** at once: lay another tile from your rack and score it as usual. A bonus move can earn another one; there can be at most five in a game, one per colour.',
          'If all five of your tracks reach 18, you win at once.',
        ],
      },
      pyramids: {
        title: 'Pyramids',
        body: [
          'When your tile leaves an empty square **closed in on all four sides** — by tiles, printed symbols or the edge of the play area — no tile can ever go there. Put a pyramid on it.',
          'The pyramid scores for you on its own: **1 point for each symbol** on the four squares next to it, in that symbol’s colour.',
          'When all 20 pyramids are on the board, move the oldest one to the new square (it scores there). The square it left stays empty for the rest of the game.',
        ],
      },
      swap: {
        title: 'Swapping your tiles',
        body: [
          'At the end of your turn, if **none of your tiles shows a colour of your lowest track** (with a tie: any of the lowest colours), you may swap: show your tiles, draw 5 new ones from the bag, then put the old ones back into the bag. You do not refill after a swap.',
        ],
      },
      end: {
        title: 'The end and the winner',
        body: [
          'The game ends at once when the player to move **cannot lay a tile**: there are no two neighbouring empty squares left, or the rack is empty (when the bag runs out, racks shrink).',
          'Now everybody compares their **lowest track**: the highest lowest track wins. The colour does not matter, nor whether anyone reached 18.',
          'On a tie, the players involved compare their **next-lowest** tracks, and so on. Players equal in all five tracks share the win.',
        ],
      },
      solo: {
        title: 'Playing solo',
        body: [
          'Alone, you play on the 9×9 area without a rack: draw **one tile at a time** and lay it; your first tile must touch a printed symbol. The game ends when the drawn tile cannot be laid.',
          'There are no bonus moves and no swapping. A track that reaches 18 goes on to a second round up to **36** (the points beyond 18 of that scoring are lost). Your result is your lowest track — try to beat it next time.',
          'AXIO has no team game; teams play AXIO Hex.',
        ],
      },
    },
    figs: {
      'sq-board': 'The board for two players: the 9×9 centre with its five printed symbols. Three players add the next ring, four players use all 13×13 squares.',
      'sq-first': 'The second player’s first tile: the purple centre is taken, so it goes next to the free orange symbol. The orange half counts the printed orange symbol: 1 point.',
      'sq-score-1': 'The blue half counts one blue symbol above it: 1 point for blue. The red half has no red neighbour.',
      'sq-score-2': 'Blue counts two symbols up and one to the left: 3 points. Red counts two down: 2 points.',
      'sq-score-3': 'Blue counts down to the printed blue symbol (2) and right up to the green one (2): 4 points. Red counts two to the left, where an orange half ends the row: 2 points.',
      'sq-pyramid': 'The tile scores 3 for blue and closes in the square above it (the board’s edge is the fourth side). The pyramid there gives 1 each for the green, blue and red symbols around it.',
      'sq-axio': 'Blue stands at 16 and the tile scores 4 blue: the marker stops at 18, the other 2 points are lost. AXIO! — a bonus move follows.',
      'sq-swap': 'Green and orange are the lowest (5) and none of the tiles shows green or orange: this player may swap all five tiles.',
      'sq-end-1': 'Two players: A’s lowest track is 11, B’s is 8. A wins.',
      'sq-end-2': 'Three players, all with 9 as their lowest. Second lowest: A 11, B and C 12 — A is out. Third lowest: B 12, C 15. C wins.',
      'sq-solo': 'A solo game: the lowest track, 21, is the result. The line marks 18, where the second round begins.',
    },
  },

  rota: {
    title: 'AXIO ROTA — how to play',
    lead: 'A tile-laying game by Reiner Knizia for 1 to 4 players. Square tiles with coloured corners; where four corners meet they form a circle, and matching colours in a circle score. In the end **only your weakest colour counts**.',
    sections: {
      goal: {
        title: 'The idea',
        body: [
          'You have a score track for each of the five colours: [[red]] red, [[green]] green, [[blue]] blue, [[orange]] orange and [[purple]] purple. Each tile you lay scores points for the colours its corners match.',
          'At the end, everybody compares their **lowest** track — so keep all five colours moving.',
        ],
      },
      setup: {
        title: 'Setup',
        body: [
          'There is no board: the tiles form a display in the middle of the table that grows in every direction.',
          'Each tile has a coloured symbol in each of its four corners; a few have one **empty corner**. Four tiles start the display as a 2×2 square; a start tile with an empty corner is turned so that its empty corner lies in the centre.',
          'Each player gets a face-down **stack of 12 tiles** and draws one into the hand. The remaining tiles are the **general supply**.',
        ],
      },
      turn: {
        title: 'Your turn',
        body: [
          { steps: [
            '**Lay the tile** from your hand, turned any way you like, on an empty place next to the display: it must share at least one side with a tile already there.',
            '**Score** its four corners.',
            '**Draw** the next tile from your own stack into your hand.',
          ] },
        ],
      },
      scoring: {
        title: 'Scoring',
        body: [
          'Where four tiles meet, their corners form a **circle**. Score each corner of your new tile on its own: you get **1 point for each other corner in its circle with the same colour**. It does not matter whether the circle is complete yet.',
          'A corner whose circle holds no other corner yet scores nothing. All four corners together make one scoring.',
        ],
      },
      wild: {
        title: 'The empty corner',
        body: [
          'If the tile you lay has an **empty corner**, name any colour for it and score it as if it showed that colour.',
          'Only your new tile’s empty corner is wild. Empty corners of tiles already on the table never score.',
        ],
      },
      axio: {
        title: 'AXIO! and the bonus move',
        body: [
          'A track goes up to **12**. When a colour reaches 12, call **AXIO!** — points beyond 12 in that colour are lost.',
          'For each colour that reaches 12 you play a **bonus move** at once: take the top tile of the **general supply** (not your own stack!), lay it and score it. Up to five bonus moves can follow one another. When the general supply is empty, there are no more bonus moves.',
          'There is no swapping in AXIO ROTA.',
        ],
      },
      end: {
        title: 'The end and the winner',
        body: [
          'The game ends when everybody has laid all the tiles of their stack. Whoever brings all five tracks to 12 wins at once.',
          'Everybody compares their **lowest track**: the highest lowest track wins. The colour does not matter, nor whether anyone reached 12.',
          'On a tie, the players involved compare their **next-lowest** tracks, and so on. Players equal in all five tracks share the win.',
        ],
      },
      solo: {
        title: 'Playing solo',
        body: [
          'Alone, you play by the same rules, bonus moves included. Your result is your lowest track: note it and try to beat it next time.',
          'AXIO ROTA has no team game; teams play AXIO Hex.',
        ],
      },
    },
    figs: {
      'rota-start': 'The start display: four tiles in a square. The tile with an empty corner is turned so the empty corner lies in the middle.',
      'rota-turn': 'The dashed places are where the next tile may go: each shares a side with the display.',
      'rota-score-1': 'The new tile (framed): purple meets one purple corner, blue one blue corner — 1 point each. Green meets no green: 0. The orange corner touches no other tile and is not scored.',
      'rota-score-2': 'Red meets two red corners: 2 points. Blue meets one blue corner: 1 point.',
      'rota-wild-1': 'Naming blue for the empty corner gives 1 point for blue; purple gives 1 more. The red corner scores 0: it only meets an empty corner of an earlier tile.',
      'rota-wild-2': 'Blue scores 1. For the empty corner you choose: red (two red corners: 2 points) or purple (1 point).',
      'rota-axio': 'Red stands at 10 and the tile scores 3 red: the marker stops at 12, 1 point is lost. AXIO! — a bonus tile from the general supply follows.',
      'rota-end-1': 'Two players: Anna’s lowest track is 8, Beate’s 6. Anna wins.',
      'rota-end-2': 'Three players, all with 7 as their lowest. Next: Anna 8, Beate and Chris 9 — Anna is out. Next: Beate 9, Chris 10. Chris wins.',
      'rota-solo': 'A solo game: the result is the lowest track, 9.',
    },
  },

  hex: {
    title: 'AXIO Hex — how to play',
    lead: 'AXIO on a hexagonal board with six colours, after the online game for 1 to 4 players. Lay two-hex tiles and score matching symbols in straight lines — in the end **only your weakest colour counts**.',
    sections: {
      goal: {
        title: 'The idea',
        body: [
          'You have a score track for each of the six colours: [[red]] red, [[green]] green, [[blue]] blue, [[orange]] orange, [[purple]] purple and [[yellow]] yellow. Every tile you lay scores points in one or more colours.',
          'At the end, everybody compares their **weakest** colour — so keep all six moving.',
        ],
      },
      setup: {
        title: 'Setup',
        body: [
          'The board is a big hexagon of 169 spaces. **2 players** (and solo) use only the light inner part, **3 players** add the light grey ring, **4 players** use the whole board.',
          'Six start symbols are printed at the corners of the inner part. No tile can go on them, but they count like symbols on tiles.',
          'Each player has **6 tiles** to choose from (120 tiles: every pair of colours and every double).',
        ],
      },
      turn: {
        title: 'Your turn',
        body: [
          { steps: [
            '**Lay one tile** on two neighbouring empty spaces, turned any way you like.',
            '**Score** it; reaching 18 in a colour gives a **bonus move**.',
            'Your tiles are **refilled** to 6 — or, if you may, you **swap** them all.',
          ] },
          'In the first round every player must lay next to a start symbol that nobody has laid next to yet. After that, tiles may go anywhere.',
        ],
      },
      scoring: {
        title: 'Scoring',
        body: [
          'Each half of the tile scores on its own: from the half, look along the **five directions** that do not point at its other half, and count the matching symbols in an unbroken straight line — on tiles or printed on the board. A line ends at a different symbol, an empty space or the edge.',
          'A tile scores nothing for itself, not even a double. Both halves together make one scoring.',
        ],
      },
      axio: {
        title: 'AXIO! and the bonus move',
        body: [
          'A track goes up to **18**. When a colour reaches 18 — AXIO! — you may lay another tile at once as a **bonus move**. Points beyond 18 are lost.',
          'If all six of your tracks reach 18, you win at once.',
        ],
      },
      swap: {
        title: 'Swapping your tiles',
        body: [
          'If at the end of your turn **none of your tiles shows your weakest colour** (with several equally weak colours: none of them), you choose: **swap** all your tiles for 6 new ones, or **keep** them and refill to 6 as usual.',
        ],
      },
      end: {
        title: 'The end and the winner',
        body: [
          'The game ends when the player to move cannot lay a tile, or as soon as a player has 18 in every colour.',
          'The player whose **weakest colour** has the most points wins. On a tie, the **next-weakest** colour decides, and so on.',
        ],
      },
      team: {
        title: 'Team game',
        body: [
          'With four players you can play in two teams: the 1st and 3rd player against the 2nd and 4th. Partners keep their own tiles but **score on shared tracks**.',
          'A team’s tracks go up to **36**. Reaching 18 in a colour gives a bonus move, and the rest of that scoring is lost; after that the colour keeps counting up to 36, which gives another bonus move. A team with 36 in all six colours wins at once.',
        ],
      },
      solo: {
        title: 'Playing solo',
        body: [
          'Alone, you play on the inner part and have **one tile at a time**: draw it, lay it. Your first tile must touch a start symbol. The game ends when the drawn tile cannot be laid.',
          'Tracks go up to **36** as in the team game, but without bonus moves, and there is no swapping. The result is made of your **three weakest colours**: 12, 14 and 18 give **121418**.',
        ],
      },
    },
    figs: {
      'hex-board': 'The board for two players: the light inner part with the six start symbols at its corners.',
      'hex-first': 'A first tile next to the blue start symbol. Its blue half counts the printed blue symbol: 1 point.',
      'hex-score-1': 'The blue-yellow tile (framed): yellow counts two to the right (2 points), blue two up to the right and one to the left (3 points).',
      'hex-score-2': 'A double orange: the left half counts two lines of two (4 points), the right half two more (2 points) — 6 for orange.',
      'hex-double-1': 'A double touching one green space with one half: 1 point.',
      'hex-double-2': 'The same double turned so that both halves touch it: 1 + 1 = 2 points.',
      'hex-axio': 'Yellow stands at 15 and the tile scores 5 yellow: the marker stops at 18, 2 points are lost. AXIO! — a bonus move follows.',
      'hex-swap': 'Green and purple are the weakest (6) and none of the six tiles shows either: swap them all, or keep them.',
      'hex-end': 'Both weakest colours stand at 10. Next-weakest: A 11, B 12. B wins.',
      'hex-team': 'A team’s green stands at 16 and scores 4: it stops at 18 (AXIO! and a bonus move), 2 points are lost. Later points count on towards 36.',
      'hex-solo': 'A solo game: the three weakest colours are 12, 14 and 18 — the result is 121418.',
    },
  },
};
