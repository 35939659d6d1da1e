#!/usr/bin/env python3
"""Writes Sources/GeoDB/Text/LetterFolds.generated.swift: for every letter of Latin-1, Latin Extended-A
and -B, IPA Extensions (the small letters of Extended-B's African capitals: ɓ ɗ ɛ ɔ), Greek and Cyrillic
(U+00C0-U+04FF), the lower-case ASCII it folds to, as people type it without
the letter: diacritics dropped (č → c), letters with strokes and hooks to their base (ħ → h, ƀ → b),
ligatures and digraphs spelled out (æ → ae, ǆ → dz), Greek and Cyrillic transliterated the way names
are commonly written in Latin letters (Αθήνα → athina, Москва → moskva, Қазақстан → qazaqstan is not
attempted: Қ → k). And whether SQLite's FTS5 tokenizer (unicode61 remove_diacritics 2) already folds
the letter to the same ASCII: where it does not, the index gets the folded words as alternatives.

    python3 Tools/generate/generate-letter-folds.py     # run from the repository root; needs Python's sqlite3 with FTS5

The mapping is derived from the Unicode character names (Python's unicodedata) and the tables below;
an unknown name stops the script, so a new Unicode version cannot slip letters through unmapped.
"""
import re
import sqlite3
import sys
import unicodedata

RANGES = [(0x00C0, 0x02AF), (0x0370, 0x03FF), (0x0400, 0x04FF)]
OUTPUT = "Sources/GeoDB/Text/LetterFolds.generated.swift"

