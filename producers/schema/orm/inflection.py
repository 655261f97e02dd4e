"""A port of inflection 1.13.4 (lib/inflection.js), the pluraliser Sequelize 6.37.8 uses.

Sequelize's table name is `underscoredIf(pluralize(modelName), underscored)` and its
association keys start from `singularize(modelName)`; both come from this package
(sequelize/lib/utils.js). The JavaScript semantics kept here: every rule regex is
case-insensitive and global (`replace` rewrites every match), `$` matches only at
the very end (Python `\\Z`), an unmatched group in a replacement is empty, and a word
in the uncountable list (compared lowercased) is returned unchanged. Checked against
the recorded output of the real package (oracle/orm-naming/recorded.json).
"""

from __future__ import annotations

import re

UNCOUNTABLE = frozenset(
    [
        "accommodation",
        "adulthood",
        "advertising",
        "advice",
        "aggression",
        "aid",
        "air",
        "aircraft",
        "alcohol",
        "anger",
        "applause",
        "arithmetic",
        "assistance",
        "athletics",
        "bacon",
        "baggage",
        "beef",
        "biology",
        "blood",
        "botany",
        "bread",
        "butter",
        "carbon",
        "cardboard",
        "cash",
        "chalk",
        "chaos",
        "chess",
        "crossroads",
        "countryside",
        "dancing",
        "deer",
        "dignity",
        "dirt",
        "dust",
        "economics",
        "education",
        "electricity",
        "engineering",
        "enjoyment",
        "envy",
        "equipment",
        "ethics",
        "evidence",
        "evolution",
        "fame",
        "fiction",
        "flour",
        "flu",
        "food",
        "fuel",
        "fun",
        "furniture",
        "gallows",
        "garbage",
        "garlic",
        "genetics",
        "gold",
        "golf",
        "gossip",
        "gratitude",
        "grief",
        "guilt",
        "gymnastics",
        "happiness",
        "hardware",
        "harm",
        "hate",
        "hatred",
        "health",
        "heat",
        "help",
        "homework",
        "honesty",
        "honey",
        "hospitality",
        "housework",
        "humour",
        "hunger",
        "hydrogen",
        "ice",
        "importance",
        "inflation",
        "information",
        "innocence",
        "iron",
        "irony",
        "jam",
        "jewelry",
        "judo",
        "karate",
        "knowledge",
        "lack",
        "laughter",
        "lava",
        "leather",
        "leisure",
        "lightning",
        "linguine",
        "linguini",
        "linguistics",
        "literature",
        "litter",
        "livestock",
        "logic",
        "loneliness",
        "luck",
        "luggage",
        "macaroni",
        "machinery",
        "magic",
        "management",
        "mankind",
        "marble",
        "mathematics",
        "mayonnaise",
        "measles",
        "methane",
        "milk",
        "minus",
        "money",
        "mud",
        "music",
        "mumps",
        "nature",
        "news",
        "nitrogen",
        "nonsense",
        "nurture",
        "nutrition",
        "obedience",
        "obesity",
        "oxygen",
        "pasta",
        "patience",
        "physics",
        "poetry",
        "pollution",
        "poverty",
        "pride",
        "psychology",
        "publicity",
        "punctuation",
        "quartz",
        "racism",
        "relaxation",
        "reliability",
        "research",
        "respect",
        "revenge",
        "rice",
        "rubbish",
        "rum",
        "safety",
        "scenery",
        "seafood",
        "seaside",
        "series",
        "shame",
        "sheep",
        "shopping",
        "sleep",
        "smoke",
        "smoking",
        "snow",
        "soap",
        "software",
        "soil",
        "spaghetti",
        "species",
        "steam",
        "stuff",
        "stupidity",
        "sunshine",
        "symmetry",
        "tennis",
        "thirst",
        "thunder",
        "timber",
        "traffic",
        "transportation",
        "trust",
        "underwear",
        "unemployment",
        "unity",
        "validity",
        "veal",
        "vegetation",
        "vegetarianism",
        "vengeance",
        "violence",
        "vitality",
        "warmth",
        "wealth",
        "weather",
        "welfare",
        "wheat",
        "wildlife",
        "wisdom",
        "yoga",
        "zinc",
        "zoology",
    ]
)


def _rx(source: str) -> re.Pattern[str]:
    # JavaScript `$` without the m flag is the end of the input only.
    return re.compile(source.replace("$", r"\Z"), re.IGNORECASE)


