// rules/de.js — die Regelseiten auf Deutsch (gleicher Aufbau wie rules/en.js; was hier
// fehlt, erscheint auf Englisch). Begriffe der deutschen Anleitungen: Spielstein,
// Plättchen, Auslage, Vorrat, Wertungstafel, Zug, Bonuszug, „AXIO!“.

export default {
  ui: {
    rules: 'Regeln',
    games: 'Spiele',
    contents: 'Inhalt',
    play: 'Jetzt spielen',
    source: 'Die genauen Regeln mit allen Sonderfällen stehen (auf Englisch) in docs/rules.md des axio-Projekts.',
    tile: 'Stein:',
    pyramid: 'Pyramide:',
    wild: 'Leere Ecke:',
    or: 'oder',
    lost: 'verfallen',
    wins: 'gewinnt',
    result: 'Ergebnis',
    tracks: 'Deine Wertung (niedrigste markiert)',
    rack: 'Deine Steine',
  },

  square: {
    title: 'AXIO – so wird gespielt',
    lead: 'Ein Legespiel von Reiner Knizia für 1 bis 4 Spieler. Legt Spielsteine mit Farbsymbolen an und sammelt Punkte für gleiche Symbole in einer Reihe – doch am Ende **zählt nur deine schwächste Farbe**.',
    sections: {
      goal: {
        title: 'Worum es geht',
        body: [
          'Du hast für jede der fünf Farben eine Wertungsleiste: [[red]] Rot, [[green]] Grün, [[blue]] Blau, [[orange]] Orange und [[purple]] Lila. Jeder Stein, den du legst, bringt Punkte in einer oder mehreren Farben.',
          'Am Ende vergleicht ihr eure **niedrigste** Wertung. Eile also nicht in einer Farbe davon: Bring alle fünf voran und sammle vor allem Punkte in der Farbe, die zurückliegt.',
          'Jede Farbe hat ihre eigene Form – so lassen sich die Farben auch ohne Farbsehen unterscheiden.',
        ],
      },
      setup: {
        title: 'Vorbereitung',
        body: [
          'Der Spielplan hat 13×13 Felder. Wie viel davon genutzt wird, hängt von der Spielerzahl ab: **2 Spieler** (und solo) nutzen die helle 9×9-Mitte, **3 Spieler** nehmen den hellgrauen Ring dazu (11×11), **4 Spieler** den ganzen Plan. Felder außerhalb gibt es in dieser Partie nicht.',
          'Fünf Symbole sind auf den Plan gedruckt: eines in der Mitte und je eines in der Mitte jeder Seite des 9×9-Bereichs. Darauf darf kein Stein liegen, aber sie zählen wie Symbole auf Steinen.',
          'Jeder bekommt **5 Spielsteine** aus dem Beutel auf seinen Halter (100 Steine: jedes Farbpaar und jeder Doppelstein). Niemand sieht die Steine der anderen. Neben dem Plan stehen 20 Pyramiden bereit.',
        ],
      },
      turn: {
        title: 'Dein Zug',
        body: [
          { steps: [
            '**Lege einen Stein** von deinem Halter auf zwei benachbarte leere Felder (neben- oder übereinander, beliebig gedreht).',
            '**Werte** ihn (siehe unten) und stelle auf jedes Feld, das dein Stein eingeschlossen hat, eine **Pyramide**.',
            'In einer Farbe 18 erreicht? Rufe **AXIO!** und mache einen **Bonuszug**.',
            '**Ergänze** deinen Halter auf 5 Steine – oder **tausche** ihn aus, falls du darfst.',
          ] },
          'Dein **erster Stein** muss an eines der gedruckten Symbole grenzen, an das noch kein Stein grenzt – so beginnt jeder an einem anderen Symbol. Danach darf ein Stein überall im Spielbereich liegen; er muss nichts berühren.',
        ],
      },
      scoring: {
        title: 'Wertung',
        body: [
          'Jede Hälfte des Steins wird für sich gewertet. Schau von der Hälfte aus in die **drei Richtungen**, die nicht auf ihre andere Hälfte zeigen. Zähle in jeder Richtung die gleichen Symbole in ununterbrochener Reihe – auf Steinen oder auf den Plan gedruckt. Die Reihe endet an einem anderen Symbol, einem leeren Feld oder am Rand des Spielbereichs.',
          'Die Hälfte selbst zählt nicht mit; ein Doppelstein bringt also für sich selbst nichts. Beide Hälften zusammen sind eine Wertung und kommen gemeinsam auf deine Leisten.',
        ],
      },
      axio: {
        title: 'AXIO! und der Bonuszug',
        body: [
          'Eine Wertungsleiste reicht bis **18**. Erreicht eine Farbe 18, rufst du **AXIO!** – Punkte über 18 in dieser Farbe verfallen.',
          'Für jede Farbe, die 18 erreicht, machst du sofort einen **Bonuszug**: Lege einen weiteren Stein von deinem Halter und werte ihn wie gewohnt. Ein Bonuszug kann einen weiteren bringen; höchstens fünf pro Partie, einer je Farbe.',
          'Erreichen alle fünf deiner Leisten 18, gewinnst du sofort.',
        ],
      },
      pyramids: {
        title: 'Pyramiden',
        body: [
          'Lässt dein Stein ein leeres Feld zurück, das **auf allen vier Seiten eingeschlossen** ist – von Steinen, gedruckten Symbolen oder dem Rand des Spielbereichs –, kann dort nie mehr ein Stein liegen. Stelle eine Pyramide darauf.',
          'Die Pyramide wird für dich eigens gewertet: **1 Punkt für jedes Symbol** auf den vier Nachbarfeldern, in der Farbe des Symbols.',
          'Stehen alle 20 Pyramiden auf dem Plan, versetzt du die älteste auf das neue Feld (sie wird dort gewertet). Das Feld, das sie verlässt, bleibt bis zum Spielende leer.',
        ],
      },
      swap: {
        title: 'Steine tauschen',
        body: [
          'Zeigt am Ende deines Zugs **keiner deiner Steine die Farbe deiner niedrigsten Leiste** (bei Gleichstand: keine der niedrigsten Farben), darfst du tauschen: Zeige deine Steine vor, ziehe 5 neue aus dem Beutel und wirf dann die alten in den Beutel zurück. Nach einem Tausch ergänzt du nicht.',
        ],
      },
      end: {
        title: 'Spielende und Sieger',
        body: [
          'Die Partie endet sofort, wenn der Spieler am Zug **keinen Stein legen kann**: Es gibt keine zwei benachbarten leeren Felder mehr, oder sein Halter ist leer (ist der Beutel leer, schrumpfen die Halter).',
          'Nun vergleicht ihr eure **niedrigste Leiste**: Die höchste niedrigste Leiste gewinnt. Die Farbe spielt keine Rolle, ebenso wenig, ob jemand 18 erreicht hat.',
          'Bei Gleichstand vergleichen die Beteiligten ihre **nächstniedrigste** Leiste, und so weiter. Wer in allen fünf Leisten gleich steht, teilt sich den Sieg.',
        ],
      },
      solo: {
        title: 'Solo spielen',
        body: [
          'Allein spielst du auf dem 9×9-Bereich ohne Halter: Ziehe **immer einen Stein** und lege ihn; dein erster Stein muss an ein gedrucktes Symbol grenzen. Die Partie endet, wenn sich der gezogene Stein nicht legen lässt.',
          'Es gibt keine Bonuszüge und keinen Tausch. Eine Leiste, die 18 erreicht, läuft in einer zweiten Runde bis **36** weiter (die Punkte dieser Wertung über 18 verfallen). Dein Ergebnis ist deine niedrigste Leiste – versuche, es beim nächsten Mal zu übertreffen.',
          'AXIO hat kein Teamspiel; im Team spielt man AXIO Hex.',
        ],
      },
    },
    figs: {
      'sq-board': 'Der Plan für zwei Spieler: die 9×9-Mitte mit ihren fünf gedruckten Symbolen. Drei Spieler nehmen den nächsten Ring dazu, vier Spieler nutzen alle 13×13 Felder.',
      'sq-first': 'Der erste Stein des zweiten Spielers: Die lila Mitte ist schon belegt, also kommt er an das freie orange Symbol. Die orange Hälfte zählt das gedruckte orange Symbol: 1 Punkt.',
      'sq-score-1': 'Die blaue Hälfte zählt ein blaues Symbol darüber: 1 Punkt für Blau. Die rote Hälfte hat keinen roten Nachbarn.',
      'sq-score-2': 'Blau zählt zwei Symbole nach oben und eines nach links: 3 Punkte. Rot zählt zwei nach unten: 2 Punkte.',
      'sq-score-3': 'Blau zählt nach unten bis zum gedruckten blauen Symbol (2) und nach rechts bis zum grünen (2): 4 Punkte. Rot zählt zwei nach links, wo eine orange Hälfte die Reihe beendet: 2 Punkte.',
      'sq-pyramid': 'Der Stein bringt 3 für Blau und schließt das Feld über sich ein (der Rand ist die vierte Seite). Die Pyramide dort bringt je 1 für das grüne, blaue und rote Symbol um sie herum.',
      'sq-axio': 'Blau steht auf 16, der Stein bringt 4 Blau: Der Wertungsstein hält bei 18, die übrigen 2 Punkte verfallen. AXIO! – ein Bonuszug folgt.',
      'sq-swap': 'Grün und Orange sind am niedrigsten (5), und kein Stein zeigt Grün oder Orange: Dieser Spieler darf alle fünf Steine tauschen.',
      'sq-end-1': 'Zwei Spieler: Die niedrigste Leiste von A steht auf 11, die von B auf 8. A gewinnt.',
      'sq-end-2': 'Drei Spieler, alle mit 9 als niedrigster Leiste. Zweitniedrigste: A 11, B und C 12 – A scheidet aus. Drittniedrigste: B 12, C 15. C gewinnt.',
      'sq-solo': 'Eine Solopartie: Die niedrigste Leiste, 21, ist das Ergebnis. Die Linie markiert 18, wo die zweite Runde beginnt.',
    },
  },

  rota: {
    ui: { tile: 'Plättchen:', rack: 'Deine Plättchen' },
    title: 'AXIO ROTA – so wird gespielt',
    lead: 'Ein Legespiel von Reiner Knizia für 1 bis 4 Spieler. Quadratische Plättchen mit farbigen Ecken; wo vier Ecken zusammenstoßen, entsteht ein Kreis, und gleiche Farben im Kreis bringen Punkte. Am Ende **zählt nur deine schwächste Farbe**.',
    sections: {
      goal: {
        title: 'Worum es geht',
        body: [
          'Auf deiner Wertungstafel hast du für jede der fünf Farben einen Wertungsstein: [[red]] Rot, [[green]] Grün, [[blue]] Blau, [[orange]] Orange und [[purple]] Lila. Jedes Plättchen, das du anlegst, bringt Punkte für die Farben, zu denen seine Ecken passen.',
          'Am Ende vergleicht ihr euren **niedrigsten** Wertungsstein – bring also alle fünf Farben voran.',
        ],
      },
      setup: {
        title: 'Vorbereitung',
        body: [
          'Es gibt keinen Spielplan: Die Plättchen bilden in der Tischmitte eine **Auslage**, die in alle Richtungen wächst.',
          'Jedes Plättchen zeigt in seinen vier Ecken je ein Farbsymbol; einige haben eine **leere Ecke**. Vier Plättchen bilden zu Beginn die Auslage als 2×2-Quadrat; ein Startplättchen mit leerer Ecke wird so gedreht, dass die leere Ecke in der Mitte liegt.',
          'Jeder nimmt sich einen verdeckten **Stapel von 12 Plättchen** (seinen persönlichen Vorrat) und zieht eines davon auf die Hand. Die übrigen Plättchen bilden den **allgemeinen Vorrat**.',
        ],
      },
      turn: {
        title: 'Dein Zug',
        body: [
          { steps: [
            '**Lege dein Plättchen** aus der Hand beliebig gedreht an die Auslage an: Es muss mit mindestens einer Seite an ein ausliegendes Plättchen grenzen.',
            '**Werte** seine vier Ecken.',
            '**Ziehe** das nächste Plättchen von deinem Stapel auf die Hand.',
          ] },
        ],
      },
      scoring: {
        title: 'Wertung',
        body: [
          'Wo vier Plättchen zusammenstoßen, bilden ihre Ecken einen **Kreis**. Werte jede Ecke deines neuen Plättchens einzeln: Du bekommst **1 Punkt für jede andere Ecke in ihrem Kreis mit demselben Farbsymbol**. Ob der Kreis schon vollständig ist, spielt keine Rolle.',
          'Eine Ecke, in deren Kreis noch keine andere Ecke liegt, wird nicht gewertet. Alle vier Ecken zusammen sind eine Wertung.',
        ],
      },
      wild: {
        title: 'Die leere Ecke',
        body: [
          'Hat dein gerade gelegtes Plättchen eine **leere Ecke**, nennst du ein beliebiges Farbsymbol und wertest die Ecke so, als zeige sie dieses Symbol.',
          'Nur die leere Ecke deines neuen Plättchens zählt so. Leere Ecken von Plättchen, die schon ausliegen, bringen nie Punkte.',
        ],
      },
      axio: {
        title: 'AXIO! und der Bonuszug',
        body: [
          'Du kannst für keine Farbe mehr als **12** Punkte erhalten. Erreicht ein Wertungsstein Feld 12, rufst du **AXIO!** – überzählige Punkte dieser Farbe verfallen.',
          'Für jede Farbe, die 12 erreicht, machst du sofort einen **Bonuszug**: Nimm das oberste Plättchen des **allgemeinen Vorrats** (nicht von deinem Stapel!), lege es an und werte es. Bis zu fünf Bonuszüge können aufeinander folgen. Ist der allgemeine Vorrat aufgebraucht, gibt es keine Bonuszüge mehr.',
          'Tauschen gibt es bei AXIO ROTA nicht.',
        ],
      },
      end: {
        title: 'Spielende und Sieger',
        body: [
          'Die Partie endet, sobald jeder alle Plättchen seines Stapels angelegt hat. Wer alle fünf Wertungssteine auf Feld 12 bringt, gewinnt sofort.',
          'Ihr vergleicht euren Wertungsstein mit der **niedrigsten Punktzahl**: Wer damit am höchsten steht, gewinnt. Die Farbe spielt keine Rolle, ebenso wenig, ob jemand Feld 12 erreicht hat.',
          'Bei Gleichstand vergleichen die Beteiligten ihren **nächstniedrigsten** Wertungsstein, und so weiter. Wer in allen fünf gleich steht, teilt sich den Sieg.',
        ],
      },
      solo: {
        title: 'Solo spielen',
        body: [
          'Allein spielst du nach denselben Regeln, Bonuszüge eingeschlossen. Dein Ergebnis ist dein niedrigster Wertungsstein: Notiere ihn und versuche, ihn beim nächsten Mal zu übertreffen.',
          'AXIO ROTA hat kein Teamspiel; im Team spielt man AXIO Hex.',
        ],
      },
    },
    figs: {
      'rota-start': 'Die Startauslage: vier Plättchen im Quadrat. Das Plättchen mit der leeren Ecke ist so gedreht, dass die leere Ecke in der Mitte liegt.',
      'rota-turn': 'An die gestrichelten Plätze darf das nächste Plättchen: Jeder grenzt mit einer Seite an die Auslage.',
      'rota-score-1': 'Das neue Plättchen (umrandet): Lila trifft eine lila Ecke, Blau eine blaue – je 1 Punkt. Grün trifft kein Grün: 0. Die orange Ecke grenzt an kein anderes Plättchen und wird nicht gewertet.',
      'rota-score-2': 'Rot trifft zwei rote Ecken: 2 Punkte. Blau trifft eine blaue Ecke: 1 Punkt.',
      'rota-wild-1': 'Nennst du für die leere Ecke Blau, bringt sie 1 Punkt für Blau; Lila bringt 1 weiteren. Die rote Ecke bringt 0: Sie trifft nur die leere Ecke eines früheren Plättchens.',
      'rota-wild-2': 'Blau bringt 1. Für die leere Ecke wählst du: Rot (zwei rote Ecken: 2 Punkte) oder Lila (1 Punkt).',
      'rota-axio': 'Rot steht auf 10, das Plättchen bringt 3 Rot: Der Wertungsstein hält bei 12, 1 Punkt verfällt. AXIO! – ein Bonuszug mit einem Plättchen aus dem allgemeinen Vorrat folgt.',
      'rota-end-1': 'Zwei Spieler: Annas niedrigster Wertungsstein steht auf 8, Beates auf 6. Anna gewinnt.',
      'rota-end-2': 'Drei Spieler, alle mit 7 als niedrigstem Wert. Als Nächstes: Anna 8, Beate und Chris 9 – Anna scheidet aus. Dann: Beate 9, Chris 10. Chris gewinnt.',
      'rota-solo': 'Eine Solopartie: Das Ergebnis ist der niedrigste Wertungsstein, 9.',
    },
  },

  hex: {
    title: 'AXIO Hex – so wird gespielt',
    lead: 'AXIO auf einem sechseckigen Spielfeld mit sechs Farben, nach dem Online-Spiel für 1 bis 4 Spieler. Lege Steine aus zwei Sechsecken und sammle Punkte für gleiche Symbole in gerader Linie – am Ende **zählt nur deine schwächste Farbe**.',
    sections: {
      goal: {
        title: 'Worum es geht',
        body: [
          'Du hast für jede der sechs Farben eine Punkteleiste: [[red]] Rot, [[green]] Grün, [[blue]] Blau, [[orange]] Orange, [[purple]] Lila und [[yellow]] Gelb. Jeder Stein, den du legst, bringt Punkte in einer oder mehreren Farben.',
          'Am Ende zählt die Farbe mit den **wenigsten** Punkten – bring also alle sechs gleichmäßig voran.',
        ],
      },
      setup: {
        title: 'Vorbereitung',
        body: [
          'Das Spielfeld ist ein großes Sechseck aus 169 Feldern. **2 Spieler** (und solo) nutzen nur den inneren, hellen Teil, **3 Spieler** nehmen den hellgrauen Rand dazu, bei **4 Spielern** zählt das ganze Feld.',
          'Sechs Startsymbole sind an den Ecken des inneren Teils aufgedruckt. Darauf darf kein Stein liegen, aber sie zählen wie Symbole auf Steinen.',
          'Jeder hat stets **6 Steine** im Vorrat zur Auswahl (120 Steine: jedes Farbpaar und jeder Doppelstein).',
        ],
      },
      turn: {
        title: 'Dein Zug',
        body: [
          { steps: [
            '**Lege einen Stein** auf zwei benachbarte leere Felder, beliebig gedreht.',
            '**Werte** ihn; erreichst du in einer Farbe 18, bekommst du einen **Bonuszug**.',
            'Dein Vorrat wird auf 6 **aufgefüllt** – oder du **tauschst** alle Steine, falls du darfst.',
          ] },
          'In der ersten Runde muss jeder an einen Startstein legen, an den noch kein Mitspieler angelegt hat. Danach ist die Anlegeposition frei.',
        ],
      },
      scoring: {
        title: 'Wertung',
        body: [
          'Jede Hälfte des Steins wird für sich betrachtet: Schau von der Hälfte aus in die **fünf Richtungen**, die nicht auf ihre andere Hälfte zeigen, und zähle die gleichen Symbole in ununterbrochener gerader Linie – auf Steinen oder aufgedruckt. Eine Linie endet an einem anderen Symbol, einem leeren Feld oder am Rand.',
          'Ein Stein bringt für sich selbst keine Punkte, auch nicht als Doppelstein. Beide Hälften zusammen sind eine Wertung.',
        ],
      },
      axio: {
        title: 'AXIO! und der Bonuszug',
        body: [
          'Eine Leiste reicht bis **18**. Erreichst du in einer Farbe 18 – AXIO! –, darfst du sofort als **Bonuszug** einen weiteren Stein legen. Punkte über 18 verfallen.',
          'Erreichen alle sechs deiner Leisten 18, gewinnst du sofort.',
        ],
      },
      swap: {
        title: 'Steine tauschen',
        body: [
          'Hast du am Ende deines Zugs **keinen Stein deiner schwächsten Farbe** im Vorrat (bei mehreren gleich schwachen Farben: keinen dieser Farben), wählst du: alle Steine gegen 6 neue **tauschen** oder sie **behalten** und wie gewohnt auf 6 auffüllen.',
        ],
      },
      end: {
        title: 'Spielende und Sieger',
        body: [
          'Die Partie endet, wenn der Spieler am Zug keinen Stein mehr legen kann, oder sobald ein Spieler in jeder Farbe 18 hat.',
          'Es gewinnt, wer mit seiner **schwächsten Farbe** die meisten Punkte hat. Bei Gleichstand entscheidet die **nächstschwächere** Farbe, und so weiter.',
        ],
      },
      team: {
        title: 'Teamspiel',
        body: [
          'Zu viert könnt ihr in zwei Teams spielen: Spieler 1 und 3 gegen Spieler 2 und 4. Partner behalten ihre eigenen Steine, **sammeln aber gemeinsam Punkte**.',
          'Die Leisten eines Teams reichen bis **36**. Erreicht das Team in einer Farbe 18, gibt es einen Bonuszug, und die restlichen Punkte dieser Wertung verfallen; danach zählt die Farbe weiter bis 36, was wieder einen Bonuszug bringt. Ein Team mit 36 in allen sechs Farben gewinnt sofort.',
        ],
      },
      solo: {
        title: 'Solo spielen',
        body: [
          'Allein spielst du auf dem inneren Teil und hast **immer nur einen Stein**: ziehen, legen. Dein erster Stein muss an einen Startstein grenzen. Die Partie endet, wenn sich der gezogene Stein nicht legen lässt.',
          'Die Leisten reichen wie im Teamspiel bis **36**, aber ohne Bonuszüge, und getauscht wird nicht. Das Ergebnis bilden deine **drei schwächsten Farben**: 12, 14 und 18 ergeben **121418**.',
        ],
      },
    },
    figs: {
      'hex-board': 'Das Spielfeld für zwei Spieler: der helle innere Teil mit den sechs Startsymbolen an seinen Ecken.',
      'hex-first': 'Ein erster Stein am blauen Startsymbol. Seine blaue Hälfte zählt das aufgedruckte blaue Symbol: 1 Punkt.',
      'hex-score-1': 'Der blau-gelbe Stein (umrandet): Gelb zählt zwei nach rechts (2 Punkte), Blau zwei nach rechts oben und einen nach links (3 Punkte).',
      'hex-score-2': 'Ein Doppel-Orange: Die linke Hälfte zählt zwei Linien zu je zwei (4 Punkte), die rechte Hälfte zwei weitere (2 Punkte) – 6 für Orange.',
      'hex-double-1': 'Ein Doppelstein, der ein grünes Feld mit einer Hälfte berührt: 1 Punkt.',
      'hex-double-2': 'Derselbe Doppelstein so gedreht, dass beide Hälften es berühren: 1 + 1 = 2 Punkte.',
      'hex-axio': 'Gelb steht auf 15, der Stein bringt 5 Gelb: Die Leiste hält bei 18, 2 Punkte verfallen. AXIO! – ein Bonuszug folgt.',
      'hex-swap': 'Grün und Lila sind am schwächsten (6), und keiner der sechs Steine zeigt eine davon: alle tauschen oder behalten.',
      'hex-end': 'Die schwächste Farbe steht bei beiden auf 10. Nächstschwächere: A 11, B 12. B gewinnt.',
      'hex-team': 'Das Grün eines Teams steht auf 16 und bekommt 4: Es hält bei 18 (AXIO! und ein Bonuszug), 2 Punkte verfallen. Spätere Punkte zählen weiter bis 36.',
      'hex-solo': 'Eine Solopartie: Die drei schwächsten Farben stehen auf 12, 14 und 18 – das Ergebnis ist 121418.',
    },
  },
};