# Latin letters that do not decompose to an ASCII letter plus marks, by the name after "LETTER".
LATIN = {
    "SHARP S": "ss", "AE": "ae", "ETH": "d", "THORN": "th", "DOTLESS I": "i", "KRA": "k", "ENG": "n",
    "LONG S": "s", "OE": "oe", "IJ": "ij", "HV": "hv", "OI": "oi", "OU": "ou", "DZ": "dz", "LJ": "lj",
    "NJ": "nj", "DB DIGRAPH": "db", "QP DIGRAPH": "qp", "ESH": "sh", "EZH": "z", "YOGH": "y", "WYNN": "w",
    "SCHWA": "e", "OPEN O": "o", "OPEN E": "e", "REVERSED E": "e", "GAMMA": "g", "IOTA": "i",
    "UPSILON": "u", "ALPHA": "a", "TURNED DELTA": "d", "AFRICAN D": "d", "TONE TWO": "", "TONE FIVE": "",
    "TONE SIX": "", "GLOTTAL STOP": "", "INVERTED GLOTTAL STOP": "", "DENTAL CLICK": "",
    "LATERAL CLICK": "", "ALVEOLAR CLICK": "", "RETROFLEX CLICK": "", "TWO WITH STROKE": "",
    "EZH REVERSED": "z", "YR": "r", "TURNED M": "m", "DOTLESS J": "j", "TC DIGRAPH": "tc",
    "LS DIGRAPH": "ls", "LZ DIGRAPH": "lz", "N PRECEDED BY APOSTROPHE": "n", "LAMBDA WITH STROKE": "l",
    "TURNED ALPHA": "a", "REVERSED OPEN E": "e", "CLOSED REVERSED OPEN E": "e", "CLOSED OPEN E": "e",
    "RAMS HORN": "g", "HENG": "h", "LEZH": "lz", "SMALL CAPITAL OE": "oe", "CLOSED OMEGA": "o", "PHI": "f",
    "SMALL CAPITAL INVERTED R": "r", "SQUAT REVERSED ESH": "sh", "PHARYNGEAL VOICED FRICATIVE": "",
    "STRETCHED C": "c", "BILABIAL CLICK": "", "REVERSED GLOTTAL STOP WITH STROKE": "", "DZ DIGRAPH": "dz",
    "DEZH DIGRAPH": "dz", "TS DIGRAPH": "ts", "TESH DIGRAPH": "ch", "FENG DIGRAPH": "fn",
    "BILABIAL PERCUSSIVE": "", "BIDENTAL PERCUSSIVE": "", "PHARYNGEAL VOICELESS FRICATIVE": "",
    "REVERSED ESH LOOP": "sh", "INVERTED GLOTTAL STOP WITH STROKE": "", "HWAIR": "hv", "U BAR": "u", "SMALL Q": "q",
}
# Greek letters (and the Coptic ones of the Greek block), by the name after "LETTER" or before "SYMBOL".
GREEK = {
    "ALPHA": "a", "BETA": "v", "GAMMA": "g", "DELTA": "d", "EPSILON": "e", "ZETA": "z", "ETA": "i",
    "THETA": "th", "IOTA": "i", "KAPPA": "k", "LAMDA": "l", "MU": "m", "NU": "n", "XI": "x", "OMICRON": "o",
    "PI": "p", "RHO": "r", "SIGMA": "s", "FINAL SIGMA": "s", "TAU": "t", "UPSILON": "y", "PHI": "f",
    "CHI": "ch", "PSI": "ps", "OMEGA": "o", "DIGAMMA": "w", "PAMPHYLIAN DIGAMMA": "w", "KOPPA": "q",
    "ARCHAIC KOPPA": "q", "STIGMA": "st", "SAMPI": "ss", "ARCHAIC SAMPI": "ss", "HETA": "h", "YOT": "j",
    "SHO": "sh", "SAN": "s", "KAI": "kai", "LUNATE SIGMA": "s", "DOTTED LUNATE SIGMA": "s",
    "REVERSED LUNATE SIGMA": "s", "REVERSED DOTTED LUNATE SIGMA": "s", "LUNATE EPSILON": "e",
    "REVERSED LUNATE EPSILON": "e", "UPSILON WITH HOOK": "y", "RHO WITH STROKE": "r", "CAPITAL THETA": "th",
    "SHEI": "sh", "FEI": "f", "KHEI": "kh", "HORI": "h", "GANGIA": "j", "SHIMA": "sh", "DEI": "ti",
}
# Cyrillic letters, by the name after "LETTER" (as Russian, Ukrainian, Serbian, Kazakh … names are
# commonly written in Latin letters; the rare and historic ones by their sound).
CYRILLIC = {
    "A": "a", "BE": "b", "VE": "v", "GHE": "g", "DE": "d", "IE": "e", "ZHE": "zh", "ZE": "z", "I": "i",
    "SHORT I": "y", "KA": "k", "EL": "l", "EM": "m", "EN": "n", "O": "o", "PE": "p", "ER": "r", "ES": "s",
    "TE": "t", "U": "u", "EF": "f", "HA": "kh", "TSE": "ts", "CHE": "ch", "SHA": "sh", "SHCHA": "shch",
    "HARD SIGN": "", "YERU": "y", "SOFT SIGN": "", "E": "e", "YU": "yu", "YA": "ya", "IO": "e",
    "DJE": "dj", "GJE": "g", "UKRAINIAN IE": "ye", "DZE": "dz", "BYELORUSSIAN-UKRAINIAN I": "i", "YI": "i",
    "JE": "j", "LJE": "lj", "NJE": "nj", "TSHE": "c", "KJE": "k", "SHORT U": "u", "DZHE": "dz",
    "OMEGA": "o", "YAT": "e", "IOTIFIED E": "ye", "LITTLE YUS": "ya", "IOTIFIED LITTLE YUS": "ya",
    "BIG YUS": "u", "IOTIFIED BIG YUS": "yu", "KSI": "ks", "PSI": "ps", "FITA": "f", "IZHITSA": "i",
    "UK": "u", "ROUND OMEGA": "o", "BROAD OMEGA": "o", "OT": "ot", "KOPPA": "k", "SEMISOFT SIGN": "",
    "EN GHE": "ng", "TE TSE": "ts", "SHHA": "h", "PALOCHKA": "", "SCHWA": "a", "BARRED O": "o",
    "STRAIGHT U": "u", "ABKHASIAN HA": "h", "ABKHASIAN CHE": "ch", "ABKHASIAN DZE": "dz",
    "KHAKASSIAN CHE": "ch", "BASHKIR KA": "k", "REVERSED ZE": "z", "IOTIFIED A": "ya", "GHE WITH UPTURN": "g",
    "ROUND OMEGA WITH TITLO": "o", "OMEGA WITH TITLO": "o", "IOTIFIED YAT": "ye", "CLOSED LITTLE YUS": "ya",
    "BLENDED YUS": "u", "IOTIFIED CLOSED LITTLE YUS": "ya", "YERU WITH BACK YER": "y", "MONOGRAPH UK": "u",
    "KOMI DE": "d", "KOMI DJE": "dj", "KOMI ZJE": "zj", "KOMI DZJE": "dzj", "KOMI LJE": "lj",
    "KOMI NJE": "nj", "KOMI SJE": "sj", "KOMI TJE": "tj", "ABKHASIAN DE": "d", "EN WITH LEFT HOOK": "n",
    "ALEUT KA": "k", "EL WITH TAIL": "l", "EN WITH TAIL": "n", "EM WITH TAIL": "m", "EL WITH HOOK": "l",
    "HA WITH HOOK": "h", "HA WITH STROKE": "h", "A IE": "ae",
}
# Modifiers in a name after " WITH " do not change the letter: "KA WITH DESCENDER" is KA.
WITH = re.compile(r" WITH .*$")