_PLURAL = {
    "men": _rx("^(m|wom)en$"),
    "people": _rx("(pe)ople$"),
    "children": _rx("(child)ren$"),
    "tia": _rx("([ti])a$"),
    "analyses": _rx("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)ses$"),
    "databases": _rx("(database)s$"),
    "drives": _rx("(drive)s$"),
    "hives": _rx("(hi|ti)ves$"),
    "curves": _rx("(curve)s$"),
    "lrves": _rx("([lr])ves$"),
    "aves": _rx("([a])ves$"),
    "foves": _rx("([^fo])ves$"),
    "movies": _rx("(m)ovies$"),
    "aeiouyies": _rx("([^aeiouy]|qu)ies$"),
    "series": _rx("(s)eries$"),
    "xes": _rx("(x|ch|ss|sh)es$"),
    "mice": _rx("([m|l])ice$"),
    "buses": _rx("(bus)es$"),
    "oes": _rx("(o)es$"),
    "shoes": _rx("(shoe)s$"),
    "crises": _rx("(cris|ax|test)es$"),
    "octopuses": _rx("(octop|vir)uses$"),
    "aliases": _rx("(alias|canvas|status|campus)es$"),
    "summonses": _rx("^(summons|bonus)es$"),
    "oxen": _rx("^(ox)en"),
    "matrices": _rx("(matr)ices$"),
    "vertices": _rx("(vert|ind)ices$"),
    "feet": _rx("^feet$"),
    "teeth": _rx("^teeth$"),
    "geese": _rx("^geese$"),
    "quizzes": _rx("(quiz)zes$"),
    "whereases": _rx("^(whereas)es$"),
    "criteria": _rx("^(criteri)a$"),
    "genera": _rx("^genera$"),
    "ss": _rx("ss$"),
    "s": _rx("s$"),
}
_SINGULAR = {
    "man": _rx("^(m|wom)an$"),
    "person": _rx("(pe)rson$"),
    "child": _rx("(child)$"),
    "drive": _rx("(drive)$"),
    "ox": _rx("^(ox)$"),
    "axis": _rx("(ax|test)is$"),
    "octopus": _rx("(octop|vir)us$"),
    "alias": _rx("(alias|status|canvas|campus)$"),
    "summons": _rx("^(summons|bonus)$"),
    "bus": _rx("(bu)s$"),
    "buffalo": _rx("(buffal|tomat|potat)o$"),
    "tium": _rx("([ti])um$"),
    "sis": _rx("sis$"),
    "ffe": _rx("(?:([^f])fe|([lr])f)$"),
    "hive": _rx("(hi|ti)ve$"),
    "aeiouyy": _rx("([^aeiouy]|qu)y$"),
    "x": _rx("(x|ch|ss|sh)$"),
    "matrix": _rx("(matr)ix$"),
    "vertex": _rx("(vert|ind)ex$"),
    "mouse": _rx("([m|l])ouse$"),
    "foot": _rx("^foot$"),
    "tooth": _rx("^tooth$"),
    "goose": _rx("^goose$"),
    "quiz": _rx("(quiz)$"),
    "whereas": _rx("^(whereas)$"),
    "criterion": _rx("^(criteri)on$"),
    "genus": _rx("^genus$"),
    "s": _rx("s$"),
    "common": _rx("$"),
}

Rule = tuple[re.Pattern[str], str | None]


def _rules(
    plain: str,
    pairs: list[tuple[str, str]],
    plurals: dict[str, re.Pattern[str]],
    singulars: dict[str, re.Pattern[str]],
) -> list[Rule]:
    found: list[Rule] = []
    for name in plain.split():
        table, key = name.split(":")
        found.append(((plurals if table == "p" else singulars)[key], None))
    for name, replacement in pairs:
        table, key = name.split(":")
        found.append(((plurals if table == "p" else singulars)[key], replacement))
    return found


