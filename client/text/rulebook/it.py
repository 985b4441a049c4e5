"""Le regole per chi gioca, in italiano: il regolamento intero (``scopa rules --lang it``,
docs/RULES.it.md) e quello di un gioco.  Stessa struttura del regolamento inglese
(:mod:`scopa.client.text.rulebook.en`), con parole proprie: ogni gioco, ogni opzione e ogni
categoria che lì ha un testo lo ha anche qui (un test lo controlla)."""

from __future__ import annotations

from scopa.engine import AssoPigliaTutto, CaptureMode, Category, DeclarationKind, Preset, RuleSet

from ..catalog import catalog
from .reader import Reader, for_reader

MARKED_BASICS = """\
## Le carte

Si gioca con un mazzo italiano da 40 carte: quattro semi di dieci carte.

<!-- terminal -->
| seme italiano | mazzo francese | lettera (italiano) | lettera (francese) |
|---|---|---|---|
| Denari | ♦ quadri | `d` | `d` |
| Coppe | ♥ cuori | `c` | `h` |
| Spade | ♠ picche | `s` | `s` |
| Bastoni | ♣ fiori | `b` | `c` |
<!-- /terminal -->
<!-- page -->
| seme italiano | mazzo francese |
|---|---|
| Denari | ♦ quadri |
| Coppe | ♥ cuori |
| Spade | ♠ picche |
| Bastoni | ♣ fiori |
<!-- /page -->

Ogni seme va dall'Asso (vale 1) al 2, 3 … 7 (valgono quanto il numero), poi Fante (8),
Cavallo (9; la donna nel mazzo francese) e Re (10). Il 7 di Denari è il **settebello**,
il Re di Denari è il **re bello**.

<!-- terminal -->
Per scrivere una carta si dà il valore e il seme come appaiono sullo schermo: con il
mazzo italiano `7d`, `7 Den` o `7 denari` è il settebello e `Rc` è il Re di Coppe; con il
mazzo francese `7d` o `7♦` è il settebello e `Kc` è il re di fiori (♣).
<!-- /terminal -->

## Posti e squadre

In due o in tre si gioca ciascuno per sé. In quattro si gioca due contro due e in sei
tre contro tre: i compagni siedono uno di fronte all'altro (posti 1 e 3 contro 2 e 4) e
mettono insieme le prese. Un tavolo da quattro può anche giocare "ciascuno per sé".

## La distribuzione

Il primo mazziere è estratto a sorte e a ogni smazzata il mazzo passa al posto
successivo. Nel gioco di base ognuno riceve tre carte e quattro vanno scoperte in tavola
(un gioco che dà le carte in altro modo lo dice nella sua descrizione: lo scopone ne dà
nove a testa, tutte in una volta, e non ridà). Se in tavola
compaiono tre o quattro Re la smazzata non vale: lo stesso mazziere rimescola e ridà.
Quando tutti hanno giocato le loro tre carte se ne danno altre tre a testa (nessuna in
tavola), finché il mazzo non finisce. Comincia chi siede dopo il mazziere; il mazziere
gioca per ultimo.

## Il tuo turno

Giochi una carta dalla mano.

- **Prima la carta uguale.** Se in tavola c'è una carta dello stesso valore della tua, la
  prendi (una sola, a tua scelta, se sono più d'una) e non carte che sommate danno quel
  valore: con un Cavallo in mano e in tavola Cavallo, 5 e 4, prendi il Cavallo. È la
  regola di presa consueta; la presa a scelta, Frac, quindici, escoba e Cirulla ti lasciano
  prendere invece una somma (o un quindici).
- **Somme.** Altrimenti, se due o più carte in tavola sommate danno il valore della tua,
  le prendi.
- **La presa è obbligatoria** per la carta che giochi; puoi sempre giocare un'altra
  carta che non prende niente.
- **Niente da prendere:** la carta resta scoperta in tavola.
- **Scopa.** Prendere tutte le carte della tavola è una *scopa* e vale un punto, tranne
  con l'ultimissima carta della smazzata.
- Tutto ciò che si prende resta in vista: chiunque può contare le prese di ogni parte.

Quando sono possibili più prese decide la regola di presa del tavolo (vedi *Opzioni*).

## Fine della smazzata

Le carte rimaste in tavola vanno a chi ha preso per ultimo (mai come scopa); se nella
smazzata nessuno ha preso niente, non vanno a nessuno. Poi ogni categoria qui sotto dà
un punto alla parte che la vince; in caso di parità non lo prende nessuno:

- **Carte:** chi ha preso più carte.
- **Denari:** chi ha preso più Denari.
- **Settebello:** chi ha preso il 7 di Denari.
- **Primiera:** il miglior punteggio di primiera. Si prende la carta migliore di ogni seme
  e si sommano i loro valori di primiera: il 7 vale 21, il 6 18, l'Asso 16, il 5 15, il
  4 14, il 3 13, il 2 12 e le figure 10. Chi non ha carte di un seme non può vincerla.
- **Scope:** un punto per ogni scopa.

## Fine della partita

Si gioca una smazzata dopo l'altra finché, alla fine di una smazzata, una parte ha
raggiunto il traguardo (11, se il tavolo non dice altrimenti). Se lo raggiungono in
più, vince il totale più alto; se i totali più alti sono pari (poniamo 11 a 11), non ha
ancora vinto nessuno e si gioca un'altra smazzata.

Alcuni giochi hanno anche una vittoria immediata (trentino, Cirulla): la parte che la
ottiene vince subito, anche a metà smazzata, e la partita finisce lì senza contare i
punti di quella smazzata.
"""
"""Le basi, con le parti per un solo lettore segnate (vedi reader.py)."""

