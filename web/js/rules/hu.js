// rules/hu.js — a szabályoldalak magyarul (ugyanaz a felépítés, mint a rules/en.js-ben; ami
// itt hiányzik, angolul jelenik meg). A magyar szabálykönyvek szavai: lapka, játéktábla,
// színes mező, értékelőtábla, értékjelző, állvány, zsák, piramis, lépés, bónuszlépés, „AXIO!”.

export default {
  ui: {
    rules: 'Szabályok',
    games: 'Játékok',
    contents: 'Tartalom',
    play: 'Játék indítása',
    source: 'A pontos szabályok minden különleges esettel (angolul) az axio projekt docs/rules.md fájljában olvashatók.',
    tile: 'Lapka:',
    pyramid: 'Piramis:',
    wild: 'Üres sarok:',
    or: 'vagy',
    lost: 'elvész',
    wins: 'nyer',
    result: 'Eredmény',
    tracks: 'Az értékjelzőid (a leghátsó megjelölve)',
    rack: 'A lapkáid',
  },

  square: {
    title: 'AXIO – így kell játszani',
    lead: 'Reiner Knizia lapkalerakó játéka 1–4 játékos részére. Színes szimbólumokkal díszített lapkákat raksz le, és pontot kapsz az egy sorban álló egyező szimbólumokért – de a végén **csak a leggyengébb színed számít**.',
    sections: {
      goal: {
        title: 'A játék célja',
        body: [
          'Az értékelőtábládon mind az öt színnek van egy értékjelzője: [[red]] piros, [[green]] zöld, [[blue]] kék, [[orange]] narancs és [[purple]] lila. Minden lerakott lapka egy vagy több színben hoz pontot.',
          'A játék végén a **leghátsó** értékjelzőket hasonlítjátok össze. Ne száguldj előre egyetlen színben: vidd előre mind az ötöt, és mindig a lemaradó színedben próbálj pontot szerezni.',
          'Minden színnek saját formája van, így a színek színlátás nélkül is megkülönböztethetők.',
        ],
      },
      setup: {
        title: 'Előkészületek',
        body: [
          'A játéktábla 13×13 mezős. Hogy mekkora részét használjátok, a játékosok számától függ: **2 játékos** (és az egyszemélyes játék) a középső fehér 9×9-es területet, **3 játékos** a világosszürke gyűrűvel együtt a 11×11-est, **4 játékos** az egész táblát használja. A területen kívüli mezők abban a játszmában nem léteznek.',
          'A táblára öt színes mező van nyomtatva: egy középen, és egy-egy a 9×9-es terület minden oldalának közepén. Ezekre nem kerülhet lapka, de ugyanúgy számítanak, mint a lapkák szimbólumai.',
          'Mindenki **5 lapkát** húz a zsákból az állványára (100 lapka: minden színpár és minden dupla). A többiek lapkáit senki sem látja. A tábla mellett 20 piramis áll.',
        ],
      },
      turn: {
        title: 'A lépésed',
        body: [
          { steps: [
            '**Tegyél le 1 lapkát** az állványodról két szomszédos üres mezőre (egymás mellé vagy egymás alá, tetszőlegesen elforgatva).',
            '**Értékeld** (lásd lent), és minden mezőre, amelyet a lapkád bezárt, állíts egy **piramist**.',
            'Elérted a 18-at egy színben? Kiáltsd: **AXIO!**, és lépd meg a **bónuszlépést**.',
            '**Egészítsd ki** az állványodat 5 lapkára – vagy **cseréld ki** a lapkáidat, ha szabad.',
          ] },
          'Az **első lapkádnak** olyan színes mezőhöz kell illeszkednie, amelyhez még nem illeszkedik lapka – így mindenki másik színes mezőnél kezd. Utána a lapka bárhová kerülhet a játékterületen; nem kell semmihez sem érnie.',
        ],
      },
      scoring: {
        title: 'Értékelés',
        body: [
          'A lapka mindkét felét külön értékeled. A lapkafeltől **abba a 3 irányba** nézz, amely nem a másik fele felé mutat. Mindegyik irányban számold meg a sorban egymás mellett álló azonos szimbólumokat – akár lapkán vannak, akár a táblára nyomtatva. A sor véget ér egy másik szimbólumnál, egy üres mezőnél vagy a játékterület szélénél.',
          'Az éppen értékelt szimbólum nem számít bele, így a dupla lapka önmagáért nem ér pontot. A két fél együtt egy értékelés, a pontjaikat együtt lépteted előre.',
        ],
      },
      axio: {
        title: 'AXIO! és a bónuszlépés',
        body: [
          'Szimbólumonként legfeljebb **18** pontot szerezhetsz. Amikor egy szín eléri a 18-at, kiáltsd: **AXIO!** – az adott szín 18 fölötti pontjai elvesznek.',
          'Minden színért, amely eléri a 18-at, azonnal **bónuszlépés** jár: tegyél le még egy lapkát az állványodról, és értékeld a megszokott módon. Egy bónuszlépés újabbat hozhat; játszmánként legfeljebb öt lehet, színenként egy.',
          'Ha mind az öt értékjelződ eléri a 18-at, azonnal nyersz.',
        ],
      },
      pyramids: {
        title: 'Piramisok',
        body: [
          'Ha a lapkád után marad egy üres mező, amelyet **mind a négy oldalról** lapkák, színes mezők vagy a játékterület széle vesz körül, oda már soha nem kerülhet lapka. Állíts rá egy piramist.',
          'A piramist külön értékeled: **1 pontot kapsz minden szimbólumért**, amely vízszintesen vagy függőlegesen határos vele, a szimbólum színében.',
          'Ha már mind a 20 piramis a táblán áll, a legrégebbit kell áthelyezned az új mezőre (ott értékeled). A mező, ahonnan elvetted, a játék végéig üresen marad.',
        ],
      },
      swap: {
        title: 'A lapkák cseréje',
        body: [
          'Ha a lépésed végén **egyetlen lapkád sem mutatja a leghátsó értékjelződ színét** (egyezőség esetén: egyik leghátsó színt sem), kicserélheted őket: mutasd meg a lapkáidat, húzz 5 újat a zsákból, majd dobd vissza a régieket a zsákba. Csere után nem egészítesz ki.',
        ],
      },
      end: {
        title: 'A játék vége és a győztes',
        body: [
          'A játék **azonnal véget ér**, amikor a soron lévő játékos **nem tud lapkát letenni**: nincs már két szomszédos üres mező, vagy üres az állványa (ha kifogy a zsák, az állványok fogynak).',
          'Ekkor összehasonlítjátok a **leghátsó értékjelzőitek** helyét: az nyer, akinek a leghátsó értékjelzője a legmagasabb helyen áll. A szín nem számít, és az sem, hogy elérte-e valaki a 18-at.',
          'Egyezőség esetén az érintettek a **hátulról második** értékjelzőjüket hasonlítják össze, és így tovább. Akinek mind az öt értékjelzője ugyanott áll, osztozik a győzelmen.',
        ],
      },
      solo: {
        title: 'Egyszemélyes játék',
        body: [
          'Egyedül a 9×9-es területen játszol, állvány nélkül: **mindig 1 lapkát húzol**, és leteszed; az első lapkádnak színes mezőhöz kell illeszkednie. A játék akkor ér véget, amikor a kihúzott lapkát nem lehet letenni.',
          'Nincs bónuszlépés és nincs csere. Ha egy értékjelző eléri a 18-at, egy második körben **36**-ig halad tovább (az adott értékelés 18 fölötti pontjai elvesznek). Az eredményed a leghátsó értékjelződ – próbáld túlszárnyalni a következő játszmában!',
          'Az AXIO-nak nincs csapatjátéka; csapatban az AXIO Hexet lehet játszani.',
        ],
      },
    },
    figs: {
      'sq-board': 'A tábla két játékosnak: a középső 9×9-es terület az öt színes mezővel. Három játékos a következő gyűrűt is használja, négy játékos mind a 13×13 mezőt.',
      'sq-first': 'A második játékos első lapkája: a középső lila mező már foglalt, ezért a szabad narancs mezőhöz kerül. A narancs fél a nyomtatott narancs szimbólumot számolja: 1 pont.',
      'sq-score-1': 'A kék fél egy kék szimbólumot számol maga fölött: 1 pont a kékért. A piros félnek nincs piros szomszédja.',
      'sq-score-2': 'A kék felfelé két, balra egy szimbólumot számol: 3 pont. A piros lefelé kettőt: 2 pont.',
      'sq-score-3': 'A kék lefelé a nyomtatott kék mezőig (2), jobbra a zöldig (2) számol: 4 pont. A piros balra kettőt számol, ott egy narancs lapkafél zárja le a sort: 2 pont.',
      'sq-pyramid': 'A lapka 3 pontot hoz a kékért, és bezárja a fölötte lévő mezőt (a negyedik oldal a tábla széle). Az ott felállított piramis 1-1 pontot ad a körülötte álló zöld, kék és piros szimbólumért.',
      'sq-axio': 'A kék a 16-on áll, a lapka 4 kék pontot hoz: az értékjelző a 18-on megáll, a maradék 2 pont elvész. AXIO! – jön a bónuszlépés.',
      'sq-swap': 'A zöld és a narancs a leghátsó (5), és egyik lapka sem mutat zöldet vagy narancsot: ez a játékos mind az öt lapkáját kicserélheti.',
      'sq-end-1': 'Két játékos: „A” leghátsó értékjelzője a 11-en, „B”-é a 8-on áll. „A” nyer.',
      'sq-end-2': 'Három játékos, mindegyiknek a 9-en áll a leghátsó értékjelzője. Hátulról a második: „A” 11, „B” és „C” 12 – „A” kiesik. Hátulról a harmadik: „B” 12, „C” 15. „C” nyer.',
      'sq-solo': 'Egyszemélyes játszma: az eredmény a leghátsó értékjelző, 21. A vonal a 18-at jelzi, ahol a második kör kezdődik.',
    },
  },

  rota: {
    title: 'AXIO ROTA – így kell játszani',
    lead: 'Reiner Knizia lapkalerakó játéka 1–4 játékos részére. Négyzet alakú lapkák színes sarkokkal; ahol négy sarok találkozik, kör alakul ki, és a körben egyező színek pontot érnek. A végén **csak a leggyengébb színed számít**.',
    sections: {
      goal: {
        title: 'A játék célja',
        body: [
          'Az értékelőtábládon mind az öt színnek van egy értékjelzője: [[red]] piros, [[green]] zöld, [[blue]] kék, [[orange]] narancs és [[purple]] lila. Minden lerakott lapka azokért a színekért hoz pontot, amelyekhez a sarkai illeszkednek.',
          'A játék végén a **leghátsó** értékjelzőket hasonlítjátok össze – vidd hát előre mind az öt színt.',
        ],
      },
      setup: {
        title: 'Előkészületek',
        body: [
          'Nincs játéktábla: a lapkák az asztal közepén egy **kirakást** alkotnak, amely minden irányba nő.',
          'Minden lapka négy sarkában egy-egy színes szimbólum van; néhánynak egy **üres sarka** is van. Kezdetben négy lapka alkot 2×2-es négyzetet; az üres sarkú kezdőlapkát úgy kell elforgatni, hogy az üres sarok középre kerüljön.',
          'Mindenki kap egy lefordított, **12 lapkás saját paklit**, és húz belőle egyet a kezébe. A maradék lapkák alkotják a **közös készletet**.',
        ],
      },
      turn: {
        title: 'A lépésed',
        body: [
          { steps: [
            '**Tedd le a kezedben lévő lapkát** tetszőlegesen elforgatva a kirakás mellé: legalább egy oldalával egy már kint lévő lapkához kell illeszkednie.',
            '**Értékeld** a négy sarkát.',
            '**Húzd fel** a következő lapkát a saját paklidból.',
          ] },
        ],
      },
      scoring: {
        title: 'Értékelés',
        body: [
          'Ahol négy lapka találkozik, a sarkaik egy **kört** alkotnak. Az új lapkád minden sarkát külön értékeled: **1 pontot kapsz a körében lévő minden más, azonos színű sarokért**. Nem számít, hogy a kör teljes-e már.',
          'Az a sarok, amelynek a körében még nincs másik sarok, nem ér pontot. A négy sarok együtt egy értékelés.',
        ],
      },
      wild: {
        title: 'Az üres sarok',
        body: [
          'Ha a lerakott lapkádnak **üres sarka** van, mondj egy tetszőleges színt, és értékeld úgy, mintha az a szín lenne rajta.',
          'Csak az új lapkád üres sarka ilyen. A már kint lévő lapkák üres sarkai soha nem érnek pontot.',
        ],
      },
      axio: {
        title: 'AXIO! és a bónuszlépés',
        body: [
          'Egy színben legfeljebb **12** pontot szerezhetsz. Ha egy értékjelző eléri a 12-t, kiáltsd: **AXIO!** – a szín fölösleges pontjai elvesznek.',
          'Minden színért, amely eléri a 12-t, azonnal **bónuszlépés** jár: vedd fel a **közös készlet** legfelső lapkáját (nem a saját paklidból!), tedd le és értékeld. Legfeljebb öt bónuszlépés követheti egymást. Ha a közös készlet elfogyott, nincs több bónuszlépés.',
          'Az AXIO ROTA-ban nincs csere.',
        ],
      },
      end: {
        title: 'A játék vége és a győztes',
        body: [
          'A játék akkor ér véget, amikor mindenki letette a paklija összes lapkáját. Aki mind az öt értékjelzőjét a 12-re juttatja, azonnal nyer.',
          'A **leghátsó értékjelzőket** hasonlítjátok össze: az nyer, akinek ez a legmagasabb helyen áll. A szín nem számít, és az sem, hogy elérte-e valaki a 12-t.',
          'Egyezőség esetén az érintettek a **következő leghátsó** értékjelzőjüket hasonlítják össze, és így tovább. Akinek mind az öt ugyanott áll, osztozik a győzelmen.',
        ],
      },
      solo: {
        title: 'Egyszemélyes játék',
        body: [
          'Egyedül ugyanazokkal a szabályokkal játszol, bónuszlépésekkel együtt. Az eredményed a leghátsó értékjelződ: jegyezd fel, és próbáld túlszárnyalni legközelebb.',
          'Az AXIO ROTA-nak nincs csapatjátéka; csapatban az AXIO Hexet lehet játszani.',
        ],
      },
    },
    figs: {
      'rota-start': 'A kezdő kirakás: négy lapka négyzetben. Az üres sarkú lapka úgy van elforgatva, hogy az üres sarok középre essen.',
      'rota-turn': 'A szaggatott helyekre kerülhet a következő lapka: mindegyik egy oldallal a kirakáshoz illeszkedik.',
      'rota-score-1': 'Az új lapka (bekeretezve): a lila egy lila sarokkal, a kék egy kékkel találkozik – 1-1 pont. A zöld nem talál zöldet: 0. A narancs sarok nem ér más lapkához, nem értékeled.',
      'rota-score-2': 'A piros két piros sarokkal találkozik: 2 pont. A kék egy kék sarokkal: 1 pont.',
      'rota-wild-1': 'Ha az üres sarokra kéket mondasz, 1 pont jár a kékért; a lila még 1-et hoz. A piros sarok 0 pontot ér: csak egy korábbi lapka üres sarkával találkozik.',
      'rota-wild-2': 'A kék 1 pontot ér. Az üres sarokra te választasz: piros (két piros sarok: 2 pont) vagy lila (1 pont).',
      'rota-axio': 'A piros a 10-en áll, a lapka 3 piros pontot hoz: az értékjelző a 12-n megáll, 1 pont elvész. AXIO! – jön a bónuszlépés egy lapkával a közös készletből.',
      'rota-end-1': 'Két játékos: Anna leghátsó értékjelzője a 8-on, Beatéé a 6-on áll. Anna nyer.',
      'rota-end-2': 'Három játékos, mindenkinél 7 a leghátsó. A következő: Anna 8, Beate és Chris 9 – Anna kiesik. Aztán: Beate 9, Chris 10. Chris nyer.',
      'rota-solo': 'Egyszemélyes játszma: az eredmény a leghátsó értékjelző, 9.',
    },
  },

  hex: {
    title: 'AXIO Hex – így kell játszani',
    lead: 'AXIO hatszögletű táblán, hat színnel, az online játék nyomán, 1–4 játékos részére. Két hatszögből álló lapkákat raksz le, és pontot kapsz az egyenes vonalban álló egyező szimbólumokért – a végén **csak a leggyengébb színed számít**.',
    sections: {
      goal: {
        title: 'A játék célja',
        body: [
          'Mind a hat színnek van egy pontsávod: [[red]] piros, [[green]] zöld, [[blue]] kék, [[orange]] narancs, [[purple]] lila és [[yellow]] sárga. Minden lerakott lapka egy vagy több színben hoz pontot.',
          'A végén a **leggyengébb** színed számít – vidd hát előre egyenletesen mind a hatot.',
        ],
      },
      setup: {
        title: 'Előkészületek',
        body: [
          'A tábla egy 169 mezős nagy hatszög. **2 játékos** (és az egyszemélyes játék) csak a belső, világos részt használja, **3 játékos** a világosszürke gyűrűt is, **4 játékos** az egész táblát.',
          'A belső rész hat sarkán hat kezdőszimbólum van nyomtatva. Ezekre nem kerülhet lapka, de ugyanúgy számítanak, mint a lapkák szimbólumai.',
          'Mindenkinek mindig **6 lapka** közül lehet választania (120 lapka: minden színpár és minden dupla).',
        ],
      },
      turn: {
        title: 'A lépésed',
        body: [
          { steps: [
            '**Tegyél le 1 lapkát** két szomszédos üres mezőre, tetszőlegesen elforgatva.',
            '**Értékeld**; ha egy színben eléred a 18-at, **bónuszlépés** jár.',
            '**Kiegészíted** a lapkáidat 6-ra – vagy, ha szabad, mindet **kicseréled**.',
          ] },
          'Az első körben mindenkinek olyan kezdőszimbólumhoz kell tennie, amelyhez még senki sem tett. Utána a lapka bárhová kerülhet.',
        ],
      },
      scoring: {
        title: 'Értékelés',
        body: [
          'A lapka mindkét felét külön értékeled: a lapkafeltől **abba az 5 irányba** nézz, amely nem a másik fele felé mutat, és számold meg az egyenes vonalban megszakítás nélkül álló azonos szimbólumokat – akár lapkán vannak, akár nyomtatva. A vonal véget ér egy másik szimbólumnál, egy üres mezőnél vagy a szélen.',
          'A lapka önmagáért nem ér pontot, még dupla lapkaként sem. A két fél együtt egy értékelés.',
        ],
      },
      axio: {
        title: 'AXIO! és a bónuszlépés',
        body: [
          'Egy sáv **18**-ig tart. Ha egy színben eléred a 18-at – AXIO! –, azonnal **bónuszlépésként** letehetsz még egy lapkát. A 18 fölötti pontok elvesznek.',
          'Ha mind a hat sávod eléri a 18-at, azonnal nyersz.',
        ],
      },
      swap: {
        title: 'A lapkák cseréje',
        body: [
          'Ha a lépésed végén **egyik lapkád sem mutatja a leggyengébb színedet** (több egyformán gyenge szín esetén: egyiket sem), választhatsz: mind a hat lapkát **kicseréled** 6 újra, vagy **megtartod** őket, és a szokásos módon 6-ra egészíted ki.',
        ],
      },
      end: {
        title: 'A játék vége és a győztes',
        body: [
          'A játék véget ér, amikor a soron lévő játékos már nem tud lapkát letenni, vagy amint egy játékosnak minden színben 18 pontja van.',
          'Az nyer, akinek a **leggyengébb színe** a legtöbb pontot érte el. Egyezőség esetén a **következő leggyengébb** szín dönt, és így tovább.',
        ],
      },
      team: {
        title: 'Csapatjáték',
        body: [
          'Négyen két csapatban is játszhattok: az 1. és a 3. játékos a 2. és a 4. ellen. A társak saját lapkáikkal játszanak, de **közös sávokon gyűjtik a pontot**.',
          'A csapat sávjai **36**-ig tartanak. Ha a csapat egy színben eléri a 18-at, bónuszlépés jár, és az értékelés maradék pontjai elvesznek; utána a szín tovább számít 36-ig, ami újabb bónuszlépést hoz. Az a csapat, amelyik mind a hat színben eléri a 36-ot, azonnal nyer.',
        ],
      },
      solo: {
        title: 'Egyszemélyes játék',
        body: [
          'Egyedül a belső részen játszol, és **mindig csak 1 lapkád** van: húzod, leteszed. Az első lapkádnak kezdőszimbólumhoz kell illeszkednie. A játék akkor ér véget, amikor a kihúzott lapkát nem lehet letenni.',
          'A sávok a csapatjátékhoz hasonlóan **36**-ig tartanak, de bónuszlépés nincs, és csere sincs. Az eredményt a **három leggyengébb színed** adja: 12, 14 és 18 **121418** pontot ér.',
        ],
      },
    },
    figs: {
      'hex-board': 'A tábla két játékosnak: a világos belső rész a sarkain álló hat kezdőszimbólummal.',
      'hex-first': 'Egy első lapka a kék kezdőszimbólum mellett. A kék fele a nyomtatott kék szimbólumot számolja: 1 pont.',
      'hex-score-1': 'A kék-sárga lapka (bekeretezve): a sárga jobbra kettőt számol (2 pont), a kék jobbra fel kettőt és balra egyet (3 pont).',
      'hex-score-2': 'Dupla narancs: a bal fele két kettes vonalat számol (4 pont), a jobb fele még kettőt (2 pont) – 6 a narancsért.',
      'hex-double-1': 'Dupla lapka, amely az egyik felével egy zöld mezőt érint: 1 pont.',
      'hex-double-2': 'Ugyanez a dupla úgy elforgatva, hogy mindkét fele érintse: 1 + 1 = 2 pont.',
      'hex-axio': 'A sárga a 15-ön áll, a lapka 5 sárga pontot hoz: a sáv a 18-on megáll, 2 pont elvész. AXIO! – jön a bónuszlépés.',
      'hex-swap': 'A zöld és a lila a leggyengébb (6), és a hat lapka egyike sem mutatja egyiket sem: mindet kicserélheted, vagy megtarthatod.',
      'hex-end': 'Mindkettőjük leggyengébb színe 10-en áll. A következő leggyengébb: „A” 11, „B” 12. „B” nyer.',
      'hex-team': 'Egy csapat zöldje 16-on áll, és 4 pontot kap: a 18-on megáll (AXIO! és bónuszlépés), 2 pont elvész. A későbbi pontok 36-ig tovább számítanak.',
      'hex-solo': 'Egyszemélyes játszma: a három leggyengébb szín 12, 14 és 18 – az eredmény 121418.',
    },
  },
};