# The rule lists in the package's order: a pattern without replacement stops the search
# and keeps the word (it is already in the target number).
PLURAL_RULES = _rules(
    "p:men p:people p:children p:tia p:analyses p:databases p:drives p:hives p:curves "
    "p:lrves p:foves p:aeiouyies p:series p:movies p:xes p:mice p:buses p:oes p:shoes "
    "p:crises p:octopuses p:aliases p:summonses p:oxen p:matrices p:feet p:teeth p:geese "
    "p:quizzes p:whereases p:criteria p:genera",
    [
        ("s:man", "$1en"),
        ("s:person", "$1ople"),
        ("s:child", "$1ren"),
        ("s:drive", "$1s"),
        ("s:ox", "$1en"),
        ("s:axis", "$1es"),
        ("s:octopus", "$1uses"),
        ("s:alias", "$1es"),
        ("s:summons", "$1es"),
        ("s:bus", "$1ses"),
        ("s:buffalo", "$1oes"),
        ("s:tium", "$1a"),
        ("s:sis", "ses"),
        ("s:ffe", "$1$2ves"),
        ("s:hive", "$1ves"),
        ("s:aeiouyy", "$1ies"),
        ("s:matrix", "$1ices"),
        ("s:vertex", "$1ices"),
        ("s:x", "$1es"),
        ("s:mouse", "$1ice"),
        ("s:foot", "feet"),
        ("s:tooth", "teeth"),
        ("s:goose", "geese"),
        ("s:quiz", "$1zes"),
        ("s:whereas", "$1es"),
        ("s:criterion", "$1a"),
        ("s:genus", "genera"),
        ("s:s", "s"),
        ("s:common", "s"),
    ],
    _PLURAL,
    _SINGULAR,
)
SINGULAR_RULES = _rules(
    "s:man s:person s:child s:drive s:ox s:axis s:octopus s:alias s:summons s:bus "
    "s:buffalo s:tium s:sis s:ffe s:hive s:aeiouyy s:x s:matrix s:mouse s:foot "
    "s:tooth s:goose s:quiz s:whereas s:criterion s:genus",
    [
        ("p:men", "$1an"),
        ("p:people", "$1rson"),
        ("p:children", "$1"),
        ("p:databases", "$1"),
        ("p:drives", "$1"),
        ("p:genera", "genus"),
        ("p:criteria", "$1on"),
        ("p:tia", "$1um"),
        ("p:analyses", "$1$2sis"),
        ("p:hives", "$1ve"),
        ("p:curves", "$1"),
        ("p:lrves", "$1f"),
        ("p:aves", "$1ve"),
        ("p:foves", "$1fe"),
        ("p:movies", "$1ovie"),
        ("p:aeiouyies", "$1y"),
        ("p:series", "$1eries"),
        ("p:xes", "$1"),
        ("p:mice", "$1ouse"),
        ("p:buses", "$1"),
        ("p:oes", "$1"),
        ("p:shoes", "$1"),
        ("p:crises", "$1is"),
        ("p:octopuses", "$1us"),
        ("p:aliases", "$1"),
        ("p:summonses", "$1"),
        ("p:oxen", "$1"),
        ("p:matrices", "$1ix"),
        ("p:vertices", "$1ex"),
        ("p:feet", "foot"),
        ("p:teeth", "tooth"),
        ("p:geese", "goose"),
        ("p:quizzes", "$1"),
        ("p:whereases", "$1"),
        ("p:ss", "ss"),
        ("p:s", ""),
    ],
    _PLURAL,
    _SINGULAR,
)
_GROUP = re.compile(r"\$(\d)")


def _js_replace(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    def expand(match: re.Match[str]) -> str:
        # JavaScript `$n` of a group that did not take part is the empty string.
        return _GROUP.sub(lambda group: match.group(int(group.group(1))) or "", replacement)

    return pattern.sub(expand, text)


def _apply(text: str, rules: list[Rule]) -> str:
    if text.lower() in UNCOUNTABLE:
        return text
    for pattern, replacement in rules:
        if pattern.search(text):
            return text if replacement is None else _js_replace(pattern, replacement, text)
    return text


def pluralize(text: str) -> str:
    return _apply(text, PLURAL_RULES)


def singularize(text: str) -> str:
    return _apply(text, SINGULAR_RULES)


_UPPERCASE = re.compile("([A-Z])")


def underscore(text: str) -> str:
    """inflection.underscore: `_` before every ASCII capital, one leading `_` dropped,
    `::` becomes `/`, lowercased."""
    parts = [_UPPERCASE.sub(r"_\1", part) for part in text.split("::")]
    return "/".join(part[1:] if part.startswith("_") else part for part in parts).lower()


def camelize(text: str) -> str:
    """sequelize/lib/utils.js camelize:
    `str.trim().replace(/[-_\\s]+(.)?/g, (match, c) => c.toUpperCase())`."""
    return re.sub(r"[-_\s]+(.)?", lambda match: (match.group(1) or "").upper(), text.strip())