BASICS = for_reader(MARKED_BASICS, "terminal")
"""Le basi come le legge il terminale."""

PRESET_TEXT: dict[Preset, str] = {
    Preset.SCOPA: "Il gioco classico, come lo raccontano le regole di base: in due, tre, quattro o sei, "
                  "tre carte a testa, a 11 punti.",
    Preset.SCOPONE: "In quattro, in due squadre. Nove carte a testa e quattro in tavola, tutte date in una "
                    "volta (non si ridà). Si gioca a 21.",
    Preset.SCOPONE_SCIENTIFICO: "Lo scopone a 10: in quattro, in due squadre, dieci carte a testa e "
                                "nessuna in tavola, così il primo di mano cala una carta. Si gioca a 21.",
    Preset.QUINDICI: "Scopa a quindici: prendi quando la tua carta e le carte che prendi fanno 15 (un 7 "
                     "prende un Fante; un Re prende un 5, oppure un Asso e un 4). La regola della carta "
                     "uguale non vale.",
    Preset.ESCOBA: "La cugina spagnola: si prende a quindici come nella scopa a quindici, si gioca a 21 e "
                   "ci sono due punti in più: uno per chi ha più sette e un altro per chi li prende tutti e "
                   "quattro.",
    Preset.CIRULLA: "Il gioco ligure, a 51, con le mani dichiarate, il 15 del mazziere, il 7 di Coppe "
                    "jolly e la piccola e la grande (vedi l'opzione cirulla).",
    Preset.FRAC: "Scopa Frac: contano solo assi, Fanti, Cavalli e Re, un punto ciascuno (niente scope, "
                 "carte, denari, settebello o primiera), e si può scegliere qualunque presa valida.",
    Preset.TRENTINO: "Scopone trentino: si dà come lo scopone, a 21; l'Asso, il 2 e il 3 di Denari valgono "
                     "1, 2 e 3 punti a chi li prende, e la parte che li prende tutti e tre vince subito.",
}

CAPTURE_MODE_TEXT: dict[CaptureMode, str] = {
    CaptureMode.TRADITIONAL: "la carta uguale va presa per prima; tra le somme scegli quella che vuoi.",
    CaptureMode.FEWEST: "devi fare la presa con meno carte possibile (quindi prima la carta uguale); "
                        "tra prese ugualmente piccole scegli tu.",
    CaptureMode.FREE: "qualunque presa, una sola carta uguale o qualunque gruppo che fa la somma, anche "
                      "quando in tavola c'è una carta uguale.",
}

CAPTURE_MODE_NOTE = ("Con le prese a quindici (quindici, escoba) non c'è la regola della carta uguale: "
                     "la presa tradizionale e quella a scelta lasciano prendere qualunque gruppo che fa 15, "
                     "la presa più piccola quello con meno carte. Cirulla ha una regola di presa sua: lì il modo "
                     "di presa non conta.")