def latin(name, char):
    decomposed = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if decomposed.isascii() and decomposed.isalpha():
        return decomposed.lower()
    m = re.match(r"LATIN (?:CAPITAL |SMALL )?(?:LETTER|LIGATURE) (.+)$", name)
    if not m:
        return None
    rest = m.group(1)
    for key in (rest, WITH.sub("", rest)):
        if key in LATIN:
            return LATIN[key]
        if len(key) == 1:
            return key.lower()
        for prefix in ("TURNED ", "REVERSED ", "SMALL CAPITAL ", "BARRED ", "CLOSED ", "SCRIPT "):
            if key.startswith(prefix) and len(key) == len(prefix) + 1:
                return key[-1].lower()
    return None


def greek(name):
    m = re.match(r"(?:GREEK|COPTIC) (?:CAPITAL |SMALL )?(?:LETTER )?(.+?)(?: SYMBOL)?$", name)
    if not m:
        return None
    rest = m.group(1)
    for key in (rest, WITH.sub("", rest)):
        if key in GREEK:
            return GREEK[key]
    return None


def cyrillic(name):
    m = re.match(r"CYRILLIC (?:CAPITAL |SMALL )?(?:LETTER|LIGATURE) (.+)$", name)
    if not m:
        return None
    rest = m.group(1)
    for key in (rest, WITH.sub("", rest)):
        if key in CYRILLIC:
            return CYRILLIC[key]
    return None


def fts_folds(chars):
    """What FTS5's unicode61 tokenizer (remove_diacritics 2) makes of each letter, as the first letter of a word."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    for i, c in enumerate(chars):
        db.execute("INSERT INTO t(rowid, x) VALUES (?, ?)", (i + 1, c + "qq"))
    return {chars[doc - 1]: term[:-2] if term.endswith("qq") else None
            for doc, term in db.execute("SELECT doc, term FROM v")}


def main():
    entries, unknown = [], []
    for low, high in RANGES:
        for value in range(low, high + 1):
            char = chr(value)
            if not unicodedata.category(char).startswith("L"):
                continue
            name = unicodedata.name(char, "")
            if unicodedata.category(char) == "Lm":
                ascii_ = ""
            elif value < 0x370:
                ascii_ = latin(name, char)
            elif value < 0x400:
                ascii_ = greek(name)
            else:
                ascii_ = cyrillic(name)
            if ascii_ is None:
                unknown.append(f"U+{value:04X} {name}")
            else:
                entries.append((value, char, ascii_))
    if unknown:
        sys.exit("generate-letter-folds: no mapping for\n  " + "\n  ".join(unknown))
    fts = fts_folds([c for _, c, _ in entries])
    lines = [
        "// Generated by Tools/generate/generate-letter-folds.py from Unicode " + unicodedata.unidata_version
        + " and SQLite " + sqlite3.sqlite_version + "'s FTS5: do not edit.",
        "",
        "extension TextNormalizer {",
        "    /// For each letter of U+00C0–U+04FF: the lower-case ASCII it folds to, and whether FTS5's tokenizer",
        "    /// folds it differently (then names with it get their folded words indexed as alternatives).",
        "    static let letterFolds: [(scalar: UInt32, ascii: String, ftsDiffers: Bool)] = [",
    ]
    for value, char, ascii_ in entries:
        differs = "true" if fts.get(char) != ascii_ else "false"
        lines.append(f'        (0x{value:04X}, "{ascii_}", {differs}),   // {char}')
    lines += ["    ]", "}", ""]
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(f"{OUTPUT}: {len(entries)} letters, {sum(1 for v, c, a in entries if fts.get(c) != a)} folded differently by FTS5")


if __name__ == "__main__":
    main()