ASSO_TEXT: dict[AssoPigliaTutto, str] = {
    AssoPigliaTutto.OFF: "l'asso è una carta che vale 1 come le altre.",
    AssoPigliaTutto.SIMPLE: "l'asso prende tutte le carte della tavola, e conta come scopa (non "
                            "sull'ultima giocata della smazzata); a tavola vuota resta giù.",
    AssoPigliaTutto.TRADITIONAL: "come simple, ma se in tavola c'è già un asso, o se l'asso è la prima "
                                 "carta della smazzata, prende soltanto un altro asso.",
}

DECLARATION_NAMES: dict[DeclarationKind, str] = {
    DeclarationKind.UNDER_TEN: "meno di dieci (3 punti)",
    DeclarationKind.TRIS: "tris (10 punti)",
}

CIRULLA_TEXT = """\
- **Si ridà** se nella prima tavola compaiono due o più assi (al posto della regola dei Re).
- **Il 15 del mazziere:** se le quattro carte in tavola fanno 15 le prende la parte del
  mazziere, con una scopa; se fanno 30, due scope. Il 7 di Coppe può valere qualunque
  numero.
- **Mani dichiarate:** quando ricevi le carte puoi dichiarare *meno di dieci* (`under10`:
  le tre carte fanno meno di 10, 3 punti) o *tris* (`tris`: tre carte dello stesso
  valore, 10 punti); conta solo la più alta. Chi dichiara mostra la mano a tutti. Il 7 di
  Coppe qui fa da jolly, e tiene il valore che gli hai dato per le prese di quella mano.
- **Prese:** per valore uguale o per somma, oppure a quindici (la tua carta più quelle
  prese fanno 15); si può scegliere qualunque presa valida, anche una con più carte di
  un'altra. L'asso prende tutta la tavola, a meno che in tavola ci sia un asso, oppure
  può fare un quindici (o un'altra presa valida). La spazzata dell'asso non è scopa, a
  meno che le stesse carte facciano 15 con l'asso. Un 7 di Coppe jolly dichiarato come 1
  fa da asso.
- **Piccola:** Asso, 2 e 3 di Denari valgono 3; con il 4, 4; e così via fino al 6.
  **Grande:** Fante, Cavallo e Re di Denari valgono 5. La parte che prende tutti e dieci i
  Denari vince subito la partita.
"""

OPTION_TEXT: dict[str, str] = {
    "preset": "il gioco classico di cui il tavolo prende le regole; se cambi un'opzione diventa un gioco tuo",
    "players": "quante persone (o bot) siedono al tavolo",
    "teams": "si gioca in due squadre, con i compagni uno di fronte all'altro; se non si dice: squadre "
             "in 4 o in 6",
    "hand_size": "carte date a ogni giocatore a ogni distribuzione",
    "table_cards": "carte scoperte in tavola alla prima distribuzione della smazzata",
    "capture_mode": "quale presa si deve fare quando ce n'è più d'una: tradizionale, la più piccola o a scelta",
    "refill_each_turn": "si pesca una carta dopo ogni giocata, così la mano resta piena finché dura il "
                        "mazzo",
    "target": "i punti che servono a una parte per vincere la partita",
    "max_two": "una presa per somma prende al massimo due carte della tavola",
    "ponino": "Ponino: la parte che prende tutti e quattro i Cavalli raddoppia le scope della smazzata",
    "napola": "Napola: Asso, 2 e 3 di Denari valgono 3, più 1 per ogni Denaro che segue senza buchi",
    "quindici": "Scopa a quindici: si prende quando la tua carta e quelle prese fanno 15",
    "escoba": "Escoba: un punto a chi ha più sette e un altro a chi li ha tutti e quattro",
    "trentino": "Trentino: Asso, 2 e 3 di Denari valgono 1, 2 e 3 punti; tutti e tre vincono la partita",
    "asso_piglia_tutto": "Asso piglia tutto: l'asso spazza tutta la tavola (no, semplice o tradizionale)",
    "re_bello": "Re bello: il Re di Denari vale un punto",
    "frac": "Scopa Frac: contano solo assi e figure, un punto ciascuno; le prese sono libere",
    "cirulla": "Cirulla: mani dichiarate, il 15 del mazziere, il 7 di Coppe jolly, piccola e grande",
}
"""Il significato di ogni opzione del tavolo (in inglese: la descrizione del campo di RuleSet)."""

OPTION_NOTES: dict[str, str] = {
    "capture_mode": "\n".join([*(f"  - `{m.value}` ({catalog().values[m.value]}): {t}"
                                  for m, t in CAPTURE_MODE_TEXT.items()), f"  {CAPTURE_MODE_NOTE}"]),
    "asso_piglia_tutto": "\n".join(f"  - `{m.value}` ({catalog().values[m.value]}): {t}" for m, t in ASSO_TEXT.items()),
    "napola": "  La parte che ha Asso, 2 e 3 di Denari fa 3 punti; con anche il 4, 4; e così via lungo la "
              "scala.",
    "ponino": "  I punti delle sue scope di quella smazzata contano doppio.",
    "cirulla": CIRULLA_TEXT.rstrip(),
    "teams": "  In quattro si può giocare ciascuno per sé; in sei si gioca sempre in due squadre da tre.",
}

CATEGORY_NAMES: dict[Category, str] = {
    Category.CARTE: "Carte",
    Category.DENARI: "Denari",
    Category.SETTEBELLO: "Settebello",
    Category.PRIMIERA: "Primiera",
    Category.SCOPE: "Scope",
    Category.PONINO: "Ponino (scope doppie)",
    Category.NAPOLA: "Napola",
    Category.SEVENS: "Più sette",
    Category.ALL_SEVENS: "Tutti e quattro i sette",
    Category.TRENTINO: "Trentino (A, 2, 3 di Denari)",
    Category.RE_BELLO: "Re bello",
    Category.HONOURS: "Assi e figure",
    Category.PICCOLA: "Piccola",
    Category.GRANDE: "Grande",
    Category.DECLARATIONS: "Mani dichiarate",
}


def settings(p: Preset) -> str:
    """Le impostazioni di un gioco in poche parole: ``2 giocatori, a 11 punti``."""
    rules = RuleSet.build(p)
    who = f"{rules.players} giocatori" + (", in due squadre" if rules.has_teams else "")
    mode = catalog().values[rules.capture_mode.value]
    extra = f", presa: {mode}" if rules.capture_mode is not CaptureMode.TRADITIONAL else ""
    return f"{who}, {rules.hand_size} carte a testa e {rules.table_cards} in tavola, a {rules.target} punti{extra}"


def preset_section(p: Preset) -> str:
    return f"### `{p.value}`\n\n{PRESET_TEXT[p]}\n\nImpostazioni: {settings(p)}.\n"


def book(option_values: dict[str, str], reader: Reader = "terminal") -> str:
    """Il regolamento intero, in Markdown (docs/RULES.it.md è questo testo);
    ``option_values``: i valori di ogni opzione, gli stessi del regolamento inglese;
    ``reader="page"``: quello della pagina, che sceglie giochi e opzioni nel suo modulo, con
    i nomi del modulo, e non scrive carte."""
    parts = ["# Scopa: le regole\n", "Come si gioca a scopa e a ogni variante che questo programma offre.\n",
             for_reader(MARKED_BASICS, reader)]
    if reader == "page":
        parts.append("## I giochi per nome\n\nSe ne sceglie uno alla voce Gioco del modulo che apre un tavolo.\n")
    else:
        parts.append("## I giochi per nome\n\nSe ne sceglie uno con `--rules NOME` (o nel modulo che apre un "
                     "tavolo).\n")
    parts.extend(preset_section(p) for p in Preset)
    if reader == "page":
        parts.append("## Opzioni\n\nOgni opzione si imposta nel modulo che apre un tavolo, in Altre opzioni. "
                     "Le combinazioni che non hanno senso sono rifiutate, con il motivo.\n")
    else:
        parts.append("## Opzioni\n\nOgni opzione si imposta con `-o NOME=VALORE`; `scopa options` le elenca. "
                     "Le combinazioni che non hanno senso sono rifiutate, con il motivo.\n")
    for name in RuleSet.model_fields:
        values = option_values.get(name, "true|false" if RuleSet.model_fields[name].annotation is bool else "")
        if reader == "page":
            head = f"- **{page_option_name(name)}**: {OPTION_TEXT[name]}."
        else:
            head = f"- `{name}`" + (f" ({values})" if values else "") + f": {OPTION_TEXT[name]}."
        note = OPTION_NOTES.get(name)
        parts.append(head + ("\n" + _indent(note) if note else ""))
    parts.append("\n## Cirulla nei dettagli\n\n" + CIRULLA_TEXT)
    parts.append("## La schermata di fine smazzata\n\nLe categorie vengono sempre in quest'ordine: "
                 + ", ".join(CATEGORY_NAMES.values()) + ". Compaiono solo quelle che il tavolo gioca.\n")
    return "\n".join(parts)


def options_text(option_values: dict[str, str]) -> str:
    """Quello che stampa ``scopa options``: ogni opzione, i suoi valori e che cosa vuol dire."""
    lines = ["Opzioni del tavolo: ognuna si imposta con -o NOME=VALORE (scopa local, scopa play, scopa bot).", ""]
    for name, field in RuleSet.model_fields.items():
        values = option_values.get(name, "true|false" if field.annotation is bool else "")
        lines.append(f"{name} ({values})" if values else name)
        lines.append(f"    {OPTION_TEXT[name]}")
        note = OPTION_NOTES.get(name)
        if note:
            lines.extend("    " + ln.strip() for ln in note.splitlines())
    lines += ["", "Le impostazioni del tavolo non sono opzioni delle regole: il tempo per mossa (turn_timeout, al più "
              "quello del server) e il tavolo privato (non elencato, ci si siede con il suo invito) li chiede il modulo "
              "che apre un tavolo (c nella sala di scopa play, semplice o a schermo intero)."]
    return "\n".join(lines) + "\n"


def page_option_name(name: str) -> str:
    """Un'opzione come la chiama il modulo della pagina (Gioco, Giocatori, le altre con i nomi del catalogo)."""
    own = {"preset": "Gioco", "players": "Giocatori"}
    if name in own:
        return own[name]
    named = catalog().options.get(name)
    return named[0] if named else name.replace("_", " ")


def preset_rules(p: Preset) -> str:
    """``scopa rules GIOCO --lang it``: quel gioco, poi le regole di base."""
    return f"# {p.value}\n\n{PRESET_TEXT[p]}\n\nImpostazioni: {settings(p)}.\n\n{BASICS}"


FIFTEEN_CAPTURE_TEXT: dict[CaptureMode, str] = {
    CaptureMode.TRADITIONAL: "qualunque gruppo di carte della tavola che fa 15 con la tua carta; scegli tu.",
    CaptureMode.FEWEST: "il gruppo che fa 15 con la tua carta con meno carte possibile; tra gruppi ugualmente "
                        "piccoli scegli tu.",
    CaptureMode.FREE: "qualunque gruppo di carte della tavola che fa 15 con la tua carta; scegli tu.",
}
"""La presa quando si prende a quindici (senza la regola della carta uguale)."""


def table_rules(rules: RuleSet) -> str:
    """Le regole di un tavolo in poche righe (in cima all'aiuto), come quelle inglesi:
    quello che cambia dal gioco classico è detto per esteso."""
    sides = "due squadre, i compagni uno di fronte all'altro" if rules.has_teams else "ciascuno per sé"
    lines = [
        f"- {rules.players} giocatori, {sides}; vince la parte che a fine smazzata ha {rules.target} punti o più "
        "(se sono più d'una, quella che ne ha di più; a pari punti si gioca un'altra smazzata).",
        f"- Si danno {rules.hand_size} carte a testa e {rules.table_cards} in tavola."
        + (" Dopo ogni giocata si pesca una carta." if rules.refill_each_turn else ""),
    ]
    if rules.quindici:
        lines.append(f"- Quando si può prendere in più modi: {FIFTEEN_CAPTURE_TEXT[rules.capture_mode]}")
    elif not rules.cirulla:
        mode = rules.capture_mode
        lines.append(f"- Quando si può prendere in più modi ({catalog().values[mode.value]}): {CAPTURE_MODE_TEXT[mode]}")
    for name, field in RuleSet.model_fields.items():
        if field.annotation is bool and name != "refill_each_turn" and getattr(rules, name):
            lines.append(f"- {OPTION_TEXT[name]}.")
    if rules.asso_piglia_tutto is not AssoPigliaTutto.OFF:
        mode_name = catalog().values[rules.asso_piglia_tutto.value]
        lines.append(f"- Asso piglia tutto ({mode_name}): {ASSO_TEXT[rules.asso_piglia_tutto]}")
    if rules.cirulla:
        lines.append(CIRULLA_TEXT.rstrip())
    return "\n".join(lines) + "\n"


def _indent(note: str) -> str:
    return "\n".join("  " + ln.strip() if not ln.startswith("  ") else ln for ln in note.splitlines())
